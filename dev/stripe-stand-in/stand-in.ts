// A small fake of Stripe on loopback for the tests and for trying the partner flow locally before using
// real keys: the API subset the service calls (api.ts), the hosted checkout and portal pages (pages.ts) and
// signed webhook delivery (webhooks.ts), over one state (state.ts). The real `stripe` SDK talks to it
// through its host/port/protocol options (the service: STRIPE_API_BASE). README.md says what it does not model.
import { createServer, type Server } from 'node:http';
import { StandInApi } from './api.js';
import { StandInPages } from './pages.js';
import { StandInState, type PriceSetting } from './state.js';
import { WebhookDelivery } from './webhooks.js';

export const STAND_IN_SECRET_KEY = 'sk_test_stand_in';
export const STAND_IN_WEBHOOK_SECRET = 'whsec_stand_in';
/** Net monthly prices: one per partner tier, and a retired one no tier is configured with. */
export const STAND_IN_PRICES: readonly PriceSetting[] = [
  { id: 'price_stand_in_basic', nickname: 'basic', unitAmount: 900, currency: 'eur' },
  { id: 'price_stand_in_plus', nickname: 'plus', unitAmount: 1900, currency: 'eur' },
  { id: 'price_stand_in_retired', nickname: 'retired', unitAmount: 500, currency: 'eur' },
];

export interface StandInOptions {
  /** Default 0: any free port. */
  port?: number;
  host?: string;
  /** The service's webhook URL (…/api/v1/billing/webhook); can be set later. */
  webhookUrl?: string | null;
  now?: () => number;
  /** Waits before the retries of a failed delivery (default 1, 2, 4 … seconds, 8 retries). */
  retryDelaysMs?: readonly number[];
}

export interface StandIn {
  /** http://127.0.0.1:<port>: STRIPE_API_BASE, and where its pages are. */
  url: string;
  port: number;
  state: StandInState;
  api: StandInApi;
  webhooks: WebhookDelivery;
  /** The settings a service needs to use it. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startStandIn(options: StandInOptions = {}): Promise<StandIn> {
  const now = options.now ?? Date.now;
  const host = options.host ?? '127.0.0.1';
  let url = '';
  const webhooks = new WebhookDelivery({
    url: options.webhookUrl ?? null,
    secret: STAND_IN_WEBHOOK_SECRET,
    now,
    retryDelaysMs: options.retryDelaysMs ?? [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000],
  });
  const state = new StandInState(STAND_IN_PRICES, () => url, now, (type, object) => webhooks.emitEvent(type, object));
  const api = new StandInApi({ secretKey: STAND_IN_SECRET_KEY, state });
  const pages = new StandInPages(state);
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const done = request.url?.startsWith('/v1/') ? api.handle(request, response, body) : Promise.resolve(pages.handle(request, response, body) || notFound(response));
      done.catch((error: unknown) => {
        response.writeHead(500, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const port = (server.address() as { port: number }).port;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    port,
    state,
    api,
    webhooks,
    env: {
      STRIPE_SECRET_KEY: STAND_IN_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: STAND_IN_WEBHOOK_SECRET,
      STRIPE_PRICE_BASIC: STAND_IN_PRICES[0].id,
      STRIPE_PRICE_PLUS: STAND_IN_PRICES[1].id,
      STRIPE_API_BASE: url,
    },
    close: async () => {
      webhooks.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function notFound(response: import('node:http').ServerResponse): true {
  response.writeHead(404, { 'Content-Type': 'text/plain' });
  response.end('The stand-in has no page here.\n');
  return true;
}
