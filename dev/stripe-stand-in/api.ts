// The subset of Stripe's REST API (https://api.stripe.com/v1) the service calls, read as the real API reads
// it: bearer secret key, form-encoded bodies with bracket keys, idempotency keys on POSTs (a key reused
// with other parameters is refused, the same parameters get the first answer again), errors as
// `{"error": {type, message, param, code}}` with the real statuses, which the SDK turns into its own
// error classes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { canonical, parseForm, type FormValue } from './form.js';
import { ApiRefusal, type StandInState } from './state.js';

type Form = Record<string, FormValue>;

/** The id in a path, by the prefixes of the objects modelled. */
const OBJECT_ID = /^(cus|cs|sub|price|bps)_/;

interface Remembered {
  request: string;
  status: number;
  body: string;
}

export interface ApiOptions {
  secretKey: string;
  state: StandInState;
}

export class StandInApi {
  /** While true, every API request has its connection closed unanswered, as when Stripe cannot be reached. */
  unreachable = false;
  /** Requests received, as `METHOD /path`, for tests. */
  readonly requests: { method: string; path: string; form: Form; idempotencyKey: string | null }[] = [];
  /** Called before an API request is answered; a test may hold it (a promise) to kill the service meanwhile. */
  beforeAnswer: ((method: string, path: string) => Promise<void> | void) | null = null;
  private readonly idempotency = new Map<string, Remembered>();

  constructor(private readonly options: ApiOptions) {}

  async handle(request: IncomingMessage, response: ServerResponse, body: string): Promise<void> {
    if (this.unreachable) {
      request.socket.destroy();
      return;
    }
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const method = request.method ?? 'GET';
    const form = method === 'GET' ? parseForm(url.search.slice(1)) : parseForm(body);
    const idempotencyKey = (request.headers['idempotency-key'] as string | undefined) ?? null;
    this.requests.push({ method, path: url.pathname, form, idempotencyKey });
    await this.beforeAnswer?.(method, url.pathname);
    if (request.headers.authorization !== `Bearer ${this.options.secretKey}`) {
      return send(response, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    }
    const fingerprint = `${method} ${url.pathname} ${canonical(form)}`;
    if (method === 'POST' && idempotencyKey !== null) {
      const earlier = this.idempotency.get(idempotencyKey);
      if (earlier !== undefined) {
        if (earlier.request !== fingerprint) {
          return send(response, 400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          });
        }
        response.setHeader('Idempotent-Replayed', 'true');
        return sendText(response, earlier.status, earlier.body);
      }
    }
    let status = 200;
    let answer: unknown;
    try {
      answer = this.route(method, url.pathname, form);
    } catch (error) {
      if (!(error instanceof ApiRefusal)) throw error;
      status = error.status;
      answer = { error: { type: error.type, message: error.message, ...(error.param ? { param: error.param } : {}), ...(error.code ? { code: error.code } : {}) } };
    }
    const text = JSON.stringify(answer, (key, value: unknown) => (key === 'stand_in' ? undefined : value), 2);
    // Stripe keeps a key's answer for 24 hours, refusals (4xx other than 409) included
    if (method === 'POST' && idempotencyKey !== null) this.idempotency.set(idempotencyKey, { request: fingerprint, status, body: text });
    sendText(response, status, text);
  }

  private route(method: string, path: string, form: Form): unknown {
    const { state } = this.options;
    const [, version, ...parts] = path.split('/');
    if (version !== 'v1') throw new ApiRefusal(404, `Unrecognized request URL (${method}: ${path}).`);
    const isId = (part: string) => OBJECT_ID.test(part);
    const route = `${method} /${parts.map((part) => (isId(part) ? ':id' : part)).join('/')}`;
    const id = parts.find(isId) ?? '';
    switch (route) {
      case 'POST /customers':
        return state.createCustomer({ email: text(form.email), name: text(form.name), metadata: record(form.metadata) });
      case 'GET /customers/:id':
        return state.customer(id);
      case 'GET /prices/:id':
        return state.price(id, 'price');
      case 'POST /checkout/sessions': {
        const lineItems = Array.isArray(form.line_items) ? form.line_items : [];
        if (lineItems.length !== 1) throw new ApiRefusal(400, 'The stand-in models one line item.', 'invalid_request_error', 'line_items');
        const item = lineItems[0] as Form;
        const subscriptionData = (form.subscription_data ?? {}) as Form;
        return state.createSession({
          mode: text(form.mode),
          priceId: text(item.price),
          quantity: Number(text(item.quantity) ?? '1'),
          customer: text(form.customer),
          customerUpdateAddress: text((form.customer_update as Form | undefined)?.address),
          automaticTax: text((form.automatic_tax as Form | undefined)?.enabled) === 'true',
          billingAddressCollection: text(form.billing_address_collection),
          successUrl: text(form.success_url),
          cancelUrl: text(form.cancel_url),
          clientReferenceId: text(form.client_reference_id),
          metadata: record(form.metadata),
          subscriptionMetadata: record(subscriptionData.metadata),
          expiresAt: form.expires_at === undefined ? undefined : Number(text(form.expires_at)),
        });
      }
      case 'GET /checkout/sessions/:id':
        return state.session(id);
      case 'POST /checkout/sessions/:id/expire':
        return state.expireSession(id);
      case 'GET /subscriptions/:id':
        return state.subscription(id);
      case 'DELETE /subscriptions/:id':
        return state.cancel(id);
      case 'POST /billing_portal/sessions': {
        const customer = text(form.customer);
        if (customer === undefined) throw new ApiRefusal(400, 'Missing required param: customer.', 'invalid_request_error', 'customer', 'parameter_missing');
        return state.createPortal(customer, text(form.return_url));
      }
      default:
        throw new ApiRefusal(404, `Unrecognized request URL (${method}: ${path}). The stand-in does not model it (dev/stripe-stand-in/README.md).`);
    }
  }
}

function text(value: FormValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function record(value: FormValue | undefined): Record<string, string> {
  if (value === undefined || typeof value === 'string' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function send(response: ServerResponse, status: number, body: unknown): void {
  sendText(response, status, JSON.stringify(body));
}

function sendText(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${Math.random().toString(36).slice(2, 14)}`, 'Stripe-Version': '2026-10-28.endive' });
  response.end(body);
}
