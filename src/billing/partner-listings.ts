// The seam of listings.ts over src/partners: the listing as the partner store holds it, and its plan seam
// (PartnerPlans.applyStripePlan, which never touches a running manual plan).
import type { Partners } from '../partners/partners.js';
import type { ListingPlans } from './listings.js';

export function partnerListings(partners: Partners): ListingPlans {
  return {
    listing(listingId) {
      const found = partners.store.listing(listingId);
      if (found === null) return null;
      return { id: found.id, account_id: found.account_id, name: found.name, claim_status: found.claim_status, manual_plan: found.plan_source === 'manual' && found.plan_tier !== null };
    },
    applyStripePlan(listingId, plan) {
      partners.plans.applyStripePlan(listingId, plan);
    },
  };
}
