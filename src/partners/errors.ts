// Why a partner operation is refused, as the one error the REST routes, the moderation module and the
// operator's command all turn into their own answer (a problem+json, a line and exit 1). The message says
// what to do; `kind` picks the status.
export type PartnerRefusal = 'not-found' | 'claim-conflict' | 'claim-not-approved' | 'no-running-plan' | 'invalid' | 'stripe-subscription' | 'own-claim';

export class PartnerError extends Error {
  constructor(
    readonly kind: PartnerRefusal,
    message: string,
    /** For `invalid`: the field at fault and why, as invalid_params lists it. */
    readonly param?: { name: string; reason: string },
  ) {
    super(message);
  }
}
