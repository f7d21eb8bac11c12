// Shared by the billing tests: the real service (test/accounts/support.ts) configured for the Stripe
// stand-in (dev/stripe-stand-in) on another loopback port, which the real `stripe` SDK talks to and which
// delivers signed events to the service's webhook; a business with a claim a moderator approved; and a
// purchase clicked through the stand-in's hosted page.
import assert from 'node:assert/strict';
import { Browser, startAccountsService } from '../accounts/support.js';
import type { Clock, Data, Service } from '../community/support.js';
import { claimAs, type Listed } from '../partners/support.js';
import { startStandIn, type StandIn } from '../../dev/stripe-stand-in/stand-in.js';
import type { Logger } from '../../src/log.js';

export interface LogLine {
  level: 'info' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

/** A logger that keeps every line, to check what was (and was not) logged. */
export function keptLog(): Logger & { lines: LogLine[]; text(): string } {
  const lines: LogLine[] = [];
  return {
    lines,
    info: (message: string, fields?: Record<string, unknown>) => lines.push({ level: 'info', message, fields }),
    error: (message: string, fields?: Record<string, unknown>) => lines.push({ level: 'error', message, fields }),
    text: () => lines.map((line) => `${line.message} ${JSON.stringify(line.fields ?? {})}`).join('\n'),
  };
}

export interface Billed {
  service: Service;
  standIn: StandIn;
  log: ReturnType<typeof keptLog>;
  close(): Promise<void>;
}

/** Retries of a failed delivery come quickly here: the tests wait for them, never for a time. */
export const QUICK_RETRIES = [20, 40, 80, 160, 320, 640, 1280];

/** The stand-in and the service pointed at each other, on the test's clock. */
export async function startBilled(data: Data, clock: Clock, env: Record<string, string> = {}): Promise<Billed> {
  const standIn = await startStandIn({ now: clock.now, retryDelaysMs: QUICK_RETRIES });
  const log = keptLog();
  const service = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000', ...standIn.env, ...env }, log);
  standIn.webhooks.url = `${service.url}/api/v1/billing/webhook`;
  return {
    service,
    standIn,
    log,
    close: async () => {
      await standIn.webhooks.idle();
      await service.close();
      await standIn.close();
    },
  };
}

/** A signed-in business whose claim on `toilet` a moderator approved (no plan yet). */
export async function approvedListing(service: Service, toilet: string, name: string, ip: string): Promise<Listed> {
  const listed = await claimAs(service, toilet, name, ip);
  await service.app.partners.claims.approve(listed.claim, 'checked the business register');
  return listed;
}

export const ADDRESS = { line1: 'Rua de Santa Catarina 1', postal_code: '4000-447', city: 'Porto', country: 'PT' };

/** The hosted page's "Pay" (with a billing address), as a browser's form post; returns where it sends the browser. */
export async function pay(checkoutUrl: string): Promise<string> {
  const paid = await fetch(`${checkoutUrl}/pay`, { method: 'POST', body: new URLSearchParams(ADDRESS), redirect: 'manual' });
  assert.equal(paid.status, 303, await paid.text());
  return paid.headers.get('location')!;
}

/** startCheckout, then pay on the stand-in's page, then wait for the webhooks; returns the subscription id. */
export async function buy(billed: Billed, browser: Browser, listing: string, tier: 'basic' | 'plus' = 'basic'): Promise<string> {
  const started = await browser.request('POST', '/billing/checkout', { body: { listing, tier } });
  assert.equal(started.status, 200, JSON.stringify(started.json));
  await pay(started.json.url);
  await billed.standIn.webhooks.idle();
  const subscription = [...billed.standIn.state.subscriptions.values()].findLast((s) => s.metadata.listing === listing);
  assert.ok(subscription, 'the stand-in made a subscription');
  return subscription.id;
}

/** The partner object getToilet shows for `toilet` now. */
export async function partnerOf(service: Service, toilet: string): Promise<{ tier: string; name: string } | null> {
  return (await service.toilet(toilet)).partner;
}

export const problem = (reply: { json: { type: string } }, slug: string) => assert.ok(reply.json.type.endsWith(`/problems/${slug}`), `${reply.json.type} is ${slug}`);
