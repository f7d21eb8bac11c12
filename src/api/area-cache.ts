// Area answers kept for up to AREA_CACHE_SECONDS (the spec allows 5 minutes), so map clients panning
// over the same boxes cost one search. Keyed by the query string as sent: the same query always parses
// to the same parameters, and a key needs no number turned into text (four of those cost as much as
// a fifth of the search). Dropped as a whole whenever the source or overlay data changes, so every write
// shows in the next read. An entry keeps the counter numbers of the Plus listings its answer shows, so a
// cached answer counts them as shown each time it is served (reads.ts, ListingCounters). It keeps the
// answer's gzip form too: the one made with the answer when its first client asked for gzip, else one
// made at the first gzip request that hits it.
import { compressNow } from '../http/encoding.js';

/** Bounded so a crawler walking many boxes can't grow memory: oldest entries go first. */
const MAX_ENTRIES = 10_000;

export interface AreaCacheEntry {
  json: Buffer;
  /** The counter numbers of the partner listings the answer shows (Reads.countedByLastArea). */
  counted: Int32Array;
  /** The answer in gzip, once a client has asked for it. */
  gzip: Buffer | null;
  expires: number;
}

export class AreaCache {
  private entries = new Map<string, AreaCacheEntry>();

  constructor(readonly ttlMs: number) {}

  get(key: string, nowMs: number): AreaCacheEntry | null {
    const hit = this.entries.get(key);
    if (!hit) return null;
    if (hit.expires > nowMs) return hit;
    this.entries.delete(key);
    return null;
  }

  /** Keeps an answer (and its gzip form, when made with it): copies, as reads reuse their buffers. */
  set(key: string, json: Buffer, counted: Int32Array, nowMs: number, gzip: Buffer | null = null): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { json: Buffer.from(json), counted, gzip: gzip === null ? null : Buffer.from(gzip), expires: nowMs + this.ttlMs });
  }

  /** The gzip form of a kept answer, made once. */
  gzipOf(entry: AreaCacheEntry): Buffer {
    return (entry.gzip ??= compressNow(entry.json));
  }

  clear(): void {
    this.entries = new Map();
  }
}
