// Files an import writes beside the live database before it is done (the new database, a downloaded
// extract, the tiles file and tilemaker's store folder; hundreds of MB to GB): removed when the import ends
// either way, when the process is interrupted (SIGINT, SIGTERM), and, when a process died without the chance
// (killed, out of memory, power loss), by the next import in the same folder. Each name holds its process
// id: `${prefix}${pid}${suffix}`. A helper program writing one of them (tilemaker) is stopped on an
// interrupt too, so it does not go on writing into a removed file.
import { readdirSync, rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const live = new Set<string>();
const helpers = new Set<ChildProcess>();
/** Files and folders alike (tilemaker's store is a folder); names are ours, so recursion is safe. */
const REMOVE = { force: true, recursive: true } as const;

/** This process's temporary file `${prefix}${pid}${suffix}` in `dir`, after removing those of dead processes. */
export function temporaryFile(dir: string, prefix: string, suffix: string): string {
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix) || !name.endsWith(suffix)) continue;
    const pid = name.slice(prefix.length, name.length - suffix.length);
    if (/^\d+$/.test(pid) && !isRunning(Number(pid))) rmSync(join(dir, name), REMOVE);
  }
  const path = join(dir, `${prefix}${process.pid}${suffix}`);
  rmSync(path, REMOVE);
  live.add(path);
  return path;
}

/** Removes a temporary file (gone already is fine). */
export function discardTemporary(path: string): void {
  rmSync(path, REMOVE);
  live.delete(path);
}

/** A temporary file that has been renamed into place: no longer this module's to remove. */
export function keepTemporary(path: string): void {
  live.delete(path);
}

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
      for (const path of live) rmSync(path, REMOVE);
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

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}
