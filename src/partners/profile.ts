// The partner profile (updatePartnerProfile): the business's own statements (conditions, opening hours)
// and the live switch. Only the owner, with an approved claim and a running plan, changes it; each
// accepted change appends `partner.profile.updated` in its transaction. The end of a 12-hour closure needs
// no write for the answers (they compare closed_until with the clock); endClosures records it afterwards
// (closed_until back to 0) with its event, driven by the injected clock.
import { checkHours, compileHours, type HoursPlace } from '../hours/index.js';
import { countryAt, timeZoneAt } from '../geo/where.js';
import { businessHoursPlace } from '../toilets/snapshot.js';
import { PartnerError } from './errors.js';
import type { PartnerContext } from './context.js';
import { planOf } from './plans.js';
import type { Conditions, ListingRow, ListingWithClaim, PartnerTables } from './store.js';
import type { Step } from '../storage/steps.js';

/** Spec, Limits: temporary closure. */
export const CLOSURE_MS = 12 * 3_600_000;

export interface ProfileChange {
  conditions?: Conditions | null;
  opening_hours?: string | null;
  open_now?: boolean;
}

/** The 200 body of updatePartnerProfile (PartnerProfileAnswer). */
export interface ProfileAnswer {
  conditions: Conditions | null;
  opening_hours: string | null;
  /** Epoch ms; 0 when the live switch is on. */
  closed_until: number;
  /** The live switch: false while closed for now. */
  open_now: boolean;
}

/** The 200 body of checkPartnerHours (PartnerHoursCheck): the hours as they would be stored and what the label would say with them now. */
export interface HoursPreview {
  opening_hours: string | null;
  open_now: boolean | 'unknown';
  closes_at: string | null;
}

export function profileAnswer(listing: Pick<ListingRow, 'conditions' | 'opening_hours' | 'closed_until'>, nowMs: number): ProfileAnswer {
  const closedUntil = listing.closed_until > nowMs ? listing.closed_until : 0;
  return { conditions: listing.conditions, opening_hours: listing.opening_hours, closed_until: closedUntil, open_now: closedUntil === 0 };
}

export class PartnerProfiles {
  constructor(private readonly context: PartnerContext) {}

  /**
   * The owner's listing, ready for a profile change: 404 when the account has no listing with the id, 409
   * when its claim is not approved or its plan does not run.
   */
  async editable(accountId: string, listingId: string): Promise<ListingWithClaim> {
    return this.context.store.read((tables) => editableIn(tables, accountId, listingId));
  }

  /** The owner's listing in whatever state: 404 when the account has no listing with the id. */
  async owned(accountId: string, listingId: string): Promise<ListingWithClaim> {
    return this.context.store.read((tables) => ownedIn(tables, accountId, listingId));
  }

  /**
   * checkPartnerHours: the dashboard's check of hours being typed, by exactly the validation
   * updatePartnerProfile does (400 naming the fault), with what the label would say with them now (the
   * live switch aside). Changes nothing.
   */
  async previewHours(accountId: string, listingId: string, value: string | null): Promise<HoursPreview> {
    const listing = await this.owned(accountId, listingId);
    const hours = this.checkedHours(value, listing.toilet_id);
    const state = hours === null ? null : compileHours(hours, this.placeOf(listing.toilet_id))?.stateAt(this.context.now());
    return { opening_hours: hours, open_now: state?.open_now ?? 'unknown', closes_at: state?.closes_at ?? null };
  }

  /** Applies a change the owner sent (checked against UpdatePartnerProfileRequest); the 200 body. */
  async update(accountId: string, listingId: string, change: ProfileChange): Promise<ProfileAnswer> {
    const { store, now } = this.context;
    const nowMs = now();
    const checkedHours = (value: string | null, toiletId: string) => this.checkedHours(value, toiletId);
    const outcome = await store.transaction(function* (tables) {
      const listing = yield* editableIn(tables, accountId, listingId);
      const next = { conditions: listing.conditions, opening_hours: listing.opening_hours, closed_until: listing.closed_until > nowMs ? listing.closed_until : 0 };
      const changed: string[] = [];
      if (change.conditions !== undefined && change.conditions !== next.conditions) {
        next.conditions = change.conditions;
        changed.push('conditions');
      }
      if (change.opening_hours !== undefined) {
        const hours = checkedHours(change.opening_hours, listing.toilet_id);
        if (hours !== next.opening_hours) {
          next.opening_hours = hours;
          changed.push('opening_hours');
        }
      }
      if (change.open_now !== undefined) {
        // false closes for 12 hours from now (again, when closed already); true ends a closure at once
        const closedUntil = change.open_now ? 0 : nowMs + CLOSURE_MS;
        if (closedUntil !== next.closed_until) {
          next.closed_until = closedUntil;
          changed.push('open_now');
        }
      }
      if (changed.length > 0) {
        yield* tables.setProfile(listingId, next, nowMs);
        yield* tables.appendEvent({ account: accountId, type: 'partner.profile.updated', listing: listingId, toilet: listing.toilet_id, data: { changed, by: 'owner', open_now: next.closed_until === 0, closed_until: next.closed_until } });
      }
      return { toilet: listing.toilet_id, answer: profileAnswer(next, nowMs), changed: changed.length > 0 };
    });
    if (outcome.changed) this.context.changed([outcome.toilet]);
    return outcome.answer;
  }

  /**
   * Records the closures whose 12 hours are over: closed_until back to 0, and `partner.profile.updated`
   * for each, in one transaction. The answers followed the business hours again already.
   */
  async endClosures(): Promise<number> {
    const { store, now } = this.context;
    const nowMs = now();
    if (!(await store.read((tables) => tables.closureOver(nowMs)))) return 0;
    const ended = await store.transaction(function* (tables) {
      const listings = yield* tables.endClosures(nowMs);
      for (const listing of listings) {
        if (listing.account_id === null) continue;
        yield* tables.appendEvent({ account: listing.account_id, type: 'partner.profile.updated', listing: listing.id, toilet: listing.toilet_id, data: { changed: ['open_now'], by: 'closure_ended', open_now: true, closed_until: 0 } });
      }
      return listings;
    });
    if (ended.length > 0) this.context.changed(ended.map((l) => l.toilet_id));
    return ended.length;
  }

  /** The hours to store: null for empty or null; 400 naming the fault when the evaluator cannot read them. */
  private checkedHours(value: string | null, toiletId: string): string | null {
    const hours = value?.trim() ?? '';
    if (hours === '') return null;
    const check = checkHours(hours, this.placeOf(toiletId));
    if (!check.ok) {
      const reason = `is not opening_hours syntax the finder can evaluate: ${check.reason}`;
      throw new PartnerError('invalid', `Correct the body and send it again: opening_hours: ${reason}.`, { name: 'opening_hours', reason });
    }
    return hours;
  }

  /** Where the toilet is, for its hours, as the answers evaluate them (businessHoursPlace); not loaded: 0, 0. */
  private placeOf(toiletId: string): HoursPlace {
    const snapshot = this.context.toilets.snapshot;
    const current = snapshot.currentId(toiletId);
    const row = current === null ? -1 : snapshot.loadedRowOf(current);
    return row < 0 ? { lat: 0, lon: 0, country: countryAt(0, 0), timeZone: timeZoneAt(0, 0) } : businessHoursPlace(snapshot.table, row);
  }
}

/** The owner's listing in whatever state: 404 when the account has no listing with the id. */
function* ownedIn(tables: PartnerTables, accountId: string, listingId: string): Step<ListingWithClaim> {
  const listing = yield* tables.listing(listingId);
  if (listing === null || listing.account_id !== accountId) throw new PartnerError('not-found', `This account has no partner listing ${listingId}; listMyPartnerListings lists its listings.`);
  return listing;
}

/** The owner's listing ready for a profile change: 409 when its claim is not approved or its plan does not run. */
function* editableIn(tables: PartnerTables, accountId: string, listingId: string): Step<ListingWithClaim> {
  const listing = yield* ownedIn(tables, accountId, listingId);
  if (listing.claim_status !== 'approved') throw new PartnerError('claim-not-approved', `The claim of this listing is ${listing.claim_status}, not approved: a moderator reviews it first; listMyPartnerListings shows its status.`);
  if (!planOf(listing).running) throw new PartnerError('no-running-plan', 'This listing has no running plan: buy one (startCheckout) first; the profile shows while the plan runs.');
  return listing;
}
