// Id moves: when a mapper redraws a toilet (node <-> outline) its id changes, and overlay rows follow it
// through the source table id_moves. Run on the database thread (one request, plain synchronous calls)
// inside the import's transaction, before the column store, so that it runs beside the main thread's
// places instead of at the end of the import.
import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
import KDBush from 'kdbush';
import { distanceMeters } from '../src/geo/sphere.js';

/** A vanished toilet reappearing this close with the same kind was redrawn, not removed (doc §1). */
const REDRAWN_WITHIN_M = 25;

type Spot = { id: string; kind: string; lat: number; lon: number };

/**
 * Copies the live database's id moves forward and records new ones: a toilet id that vanished while a new
 * id of the same kind appeared within 25 m is the same toilet, redrawn. Returns the number of moves. The
 * live database stays attached as `live` until the connection closes: SQLite cannot detach a database
 * inside a transaction.
 */
export function carryIdMoves(db: Database.Database, livePath: string, movedAt: string): number {
  if (existsSync(livePath)) {
    db.prepare('ATTACH DATABASE ? AS live').run(livePath);
    const liveHasToilets = db.prepare(`SELECT 1 FROM live.sqlite_master WHERE type = 'table' AND name = 'toilets'`).get();
    if (liveHasToilets) {
      db.exec(`INSERT INTO id_moves (old_id, new_id, moved_at) SELECT old_id, new_id, moved_at FROM live.id_moves
               WHERE old_id NOT IN (SELECT id FROM main.toilets)`);
      // EXCEPT with ORDER BY merges the two id indexes, read in order (~0.15 s at a million toilets, where
      // looking each live id up in the new index took ~0.35 s). In id order, so that which of several
      // candidates a move goes to does not depend on the write order.
      const onlyIn = (schema: string, other: string) =>
        db.prepare(`SELECT id FROM ${schema}.toilets EXCEPT SELECT id FROM ${other}.toilets ORDER BY 1`).pluck().all() as string[];
      const vanished = onlyIn('live', 'main');
      if (vanished.length > 0) {
        const spots = (schema: string, ids: string[]) => {
          const spot = db.prepare(`SELECT id, kind, lat, lon FROM ${schema}.toilets WHERE id = ?`);
          return ids.map((id) => spot.get(id) as Spot);
        };
        const moves = matchRedrawn(spots('live', vanished), spots('main', onlyIn('main', 'live')));
        const follow = db.prepare('UPDATE id_moves SET new_id = ? WHERE new_id = ?');
        const record = db.prepare('INSERT OR REPLACE INTO id_moves (old_id, new_id, moved_at) VALUES (?, ?, ?)');
        // Follow-ups only touch moves to vanished ids and records only add moves to appeared ids, so running the
        // follow-ups first does what running them move by move did.
        for (const [gone, fresh] of moves) follow.run(fresh, gone);
        for (const [gone, fresh] of moves) record.run(gone, fresh, movedAt);
      }
    }
  }
  return db.prepare('SELECT count(*) FROM id_moves').pluck().get() as number;
}

/**
 * Pairs each vanished toilet, in order, with the nearest appeared toilet of its kind within 25 m not taken
 * yet (of equally near ones, the later in `appeared`). Returns [vanished id, appeared id] pairs.
 */
function matchRedrawn(vanished: Spot[], appeared: Spot[]): [string, string][] {
  const index = new KDBush(appeared.length, 64, Float64Array);
  for (const spot of appeared) index.add(spot.lon, spot.lat);
  index.finish();
  const taken = new Uint8Array(appeared.length);
  const moves: [string, string][] = [];
  const pad = (REDRAWN_WITHIN_M * 2) / 111_320; // generous: the distance test below decides
  for (const gone of vanished) {
    const padLon = pad / Math.max(0.01, Math.cos((gone.lat * Math.PI) / 180));
    const candidates = index.range(gone.lon - padLon, gone.lat - pad, gone.lon + padLon, gone.lat + pad).sort((a, b) => a - b);
    let best = -1;
    let bestDistance = REDRAWN_WITHIN_M;
    for (const i of candidates) {
      const fresh = appeared[i];
      if (fresh.kind !== gone.kind || taken[i]) continue;
      const d = distanceMeters(gone.lat, gone.lon, fresh.lat, fresh.lon);
      if (d <= bestDistance) {
        bestDistance = d;
        best = i;
      }
    }
    if (best < 0) continue;
    taken[best] = 1;
    moves.push([gone.id, appeared[best].id]);
  }
  return moves;
}
