// Business claims: an account claims a toilet (claimToilet), which makes its partner listing at once; a
// moderator approves or rejects it (the moderation module and command call review here). Every change of
// a claim's status is appended to the account event log in the same transaction (README.md has the
// state machine). Contact details stay in the accounts database and reach only moderators.
import { randomBytes } from 'node:crypto';
import { PartnerError } from './errors.js';
import type { PartnerContext } from './context.js';
import type { ClaimRow, ClaimStatus, PartnerTables } from './store.js';
import type { Step } from '../storage/steps.js';
import type { SnapshotHolder } from '../toilets/snapshot.js';

export interface ClaimRequest {
  business_name: string;
  contact_email: string;
  contact_phone?: string;
  website?: string;
  note?: string;
}

export interface NewClaim {
  id: string;
  status: 'pending';
  listing: string;
}

/** A pending claim as the moderator's queue shows it. */
export interface QueuedClaim {
  id: string;
  claimed_at: string;
  listing_id: string;
  account_id: string | null;
  business_name: string;
  contact_email: string | null;
  contact_phone: string | null;
  website: string | null;
  note: string | null;
  toilet_id: string;
  /** The toilet as served now, or null when the current data no longer has it. */
  toilet: { name: string | null; lat: number; lon: number; gone: boolean } | null;
  /** Other pending or approved claims on the same toilet: approving this one rejects the pending ones. */
  other_claims: { id: string; status: ClaimStatus; business_name: string; claimed_at: string }[];
}

export interface ClaimDecision {
  claim: string;
  listing: string;
  toilet: string;
  status: 'approved' | 'rejected';
  /** partner.name from now on (approved claims). */
  name?: string;
  /** Other pending claims on the toilet, rejected with the approval. */
  rejected_others: string[];
}

/** Spec, Limits: business_name 2..80. */
const NAME_MIN = 2;
const NAME_MAX = 80;
const REJECTED_BY_APPROVAL = 'another claim on this toilet was approved';

export class PartnerClaims {
  constructor(private readonly context: PartnerContext) {}

  /**
   * claimToilet for a signed-in account (body already checked against ClaimToiletRequest): 404 for a toilet
   * not served (unknown, or marked gone by a moderator), 409 when this account has a pending or approved
   * claim on it or another business holds it; else the pending claim and its listing.
   */
  async claim(accountId: string, toiletId: string, request: ClaimRequest): Promise<NewClaim> {
    const { store, now, toilets } = this.context;
    if (toilets.snapshot.rowOf(toiletId) < 0) throw new PartnerError('not-found', `No toilet has the id ${toiletId}, or a moderator marked it gone: claim a toilet the finder shows.`);
    const ids = toilets.snapshot.aliases(toiletId);
    const website = request.website?.trim();
    if (website !== undefined && website !== '' && !/^https?:\/\//i.test(website)) {
      throw new PartnerError('invalid', 'Correct the body and send it again: website: must start with http:// or https://.', { name: 'website', reason: 'must be an http or https address' });
    }
    const name = request.business_name.trim();
    if (name.length < NAME_MIN) throw new PartnerError('invalid', `Correct the body and send it again: business_name: must have at least ${NAME_MIN} characters besides spaces.`, { name: 'business_name', reason: `must have ${NAME_MIN} to ${NAME_MAX} characters besides spaces` });
    return store.transaction(function* (tables) {
      const open = yield* tables.openClaimsOn(ids);
      const own = open.find((c) => c.account_id === accountId);
      if (own !== undefined) throw new PartnerError('claim-conflict', `This account already has a ${own.status} claim (${own.id}) on ${toiletId}; listMyPartnerListings shows it.`);
      if (open.some((c) => c.status === 'approved')) throw new PartnerError('claim-conflict', `Another business holds ${toiletId} (its claim was approved); a toilet has one partner.`);
      const nowMs = now();
      const claim = { id: `clm_${randomBytes(12).toString('hex')}`, account_id: accountId, toilet_id: toiletId, business_name: name, contact_email: request.contact_email, contact_phone: blankToNull(request.contact_phone), website: blankToNull(website), note: blankToNull(request.note), created_at: nowMs };
      yield* tables.insertClaim(claim);
      const listing = `pl_${randomBytes(16).toString('hex')}`;
      yield* tables.insertListing({ id: listing, claim_id: claim.id, account_id: accountId, toilet_id: toiletId, name, created_at: nowMs });
      yield* statusChanged(tables, claim.id, accountId, listing, toiletId, null, 'pending');
      return { id: claim.id, status: 'pending' as const, listing };
    });
  }

  /** The pending claims, oldest first, with what a moderator needs to decide them. */
  pending(): Promise<QueuedClaim[]> {
    const { store, toilets } = this.context;
    return store.read(function* (tables) {
      const snapshot = toilets.snapshot;
      const queued: QueuedClaim[] = [];
      for (const c of yield* tables.pendingClaims()) {
      const current = snapshot.currentId(c.toilet_id);
      const row = current === null ? -1 : snapshot.loadedRowOf(current);
      const t = snapshot.table;
      const toilet = row < 0 ? null : { name: t.name.get(row), lat: t.lat[row], lon: t.lon[row], gone: snapshot.rowOf(current!) < 0 };
      const others = (yield* tables.openClaimsOn(current === null ? [c.toilet_id] : snapshot.aliases(current))).filter((o) => o.id !== c.id);
      queued.push({
        id: c.id,
        claimed_at: new Date(c.created_at).toISOString(),
        listing_id: (yield* tables.listingOfClaim(c.id)).id,
        account_id: c.account_id,
        business_name: c.business_name,
        contact_email: c.contact_email,
        contact_phone: c.contact_phone,
        website: c.website,
        note: c.note,
        toilet_id: current ?? c.toilet_id,
        toilet,
        other_claims: others.map((o) => ({ id: o.id, status: o.status, business_name: o.business_name, claimed_at: new Date(o.created_at).toISOString() })),
      });
      }
      return queued;
    });
  }

  /**
   * Approves a pending claim, optionally correcting the business name (what partner.name shows), and
   * rejects the other pending claims on the toilet. Refused when another claim on it was approved meanwhile,
   * and when `decidedBy` (a site moderator's account; undefined: the operator) holds a claim on the toilet.
   */
  async approve(claimId: string, reason: string, name?: string, decidedBy?: string): Promise<ClaimDecision> {
    const { store, now } = this.context;
    const corrected = name?.trim();
    if (corrected !== undefined && (corrected.length < NAME_MIN || corrected.length > NAME_MAX)) {
      throw new PartnerError('invalid', `--name must have ${NAME_MIN} to ${NAME_MAX} characters (it is what partner.name shows)`);
    }
    const { toilets } = this.context;
    const decision = await store.transaction(function* (tables) {
      const claim = yield* pendingClaim(tables, toilets, claimId, decidedBy);
      const listing = yield* tables.listingOfClaim(claimId);
      const others = (yield* tables.openClaimsOn(toilets.snapshot.aliases(claim.toilet_id))).filter((o) => o.id !== claimId);
      const holder = others.find((o) => o.status === 'approved');
      if (holder !== undefined) throw new PartnerError('claim-conflict', `${holder.id} on ${claim.toilet_id} is approved already; reject ${claimId}, or end that one first`);
      const nowMs = now();
      yield* tables.decideClaim(claimId, 'pending', 'approved', nowMs, reason);
      if (corrected !== undefined && corrected !== listing.name) yield* tables.setName(listing.id, corrected, nowMs);
      yield* statusChanged(tables, claimId, claim.account_id, listing.id, claim.toilet_id, 'pending', 'approved');
      const rejected: string[] = [];
      for (const other of others) {
        yield* tables.decideClaim(other.id, 'pending', 'rejected', nowMs, REJECTED_BY_APPROVAL);
        const otherListing = yield* tables.listingOfClaim(other.id);
        yield* tables.stop(otherListing.id, nowMs);
        yield* statusChanged(tables, other.id, other.account_id, otherListing.id, other.toilet_id, 'pending', 'rejected');
        rejected.push(other.id);
      }
      return { claim: claimId, listing: listing.id, toilet: claim.toilet_id, status: 'approved' as const, name: corrected ?? listing.name, rejected_others: rejected };
    });
    this.context.changed([decision.toilet]);
    return decision;
  }

  /** Rejects a pending claim with the moderator's reason (shown to the business); its listing stops. Refused as approve is for `decidedBy`. */
  reject(claimId: string, reason: string, decidedBy?: string): Promise<ClaimDecision> {
    const { store, now, toilets } = this.context;
    return store.transaction(function* (tables) {
      const claim = yield* pendingClaim(tables, toilets, claimId, decidedBy);
      const listing = yield* tables.listingOfClaim(claimId);
      const nowMs = now();
      yield* tables.decideClaim(claimId, 'pending', 'rejected', nowMs, reason);
      yield* tables.stop(listing.id, nowMs);
      yield* statusChanged(tables, claimId, claim.account_id, listing.id, claim.toilet_id, 'pending', 'rejected');
      return { claim: claimId, listing: listing.id, toilet: claim.toilet_id, status: 'rejected' as const, rejected_others: [] };
    });
  }

  /**
   * What deleting an account does to its claims (a deletion hook): pending ones are rejected, approved ones
   * withdrawn (the toilet is free to claim again), every listing stops, contact details are erased; each
   * status change is logged. Idempotent.
   */
  async forgetAccount(accountId: string): Promise<void> {
    const { store, now } = this.context;
    const toilets = await store.transaction(function* (tables) {
      const nowMs = now();
      const touched: string[] = [];
      for (const claim of yield* tables.openClaimsOfAccount(accountId)) {
        const to: ClaimStatus = claim.status === 'pending' ? 'rejected' : 'withdrawn';
        yield* tables.decideClaim(claim.id, claim.status, to, nowMs, 'the account was deleted');
        yield* statusChanged(tables, claim.id, accountId, (yield* tables.listingOfClaim(claim.id)).id, claim.toilet_id, claim.status, to);
      }
      for (const listing of yield* tables.listingsOfAccount(accountId)) if (yield* tables.stop(listing.id, nowMs)) touched.push(listing.toilet_id);
      yield* tables.eraseContacts(accountId);
      return touched;
    });
    this.context.changed(toilets);
  }
}

/**
 * The pending claim a moderator decides. A site moderator (`decidedBy`) whose own account holds a pending
 * or approved claim on the toilet may not decide any claim on it: approving their own, or rejecting a rival's.
 */
function* pendingClaim(tables: PartnerTables, toilets: SnapshotHolder, claimId: string, decidedBy: string | undefined): Step<ClaimRow> {
  const claim = yield* tables.claim(claimId);
  if (claim === null) throw new PartnerError('not-found', `no claim has the id ${claimId}; see \`list claims\``);
  if (claim.status !== 'pending') throw new PartnerError('claim-conflict', `${claimId} is ${claim.status}, not pending; see \`list claims\``);
  if (decidedBy !== undefined && (yield* tables.openClaimsOn(toilets.snapshot.aliases(claim.toilet_id))).some((c) => c.account_id === decidedBy)) {
    throw new PartnerError('own-claim', `your account holds a claim on ${claim.toilet_id}, so another moderator must decide ${claimId} (or the operator, with npm run moderate)`);
  }
  return claim;
}

function* statusChanged(tables: PartnerTables, claimId: string, accountId: string | null, listingId: string, toiletId: string, from: ClaimStatus | null, to: ClaimStatus): Step<void> {
  if (accountId === null) return; // the account is gone: nobody to tell
  yield* tables.appendEvent({ account: accountId, type: 'partner.claim.status_changed', listing: listingId, toilet: toiletId, data: { claim_id: claimId, old_status: from, new_status: to } });
}

function blankToNull(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? null : trimmed;
}
