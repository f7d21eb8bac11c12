// Owns the snapshot the read path answers from, and replaces it when the source database changes: the
// file is watched (an import renames a new file over it) and SIGHUP forces a reload. A new snapshot is
// built completely beside the current one and swapped in one assignment; a failed reload keeps serving
// the old data and logs why. Overlay changes of single toilets (contributions, moderation) are applied to
// the snapshot in use, in place; approved community toilets need a new snapshot (their rows join the
// static spatial indexes), so approving one reloads.
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { openSourceDatabase, readMeta } from '../source/schema.js';
import { loadToilets } from './load.js';
import { Snapshot } from './snapshot.js';
import type { OverlaySource } from './overlay.js';
import type { Logger } from '../log.js';

/** An import renames once, but editors and copies write in bursts: wait for quiet before reloading. */
const RELOAD_SETTLE_MS = 250;
/** verification_state and confidence depend on today's date. */
const QUALITY_REFRESH_MS = 3600_000;

export interface LoadReport {
  toilets: number;
  loadMs: number;
  dataAsOf: string | null;
}

export class ToiletCatalog {
  private snapshotInUse: Snapshot;
  private watcher: FSWatcher | null = null;
  private settleTimer: NodeJS.Timeout | null = null;
  private qualityTimer: NodeJS.Timeout | null = null;
  private fileStamp = '';
  private readonly listeners: (() => void)[] = [];
  private readonly overlayListeners: (() => void)[] = [];

  constructor(
    private readonly dbPath: string,
    private readonly overlays: OverlaySource,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.dbPath = resolve(dbPath);
    this.snapshotInUse = Snapshot.build(loadToilets(null), { dataAsOf: null, importedAt: null, sourceFile: null }, overlays, now());
  }

  get snapshot(): Snapshot {
    return this.snapshotInUse;
  }

  /** Called after every swap (e.g. to drop answer caches). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Called after overlays changed in place (refreshOverlays): answers changed, the set of toilets did not. */
  onOverlayChange(listener: () => void): void {
    this.overlayListeners.push(listener);
  }

  /**
   * Loads the source database and the community toilets now; with no database the snapshot holds only
   * community toilets. Throws on a broken file.
   */
  load(): LoadReport {
    const started = performance.now();
    const community = this.overlays.communityToilets();
    let next: Snapshot;
    let stamp = '';
    if (!existsSync(this.dbPath)) {
      next = Snapshot.build(loadToilets(null, community), { dataAsOf: null, importedAt: null, sourceFile: null }, this.overlays, this.now());
    } else {
      stamp = this.stampOf();
      const db = openSourceDatabase(this.dbPath);
      try {
        const meta = readMeta(db);
        const loaded = loadToilets(db, community);
        next = Snapshot.build(loaded, { dataAsOf: meta.replication_timestamp ?? null, importedAt: meta.imported_at ?? null, sourceFile: meta.source_file ?? null }, this.overlays, this.now());
      } finally {
        db.close();
      }
    }
    this.snapshotInUse = next;
    this.fileStamp = stamp;
    for (const listener of this.listeners) listener();
    return { toilets: next.table.count, loadMs: Math.round(performance.now() - started), dataAsOf: next.info.dataAsOf };
  }

  /**
   * Re-reads the overlays of these toilets (any id they had; null: every toilet) and applies them to the
   * snapshot in use at once, so the next answer shows them.
   */
  refreshOverlays(ids: Iterable<string> | null): void {
    this.snapshotInUse.refreshOverlays(this.overlays, ids, this.now());
    for (const listener of this.overlayListeners) listener();
  }

  /** Reloads unless the file is unchanged; logs the outcome instead of throwing. */
  reload(reason: string): void {
    if (existsSync(this.dbPath) && this.stampOf() === this.fileStamp && reason !== 'SIGHUP') return;
    try {
      const report = this.load();
      this.log.info('source reloaded', { reason, ...report });
    } catch (error) {
      this.log.error('source reload failed; still serving the previous data', { reason, error: (error as Error).message });
    }
  }

  /** Watches the database file's folder (an import replaces the file, so the file itself can't be watched). */
  watch(): void {
    const name = basename(this.dbPath);
    this.watcher = watch(dirname(this.dbPath), (_event, file) => {
      if (file !== name) return;
      if (this.settleTimer) clearTimeout(this.settleTimer);
      this.settleTimer = setTimeout(() => this.reload('file changed'), RELOAD_SETTLE_MS);
    });
    this.qualityTimer = setInterval(() => this.snapshotInUse.refreshQuality(this.now()), QUALITY_REFRESH_MS);
    this.qualityTimer.unref();
  }

  close(): void {
    this.watcher?.close();
    if (this.settleTimer) clearTimeout(this.settleTimer);
    if (this.qualityTimer) clearInterval(this.qualityTimer);
  }

  private stampOf(): string {
    const s = statSync(this.dbPath, { bigint: true });
    return `${s.ino}:${s.mtimeNs}:${s.size}`;
  }
}
