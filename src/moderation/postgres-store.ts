// Moderation's store in PostgreSQL's `overlay` schema (store.ts), on the overlay store's pool. A decision
// is an UPDATE of a row still pending (or open), so two moderators deciding one item on two replicas get
// one success and one refusal; changes are logged under the change lock (src/community/postgres-store.ts).
import { sql, type Kysely, type Transaction } from 'kysely';
import { logChange, type PostgresOverlayStore } from '../community/postgres-store.js';
import type { LockRow, LogRow, ModerationStore, ModerationTransaction, ReportRow, SubmissionRow } from './store.js';

export class PostgresModerationStore implements ModerationStore {
  private readonly db: Kysely<unknown>;

  constructor(overlay: PostgresOverlayStore) {
    this.db = overlay.db;
  }

  transaction<T>(fn: (tx: ModerationTransaction) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(moderationWrites(trx)));
  }

  async pendingSubmissions(): Promise<SubmissionRow[]> {
    return (await sql<SubmissionRow>`SELECT * FROM overlay.submissions WHERE status = 'pending' ORDER BY id`.execute(this.db)).rows;
  }

  async openReports(): Promise<(ReportRow & { open_reports: number })[]> {
    const { rows } = await sql<ReportRow & { open_reports: number }>`
      SELECT r.*, (SELECT count(*)::integer FROM overlay.reports o WHERE o.toilet_id = r.toilet_id AND o.status = 'open') AS open_reports
      FROM overlay.reports r WHERE status = 'open' ORDER BY id`.execute(this.db);
    return rows;
  }

  async locks(): Promise<LockRow[]> {
    return (await sql<LockRow>`SELECT toilet_id, attribute, value, at FROM overlay.locks ORDER BY at DESC, toilet_id, attribute`.execute(this.db)).rows;
  }

  async history(limit: number): Promise<LogRow[]> {
    return (await sql<LogRow>`SELECT at, action, target, reason, details FROM overlay.moderation_log ORDER BY id DESC LIMIT ${limit}`.execute(this.db)).rows;
  }
}

function moderationWrites(trx: Transaction<unknown>): ModerationTransaction {
  const one = async <R>(query: ReturnType<typeof sql<R>>): Promise<R | null> => (await query.execute(trx)).rows[0] ?? null;
  const changed = async (query: ReturnType<typeof sql>): Promise<number> => Number((await query.execute(trx)).numAffectedRows ?? 0n);
  return {
    // FOR UPDATE: a moderator on another replica deciding the same item waits for this one's commit
    submission: (id) => one(sql<SubmissionRow>`SELECT * FROM overlay.submissions WHERE id = ${id} FOR UPDATE`),
    decideSubmission: async (id, status, atMs) => (await changed(sql`UPDATE overlay.submissions SET status = ${status}, decided_at = ${atMs} WHERE id = ${id} AND status = 'pending'`)) === 1,
    addToilet: async (t) =>
      void (await sql`INSERT INTO overlay.community_toilets (id, lat, lon, name, access, access_rule, fee_required, opening_hours, wheelchair, changing_table, time_zone, country, approved_at)
        VALUES (${t.id}, ${t.lat}, ${t.lon}, ${t.name}, ${t.access}, ${t.access_rule}, ${t.fee_required}, ${t.opening_hours}, ${t.wheelchair}, ${t.changing_table}, ${t.time_zone}, ${t.country}, ${t.approved_at})`.execute(trx)),
    report: (id) => one(sql<ReportRow>`SELECT * FROM overlay.reports WHERE id = ${id} FOR UPDATE`),
    decideReport: async (id, status, atMs) => (await changed(sql`UPDATE overlay.reports SET status = ${status}, decided_at = ${atMs} WHERE id = ${id} AND status = 'open'`)) === 1,
    lock: async (toiletId, attribute, value, atMs) =>
      void (await sql`INSERT INTO overlay.locks (toilet_id, attribute, value, at) VALUES (${toiletId}, ${attribute}, ${value}, ${atMs})
        ON CONFLICT (toilet_id, attribute) DO UPDATE SET value = excluded.value, at = excluded.at`.execute(trx)),
    unlock: (toiletIds, attribute) => changed(sql`DELETE FROM overlay.locks WHERE toilet_id = ANY(${toiletIds}) AND attribute = ${attribute}`),
    queueNote: async (reportId, lat, lon, text, atMs) =>
      void (await sql`INSERT INTO overlay.osm_notes (report_id, lat, lon, text, queued_at) VALUES (${reportId}, ${lat}, ${lon}, ${text}, ${atMs})`.execute(trx)),
    log: async (atMs, action, target, reason, details) =>
      void (await sql`INSERT INTO overlay.moderation_log (at, action, target, reason, details) VALUES (${atMs}, ${action}, ${target}, ${reason}, ${details})`.execute(trx)),
    logChange: (toiletId, atMs) => logChange(trx, toiletId, atMs),
  };
}
