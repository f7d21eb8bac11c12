// The catalog's snapshot on another server thread: built here over the same shared columns and indexes,
// with this thread's own filter tags, decided columns, compiled hours and answer fragments, and kept in
// step by the messages the main thread's catalog sends its followers (see src/threads/).
import { loadToilets, reviveLoaded, type LoadedToilets } from './load.js';
import { NO_SOURCE, QUALITY_REFRESH_MS, Snapshot, type OverlayChange, type SnapshotHolder, type SourceInfo } from './snapshot.js';
import type { CatalogFollower } from './catalog.js';
import { collectGarbage } from '../memory.js';

export class SnapshotReplica implements CatalogFollower, SnapshotHolder {
  private current: Snapshot;
  private readonly listeners: (() => void)[] = [];
  private readonly qualityTimer: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.current = Snapshot.build(loadToilets(null), NO_SOURCE, { all: true, entries: [] }, now());
    this.qualityTimer = setInterval(() => this.current.refreshQuality(this.now()), QUALITY_REFRESH_MS);
    this.qualityTimer.unref();
  }

  get snapshot(): Snapshot {
    return this.current;
  }

  /** Called after every change of answers (a new snapshot or overlays), e.g. to drop answer caches. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  loaded(loaded: LoadedToilets, info: SourceInfo, overlays: OverlayChange): void {
    this.current = Snapshot.build(reviveLoaded(loaded), info, overlays, this.now());
    for (const listener of this.listeners) listener();
    collectGarbage(); // the previous snapshot, and with it this thread's hold on the previous shared columns
  }

  changed(overlays: OverlayChange): void {
    this.current.change(overlays, this.now());
    for (const listener of this.listeners) listener();
  }

  close(): void {
    clearInterval(this.qualityTimer);
  }
}
