// The replica side of a cluster (docs/SCALING.md): with TOILETS_DB_URL and/or TILES_DB_URL set, this
// process imports nothing; it keeps TOILETS_DB and TILES_DB in step with the files one import job publishes,
// each through a RemoteFile, and reloads them as after a local import. It also says what /status, /readyz
// and the metrics show of them.
import type { Logger } from '../log.js';
import type { SourceFetchConfig } from './config.js';
import { checkSourceDatabase, checkTilesFile } from './checks.js';
import { PublishedLocation } from './location.js';
import type { FetchCounts } from '../observe/metrics.js';
import { RemoteFile, type RemoteFileStatus, type Timers } from './remote-file.js';

/** /status `source_fetch`: each published file this replica follows, null for one it does not. */
export interface SourceFetchStatus {
  toilets: RemoteFileStatus | null;
  tiles: RemoteFileStatus | null;
}

export interface SourceFetchDeps {
  /** TOILETS_DB and TILES_DB: the local copies. */
  toiletsDb: string;
  tilesDb: string;
  reloadToilets(reason: string): void;
  reloadTiles(reason: string): void;
  log: Logger;
  now: () => number;
  timers?: Timers;
}

export class SourceFetch {
  readonly toilets: RemoteFile | null;
  readonly tiles: RemoteFile | null;

  constructor(config: SourceFetchConfig, deps: SourceFetchDeps) {
    const follow = (url: string | null, what: string, setting: string, localPath: string, check: (path: string) => void, installed: (reason: string) => void) =>
      url === null
        ? null
        : new RemoteFile({
            what, setting, localPath, check, installed,
            location: PublishedLocation.of(url),
            limits: { timeoutMs: config.timeoutMs, maxBytes: config.maxBytes },
            intervalMs: config.pollSeconds * 1000,
            log: deps.log,
            now: deps.now,
            timers: deps.timers,
          });
    this.toilets = follow(config.toiletsUrl, 'the source database', 'TOILETS_DB_URL', deps.toiletsDb, checkSourceDatabase, deps.reloadToilets);
    this.tiles = follow(config.tilesUrl, 'the tiles file', 'TILES_DB_URL', deps.tilesDb, checkTilesFile, deps.reloadTiles);
  }

  private get files(): RemoteFile[] {
    return [this.toilets, this.tiles].filter((file) => file !== null);
  }

  start(): void {
    for (const file of this.files) file.start();
  }

  /** Checks every published file now (SIGHUP); resolves when the checks have ended. */
  async checkNow(): Promise<void> {
    await Promise.all(this.files.map((file) => file.checkNow()));
  }

  status(): SourceFetchStatus {
    return { toilets: this.toilets?.status() ?? null, tiles: this.tiles?.status() ?? null };
  }

  /** For the metrics: each followed file's counts, by the name of its label. */
  figures(): { file: string; counts: FetchCounts }[] {
    return [
      ...(this.toilets ? [{ file: 'toilets', counts: this.toilets.figures() }] : []),
      ...(this.tiles ? [{ file: 'tiles', counts: this.tiles.figures() }] : []),
    ];
  }

  /** /readyz while no toilet data is loaded: why, when it is to come from TOILETS_DB_URL; else null. */
  waitingReason(): string | null {
    if (this.toilets === null) return null;
    const { host, last_error } = this.toilets.status();
    return last_error === null
      ? `No toilet data is loaded yet: waiting for the first fetch of the source database from TOILETS_DB_URL (${host}).`
      : `No toilet data is loaded yet: fetching the source database from TOILETS_DB_URL (${host}) failed: ${last_error}. It is tried again; check that the import job has published it.`;
  }

  async close(): Promise<void> {
    await Promise.all(this.files.map((file) => file.close()));
  }
}
