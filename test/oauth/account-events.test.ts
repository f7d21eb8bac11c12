// Account events on /mcp/account (extension io.modelcontextprotocol/events, webhook mode) end to end:
// advertised only while the relay is ready and only here; events/list; events/subscribe with challenge
// verification, the caller's own filters, a lifetime of at most 24 h and no replay; deliveries from the
// account event log within two relay polls, signed in the Standard Webhooks format (verified with the
// `standardwebhooks` package), deduplicable by webhook-id, retried with backoff and reported in
// deliveryStatus; expiry on the injected clock; a revoked grant's signed terminated envelope.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import * as z from 'zod';
import { Webhook } from 'standardwebhooks';
import type { Client } from '@modelcontextprotocol/client';
import { Clock, importedData, type Data, type Service } from '../community/support.js';
import { startAccountsService } from '../accounts/support.js';
import { claimAs, type Listed } from '../partners/support.js';
import { accountClient, accountMcp, connect, newAgent, page } from './support.js';
import { Receiver } from './receiver.js';

const ANY = z.looseObject({});
const EXTENSION = 'io.modelcontextprotocol/events';

describe('account events', () => {
  let data: Data;
  let service: Service;
  // Near the wall clock: receivers check webhook-timestamp against theirs (Standard Webhooks, 5 minutes)
  const clock = new Clock(Math.floor(Date.now() / 1000) * 1000);
  const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
  let ada: Listed;
  let adaToken: string;
  let client: Client;
  const receivers: Receiver[] = [];
  const receiver = async () => {
    const r = await new Receiver().start();
    receivers.push(r);
    return r;
  };
  const subscribe = (name: string, url: string, key: string, args: Record<string, string> = {}, extra: Record<string, unknown> = {}, on: Client = client) =>
    on.request({ method: 'events/subscribe', params: { name, arguments: args, delivery: { mode: 'webhook', url, secret: key }, cursor: null, ...extra } }, ANY) as Promise<any>;
  const polls = async (n = 2) => {
    for (let i = 0; i < n; i++) await service.app.accountEvents.relay.poll();
  };
  const errorOf = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      return error as { code: number; message: string; data?: any };
    }
    assert.fail('expected an error');
  };

  before(async () => {
    data = await importedData();
    service = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000', OUTBOUND_ALLOW_PRIVATE: '1' });
    ada = await claimAs(service, 'n4316767608', 'Ada Cafe', '198.51.100.31');
    adaToken = (await connect(ada.browser, await newAgent(service))).access_token;
    client = await accountClient(service, adaToken);
  });
  after(async () => {
    await client.close();
    for (const r of receivers) r.close();
    await service.close();
    data.remove();
  });

  test('advertised on /mcp/account to modern requests while the relay is ready; never on /mcp', async () => {
    const discover = await accountMcp(service, adaToken, 'server/discover');
    assert.deepEqual(discover.json.result.capabilities.extensions, { [EXTENSION]: { listChanged: false } });
    assert.equal(discover.json.result.ttlMs, 0);
    const publicDiscover = await fetch(`${service.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
    });
    const capabilities = ((await publicDiscover.json()) as any).result.capabilities;
    assert.equal(capabilities.extensions?.[EXTENSION], undefined);
    assert.equal(capabilities.events, undefined);
  });

  test('events/list: the two types, webhook delivery, filters and payloads of ids and triage fields only', async () => {
    const { events } = (await client.request({ method: 'events/list', params: {} }, ANY)) as any;
    assert.deepEqual(events.map((e: any) => e.name), ['partner.claim.status_changed', 'partner.profile.updated']);
    for (const event of events) {
      assert.deepEqual(event.delivery, ['webhook']);
      assert.deepEqual(Object.keys(event.inputSchema.properties), ['listing_id', 'toilet_id']);
      assert.equal(event.inputSchema.additionalProperties, false);
      const fields = JSON.stringify(event.payloadSchema);
      assert.doesNotMatch(fields, /email|phone|contact/);
    }
  });

  test('subscribe: challenge echoed, 24 h at most, cursor null; refused for a bad secret or URL, a failed challenge, another account\'s listing', async () => {
    const r = await receiver();
    const key = secret();
    const granted = await subscribe('partner.claim.status_changed', r.url, key, {}, { ttlMs: 7 * 86_400_000 });
    assert.match(granted.id, /^sub_[0-9a-f]{32}$/);
    assert.equal(Date.parse(granted.refreshBefore), clock.ms + 86_400_000);
    assert.equal(granted.cursor, null);
    assert.equal(granted.truncated, false);
    const verification = r.received.find((x) => x.json.type === 'verification')!;
    assert.ok(verification, 'the endpoint was asked to echo a challenge');
    assert.deepEqual(new Webhook(key).verify(verification.body, verification.headers as Record<string, string>), verification.json, 'signed like every delivery');
    assert.match(verification.headers['webhook-id'] as string, /^msg_verification_/);

    assert.equal((await errorOf(subscribe('partner.claim.status_changed', r.url, 'whsec_short'))).code, -32602);
    assert.equal((await errorOf(subscribe('partner.claim.status_changed', 'https://127.0.0.1:8443/x', secret()))).code, -32602);
    assert.equal((await errorOf(subscribe('partner.nothing', r.url, secret()))).code, -32023);
    const liar = await receiver();
    liar.echo = false;
    const failed = await errorOf(subscribe('partner.claim.status_changed', liar.url, secret()));
    assert.equal(failed.code, -32027);
    assert.equal(failed.data.reason, 'challenge_failed');

    const bob = await claimAs(service, 'n6720523794', 'Bob Bar', '198.51.100.32');
    const forbidden = await errorOf(subscribe('partner.claim.status_changed', r.url, secret(), { listing_id: bob.listing }));
    assert.equal(forbidden.code, -32024);
    assert.equal((await errorOf(subscribe('partner.claim.status_changed', r.url, secret(), { toilet_id: 'n6720523794' }))).code, -32024);
    assert.equal((await errorOf(subscribe('partner.claim.status_changed', r.url, secret(), { other: 'x' }))).code, -32602);
  });

  test('a claim approval and a profile change reach matching subscriptions within two polls, signed; filters hold', async () => {
    const r = await receiver();
    const claimKey = secret();
    const profileKey = secret();
    const claimSub = await subscribe('partner.claim.status_changed', r.url, claimKey, { listing_id: ada.listing });
    await subscribe('partner.profile.updated', r.url, profileKey, { toilet_id: ada.toilet });
    const other = await receiver();
    await subscribe('partner.profile.updated', other.url, secret(), {}, {}, await accountClient(service, (await connect((await claimAs(service, 'n3039828758', 'Cy Shop', '198.51.100.33')).browser, await newAgent(service))).access_token));

    await service.app.partners.claims.approve(ada.claim, 'checked');
    await service.app.partners.plans.setManualPlan(ada.listing, 'basic');
    assert.equal((await ada.browser.request('PATCH', `/partner/listings/${ada.listing}`, { body: { conditions: 'everyone' } })).status, 200);
    await polls();

    const got = r.deliveries();
    assert.deepEqual(got.map((d) => d.json.name), ['partner.claim.status_changed', 'partner.profile.updated']);
    const [claim, profile] = got;
    assert.deepEqual(new Webhook(claimKey).verify(claim.body, claim.headers as Record<string, string>), claim.json, 'signed with the subscription\'s secret');
    assert.deepEqual(new Webhook(profileKey).verify(profile.body, profile.headers as Record<string, string>), profile.json);
    assert.equal(claim.headers['x-mcp-subscription-id'], claimSub.id);
    assert.equal(claim.headers['webhook-id'], claim.json.eventId);
    assert.deepEqual(claim.json.data, { listing_id: ada.listing, toilet_id: ada.toilet, claim_id: ada.claim, old_status: 'pending', new_status: 'approved' });
    assert.equal(profile.json.data.by, 'owner');
    assert.deepEqual(profile.json.data.changed, ['conditions']);
    assert.doesNotMatch(JSON.stringify(got.map((d) => d.json)), /@example\.org/, 'no contact details');
    assert.equal(other.deliveries().length, 0, "another account's subscription gets nothing of Ada's");
  });

  test('a failing receiver: retried with backoff under the same webhook-id, then given up; deliveryStatus says so on refresh', async () => {
    const start = clock.ms;
    const r = await receiver();
    const key = secret();
    await subscribe('partner.profile.updated', r.url, key, { listing_id: ada.listing });
    r.status = 503;
    assert.equal((await ada.browser.request('PATCH', `/partner/listings/${ada.listing}`, { body: { conditions: 'customers' } })).status, 200);
    await polls();
    assert.equal(r.deliveries().length, 1);
    await polls();
    assert.equal(r.deliveries().length, 1, 'not again before the backoff');
    for (const wait of [10_000, 60_000, 300_000, 600_000]) {
      clock.ms += wait;
      await polls();
    }
    const attempts = r.deliveries();
    assert.equal(attempts.length, 5, 'five attempts in all');
    assert.equal(new Set(attempts.map((a) => a.headers['webhook-id'])).size, 1, 'one webhook-id: the receiver can dedupe');
    assert.equal(new Set(attempts.map((a) => a.headers['webhook-timestamp'])).size, 5, 're-signed with a fresh timestamp each time');
    clock.ms += 1_200_000;
    await polls();
    assert.equal(r.deliveries().length, 5, 'given up');
    const refreshed = await subscribe('partner.profile.updated', r.url, key, { listing_id: ada.listing });
    assert.equal(refreshed.deliveryStatus.lastError, 'http_5xx');
    assert.equal(refreshed.deliveryStatus.lastDeliveryAt, null);

    r.status = 410;
    const before = r.deliveries().length;
    assert.equal((await ada.browser.request('PATCH', `/partner/listings/${ada.listing}`, { body: { conditions: 'everyone' } })).status, 200);
    await polls();
    clock.ms += 10_000;
    await polls();
    assert.equal(r.deliveries().length, before + 1, '410 is not retried');
    clock.ms = start; // back near the wall clock, which receivers check timestamps against
  });

  test('a subscription past its granted lifetime gets nothing', async () => {
    const r = await receiver();
    const granted = await subscribe('partner.profile.updated', r.url, secret(), { listing_id: ada.listing }, { ttlMs: 120_000 });
    assert.equal(Date.parse(granted.refreshBefore), clock.ms + 120_000);
    clock.ms += 121_000;
    assert.equal((await ada.browser.request('PATCH', `/partner/listings/${ada.listing}`, { body: { conditions: 'customers' } })).status, 200);
    await polls();
    assert.equal(r.deliveries().length, 0);
    clock.ms -= 121_000;
  });

  test('revoking the grant ends its subscriptions with a signed terminated envelope, and nothing after', async () => {
    const agent = await newAgent(service, 'Doomed Agent');
    const tokens = await connect(ada.browser, agent);
    const doomed = await accountClient(service, tokens.access_token);
    const r = await receiver();
    const key = secret();
    await subscribe('partner.profile.updated', r.url, key, {}, {}, doomed);
    await doomed.close();
    const listed = await page(ada.browser, '/oauth/connections');
    const grant = [...listed.text.matchAll(/name="grant" value="(og_[0-9a-f]+)"/g)].map((m) => m[1]).at(-1)!;
    assert.equal((await page(ada.browser, '/oauth/connections', { grant })).status, 303);
    await polls();
    const [terminated] = r.deliveries();
    assert.equal(terminated.json.type, 'terminated');
    assert.equal(terminated.json.error.code, -32024);
    assert.deepEqual(new Webhook(key).verify(terminated.body, terminated.headers as Record<string, string>), terminated.json);
    assert.match(terminated.headers['webhook-id'] as string, /^msg_terminated_/);
    assert.equal((await ada.browser.request('PATCH', `/partner/listings/${ada.listing}`, { body: { conditions: 'everyone' } })).status, 200);
    await polls();
    assert.equal(r.deliveries().length, 1, 'nothing after the termination');
  });

  test('bounds: 6 verification POSTs per host a minute, 10 subscriptions per authorization', async () => {
    clock.ms += 61_000; // a new minute for the verification count
    const tokens = await connect(ada.browser, await newAgent(service, 'Busy Agent'));
    const busy = await accountClient(service, tokens.access_token);
    try {
      const r = await receiver();
      const at = (n: number) => `${r.url}?n=${n}`; // another URL each: each is verified
      for (let n = 1; n <= 6; n++) await subscribe('partner.profile.updated', at(n), secret(), {}, {}, busy);
      const throttled = await errorOf(subscribe('partner.profile.updated', at(7), secret(), {}, {}, busy));
      assert.equal(throttled.code, -32025);
      assert.deepEqual(throttled.data, { limit: 'verifications_per_host_per_minute', max: 6 });
      clock.ms += 60_000;
      for (let n = 7; n <= 10; n++) await subscribe('partner.profile.updated', at(n), secret(), {}, {}, busy);
      await subscribe('partner.profile.updated', at(10), secret(), {}, {}, busy); // a refresh is no new subscription
      const full = await errorOf(subscribe('partner.claim.status_changed', at(1), secret(), {}, {}, busy));
      assert.equal(full.code, -32025);
      assert.deepEqual(full.data, { limit: 'subscriptions_per_grant', max: 10 });
      await busy.request({ method: 'events/unsubscribe', params: { name: 'partner.profile.updated', arguments: {}, delivery: { url: at(1) } } }, ANY);
      await subscribe('partner.claim.status_changed', at(1), secret(), {}, {}, busy);
      const gone = await errorOf(busy.request({ method: 'events/unsubscribe', params: { name: 'partner.profile.updated', arguments: {}, delivery: { url: at(1) } } }, ANY));
      assert.equal(gone.code, -32023);
      assert.equal(gone.data.kind, 'subscription');
    } finally {
      await busy.close();
      clock.ms -= 121_000;
    }
  });

  test('while the relay is not running, the extension is not advertised and events/* do not exist', async () => {
    await service.app.accountEvents.relay.close();
    const discover = await accountMcp(service, adaToken, 'server/discover');
    assert.equal(discover.json.result.capabilities.extensions?.[EXTENSION], undefined);
    const list = await accountMcp(service, adaToken, 'events/list');
    assert.equal(list.status, 404);
    assert.equal(list.json.error.code, -32601, 'as from a server without the extension');
  });
});
