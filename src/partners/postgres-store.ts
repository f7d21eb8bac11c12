// The partner tables in PostgreSQL's accounts schema (DATABASE_URL; layout: postgres-tables.ts), shared by
// every replica. A transaction's Steps run in one READ COMMITTED transaction (src/storage/postgres-steps.ts),
// with its event-log entries (PostgresAccountEventLog.append on the same transaction). What the file's
// immediate transactions guarantee holds across replicas this way: every write transaction that reads or
// changes claims first takes the claims' lock (a transaction advisory lock, held until it ends), so two
// claims of one toilet, or two decisions of its claims, run one after the other and the second sees the
// first (READ COMMITTED: each statement sees what committed before it); a listing is stopped once (UPDATE
// … WHERE stopped_at IS NULL); figures add up (INSERT … ON CONFLICT DO UPDATE). The showing listings are
// read synchronously by the overlay, so a copy is kept in memory, read again after each commit here and
// whenever dataVersion() finds another replica's.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { NewAccountEvent } from '../accounts/event-log.js';
import type { EventLogTables } from '../accounts/postgres-tables.js';
import type { PostgresAccountEventLog } from '../accounts/event-log-postgres.js';
import { awaited, changedBy, rowsOf, stepTransaction } from '../storage/postgres-steps.js';
import type { Step } from '../storage/steps.js';
import type {
  ClaimRow, ClaimStatus, Conditions, ListingRow, ListingWithClaim, PartnerStore, PartnerTables, PlanSource, PlanTier, ShowingListings, StoredFigures, ToiletState,
} from './store.js';

const CLAIM = sql.raw('id, account_id, toilet_id, business_name, contact_email, contact_phone, website, note, status, created_at, decided_at, decision_reason');
const LISTING = sql.raw(
  'l.id, l.claim_id, l.account_id, l.toilet_id, l.name, l.stopped_at, l.plan_tier, l.plan_source, l.plan_changed_at, l.stripe_subscription_id, l.stripe_status, ' +
    'l.conditions, l.opening_hours, l.closed_until, l.toilet_state, l.created_at, l.updated_at',
);
const WITH_CLAIM = sql`SELECT ${LISTING}, c.status AS claim_status FROM accounts.partner_listings l JOIN accounts.partner_claims c ON c.id = l.claim_id`;
const ACTIVE = sql`${WITH_CLAIM} WHERE c.status IN ('pending', 'approved') AND l.stopped_at IS NULL`;
const SHOWING = sql`${WITH_CLAIM} WHERE c.status = 'approved' AND l.plan_tier IS NOT NULL AND l.stopped_at IS NULL`;

export class PostgresPartnerStore implements PartnerStore {
  private shownCopy: ListingWithClaim[] = [];
  private seenWrites = -1;
  readonly showing: ShowingListings = {
    all: () => this.shownCopy,
    on: (ids) => this.shownCopy.filter((listing) => ids.includes(listing.toilet_id)).sort(newestFirst)[0] ?? null,
  };

  /** `db`: the accounts schema's database (PostgresDatabase.schema('accounts')); the showing copy is empty until the first dataVersion(). */
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly events: PostgresAccountEventLog,
  ) {}

  /** The store with its showing listings read first. */
  static async open(db: Kysely<unknown>, events: PostgresAccountEventLog): Promise<PostgresPartnerStore> {
    const store = new PostgresPartnerStore(db, events);
    await store.dataVersion();
    return store;
  }

  transaction<T>(work: (tables: PartnerTables) => Step<T>): Promise<T> {
    return this.run('write', (_trx, tables) => tables, work);
  }

  read<T>(work: (tables: PartnerTables) => Step<T>): Promise<T> {
    return this.run('read', (_trx, tables) => tables, work);
  }

  /**
   * Runs `work` in one transaction on the tables `tablesOf` makes of it and of its partner tables (billing's
   * include them), the write count kept as its last statement; a write's commit reads the showing copy again.
   */
  async run<Tables, T>(mode: 'write' | 'read', tablesOf: (trx: Transaction<unknown>, partners: PostgresPartnerTables) => Tables, work: (tables: Tables) => Step<T>): Promise<T> {
    let partners: PostgresPartnerTables | null = null;
    const made = (trx: Transaction<unknown>) => tablesOf(trx, (partners = new PostgresPartnerTables(trx, this.events, mode === 'write')));
    const answer = await stepTransaction(this.db, mode, made, function* (tables) {
      const value = yield* work(tables);
      yield* partners!.countWrite();
      return value;
    });
    if (mode === 'write') await this.dataVersion();
    return answer;
  }

  /** The count of committed writes (any replica's); the showing copy is read again when it moved. */
  async dataVersion(): Promise<number> {
    const { rows } = await sql<{ count: number }>`SELECT count FROM accounts.partner_writes`.execute(this.db);
    const count = rows[0].count;
    if (count !== this.seenWrites) {
      this.shownCopy = (await SHOWING.execute(this.db)).rows as ListingWithClaim[];
      this.seenWrites = count;
    }
    return count;
  }
}

/** The showing listing of a toilet when several ids hold one (the file's ORDER BY updated_at DESC, id). */
function newestFirst(a: ListingRow, b: ListingRow): number {
  return b.updated_at - a.updated_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The statements on one transaction; each query a Step that yields its promise. */
export class PostgresPartnerTables implements PartnerTables {
  private claimsLocked = false;
  private wrote = false;

  constructor(
    private readonly trx: Transaction<unknown>,
    private readonly events: PostgresAccountEventLog,
    private readonly writing: boolean,
  ) {}

  *claim(id: string): Step<ClaimRow | null> {
    return (yield* this.claims(sql`SELECT ${CLAIM} FROM accounts.partner_claims WHERE id = ${id}`))[0] ?? null;
  }

  openClaimsOn(toiletIds: readonly string[]): Step<ClaimRow[]> {
    return this.claims(sql`SELECT ${CLAIM} FROM accounts.partner_claims WHERE toilet_id = ANY(${toiletIds}) AND status IN ('pending', 'approved') ORDER BY created_at, made`);
  }

  pendingClaims(): Step<ClaimRow[]> {
    return this.claims(sql`SELECT ${CLAIM} FROM accounts.partner_claims WHERE status = 'pending' ORDER BY created_at, made`);
  }

  openClaimsOfAccount(accountId: string): Step<ClaimRow[]> {
    return this.claims(sql`SELECT ${CLAIM} FROM accounts.partner_claims WHERE account_id = ${accountId} AND status IN ('pending', 'approved') ORDER BY made`);
  }

  *insertClaim(claim: Omit<ClaimRow, 'status' | 'decided_at' | 'decision_reason'>): Step<void> {
    yield* this.lockClaims();
    yield* this.change(sql`INSERT INTO accounts.partner_claims (id, account_id, toilet_id, business_name, contact_email, contact_phone, website, note, status, created_at)
      VALUES (${claim.id}, ${claim.account_id}, ${claim.toilet_id}, ${claim.business_name}, ${claim.contact_email}, ${claim.contact_phone}, ${claim.website}, ${claim.note}, 'pending', ${claim.created_at})`);
  }

  *decideClaim(id: string, from: ClaimStatus, to: ClaimStatus, atMs: number, reason: string | null): Step<boolean> {
    yield* this.lockClaims();
    return (yield* this.change(sql`UPDATE accounts.partner_claims SET status = ${to}, decided_at = ${atMs}, decision_reason = ${reason} WHERE id = ${id} AND status = ${from}`)) > 0;
  }

  *eraseContacts(accountId: string): Step<number> {
    yield* this.lockClaims();
    return yield* this.change(sql`UPDATE accounts.partner_claims SET contact_email = NULL, contact_phone = NULL, website = NULL, note = NULL WHERE account_id = ${accountId}`);
  }

  *eraseDecidedContacts(beforeMs: number): Step<number> {
    yield* this.lockClaims();
    return yield* this.change(sql`UPDATE accounts.partner_claims SET contact_email = NULL, contact_phone = NULL, website = NULL, note = NULL
      WHERE status != 'pending' AND decided_at <= ${beforeMs} AND (contact_email IS NOT NULL OR contact_phone IS NOT NULL OR website IS NOT NULL OR note IS NOT NULL)`);
  }

  *listing(id: string): Step<ListingWithClaim | null> {
    return (yield* this.listings(sql`${WITH_CLAIM} WHERE l.id = ${id}`))[0] ?? null;
  }

  *listingOfClaim(claimId: string): Step<ListingWithClaim> {
    const [listing] = yield* this.listings(sql`${WITH_CLAIM} WHERE l.claim_id = ${claimId}`);
    if (listing === undefined) throw new Error(`claim ${claimId} has no listing: every claim is made with one`);
    return listing;
  }

  listingsOfAccount(accountId: string): Step<ListingWithClaim[]> {
    return this.listings(sql`${WITH_CLAIM} WHERE l.account_id = ${accountId} ORDER BY l.created_at, l.made`);
  }

  activeListings(): Step<ListingWithClaim[]> {
    return this.listings(ACTIVE);
  }

  activeListingsOn(toiletIds: readonly string[]): Step<ListingWithClaim[]> {
    return this.listings(sql`${ACTIVE} AND l.toilet_id = ANY(${toiletIds})`);
  }

  showingListings(): Step<ListingWithClaim[]> {
    return this.listings(SHOWING);
  }

  *insertListing(listing: Pick<ListingRow, 'id' | 'claim_id' | 'account_id' | 'toilet_id' | 'name' | 'created_at'>): Step<void> {
    yield* this.change(sql`INSERT INTO accounts.partner_listings (id, claim_id, account_id, toilet_id, name, created_at, updated_at)
      VALUES (${listing.id}, ${listing.claim_id}, ${listing.account_id}, ${listing.toilet_id}, ${listing.name}, ${listing.created_at}, ${listing.created_at})`);
  }

  *setName(id: string, name: string, atMs: number): Step<void> {
    yield* this.change(sql`UPDATE accounts.partner_listings SET name = ${name}, updated_at = ${atMs} WHERE id = ${id}`);
  }

  *stop(id: string, atMs: number): Step<boolean> {
    return (yield* this.change(sql`UPDATE accounts.partner_listings SET stopped_at = ${atMs}, updated_at = ${atMs} WHERE id = ${id} AND stopped_at IS NULL`)) > 0;
  }

  *setPlan(id: string, tier: PlanTier | null, source: PlanSource, atMs: number): Step<void> {
    yield* this.change(sql`UPDATE accounts.partner_listings SET plan_tier = ${tier}, plan_source = ${source}, plan_changed_at = ${atMs}, updated_at = ${atMs} WHERE id = ${id}`);
  }

  *setStripe(id: string, subscriptionId: string | null, status: string | null, atMs: number): Step<void> {
    yield* this.change(sql`UPDATE accounts.partner_listings SET stripe_subscription_id = ${subscriptionId}, stripe_status = ${status}, updated_at = ${atMs} WHERE id = ${id}`);
  }

  *setProfile(id: string, profile: { conditions: Conditions | null; opening_hours: string | null; closed_until: number }, atMs: number): Step<void> {
    yield* this.change(sql`UPDATE accounts.partner_listings SET conditions = ${profile.conditions}, opening_hours = ${profile.opening_hours}, closed_until = ${profile.closed_until}, updated_at = ${atMs} WHERE id = ${id}`);
  }

  *closureOver(nowMs: number): Step<boolean> {
    return (yield* this.rows(sql`SELECT 1 FROM accounts.partner_listings WHERE closed_until > 0 AND closed_until <= ${nowMs} LIMIT 1`)).length > 0;
  }

  *endClosures(nowMs: number): Step<ListingRow[]> {
    const ended = yield* this.rows<ListingRow>(sql`UPDATE accounts.partner_listings l SET closed_until = 0, updated_at = ${nowMs} WHERE closed_until > 0 AND closed_until <= ${nowMs} RETURNING ${LISTING}`);
    if (ended.length > 0) this.wrote = true;
    return ended;
  }

  *moveToilet(from: string, to: string, atMs: number): Step<void> {
    yield* this.lockClaims();
    yield* this.change(sql`UPDATE accounts.partner_listings SET toilet_id = ${to}, updated_at = ${atMs} WHERE toilet_id = ${from}`);
    yield* this.change(sql`UPDATE accounts.partner_claims SET toilet_id = ${to} WHERE toilet_id = ${from}`);
  }

  *setToiletState(id: string, state: ToiletState, atMs: number): Step<void> {
    yield* this.change(sql`UPDATE accounts.partner_listings SET toilet_state = ${state}, updated_at = ${atMs} WHERE id = ${id}`);
  }

  *addFigures(listingId: string, month: string, shown: number, opened: number): Step<void> {
    yield* this.change(sql`INSERT INTO accounts.partner_listing_figures AS f (listing_id, month, shown, opened) VALUES (${listingId}, ${month}, ${shown}, ${opened})
      ON CONFLICT (listing_id, month) DO UPDATE SET shown = f.shown + excluded.shown, opened = f.opened + excluded.opened`);
  }

  figuresSince(listingId: string, fromMonth: string): Step<StoredFigures[]> {
    return this.rows<StoredFigures>(sql`SELECT month, shown, opened FROM accounts.partner_listing_figures WHERE listing_id = ${listingId} AND month >= ${fromMonth}`);
  }

  *appendEvent(event: NewAccountEvent): Step<void> {
    this.wrote = true;
    yield* awaited(this.events.append(this.trx as Transaction<EventLogTables>, event));
  }

  /** The transaction's last statement when it wrote (PostgresPartnerStore.transaction): one more committed write. */
  *countWrite(): Step<void> {
    if (this.wrote) yield* this.rows(sql`UPDATE accounts.partner_writes SET count = count + 1`);
  }

  /** Claims read in a write transaction are read under the claims' lock (see the header comment). */
  private *claims(query: RawBuilder<unknown>): Step<ClaimRow[]> {
    yield* this.lockClaims();
    return yield* this.rows<ClaimRow>(query);
  }

  private *lockClaims(): Step<void> {
    if (!this.writing || this.claimsLocked) return;
    yield* this.rows(sql`SELECT pg_advisory_xact_lock(hashtext('toilet-finder partner claims'))`);
    this.claimsLocked = true;
  }

  private listings(query: RawBuilder<unknown>): Step<ListingWithClaim[]> {
    return this.rows<ListingWithClaim>(query);
  }

  /** Runs a write: the number of rows it changed. */
  private change(query: RawBuilder<unknown>): Step<number> {
    this.wrote = true;
    return changedBy(this.trx, query);
  }

  private rows<R>(query: RawBuilder<unknown>): Step<R[]> {
    return rowsOf<R>(this.trx, query);
  }
}
