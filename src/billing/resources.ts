// The bodies of the billing operations (startCheckout, openBillingPortal, the payment provider's webhook)
// as JSON Schema literals. Data only: its slice names them (the catalogue, src/resources.ts).
import { closedObject, schemaId } from '../schemas/refs.js';
import { PARTNER_TIER, URI, type SchemasOf } from '../schemas/resources.js';
import { LISTING_ID } from '../partners/resources.js';

export const StartCheckoutRequest = closedObject('StartCheckoutRequest', 'Buys a partner listing through the payment provider.', {
  listing: LISTING_ID,
  tier: { type: 'string', enum: PARTNER_TIER },
});

export const OpenBillingPortalRequest = closedObject('OpenBillingPortalRequest', "Opens the payment provider's portal for a listing.", {
  listing: LISTING_ID,
});

export const HostedPageAnswer = closedObject('HostedPageAnswer', 'A page hosted by the payment provider (checkout or portal).', {
  url: URI,
});

export const WebhookEvent = {
  $id: schemaId('WebhookEvent'),
  description: "An event of the payment provider, at most 512 KB, signed in the provider's signature header. The handler does not trust its body.",
  type: 'object',
} as const;

export const WebhookAnswer = closedObject(
  'WebhookAnswer',
  'The event was received.',
  {
    received: { type: 'boolean', const: true },
    duplicate: { type: 'boolean', description: 'true when the event id was processed before.' },
  },
  ['duplicate'],
);

export const BILLING_SCHEMAS = { StartCheckoutRequest, OpenBillingPortalRequest, HostedPageAnswer, WebhookEvent, WebhookAnswer } as const;

declare module '../schemas/resources.js' {
  interface SchemaCatalogue extends SchemasOf<typeof BILLING_SCHEMAS> {}
}
