// Where the partner tables are kept (layout: src/partners/tables.ts): claims with their contact details,
// listings with plan, profile and the toilet's state, the Plus figures, and the account event log entries
// their changes append. One asynchronous interface for every engine; the SQLite implementation is
// sqlite-store.ts. A change is one transaction whose work is written once as Steps (src/storage/steps.ts):
// what it reads, what it decides and what it writes, so a read and the write that depends on it (a claim
// on a free toilet, a decision on a pending claim) cannot be split by another request. What the rows mean
// (the claim and listing state machines) is in README.md and the modules that run the transactions.
import type { NewAccountEvent } from '../accounts/event-log.js';
import type { Step } from '../storage/steps.js';

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

/** A UTC month's figures of a listing (figures.ts). */
export interface StoredFigures {
  /** 'YYYY-MM', UTC. */
  month: string;
  shown: number;
  opened: number;
}

/** The partner tables inside one transaction: every query a Step, read with `yield*`. */
export interface PartnerTables {
  claim(id: string): Step<ClaimRow | null>;
  /** Pending and approved claims on any of these toilet ids, oldest first. */
  openClaimsOn(toiletIds: readonly string[]): Step<ClaimRow[]>;
  pendingClaims(): Step<ClaimRow[]>;
  /** The account's pending and approved claims. */
  openClaimsOfAccount(accountId: string): Step<ClaimRow[]>;
  insertClaim(claim: Omit<ClaimRow, 'status' | 'decided_at' | 'decision_reason'>): Step<void>;
  /** Moves a claim from `from` to `to`; false when it was not in `from` (decided meanwhile). */
  decideClaim(id: string, from: ClaimStatus, to: ClaimStatus, atMs: number, reason: string | null): Step<boolean>;
  eraseContacts(accountId: string): Step<number>;
  /** Erases the contact details of claims decided at or before `beforeMs`. */
  eraseDecidedContacts(beforeMs: number): Step<number>;
  listing(id: string): Step<ListingWithClaim | null>;
  /** The listing made with the claim (every claim has one). */
  listingOfClaim(claimId: string): Step<ListingWithClaim>;
  listingsOfAccount(accountId: string): Step<ListingWithClaim[]>;
  /** Listings whose claim is pending or approved and that were not stopped: those whose toilet matters. */
  activeListings(): Step<ListingWithClaim[]>;
  /** The active listings stored under any of these toilet ids. */
  activeListingsOn(toiletIds: readonly string[]): Step<ListingWithClaim[]>;
  /** Every listing that shows a partner object when its toilet is served. */
  showingListings(): Step<ListingWithClaim[]>;
  insertListing(listing: Pick<ListingRow, 'id' | 'claim_id' | 'account_id' | 'toilet_id' | 'name' | 'created_at'>): Step<void>;
  setName(id: string, name: string, atMs: number): Step<void>;
  /** Stops a listing; false when it was stopped before. */
  stop(id: string, atMs: number): Step<boolean>;
  setPlan(id: string, tier: PlanTier | null, source: PlanSource, atMs: number): Step<void>;
  setStripe(id: string, subscriptionId: string | null, status: string | null, atMs: number): Step<void>;
  setProfile(id: string, profile: { conditions: Conditions | null; opening_hours: string | null; closed_until: number }, atMs: number): Step<void>;
  /** Whether a closure's 12 hours are over and not yet recorded (a read: the poll takes no write lock for nothing). */
  closureOver(nowMs: number): Step<boolean>;
  /** Ends every closure whose 12 hours are over (closed_until back to 0); returns those listings. */
  endClosures(nowMs: number): Step<ListingRow[]>;
  /** Carries listings and claims stored under a toilet's old id to its new one (an import's id move). */
  moveToilet(from: string, to: string, atMs: number): Step<void>;
  setToiletState(id: string, state: ToiletState, atMs: number): Step<void>;
  /** Adds counts to the listing's month (figures.ts: each process folds its own, additively). */
  addFigures(listingId: string, month: string, shown: number, opened: number): Step<void>;
  /** The listing's stored months from `fromMonth` on. */
  figuresSince(listingId: string, fromMonth: string): Step<StoredFigures[]>;
  /** Appends to the account event log, in this transaction: the entry commits with its change or not at all. */
  appendEvent(event: NewAccountEvent): Step<void>;
}

/**
 * What the partner overlay reads while the catalog merges overlays (synchronously, at a load or an
 * overlay change): the listings that show a partner object.
 */
export interface ShowingListings {
  /** Every listing that shows a partner object when its toilet is served. */
  all(): ListingWithClaim[];
  /** The showing listing stored under any of these ids of one toilet (at most one: claims exclude each other). */
  on(toiletIds: readonly string[]): ListingWithClaim | null;
}

export interface PartnerStore {
  /**
   * Runs `work` as one transaction that changes the tables, as if nothing else ran meanwhile; what it
   * answers, once committed. A throw inside it rolls everything back and rejects with that error.
   */
  transaction<T>(work: (tables: PartnerTables) => Step<T>): Promise<T>;
  /** Runs reads that see one state of the tables (work must not write). */
  read<T>(work: (tables: PartnerTables) => Step<T>): Promise<T>;
  /** A number that changes when another process committed to the tables (the moderation command). */
  dataVersion(): Promise<number>;
  /** The showing listings, for the overlay (read synchronously: see ShowingListings). */
  readonly showing: ShowingListings;
}
