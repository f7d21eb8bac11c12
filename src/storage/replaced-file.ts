// Watching a file that another program replaces by renaming a new one over it (the import does this with
// the source database and the tiles file). The file itself cannot be watched, as a rename gives it a new
// inode, so its folder is; editors and copies write in bursts, so the change is reported once things are
// quiet. A stamp (inode, modification time, size) tells a real replacement from an unrelated event.
import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/** An import renames once, but editors and copies write in bursts: wait for quiet before reporting. */
const SETTLE_MS = 250;

/** Identifies one version of a file: inode, modification time and size; '' when there is no file. */
export function fileStamp(path: string): string {
  const s = statSync(path, { bigint: true, throwIfNoEntry: false });
  return s === undefined ? '' : `${s.ino}:${s.mtimeNs}:${s.size}`;
}

export class ReplacedFileWatch {
  private readonly watcher: FSWatcher;
  private settleTimer: NodeJS.Timeout | null = null;

  /** Calls `changed` once the file named by `path` has been written, replaced or removed, and things are quiet. */
  constructor(path: string, changed: () => void) {
    const name = basename(path);
    this.watcher = watch(dirname(path), (_event, file) => {
      if (file !== name) return;
      if (this.settleTimer) clearTimeout(this.settleTimer);
      this.settleTimer = setTimeout(changed, SETTLE_MS);
    });
  }

  close(): void {
    this.watcher.close();
    if (this.settleTimer) clearTimeout(this.settleTimer);
  }
}
