// What a moderator does with business claims and partner plans, in the one moderation module for the
// command line and the site's moderator queue: the pending claims with their context, approve (optionally
// correcting the business name partner.name shows) or reject with a reason, and the operator's manual plan.
// Each action is recorded in the moderation log like every other (Moderation.act), with ids only: the
// contact details stay in the accounts database. The partner module does the work (src/partners). A site
// moderator never decides a claim on a toilet their own account claims; the command acts for the install.
import { PartnerClaims, type QueuedClaim } from '../partners/claims.js';
import { PartnerPlans } from '../partners/plans.js';
import { PartnerError } from '../partners/errors.js';
import type { PartnerContext } from '../partners/context.js';
import type { PlanTier } from '../partners/store.js';
import { actor, ModerationError, type Moderation } from './moderation.js';

export const PLAN_CHOICES = ['basic', 'plus', 'none'] as const;

/** A site moderator's decision on a toilet where their own account holds a claim: another moderator must decide. */
export class OwnClaimRefused extends ModerationError {}

export class ClaimModeration {
  private readonly claims: PartnerClaims;
  private readonly plans: PartnerPlans;

  constructor(
    private readonly moderation: Moderation,
    context: PartnerContext,
  ) {
    this.claims = new PartnerClaims(context);
    this.plans = new PartnerPlans(context);
  }

  /** The pending claims, oldest first, with the toilet, the business, its contact details and the other claims on the toilet. */
  pending(): QueuedClaim[] {
    return this.claims.pending();
  }

  /** `by`: the moderator's account when a site moderator acts (the command line is the operator). */
  approve(claimId: string, reason: string, name?: string, by?: string): Promise<string> {
    return refusedAsModeration(() =>
      this.moderation.act('approve_claim', claimId, reason, actor(name === undefined ? {} : { name }, by), () => {
        const done = this.claims.approve(claimId, reason, name, by);
        const others = done.rejected_others.length > 0 ? `; rejected the other pending claims on it: ${done.rejected_others.join(', ')}` : '';
        return `approved ${claimId}: listing ${done.listing} on ${done.toilet} shows as "${done.name}" once a plan runs${others}`;
      }),
    );
  }

  reject(claimId: string, reason: string, by?: string): Promise<string> {
    return refusedAsModeration(() =>
      this.moderation.act('reject_claim', claimId, reason, actor({}, by), () => {
        const done = this.claims.reject(claimId, reason, by);
        return `rejected ${claimId} (listing ${done.listing} on ${done.toilet}); the business sees the reason`;
      }),
    );
  }

  /** The operator's plan (`manual`): basic, plus, or none. Refused while a Stripe subscription is open. */
  async plan(listingId: string, choice: string, reason: string): Promise<string> {
    if (!(PLAN_CHOICES as readonly string[]).includes(choice)) throw new ModerationError(`${choice} is not a plan; use one of ${PLAN_CHOICES.join(', ')}`);
    const tier = choice === 'none' ? null : (choice as PlanTier);
    return refusedAsModeration(() =>
      this.moderation.act('plan', listingId, reason, { tier }, () => {
        const state = this.plans.setManualPlan(listingId, tier);
        return state.running ? `${listingId} runs the ${state.tier} plan (manual)` : `${listingId} has no plan now (manual)`;
      }),
    );
  }
}

/** A refusal of the partner module, said as the moderation command says every refusal (exit 1). */
async function refusedAsModeration<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PartnerError) throw error.kind === 'own-claim' ? new OwnClaimRefused(error.message) : new ModerationError(error.message);
    throw error;
  }
}
