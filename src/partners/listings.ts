// listMyPartnerListings: the account's claims and listings with plan, profile and whether they show. One
// function, called by the REST operation, the web dashboard and the account MCP tool
// `get_my_partner_listings`; its answer is the PartnerListingList schema (src/schemas/partner-resources.ts).
// A running Plus plan adds the monthly figures (figures.ts); every other listing has `figures: null`.
import type { PartnerContext } from './context.js';
import { planOf, type PlanState } from './plans.js';
import { profileAnswer, type ProfileAnswer } from './profile.js';
import type { ClaimRow, ClaimStatus, ListingWithClaim, ToiletState } from './store.js';
import type { FigureMonth } from './figures.js';

export interface PartnerListingSummary {
  id: string;
  toilet_id: string;
  toilet_name: string | null;
  toilet_state: ToiletState;
  /** The toilet's IANA zone: the hours and closed_until are read at its local time. */
  time_zone: string | null;
  name: string;
  claim: { id: string; status: ClaimStatus; business_name: string; claimed_at: string; decided_at: string | null; reason: string | null };
  plan: PlanState;
  profile: ProfileAnswer;
  showing: boolean;
  notice: string | null;
  /** With a running Plus plan: the current UTC month and the 12 before it, newest first; else null. */
  figures: FigureMonth[] | null;
}

export async function listMyPartnerListings(context: PartnerContext, accountId: string): Promise<{ listings: PartnerListingSummary[] }> {
  const { store, toilets, now, figures } = context;
  const nowMs = now();
  const snapshot = toilets.snapshot;
  const listings = await store.read(function* (tables) {
    const found: { listing: ListingWithClaim; claim: ClaimRow; figures: FigureMonth[] | null }[] = [];
    for (const listing of yield* tables.listingsOfAccount(accountId)) {
      const plan = planOf(listing);
      const months = plan.running && plan.tier === 'plus' && figures ? yield* figures.months(tables, listing.id) : null;
      found.push({ listing, claim: (yield* tables.claim(listing.claim_id))!, figures: months });
    }
    return found;
  });
  return {
    listings: listings.map(({ listing, claim, figures: months }) => {
      const row = snapshot.rowOf(listing.toilet_id);
      const plan = planOf(listing);
      const showing = listing.claim_status === 'approved' && plan.running && listing.toilet_state === 'present' && row >= 0;
      return {
        id: listing.id,
        toilet_id: listing.toilet_id,
        toilet_name: row < 0 ? null : snapshot.table.name.get(row),
        toilet_state: listing.toilet_state,
        time_zone: row < 0 ? null : snapshot.table.timeZone.get(row),
        name: listing.name,
        claim: {
          id: claim.id,
          status: claim.status,
          business_name: claim.business_name,
          claimed_at: new Date(claim.created_at).toISOString(),
          decided_at: claim.decided_at === null ? null : new Date(claim.decided_at).toISOString(),
          reason: claim.decision_reason,
        },
        plan,
        profile: profileAnswer(listing, nowMs),
        showing,
        notice: noticeOf(listing, plan),
        figures: months,
      };
    }),
  };
}

/** The one thing the owner should know about a listing now, most pressing first. */
function noticeOf(listing: ListingWithClaim, plan: PlanState): string | null {
  if (listing.claim_status === 'pending') return 'A moderator reviews the claim; the listing can take a plan once it is approved.';
  if (listing.claim_status === 'rejected') return 'The claim was rejected (see the reason); this listing stays stopped. You may claim the toilet again.';
  if (listing.claim_status === 'withdrawn') return 'The claim ended with its account.';
  if (listing.toilet_state === 'gone') return 'A moderator marked this toilet gone, so the partner label does not show; the plan still runs. Report it if it is there.';
  if (listing.toilet_state === 'vanished') return 'The map data no longer has this toilet, so the partner label does not show; the plan still runs. It shows again if the toilet returns to the map.';
  if (!plan.running) return 'The claim is approved: choose a plan to show the partner label.';
  return null;
}
