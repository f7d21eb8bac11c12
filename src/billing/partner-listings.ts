// The seam of listings.ts over src/partners: the listing as the partner store holds it, and its plan seam
// (PartnerPlans.applyStripePlanIn, which never touches a running manual plan), on the partner tables of
// billing's transaction.
import type { Partners } from '../partners/partners.js';
import type { ListingWithClaim, PartnerTables } from '../partners/store.js';
import type { BillableListing, ListingPlans } from './listings.js';
import type { BillingTables } from './store.js';

export function partnerListings(partners: Partners): ListingPlans {
  const partnerTables = (tables: BillingTables) => tables.listings as PartnerTables;
  return {
    async listing(listingId) {
      return billable(await partners.store.read((tables) => tables.listing(listingId)));
    },
    *listingIn(tables, listingId) {
      return billable(yield* partnerTables(tables).listing(listingId));
    },
    *applyStripePlanIn(tables, listingId, plan) {
      return (yield* partners.plans.applyStripePlanIn(partnerTables(tables), listingId, plan)).toilet;
    },
    planShown(toiletIds) {
      partners.context.changed(toiletIds);
    },
  };
}

function billable(found: ListingWithClaim | null): BillableListing | null {
  if (found === null) return null;
  return { id: found.id, account_id: found.account_id, name: found.name, claim_status: found.claim_status, manual_plan: found.plan_source === 'manual' && found.plan_tier !== null };
}
