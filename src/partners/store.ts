// The partner tables of the accounts database (layout: src/partners/tables.ts): claims with their
// contact details, and listings with plan, profile and the toilet's state. Only statements live here; what
// they mean (the claim and listing state machines) is in README.md and the modules that call them, each
// inside one accounts transaction with its event-log entry.
import type Database from 'better-sqlite3';
import type { SqliteAccountsStore } from '../accounts/sqlite-store.js';

export type ClaimStatus = 'pending' | 'approved' | 'rejected' | 'withdrawn';
export type PlanTier = 'basic' | 'plus';
export type PlanSource = 'manual' | 'stripe';
export type Conditions = 'everyone' | 'customers';
export type ToiletState = 'present' | 'gone' | 'vanished';

export interface ClaimRow {
  id: string;
  account_id: string | null;
  toilet_id: string;
  business_name: string;
  contact_email: string | null;
  contact_phone: string | null;
  website: string | null;
  note: string | null;
  status: ClaimStatus;
  created_at: number;
  decided_at: number | null;
  decision_reason: string | null;
}

export interface ListingRow {
  id: string;
  claim_id: string;
  account_id: string | null;
  toilet_id: string;
  name: string;
  stopped_at: number | null;
  plan_tier: PlanTier | null;
  plan_source: PlanSource | null;
  plan_changed_at: number | null;
  stripe_subscription_id: string | null;
  stripe_status: string | null;
  conditions: Conditions | null;
  opening_hours: string | null;
  closed_until: number;
  toilet_state: ToiletState;
  created_at: number;
  updated_at: number;
}

/** A listing with its claim's status: what decides whether it shows. */
export interface ListingWithClaim extends ListingRow {
  claim_status: ClaimStatus;
}

const WITH_CLAIM = 'SELECT l.*, c.status AS claim_status FROM partner_listings l JOIN partner_claims c ON c.id = l.claim_id';
/** Listings whose toilet matters: claim pending or approved, not stopped. */
const ACTIVE = `${WITH_CLAIM} WHERE c.status IN ('pending', 'approved') AND l.stopped_at IS NULL`;
/** Listings that show a partner object when their toilet is served: approved, a plan, not stopped. */
const SHOWING = `${WITH_CLAIM} WHERE c.status = 'approved' AND l.plan_tier IS NOT NULL AND l.stopped_at IS NULL`;

export class PartnerStore {
  readonly db: Database.Database;
  private readonly sql;

  constructor(readonly accounts: SqliteAccountsStore) {
    const db = (this.db = accounts.db);
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
      endClosures: db.prepare('UPDATE partner_listings SET closed_until = 0, updated_at = @now WHERE closed_until > 0 AND closed_until <= @now RETURNING *'),
      moveToilet: db.prepare('UPDATE partner_listings SET toilet_id = ?, updated_at = ? WHERE toilet_id = ?'),
      moveClaims: db.prepare('UPDATE partner_claims SET toilet_id = ? WHERE toilet_id = ?'),
      setToiletState: db.prepare('UPDATE partner_listings SET toilet_state = ?, updated_at = ? WHERE id = ?'),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
    };
  }

  transaction<T>(run: () => T): T {
    return this.accounts.transaction(run);
  }

  /** SQLite's count of commits by other connections (the moderation command, another process). */
  dataVersion(): number {
    return this.sql.dataVersion.get() as number;
  }

  // ---- claims ----

  claim(id: string): ClaimRow | null {
    return (this.sql.claim.get(id) as ClaimRow | undefined) ?? null;
  }

  /** Pending and approved claims on any of these toilet ids, oldest first. */
  openClaimsOn(toiletIds: readonly string[]): ClaimRow[] {
    return this.sql.claimsOnToilets.all(JSON.stringify(toiletIds)) as ClaimRow[];
  }

  pendingClaims(): ClaimRow[] {
    return this.sql.pendingClaims.all() as ClaimRow[];
  }

  /** The account's pending and approved claims. */
  openClaimsOfAccount(accountId: string): ClaimRow[] {
    return this.sql.claimsOfAccount.all(accountId) as ClaimRow[];
  }

  insertClaim(claim: Omit<ClaimRow, 'status' | 'decided_at' | 'decision_reason'>): void {
    this.sql.insertClaim.run(claim);
  }

  /** Moves a claim from `from` to `to`; false when it was not in `from` (decided meanwhile). */
  decideClaim(id: string, from: ClaimStatus, to: ClaimStatus, atMs: number, reason: string | null): boolean {
    return this.sql.decideClaim.run(to, atMs, reason, id, from).changes > 0;
  }

  eraseContacts(accountId: string): number {
    return this.sql.eraseContacts.run(accountId).changes;
  }

  /** Erases the contact details of claims decided at or before `beforeMs`. */
  eraseDecidedContacts(beforeMs: number): number {
    return this.sql.eraseDecidedContacts.run(beforeMs).changes;
  }

  // ---- listings ----

  listing(id: string): ListingWithClaim | null {
    return (this.sql.listing.get(id) as ListingWithClaim | undefined) ?? null;
  }

  listingOfClaim(claimId: string): ListingWithClaim {
    const listing = this.sql.listingOfClaim.get(claimId) as ListingWithClaim | undefined;
    if (listing === undefined) throw new Error(`claim ${claimId} has no listing: every claim is made with one`);
    return listing;
  }

  listingsOfAccount(accountId: string): ListingWithClaim[] {
    return this.sql.listingsOfAccount.all(accountId) as ListingWithClaim[];
  }

  /** Listings whose claim is pending or approved and that were not stopped: those whose toilet matters. */
  activeListings(): ListingWithClaim[] {
    return this.sql.activeListings.all() as ListingWithClaim[];
  }

  /** The active listings stored under any of these toilet ids. */
  activeListingsOn(toiletIds: readonly string[]): ListingWithClaim[] {
    return this.sql.activeListingsOn.all(JSON.stringify(toiletIds)) as ListingWithClaim[];
  }

  /** Every listing that shows a partner object when its toilet is served. */
  showingListings(): ListingWithClaim[] {
    return this.sql.showing.all() as ListingWithClaim[];
  }

  /** The showing listing stored under any of these ids of one toilet (at most one: claims exclude each other). */
  showingOn(toiletIds: readonly string[]): ListingWithClaim | null {
    return (this.sql.showingOn.get(JSON.stringify(toiletIds)) as ListingWithClaim | undefined) ?? null;
  }

  insertListing(listing: Pick<ListingRow, 'id' | 'claim_id' | 'account_id' | 'toilet_id' | 'name' | 'created_at'>): void {
    this.sql.insertListing.run(listing);
  }

  setName(id: string, name: string, atMs: number): void {
    this.sql.setName.run(name, atMs, id);
  }

  stop(id: string, atMs: number): boolean {
    return this.sql.stop.run(atMs, atMs, id).changes > 0;
  }

  setPlan(id: string, tier: PlanTier | null, source: PlanSource, atMs: number): void {
    this.sql.setPlan.run(tier, source, atMs, atMs, id);
  }

  setStripe(id: string, subscriptionId: string | null, status: string | null, atMs: number): void {
    this.sql.setStripe.run(subscriptionId, status, atMs, id);
  }

  setProfile(id: string, profile: { conditions: Conditions | null; opening_hours: string | null; closed_until: number }, atMs: number): void {
    this.sql.setProfile.run(profile.conditions, profile.opening_hours, profile.closed_until, atMs, id);
  }

  /** Ends every closure whose 12 hours are over (closed_until back to 0); returns those listings. */
  endClosures(nowMs: number): ListingRow[] {
    return this.sql.endClosures.all({ now: nowMs }) as ListingRow[];
  }

  /** Carries listings and claims stored under a toilet's old id to its new one (an import's id move). */
  moveToilet(from: string, to: string, atMs: number): void {
    this.sql.moveToilet.run(to, atMs, from);
    this.sql.moveClaims.run(to, from);
  }

  setToiletState(id: string, state: ToiletState, atMs: number): void {
    this.sql.setToiletState.run(state, atMs, id);
  }
}
