// What the source-fetch tests share: versions of a real imported source database that differ as the test
// needs (another import time, a newer layout), a small MBTiles file, read as the bytes a publisher serves, and a scheduler that
// records the checks a RemoteFile asks for instead of running them on the wall clock.
import { copyFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import type { Timers } from '../../src/source-fetch/remote-file.js';

/** The bytes of a copy of `db` whose meta has `changes` (e.g. another imported_at). */
export function variantOf(db: string, dir: string, name: string, changes: Record<string, string>): Buffer {
  const path = join(dir, name);
  copyFileSync(db, path);
  const sql = new Database(path);
  for (const [key, value] of Object.entries(changes)) sql.prepare('UPDATE meta SET value = ? WHERE key = ?').run(value, key);
  sql.close();
  return readFileSync(path);
}

/** Files in `dir` a fetch left behind (its temporaries are `.<name>.<pid>.fetching`). */
export function fetchLeftovers(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.fetching'));
}

/** Records what is scheduled; nothing runs unless the test says so. */
export class ManualTimers implements Timers {
  readonly delays: number[] = [];
  private pending = new Map<number, () => void>();
  private next = 1;

  set(run: () => void, ms: number): unknown {
    this.delays.push(ms);
    const handle = this.next++;
    this.pending.set(handle, run);
    return handle;
  }

  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Checks scheduled and not yet run or cleared. */
  get waiting(): number {
    return this.pending.size;
  }
}

/** The bytes of a minimal MBTiles file with one tile at 0/0/0, of `format` (pbf: vector tiles the server serves). */
export function mbtilesFile(dir: string, name: string, format: string, description: string): Buffer {
  const path = join(dir, name);
  const sql = new Database(path);
  sql.exec('CREATE TABLE metadata (name TEXT, value TEXT); CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)');
  const meta = sql.prepare('INSERT INTO metadata VALUES (?, ?)');
  for (const [key, value] of Object.entries({ format, description, minzoom: '0', maxzoom: '0', json: '{"vector_layers":[]}' })) meta.run(key, value);
  sql.prepare('INSERT INTO tiles VALUES (0, 0, 0, ?)').run(gzipSync(Buffer.from(description)));
  sql.close();
  return readFileSync(path);
}
