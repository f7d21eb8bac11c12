// The partner tables in the accounts SQLite file (ACCOUNTS_DB), on the accounts store's connection, so
// a change, its event-log entry and (billing) the record of a Stripe event commit in one transaction. The
// tables answer at once: a transaction's work runs synchronously inside one immediate better-sqlite3
// transaction (src/storage/steps.ts), so nothing else runs between its read and its write.
import type Database from 'better-sqlite3';
import type { SqliteAccountsStore } from '../accounts/sqlite-store.js';
import type { SqliteAccountEventLog, NewAccountEvent } from '../accounts/event-log.js';
import { answered, runNow, type Step } from '../storage/steps.js';
import type {
  ClaimRow, ClaimStatus, Conditions, ListingRow, ListingWithClaim, PartnerStore, PartnerTables, PlanSource, PlanTier, ShowingListings, StoredFigures, ToiletState,
} from './store.js';

const WITH_CLAIM = 'SELECT l.*, c.status AS claim_status FROM partner_listings l JOIN partner_claims c ON c.id = l.claim_id';
/** Listings whose toilet matters: claim pending or approved, not stopped. */
const ACTIVE = `${WITH_CLAIM} WHERE c.status IN ('pending', 'approved') AND l.stopped_at IS NULL`;
/** Listings that show a partner object when their toilet is served: approved, a plan, not stopped. */
const SHOWING = `${WITH_CLAIM} WHERE c.status = 'approved' AND l.plan_tier IS NOT NULL AND l.stopped_at IS NULL`;

export class SqlitePartnerStore implements PartnerStore {
  readonly tables: SqlitePartnerTables;
  readonly showing: ShowingListings;

  constructor(
    /** The file's store, whose connection and transactions these tables share (billing's too). */
    readonly accounts: SqliteAccountsStore,
    events: SqliteAccountEventLog,
  ) {
    const tables = (this.tables = new SqlitePartnerTables(accounts.db, events));
    this.showing = { all: () => runNow(tables.showingListings()), on: (ids) => tables.showingOnNow(ids) };
  }

  async transaction<T>(work: (tables: PartnerTables) => Step<T>): Promise<T> {
    return this.accounts.transaction(() => runNow(work(this.tables)));
  }

  async read<T>(work: (tables: PartnerTables) => Step<T>): Promise<T> {
    return this.accounts.db.transaction(() => runNow(work(this.tables))).deferred();
  }

  /** SQLite's count of commits by other connections (the moderation command, another process). */
  async dataVersion(): Promise<number> {
    return this.tables.dataVersion();
  }
}

/** The statements; each query answers at once (a Step that never yields). */
export class SqlitePartnerTables implements PartnerTables {
  private readonly sql;

  constructor(
    readonly db: Database.Database,
    private readonly events: SqliteAccountEventLog,
  ) {
    this.sql = {
      claim: db.prepare('SELECT * FROM partner_claims WHERE id = ?'),
      claimsOnToilets: db.prepare("SELECT * FROM partner_claims WHERE toilet_id IN (SELECT value FROM json_each(?)) AND status IN ('pending', 'approved') ORDER BY created_at, rowid"),
      pendingClaims: db.prepare("SELECT * FROM partner_claims WHERE status = 'pending' ORDER BY created_at, rowid"),
      insertClaim: db.prepare(
        `INSERT INTO partner_claims (id, account_id, toilet_id, business_name, contact_email, contact_phone, website, note, status, created_at)
         VALUES (@id, @account_id, @toilet_id, @business_name, @contact_email, @contact_phone, @website, @note, 'pending', @created_at)`,
      ),
      decideClaim: db.prepare('UPDATE partner_claims SET status = ?, decided_at = ?, decision_reason = ? WHERE id = ? AND status = ?'),
      eraseContacts: db.prepare('UPDATE partner_claims SET contact_email = NULL, contact_phone = NULL, website = NULL, note = NULL WHERE account_id = ?'),
      eraseDecidedContacts: db.prepare(
        "UPDATE partner_claims SET contact_email = NULL, contact_phone = NULL, website = NULL, note = NULL WHERE status != 'pending' AND decided_at <= ? AND (contact_email IS NOT NULL OR contact_phone IS NOT NULL OR website IS NOT NULL OR note IS NOT NULL)",
      ),
      claimsOfAccount: db.prepare("SELECT * FROM partner_claims WHERE account_id = ? AND status IN ('pending', 'approved')"),
      listing: db.prepare(`${WITH_CLAIM} WHERE l.id = ?`),
      listingOfClaim: db.prepare(`${WITH_CLAIM} WHERE l.claim_id = ?`),
      listingsOfAccount: db.prepare(`${WITH_CLAIM} WHERE l.account_id = ? ORDER BY l.created_at, l.rowid`),
      activeListings: db.prepare(ACTIVE),
      activeListingsOn: db.prepare(`${ACTIVE} AND l.toilet_id IN (SELECT value FROM json_each(?))`),
      showing: db.prepare(SHOWING),
      showingOn: db.prepare(`${SHOWING} AND l.toilet_id IN (SELECT value FROM json_each(?)) ORDER BY l.updated_at DESC, l.id LIMIT 1`),
      insertListing: db.prepare(
        `INSERT INTO partner_listings (id, claim_id, account_id, toilet_id, name, created_at, updated_at)
         VALUES (@id, @claim_id, @account_id, @toilet_id, @name, @created_at, @created_at)`,
      ),
      setName: db.prepare('UPDATE partner_listings SET name = ?, updated_at = ? WHERE id = ?'),
      stop: db.prepare('UPDATE partner_listings SET stopped_at = ?, updated_at = ? WHERE id = ? AND stopped_at IS NULL'),
      setPlan: db.prepare('UPDATE partner_listings SET plan_tier = ?, plan_source = ?, plan_changed_at = ?, updated_at = ? WHERE id = ?'),
      setStripe: db.prepare('UPDATE partner_listings SET stripe_subscription_id = ?, stripe_status = ?, updated_at = ? WHERE id = ?'),
      setProfile: db.prepare('UPDATE partner_listings SET conditions = ?, opening_hours = ?, closed_until = ?, updated_at = ? WHERE id = ?'),
      closureOver: db.prepare('SELECT 1 FROM partner_listings WHERE closed_until > 0 AND closed_until <= ? LIMIT 1').pluck(),
      endClosures: db.prepare('UPDATE partner_listings SET closed_until = 0, updated_at = @now WHERE closed_until > 0 AND closed_until <= @now RETURNING *'),
      moveToilet: db.prepare('UPDATE partner_listings SET toilet_id = ?, updated_at = ? WHERE toilet_id = ?'),
      moveClaims: db.prepare('UPDATE partner_claims SET toilet_id = ? WHERE toilet_id = ?'),
      setToiletState: db.prepare('UPDATE partner_listings SET toilet_state = ?, updated_at = ? WHERE id = ?'),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      addFigures: db.prepare(
        `INSERT INTO partner_listing_figures (listing_id, month, shown, opened) VALUES (?, ?, ?, ?)
         ON CONFLICT (listing_id, month) DO UPDATE SET shown = shown + excluded.shown, opened = opened + excluded.opened`,
      ),
      figuresSince: db.prepare('SELECT month, shown, opened FROM partner_listing_figures WHERE listing_id = ? AND month >= ?'),
    };
  }

  dataVersion(): number {
    return this.sql.dataVersion.get() as number;
  }

  claim(id: string): Step<ClaimRow | null> {
    return answered((this.sql.claim.get(id) as ClaimRow | undefined) ?? null);
  }

  openClaimsOn(toiletIds: readonly string[]): Step<ClaimRow[]> {
    return answered(this.sql.claimsOnToilets.all(JSON.stringify(toiletIds)) as ClaimRow[]);
  }

  pendingClaims(): Step<ClaimRow[]> {
    return answered(this.sql.pendingClaims.all() as ClaimRow[]);
  }

  openClaimsOfAccount(accountId: string): Step<ClaimRow[]> {
    return answered(this.sql.claimsOfAccount.all(accountId) as ClaimRow[]);
  }

  insertClaim(claim: Omit<ClaimRow, 'status' | 'decided_at' | 'decision_reason'>): Step<void> {
    return answered(void this.sql.insertClaim.run(claim));
  }

  decideClaim(id: string, from: ClaimStatus, to: ClaimStatus, atMs: number, reason: string | null): Step<boolean> {
    return answered(this.sql.decideClaim.run(to, atMs, reason, id, from).changes > 0);
  }

  eraseContacts(accountId: string): Step<number> {
    return answered(this.sql.eraseContacts.run(accountId).changes);
  }

  eraseDecidedContacts(beforeMs: number): Step<number> {
    return answered(this.sql.eraseDecidedContacts.run(beforeMs).changes);
  }

  listing(id: string): Step<ListingWithClaim | null> {
    return answered((this.sql.listing.get(id) as ListingWithClaim | undefined) ?? null);
  }

  listingOfClaim(claimId: string): Step<ListingWithClaim> {
    const listing = this.sql.listingOfClaim.get(claimId) as ListingWithClaim | undefined;
    if (listing === undefined) throw new Error(`claim ${claimId} has no listing: every claim is made with one`);
    return answered(listing);
  }

  listingsOfAccount(accountId: string): Step<ListingWithClaim[]> {
    return answered(this.sql.listingsOfAccount.all(accountId) as ListingWithClaim[]);
  }

  activeListings(): Step<ListingWithClaim[]> {
    return answered(this.sql.activeListings.all() as ListingWithClaim[]);
  }

  activeListingsOn(toiletIds: readonly string[]): Step<ListingWithClaim[]> {
    return answered(this.sql.activeListingsOn.all(JSON.stringify(toiletIds)) as ListingWithClaim[]);
  }

  showingListings(): Step<ListingWithClaim[]> {
    return answered(this.sql.showing.all() as ListingWithClaim[]);
  }

  /** ShowingListings.on: the overlay's synchronous read. */
  showingOnNow(toiletIds: readonly string[]): ListingWithClaim | null {
    return (this.sql.showingOn.get(JSON.stringify(toiletIds)) as ListingWithClaim | undefined) ?? null;
  }

  insertListing(listing: Pick<ListingRow, 'id' | 'claim_id' | 'account_id' | 'toilet_id' | 'name' | 'created_at'>): Step<void> {
    return answered(void this.sql.insertListing.run(listing));
  }

  setName(id: string, name: string, atMs: number): Step<void> {
    return answered(void this.sql.setName.run(name, atMs, id));
  }

  stop(id: string, atMs: number): Step<boolean> {
    return answered(this.sql.stop.run(atMs, atMs, id).changes > 0);
  }

  setPlan(id: string, tier: PlanTier | null, source: PlanSource, atMs: number): Step<void> {
    return answered(void this.sql.setPlan.run(tier, source, atMs, atMs, id));
  }

  setStripe(id: string, subscriptionId: string | null, status: string | null, atMs: number): Step<void> {
    return answered(void this.sql.setStripe.run(subscriptionId, status, atMs, id));
  }

  setProfile(id: string, profile: { conditions: Conditions | null; opening_hours: string | null; closed_until: number }, atMs: number): Step<void> {
    return answered(void this.sql.setProfile.run(profile.conditions, profile.opening_hours, profile.closed_until, atMs, id));
  }

  closureOver(nowMs: number): Step<boolean> {
    return answered(this.sql.closureOver.get(nowMs) !== undefined);
  }

  endClosures(nowMs: number): Step<ListingRow[]> {
    return answered(this.sql.endClosures.all({ now: nowMs }) as ListingRow[]);
  }

  moveToilet(from: string, to: string, atMs: number): Step<void> {
    this.sql.moveToilet.run(to, atMs, from);
    return answered(void this.sql.moveClaims.run(to, from));
  }

  setToiletState(id: string, state: ToiletState, atMs: number): Step<void> {
    return answered(void this.sql.setToiletState.run(state, atMs, id));
  }

  addFigures(listingId: string, month: string, shown: number, opened: number): Step<void> {
    return answered(void this.sql.addFigures.run(listingId, month, shown, opened));
  }

  figuresSince(listingId: string, fromMonth: string): Step<StoredFigures[]> {
    return answered(this.sql.figuresSince.all(listingId, fromMonth) as StoredFigures[]);
  }

  appendEvent(event: NewAccountEvent): Step<void> {
    return answered(void this.events.append(event));
  }
}
