// The accounts side over HTTP on PostgreSQL across two replicas: two apps (A and B, one thread each) on one
// database of the test's own cluster, assembled with the accounts in its accounts schema (storage.accounts,
// as the service will run once ACCOUNTS_STORE moves: src/stores.ts), each with its own OVERLAY_DB and
// ACCOUNTS_DB files, as two VMs have. What one replica issues or commits works on the other: a session, a
// passkey challenge and a human-check token; a claim approved through A shows in B's answers once B's
// poll has seen it; two claims of one toilet through A and B give one 201 and one 409; a double click on
// checkout through A and B makes one Stripe session (the stand-in of test/billing); an OAuth code issued by
// A is redeemed on B, and sign-out everywhere on B ends its grant; a Stripe event delivered to both has one
// effect; the closures' and billing's background jobs run on the worker lease's holder only. With PostgreSQL stopped the writes
// answer 503 with Retry-After in each interface's form while the reads answer, and they work again once it
// is back, without a restart.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { BASE_URL, Clock, importedData, readSourceToilets, type Data, type Service } from '../community/support.js';
import { noPostgres, startPostgres, type TestPostgres } from '../support/postgres.js';
import { SILENT } from '../support/server.js';
import { Browser, startAccountsService } from './support.js';
import { claimAs } from '../partners/support.js';
import { STAND_IN_WEBHOOK_SECRET, startStandIn, type StandIn } from '../../dev/stripe-stand-in/stand-in.js';
import { pay, QUICK_RETRIES } from '../billing/support.js';
import Stripe from 'stripe';
import { accountMcp, approve, authorizationRequest, fetchFor, form, newAgent, REDIRECT_URI, RESOURCE } from '../oauth/support.js';
import { exchangeAuthorization } from '@modelcontextprotocol/client';
import { READY_PROBE_MS } from '../../src/status/status.js';
import { STORAGE_RETRY_SECONDS } from '../../src/api/server-hooks.js';

const START = '2024-06-05T08:00:00Z';
/** How long a wait for the other replica may take before the test fails rather than hangs. */
const GUARD_MS = 60_000;

/** Waits until `seen` holds (asked every 20 ms), failing with `what` if it has not after GUARD_MS. */
async function until(what: string, seen: () => Promise<boolean>): Promise<void> {
  const guard = Date.now() + GUARD_MS;
  while (!(await seen())) {
    if (Date.now() > guard) assert.fail(`not seen within the guard: ${what}`);
    await sleep(20);
  }
}

/** The same person's browser on another replica: its cookie and passkeys. */
function on(service: Service, browser: Browser): Browser {
  const other = new Browser(service, browser.ip);
  other.cookie = browser.cookie;
  for (const [id, key] of browser.authenticator.passkeys) other.authenticator.passkeys.set(id, key);
  return other;
}

/** A Stripe event signed as the stand-in signs it, posted to `service`'s webhook. */
async function webhook(service: Service, payload: string): Promise<{ status: number; json: { duplicate?: boolean } }> {
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: STAND_IN_WEBHOOK_SECRET, timestamp: Math.floor(service.clock.ms / 1000) });
  const response = await fetch(`${service.url}/api/v1/billing/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': signature }, body: payload });
  return { status: response.status, json: (await response.json()) as { duplicate?: boolean } };
}

describe('two replicas on one PostgreSQL database, the accounts side in it', { skip: noPostgres }, () => {
  const clock = new Clock(Date.parse(START));
  let cluster: TestPostgres;
  let databaseUrl: string;
  let data: Data;
  let standIn: StandIn;
  let a: Service;
  let b: Service;
  let toilets: string[];
  let ips = 10;
  const nextIp = () => `198.51.100.${ips++}`;

  before(async () => {
    cluster = await startPostgres();
    databaseUrl = cluster.database('replicas');
    data = await importedData();
    toilets = readSourceToilets(data.toiletsDb).map((t) => t.id);
    standIn = await startStandIn({ now: clock.now, retryDelaysMs: QUICK_RETRIES });
    const replica = (name: string) =>
      startAccountsService(
        data,
        clock,
        { DATABASE_URL: databaseUrl, ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_MINUTE: '100000', OVERLAY_DB: join(data.dir, `${name}-overlay.db`), ACCOUNTS_DB: join(data.dir, `${name}-accounts.db`), ...standIn.env },
        SILENT,
        { accountsInPostgres: true },
      );
    a = await replica('a');
    b = await replica('b');
    standIn.webhooks.url = `${a.url}/api/v1/billing/webhook`;
  });
  after(async () => {
    await standIn?.webhooks.idle();
    await a?.close();
    await b?.close();
    await standIn?.close();
    data?.remove();
    cluster?.stop();
  });

  test('a sign-up begun on A (challenge, human check) is finished on B; its session works on both', async () => {
    const onA = new Browser(a, nextIp());
    const options = await onA.request('POST', '/account/passkey-options', { body: { display_name: 'Ada' } });
    assert.equal(options.status, 200, JSON.stringify(options.json));
    const credential = onA.authenticator.register(options.json);
    const onB = on(b, onA);
    const created = await onB.request('POST', '/account', { body: { display_name: 'Ada', challenge_token: await a.token(onA.ip), credential } });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    onA.cookie = onB.cookie;
    assert.deepEqual([(await onA.request('GET', '/account')).json, (await onB.request('GET', '/account')).json], [created.json, created.json]);

    // a sign-in challenge handed out by B, answered on A
    const fresh = on(b, onA);
    fresh.cookie = null;
    const signIn = await fresh.request('POST', '/session/options');
    const onAgain = on(a, fresh);
    const signedIn = await onAgain.request('POST', '/session', { body: { credential: fresh.authenticator.assert(signIn.json) } });
    assert.deepEqual([signedIn.status, signedIn.json.id], [200, created.json.id]);
    assert.equal(a.app.accounts.file.db.prepare('SELECT count(*) FROM accounts').pluck().get(), 0, "nothing in A's ACCOUNTS_DB file");
  });

  test('a claim through A, approved and planned: the listing shows in B\'s answers once B has seen the commit', async () => {
    const toilet = toilets[0];
    const listed = await claimAs(a, toilet, 'Cafe Riviera', nextIp());
    assert.equal((await b.toilet(toilet)).partner, null);
    await a.app.partners.claims.approve(listed.claim, 'checked the business register');
    await a.app.partners.plans.setManualPlan(listed.listing, 'basic');
    assert.equal((await a.toilet(toilet)).partner?.name, 'Cafe Riviera', 'A shows it at once');
    await until("B's poll (every second) applies A's commit", async () => (await b.toilet(toilet)).partner !== null);
    assert.deepEqual((await b.toilet(toilet)).partner, (await a.toilet(toilet)).partner);
    const onB = on(b, listed.browser);
    assert.equal((await onB.request('GET', '/partner/listings')).json.listings[0].plan.tier, 'basic', 'the owner sees it through B');
  });

  test('the same claim through A and B at once: one 201, one 409', async () => {
    const toilet = toilets[1];
    const onA = new Browser(a, nextIp());
    await onA.signUp('Twice Bakery');
    const onB = on(b, onA);
    const body = { business_name: 'Twice Bakery', contact_email: 'twice@example.org' };
    const answers = await Promise.all([onA.request('POST', `/toilets/${toilet}/claims`, { body }), onB.request('POST', `/toilets/${toilet}/claims`, { body })]);
    assert.deepEqual(answers.map((answer) => answer.status).sort((x, y) => x - y), [201, 409], JSON.stringify(answers.map((answer) => answer.json)));
    assert.equal(Number(cluster.psql(`SELECT count(*) FROM accounts.partner_claims WHERE toilet_id = '${toilet}'`, databaseUrl).trim()), 1);
  });

  test('a double click on checkout, one through A and one through B: one Stripe session, named by both', async () => {
    const listed = await claimAs(a, toilets[2], 'Double Click Deli', nextIp());
    await a.app.partners.claims.approve(listed.claim, 'checked the business register');
    const sessionsBefore = standIn.state.sessions.size;
    const checkout = { body: { listing: listed.listing, tier: 'basic' } };
    const [first, second] = await Promise.all([listed.browser.request('POST', '/billing/checkout', checkout), on(b, listed.browser).request('POST', '/billing/checkout', checkout)]);
    assert.deepEqual([first.status, second.status], [200, 200], JSON.stringify([first.json, second.json]));
    assert.equal(first.json.url, second.json.url);
    assert.equal(standIn.state.sessions.size, sessionsBefore + 1, 'one session at Stripe');

    // the payment's events, each delivered to A and B at once: one effect per event id
    const sent = standIn.webhooks.events.length;
    standIn.webhooks.hold();
    await pay(first.json.url);
    const events = standIn.webhooks.events.slice(sent);
    assert.ok(events.length > 0, 'the payment made events');
    for (const event of events) {
      const answers = await Promise.all([a, b].map((replica) => webhook(replica, JSON.stringify(event))));
      assert.deepEqual(answers.map((answer) => answer.status), [200, 200]);
      assert.deepEqual(answers.map((answer) => answer.json.duplicate === true).sort((x, y) => Number(x) - Number(y)), [false, true], `${event.type}: handled once`);
    }
    standIn.webhooks.release(); // Stripe's own deliveries, to A: duplicates now
    await standIn.webhooks.idle();
    await until("B shows the plan A's webhook started", async () => (await b.toilet(toilets[2])).partner?.tier === 'basic');
  });

  test('an OAuth code issued by A is redeemed on B; sign-out everywhere on B ends the grant in its transaction', async () => {
    const browser = new Browser(a, nextIp());
    const account = await browser.signUp('Agent Owner');
    const agent = await newAgent(a);
    const { authorizationUrl, codeVerifier } = await authorizationRequest(agent);
    const back = await approve(browser, authorizationUrl);
    const tokens = await exchangeAuthorization(BASE_URL, {
      metadata: agent.metadata, clientInformation: agent.client, authorizationCode: back.searchParams.get('code')!, iss: back.searchParams.get('iss')!,
      codeVerifier, redirectUri: REDIRECT_URI, resource: new URL(RESOURCE), fetchFn: fetchFor(b),
    });
    assert.equal((await accountMcp(b, tokens.access_token, 'server/discover')).status, 200, "B's token works on B");
    assert.equal((await accountMcp(a, tokens.access_token, 'server/discover')).status, 200, 'and on A');

    const everywhere = await on(b, browser).request('DELETE', '/account/sessions?connections=all');
    assert.deepEqual([everywhere.status, everywhere.json.connections_ended], [200, 1], JSON.stringify(everywhere.json));
    assert.equal(Number(cluster.psql(`SELECT count(*) FROM accounts.oauth_grants WHERE account_id = '${account.id}'`, databaseUrl).trim()), 0);
    assert.equal((await accountMcp(a, tokens.access_token, 'server/discover')).status, 401, 'the token ended on every replica');
    const refreshed = await form(a, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: agent.client.client_id });
    assert.equal(refreshed.json.error, 'invalid_grant');
  });

  test("closure ends and the billing sweep run on the worker lease's holder only", async () => {
    await until('a replica holds the worker lease', async () => a.app.worker.isWorker || b.app.worker.isWorker);
    const [worker, other] = a.app.worker.isWorker ? [a, b] : [b, a];
    assert.equal(other.app.worker.isWorker, false);
    for (const job of ['partner-closures', 'billing-sweep']) {
      assert.ok(worker.app.worker.status().jobs.includes(job), `${job} on the holder`);
      assert.ok(!other.app.worker.status().jobs.includes(job), `${job} not on the other`);
    }
  });

  test('PostgreSQL stopped: writes 503 with Retry-After in each form, reads answer; all resumes without a restart', async () => {
    const browser = new Browser(a, nextIp());
    await browser.signUp('Outage Cafe');
    const agent = await newAgent(b);
    const { authorizationUrl } = await authorizationRequest(agent);
    const back = await approve(browser, authorizationUrl);
    const body = { business_name: 'Outage Cafe', contact_email: 'outage@example.org' };
    cluster.pause();
    try {
      const claim = await browser.request('POST', `/toilets/${toilets[3]}/claims`, { body });
      assert.equal(claim.status, 503, JSON.stringify(claim.json));
      assert.ok(claim.json.type.endsWith('/problems/unavailable'));
      assert.equal(claim.headers.get('retry-after'), String(STORAGE_RETRY_SECONDS));

      const redeemed = await form(b, '/oauth/token', { grant_type: 'authorization_code', code: back.searchParams.get('code')!, code_verifier: 'x'.repeat(43), redirect_uri: REDIRECT_URI, client_id: agent.client.client_id });
      assert.deepEqual([redeemed.status, redeemed.json.error, redeemed.headers.get('retry-after')], [503, 'temporarily_unavailable', String(STORAGE_RETRY_SECONDS)]);

      const mcp = await accountMcp(b, 'any-token', 'server/discover');
      assert.deepEqual([mcp.status, mcp.json.error.code, mcp.headers.get('retry-after')], [503, -32000, String(STORAGE_RETRY_SECONDS)]);

      assert.equal((await fetch(`${b.url}/api/v1/toilets/nearest?lat=43.7394&lon=7.4276&limit=3`)).status, 200, 'reads answer from memory');
      assert.notEqual((await b.toilet(toilets[0])).partner, null, 'with the partner objects');
      clock.ms += READY_PROBE_MS;
      const ready = await fetch(`${a.url}/readyz`);
      const detail = ((await ready.json()) as { detail: string }).detail;
      assert.equal(ready.status, 503);
      assert.match(detail, /^The PostgreSQL database .* cannot take a write/);
      assert.match(detail, /partner claims, listings and figures/, 'the partners are among what is refused');
    } finally {
      cluster.resume();
    }
    clock.ms += READY_PROBE_MS;
    await until('A is ready again', async () => (await fetch(`${a.url}/readyz`)).status === 200);
    assert.equal((await browser.request('POST', `/toilets/${toilets[3]}/claims`, { body })).status, 201, 'the refused claim, sent again');
  });
});
