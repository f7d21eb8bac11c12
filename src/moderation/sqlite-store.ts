// Moderation's store in the overlay's SQLite file (store.ts): statements prepared on the overlay store's
// connection, its transactions one at a time (src/community/sqlite-store.ts).
import type Database from 'better-sqlite3';
import type { SqliteOverlayStore } from '../community/sqlite-store.js';
import type { LockRow, LogRow, ModerationStore, ModerationTransaction, ReportRow, SubmissionRow } from './store.js';

export class SqliteModerationStore implements ModerationStore {
  private readonly s;
  private readonly tx: ModerationTransaction;

  constructor(private readonly overlay: SqliteOverlayStore) {
    const db: Database.Database = overlay.db;
    this.s = {
      pendingSubmissions: db.prepare("SELECT * FROM submissions WHERE status = 'pending' ORDER BY id"),
      submission: db.prepare('SELECT * FROM submissions WHERE id = ?'),
      decideSubmission: db.prepare("UPDATE submissions SET status = ?, decided_at = ? WHERE id = ? AND status = 'pending'"),
      addToilet: db.prepare(
        `INSERT INTO community_toilets (id, lat, lon, name, access, access_rule, fee_required, opening_hours, wheelchair, changing_table, time_zone, country, approved_at)
         VALUES (@id, @lat, @lon, @name, @access, @access_rule, @fee_required, @opening_hours, @wheelchair, @changing_table, @time_zone, @country, @approved_at)`,
      ),
      openReports: db.prepare("SELECT r.*, (SELECT count(*) FROM reports o WHERE o.toilet_id = r.toilet_id AND o.status = 'open') AS open_reports FROM reports r WHERE status = 'open' ORDER BY id"),
      report: db.prepare('SELECT * FROM reports WHERE id = ?'),
      decideReport: db.prepare("UPDATE reports SET status = ?, decided_at = ? WHERE id = ? AND status = 'open'"),
      locks: db.prepare('SELECT toilet_id, attribute, value, at FROM locks ORDER BY at DESC, toilet_id, attribute'),
      lock: db.prepare('INSERT OR REPLACE INTO locks (toilet_id, attribute, value, at) VALUES (?, ?, ?, ?)'),
      unlock: db.prepare('DELETE FROM locks WHERE toilet_id = ? AND attribute = ?'),
      queueNote: db.prepare('INSERT INTO osm_notes (report_id, lat, lon, text, queued_at) VALUES (?, ?, ?, ?, ?)'),
      log: db.prepare('INSERT INTO moderation_log (at, action, target, reason, details) VALUES (?, ?, ?, ?, ?)'),
      history: db.prepare('SELECT at, action, target, reason, details FROM moderation_log ORDER BY id DESC LIMIT ?'),
      logChange: db.prepare('INSERT INTO changes (toilet_id, at) VALUES (?, ?)'),
    };
    const { s } = this;
    this.tx = {
      submission: async (id) => (s.submission.get(id) as SubmissionRow | undefined) ?? null,
      decideSubmission: async (id, status, atMs) => s.decideSubmission.run(status, atMs, id).changes === 1,
      addToilet: async (toilet) => void s.addToilet.run(toilet),
      report: async (id) => (s.report.get(id) as ReportRow | undefined) ?? null,
      decideReport: async (id, status, atMs) => s.decideReport.run(status, atMs, id).changes === 1,
      lock: async (toiletId, attribute, value, atMs) => void s.lock.run(toiletId, attribute, value, atMs),
      unlock: async (toiletIds, attribute) => toiletIds.reduce((n, id) => n + s.unlock.run(id, attribute).changes, 0),
      queueNote: async (reportId, lat, lon, text, atMs) => void s.queueNote.run(reportId, lat, lon, text, atMs),
      log: async (atMs, action, target, reason, details) => void s.log.run(atMs, action, target, reason, details),
      logChange: async (toiletId, atMs) => void s.logChange.run(toiletId, atMs),
    };
  }

  transaction<T>(fn: (tx: ModerationTransaction) => Promise<T>): Promise<T> {
    return this.overlay.transactions.run(() => fn(this.tx));
  }

  async pendingSubmissions(): Promise<SubmissionRow[]> {
    return this.s.pendingSubmissions.all() as SubmissionRow[];
  }

  async openReports(): Promise<(ReportRow & { open_reports: number })[]> {
    return this.s.openReports.all() as (ReportRow & { open_reports: number })[];
  }

  async locks(): Promise<LockRow[]> {
    return this.s.locks.all() as LockRow[];
  }

  async history(limit: number): Promise<LogRow[]> {
    return this.s.history.all(limit) as LogRow[];
  }
}
