// Temporary files written beside a live file before they are renamed over it (an import's new database, a
// replica's fetched copy of the published one): hundreds of MB to GB, so never left behind. Each name holds
// its process id, `${prefix}${pid}${suffix}`: making one first removes those of dead processes (killed, out
// of memory, power loss), and removeAllTemporaries() is what an interrupt handler calls.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const live = new Set<string>();
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

/** Removes every temporary file of this process not yet kept or discarded (an interrupt ends the process). */
export function removeAllTemporaries(): void {
  for (const path of live) rmSync(path, REMOVE);
  live.clear();
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}
