// Files an import writes beside the live database before it is done (the new database, a downloaded
// extract, the tiles file and tilemaker's store folder; hundreds of MB to GB): removed when the import ends
// either way, when the process is interrupted (SIGINT, SIGTERM), and, when a process died without the chance
// (killed, out of memory, power loss), by the next import in the same folder (the naming and that sweep are
// src/storage/temporaries.ts, which the server's source fetch shares). A helper program writing one of them (tilemaker) is stopped on an
// interrupt too, so it does not go on writing into a removed file.
import type { ChildProcess } from 'node:child_process';
import { removeAllTemporaries } from '../src/storage/temporaries.js';

export { discardTemporary, keepTemporary, temporaryFile } from '../src/storage/temporaries.js';

const helpers = new Set<ChildProcess>();

/** A helper process that writes temporaries: killed on an interrupt, until it has exited. */
export function stopOnInterrupt(child: ChildProcess): void {
  helpers.add(child);
  child.once('exit', () => helpers.delete(child));
}

const EXIT_ON: Record<'SIGINT' | 'SIGTERM', number> = { SIGINT: 130, SIGTERM: 143 };

/**
 * Until the returned function is called, SIGINT and SIGTERM remove this process's temporary files, say so on
 * stderr and end the process with 128 + the signal's number, as the signal itself would have. The live
 * database is untouched: it is only ever replaced by a rename.
 */
export function removeTemporariesOnInterrupt(): () => void {
  const handlers = Object.entries(EXIT_ON).map(([signal, code]) => {
    const handler = () => {
      for (const child of helpers) child.kill('SIGKILL');
      removeAllTemporaries();
      process.stderr.write(`import: interrupted (${signal}); its unfinished files are removed\n`);
      process.exit(code);
    };
    process.once(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}
