// What billing needs of the partner listings (src/partners), as the smallest interface: whose listing it
// is and in what state, and the plan seam that billing reports each subscription it reads to. app.ts
// connects it to src/partners; billing never writes a listing itself. Inside billing's transaction the seam
// works on the listings' tables of that transaction (BillingTables.listings), so its writes commit with
// the event id.
import type { PartnerTier } from '../schemas/resources.js';
import type { Step } from '../storage/steps.js';
import type { BillingTables } from './store.js';

export interface BillableListing {
  id: string;
  /** null once its account was deleted. */
  account_id: string | null;
  name: string;
  claim_status: string;
  /** A plan the operator set by hand (npm run moderate -- plan) runs: billing sells none beside it. */
  manual_plan: boolean;
}

export interface StripePlan {
  /** The tier the subscription pays for while it runs; null while it does not. */
  tier: PartnerTier | null;
  subscriptionId: string;
  /** Stripe's status, as read from Stripe. */
  status: string;
}

export interface ListingPlans {
  listing(listingId: string): Promise<BillableListing | null>;
  /** listing(), inside billing's transaction. */
  listingIn(tables: BillingTables, listingId: string): Step<BillableListing | null>;
  /**
   * Sets the listing's plan from its subscription, unless a manual plan runs (the seam's own rule), inside
   * billing's transaction; answers the listing's toilet, for planShown once the transaction committed.
   */
  applyStripePlanIn(tables: BillingTables, listingId: string, plan: StripePlan): Step<string>;
  /** After the commit: the plans applied on these toilets show in the next answers. */
  planShown(toiletIds: readonly string[]): void;
}
