// Owns the snapshot the read path answers from, and replaces it when the source database changes: the
// file is watched (an import renames a new file over it) and SIGHUP forces a reload. A new snapshot is
// built completely beside the current one and swapped in one assignment; a failed reload keeps serving
// the old data and logs why. Overlay changes of single toilets (contributions, moderation) are applied to
// the snapshot in use, in place; approved community toilets need a new snapshot (their rows join the
// static spatial indexes), so approving one reloads.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { missingPartsNote } from './source-parts.js';
import { coverageOf, missingParts, openSourceDatabase, placesOf, readMeta } from '../source/schema.js';
import { loadToilets, type LoadedToilets } from './load.js';
import { NO_SOURCE, QUALITY_REFRESH_MS, Snapshot, type OverlayChange, type SourceInfo } from './snapshot.js';
import type { OverlaySource } from './overlay.js';
import type { Logger } from '../log.js';
import { collectGarbage } from '../memory.js';
import { fileStamp, ReplacedFileWatch } from '../storage/replaced-file.js';
/** Told of every new snapshot and overlay change, to build the same snapshot elsewhere (another server thread). */
export interface CatalogFollower {
  loaded(loaded: LoadedToilets, info: SourceInfo, overlays: OverlayChange): void;
  changed(overlays: OverlayChange): void;
}


export interface LoadReport {
  toilets: number;
  loadMs: number;
  dataAsOf: string | null;
}

export class ToiletCatalog {
  private snapshotInUse: Snapshot;
  private watcher: ReplacedFileWatch | null = null;
  private qualityTimer: NodeJS.Timeout | null = null;
  private fileStamp = '';
  private readonly listeners: (() => void)[] = [];
  private readonly overlayListeners: ((change: OverlayChange) => void)[] = [];
  private readonly followers: CatalogFollower[] = [];

  constructor(
    private readonly dbPath: string,
    private readonly overlays: OverlaySource,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.dbPath = resolve(dbPath);
    this.snapshotInUse = Snapshot.build(loadToilets(null), NO_SOURCE, { all: true, entries: [] }, now());
  }

  get snapshot(): Snapshot {
    return this.snapshotInUse;
  }

  /** Called after every swap (e.g. to drop answer caches). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * Called after overlays changed in place (refreshOverlays), with the change (the toilets it re-read, by
   * current id, or all): answers changed, the set of toilets did not.
   */
  onOverlayChange(listener: (change: OverlayChange) => void): void {
    this.overlayListeners.push(listener);
  }

  /** Tells `follower` of the snapshot in use now and of every change from now on. */
  follow(follower: CatalogFollower): void {
    this.followers.push(follower);
    const { loaded, info, overlays } = this.current();
    follower.loaded(loaded, info, overlays);
  }

  /** What a follower needs to build the snapshot in use now. */
  current(): { loaded: LoadedToilets; info: SourceInfo; overlays: OverlayChange } {
    const snapshot = this.snapshotInUse;
    return { loaded: snapshot.loaded, info: snapshot.info, overlays: snapshot.overlaysNow(this.overlays, null) };
  }

  /**
   * Loads the source database and the community toilets now; with no database the snapshot holds only
   * community toilets. Throws on a broken file.
   */
  load(): LoadReport {
    const started = performance.now();
    const community = this.overlays.communityToilets();
    let loaded: LoadedToilets;
    let info = NO_SOURCE;
    let stamp = '';
    if (!existsSync(this.dbPath)) {
      loaded = loadToilets(null, community);
    } else {
      stamp = fileStamp(this.dbPath);
      const db = openSourceDatabase(this.dbPath);
      try {
        const meta = readMeta(db);
        loaded = loadToilets(db, community);
        const missing = missingParts(meta);
        if (loaded.source.details === null && !missing.includes('details')) {
          throw new Error('the source database is damaged (its details are missing): run `npm run import` again');
        }
        info = {
          dataAsOf: meta.replication_timestamp ?? null,
          importedAt: meta.imported_at ?? null,
          sourceFile: meta.source_file ?? null,
          coverage: coverageOf(meta),
          demo: meta.demo === 'true',
          places: placesOf(meta),
          missing,
        };
      } finally {
        db.close();
      }
    }
    const next = new Snapshot(loaded, info);
    const overlays = next.overlaysNow(this.overlays, null);
    // The other threads (following since before the first load) build their snapshots of the new data
    // while this one builds its own; what could be refused (a damaged file) was refused by loadToilets.
    for (const follower of this.followers) follower.loaded(loaded, info, overlays);
    next.change(overlays, this.now());
    this.snapshotInUse = next;
    this.fileStamp = stamp;
    for (const listener of this.listeners) listener();
    collectGarbage();
    return { toilets: next.table.count, loadMs: Math.round(performance.now() - started), dataAsOf: next.info.dataAsOf };
  }

  /**
   * Re-reads the overlays of these toilets (any id they had; null: every toilet) and applies them to the
   * snapshot in use at once, so the next answer shows them.
   */
  refreshOverlays(ids: Iterable<string> | null): void {
    const overlays = this.snapshotInUse.overlaysNow(this.overlays, ids);
    this.snapshotInUse.change(overlays, this.now());
    for (const follower of this.followers) follower.changed(overlays);
    for (const listener of this.overlayListeners) listener(overlays);
  }

  /**
   * Reloads unless the file is unchanged; logs the outcome instead of throwing. A file that has gone since
   * the data in use was loaded from it keeps that data: an import only ever renames a new file into place,
   * so a missing one was deleted or moved by hand, and serving nothing until someone notices is worse.
   */
  reload(reason: string): void {
    const present = existsSync(this.dbPath);
    if (!present && this.fileStamp !== '') {
      this.log.error('the source database is gone; still serving the previous data until an import writes a new one', { reason, path: this.dbPath });
      return;
    }
    if (present && fileStamp(this.dbPath) === this.fileStamp && reason !== 'SIGHUP') return;
    try {
      const report = this.load();
      this.log.info('source reloaded', { reason, ...report });
      const note = missingPartsNote(this.snapshotInUse.info.missing);
      if (note !== null) this.log.info(note, { missing: this.snapshotInUse.info.missing });
    } catch (error) {
      this.log.error('source reload failed; still serving the previous data', { reason, error: (error as Error).message });
    }
  }

  /** Watches the database file's folder (an import replaces the file, so the file itself can't be watched). */
  watch(): void {
    this.watcher = new ReplacedFileWatch(this.dbPath, () => this.reload('file changed'));
    this.qualityTimer = setInterval(() => this.snapshotInUse.refreshQuality(this.now()), QUALITY_REFRESH_MS);
    this.qualityTimer.unref();
  }

  close(): void {
    this.watcher?.close();
    if (this.qualityTimer) clearInterval(this.qualityTimer);
  }
}
