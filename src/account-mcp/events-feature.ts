// The events extension (io.modelcontextprotocol/events) on /mcp/account: advertised in server/discover's
// capabilities.extensions only to modern-era requests and only while the delivery relay is ready; when it
// is not, events/* are not registered either (the SDK then answers -32601, as for a server without the
// extension). events/list, events/subscribe and events/unsubscribe (webhook mode) act for the grant the
// access token belongs to; their errors are the extension's numbers (src/account-events/subscriptions.ts),
// and a store that cannot answer is the endpoint's 503 (storeUnavailable), as for every /mcp/account request.
import type { AuthInfo, McpServer } from '@modelcontextprotocol/server';
import type { McpSdk } from '../mcp/sdk.js';
import { EVENTS_EXTENSION, eventDescriptors } from '../account-events/descriptors.js';
import type { EventRelay } from '../account-events/relay.js';
import { EventError, type Caller, type Subscriptions } from '../account-events/subscriptions.js';
import { principalOf, storeUnavailable, type AccountFeature } from './endpoint.js';
import type { ListingsReader } from './listings-tool.js';

export function eventsFeature(relay: EventRelay, subscriptions: Subscriptions, listings: ListingsReader): AccountFeature {
  const caller = async (authInfo: Parameters<typeof principalOf>[0]): Promise<Caller> => {
    const principal = principalOf(authInfo);
    const own = (await listings(principal.account)).listings as { id: string; toilet_id: string }[];
    return { ...principal, listings: own };
  };
  // zod (the SDK's schema library) comes with the SDK, at the first request
  let params: ReturnType<(typeof import('zod'))['looseObject']> | undefined;
  return {
    load: async () => {
      const z = await import('zod');
      params = z.looseObject({});
    },
    capabilities: (era) => (era === 'modern' && relay.ready() ? { extensions: { [EVENTS_EXTENSION]: { listChanged: false } } } : {}),
    register(server: McpServer, { ProtocolError }: McpSdk): void {
      if (!relay.ready()) return;
      if (params === undefined) throw new Error('the events feature registered before its load() finished');
      /** A refusal in the extension's numbers; a store that cannot answer as every /mcp/account request answers it. */
      const asProtocolError = (error: unknown, authInfo: AuthInfo | undefined, what: string): never => {
        if (error instanceof EventError) throw new ProtocolError(error.code, error.message, error.data);
        const unavailable = storeUnavailable(authInfo, error, what);
        if (unavailable !== null) throw new ProtocolError(unavailable.code, unavailable.message, unavailable.data);
        throw error;
      };
      const low = server.server;
      low.setRequestHandler('events/list', { params }, () => ({ events: eventDescriptors() }));
      low.setRequestHandler('events/subscribe', { params }, async (params, ctx) => {
        try {
          return await subscriptions.subscribe(await caller(ctx.http?.authInfo), params);
        } catch (error) {
          return asProtocolError(error, ctx.http?.authInfo, 'The subscription cannot be made or refreshed now');
        }
      });
      low.setRequestHandler('events/unsubscribe', { params }, async (params, ctx) => {
        try {
          return await subscriptions.unsubscribe(await caller(ctx.http?.authInfo), params);
        } catch (error) {
          return asProtocolError(error, ctx.http?.authInfo, 'The subscription cannot be removed now');
        }
      });
    },
  };
}
