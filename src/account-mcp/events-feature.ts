// The events extension (io.modelcontextprotocol/events) on /mcp/account: advertised in server/discover's
// capabilities.extensions only to modern-era requests and only while the delivery relay is ready; when it
// is not, events/* are not registered either (the SDK then answers -32601, as for a server without the
// extension). events/list, events/subscribe and events/unsubscribe (webhook mode) act for the grant the
// access token belongs to; their errors are the extension's numbers (src/account-events/subscriptions.ts).
import { ProtocolError, type McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { EVENTS_EXTENSION, eventDescriptors } from '../account-events/descriptors.js';
import type { EventRelay } from '../account-events/relay.js';
import { EventError, type Caller, type Subscriptions } from '../account-events/subscriptions.js';
import { principalOf, type AccountFeature } from './endpoint.js';
import type { ListingsReader } from './listings-tool.js';

const PARAMS = z.looseObject({});

export function eventsFeature(relay: EventRelay, subscriptions: Subscriptions, listings: ListingsReader): AccountFeature {
  const caller = (authInfo: Parameters<typeof principalOf>[0]): Caller => {
    const principal = principalOf(authInfo);
    const own = listings(principal.account).listings as { id: string; toilet_id: string }[];
    return { ...principal, listings: own };
  };
  const asProtocolError = (error: unknown): never => {
    if (error instanceof EventError) throw new ProtocolError(error.code, error.message, error.data);
    throw error;
  };
  return {
    capabilities: (era) => (era === 'modern' && relay.ready() ? { extensions: { [EVENTS_EXTENSION]: { listChanged: false } } } : {}),
    register(server: McpServer): void {
      if (!relay.ready()) return;
      const low = server.server;
      low.setRequestHandler('events/list', { params: PARAMS }, () => ({ events: eventDescriptors() }));
      low.setRequestHandler('events/subscribe', { params: PARAMS }, (params, ctx) => subscriptions.subscribe(caller(ctx.http?.authInfo), params).catch(asProtocolError));
      low.setRequestHandler('events/unsubscribe', { params: PARAMS }, (params, ctx) => {
        try {
          return subscriptions.unsubscribe(caller(ctx.http?.authInfo), params);
        } catch (error) {
          return asProtocolError(error);
        }
      });
    },
  };
}
