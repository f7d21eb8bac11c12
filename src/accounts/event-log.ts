// The account event log: what happened to an account's partner claims and listings, in the order it
// happened, for the account-events delivery (MCP `/mcp/account`, issue 34) and the owner's dashboard.
// An entry is appended inside the transaction of the change it reports, so it is stored exactly when the
// change is, and never without it: append therefore belongs to each implementation (it takes the writer's
// transaction), while reading is one asynchronous interface. `seq` orders the log and is never used twice,
// so a reader keeps its place with "after seq". Entries carry ids and triage fields only (statuses, what
// changed), never contact details: they travel to OAuth clients. They go with their account, and after
// 30 days. Two implementations: the ACCOUNTS_DB file (partners' step 2 made its table) and PostgreSQL's
// accounts schema (event-log-postgres.ts).
import type Database from 'better-sqlite3';

export const ACCOUNT_EVENT_TYPES = ['partner.claim.status_changed', 'partner.profile.updated'] as const;
export type AccountEventType = (typeof ACCOUNT_EVENT_TYPES)[number];

/** How long entries are kept: delivery has no replay (subscriptions last at most 24 hours). */
export const ACCOUNT_EVENT_RETENTION_MS = 30 * 24 * 3_600_000;

/** The most entries one read returns. */
export const ACCOUNT_EVENT_READ_MAX = 1000;

export interface NewAccountEvent {
  account: string;
  type: AccountEventType;
  listing: string | null;
  toilet: string | null;
  /** Ids and triage fields only (old and new status, what changed): never contact details. */
  data: Record<string, unknown>;
}

export interface AccountEvent {
  seq: number;
  account_id: string;
  type: AccountEventType;
  listing_id: string | null;
  toilet_id: string | null;
  data: Record<string, unknown>;
  /** Epoch ms, from the injected clock. */
  created_at: number;
}

export interface AccountEventQuery {
  /** Entries with a seq above this one (0: from the oldest kept). */
  after: number;
  /** At most this many (1..ACCOUNT_EVENT_READ_MAX). */
  limit: number;
  /** Only this account's entries. */
  account?: string;
  listing?: string;
  toilet?: string;
}

/** Reading the log, wherever it is kept. */
export interface AccountEventLog {
  /** Entries after `query.after`, oldest first, filtered as asked. */
  read(query: AccountEventQuery): Promise<AccountEvent[]>;
  /** The seq of the newest entry, 0 when none: a new reader starts from here. */
  lastSeq(): Promise<number>;
  /** Deletes the entries older than the retention (the accounts' hourly clean-up). */
  purge(nowMs: number): Promise<number>;
}

/** Refuses a limit outside 1..ACCOUNT_EVENT_READ_MAX (a caller's mistake, said at once). */
export function checkReadLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > ACCOUNT_EVENT_READ_MAX) throw new RangeError(`limit must be a whole number from 1 to ${ACCOUNT_EVENT_READ_MAX}`);
}

/** The log in the ACCOUNTS_DB file, appended to inside the file's transactions (the partners' changes). */
export class SqliteAccountEventLog implements AccountEventLog {
  private readonly sql;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {
    this.sql = {
      append: db.prepare('INSERT INTO account_events (account_id, type, listing_id, toilet_id, data, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      read: db.prepare(
        `SELECT seq, account_id, type, listing_id, toilet_id, data, created_at FROM account_events
         WHERE seq > @after AND (@account IS NULL OR account_id = @account) AND (@listing IS NULL OR listing_id = @listing)
           AND (@toilet IS NULL OR toilet_id = @toilet)
         ORDER BY seq LIMIT @limit`,
      ),
      last: db.prepare('SELECT coalesce(max(seq), 0) FROM account_events').pluck(),
      purge: db.prepare('DELETE FROM account_events WHERE created_at < ?'),
    };
  }

  /**
   * Appends an entry; call it inside the file's transaction that makes the change it reports (the store's
   * `transaction`), so both commit or neither. Returns its seq.
   */
  append(event: NewAccountEvent): number {
    if (!this.db.inTransaction) throw new Error('append an account event inside the transaction of the change it reports');
    const result = this.sql.append.run(event.account, event.type, event.listing, event.toilet, JSON.stringify(event.data), this.now());
    return Number(result.lastInsertRowid);
  }

  async read(query: AccountEventQuery): Promise<AccountEvent[]> {
    checkReadLimit(query.limit);
    const rows = this.sql.read.all({ after: query.after, limit: query.limit, account: query.account ?? null, listing: query.listing ?? null, toilet: query.toilet ?? null }) as (Omit<AccountEvent, 'data'> & { data: string })[];
    return rows.map((row) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }));
  }

  async lastSeq(): Promise<number> {
    return this.sql.last.get() as number;
  }

  async purge(nowMs: number): Promise<number> {
    return this.sql.purge.run(nowMs - ACCOUNT_EVENT_RETENTION_MS).changes;
  }
}
