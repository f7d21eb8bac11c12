// The account event log in PostgreSQL's accounts schema (event-log.ts says what it is; its table:
// postgres-tables.ts, the schema's step 3). `seq` is an identity column: never used twice, though a transaction that rolls back
// leaves a gap. Entries commit in seq order: an append first takes the log's lock (a transaction advisory
// lock, held until the change it reports commits), so a reader that keeps its place by "after seq" (the
// relay, a feed's cursor) never finds a smaller seq committed after it read a larger one.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { EventLogTables } from './postgres-tables.js';
import { ACCOUNT_EVENT_RETENTION_MS, checkReadLimit, type AccountEvent, type AccountEventLog, type AccountEventQuery, type NewAccountEvent } from './event-log.js';

export class PostgresAccountEventLog implements AccountEventLog {
  constructor(
    private readonly db: Kysely<EventLogTables>,
    private readonly now: () => number,
  ) {}

  /** Appends an entry inside `tx`, the transaction of the change it reports (of the accounts schema): its seq. */
  async append(tx: Transaction<EventLogTables>, event: NewAccountEvent): Promise<number> {
    await sql`SELECT pg_advisory_xact_lock(hashtext('toilet-finder account events'))`.execute(tx);
    const row = await tx
      .insertInto('account_events')
      .values({ account_id: event.account, type: event.type, listing_id: event.listing, toilet_id: event.toilet, data: JSON.stringify(event.data), created_at: this.now() })
      .returning('seq')
      .executeTakeFirstOrThrow();
    return Number(row.seq);
  }

  async read(query: AccountEventQuery): Promise<AccountEvent[]> {
    checkReadLimit(query.limit);
    let select = this.db.selectFrom('account_events').selectAll().where('seq', '>', String(query.after));
    if (query.account !== undefined) select = select.where('account_id', '=', query.account);
    if (query.listing !== undefined) select = select.where('listing_id', '=', query.listing);
    if (query.toilet !== undefined) select = select.where('toilet_id', '=', query.toilet);
    const rows = await select.orderBy('seq').limit(query.limit).execute();
    return rows.map((row) => ({ ...row, seq: Number(row.seq), created_at: Number(row.created_at) }));
  }

  async lastSeq(): Promise<number> {
    const row = await this.db.selectFrom('account_events').select(sql<string>`coalesce(max(seq), 0)`.as('last')).executeTakeFirstOrThrow();
    return Number(row.last);
  }

  async purge(nowMs: number): Promise<number> {
    const result = await this.db.deleteFrom('account_events').where('created_at', '<', nowMs - ACCOUNT_EVENT_RETENTION_MS).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
