// What the service answers while a store of the write side cannot take a write, each interface in its own
// form, and that it resumes without a restart: the accounts SQLite file locked by another process (a
// second connection holding its write lock, as a stuck operator command would), and PostgreSQL
// (DATABASE_URL, a cluster of the test's own) shut down. Reads go on meanwhile; what was acknowledged
// before stays, and what was refused is simply sent again.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { Clock, importedData, readSourceToilets, TEST_ENV, TEST_START, type Data, type Service } from '../community/support.js';
import { Browser, startAccountsService } from '../accounts/support.js';
import { accountMcp, authorizationRequest, connect, newAgent, page, REDIRECT_URI } from '../oauth/support.js';
import { serve } from '../support/server.js';
import { noPostgres, startPostgres } from '../support/postgres.js';
import { READY_PROBE_MS } from '../../src/status/status.js';
import { TOUCH_EVERY_MS } from '../../src/oauth/lifetimes.js';
import { STORAGE_RETRY_SECONDS } from '../../src/api/server-hooks.js';
import { storageTrouble } from '../../src/storage/errors.js';
import pg from 'pg';

const LOCKED = 'the database is locked by another process';
const UNREACHABLE = 'the PostgreSQL server cannot be reached';

async function readiness(url: string): Promise<{ status: number; retryAfter: string | null; body: { detail?: string; status?: string } }> {
  const answer = await fetch(`${url}/readyz`);
  return { status: answer.status, retryAfter: answer.headers.get('retry-after'), body: (await answer.json()) as { detail?: string } };
}

async function degraded(url: string): Promise<unknown> {
  return ((await (await fetch(`${url}/status`)).json()) as { degraded?: unknown }).degraded;
}

async function nearest(url: string): Promise<number> {
  return (await fetch(`${url}/api/v1/toilets/nearest?lat=43.7394&lon=7.4276&limit=3`)).status;
}

describe('the accounts file locked by another process', () => {
  let data: Data;
  let service: Service;
  let toilets: string[];
  const clock = new Clock(Date.parse('2024-06-05T08:00:00Z'));

  before(async () => {
    data = await importedData();
    service = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_MINUTE: '1000' });
    toilets = readSourceToilets(data.toiletsDb).map((t) => t.id);
  });
  after(async () => {
    await service.close();
    data.remove();
  });

  test('writes answer 503 with Retry-After in each form, reads go on, /readyz and /status name it; all resumes once it is free', async () => {
    const browser = new Browser(service, '198.51.100.60');
    await browser.signUp('Locked Out Cafe');
    const body = { business_name: 'Locked Out Cafe', contact_email: 'cafe@example.org' };
    assert.equal((await browser.request('POST', `/toilets/${toilets[0]}/claims`, { body })).status, 201, 'acknowledged before the lock');
    const agent = await newAgent(service);
    const tokens = await connect(browser, agent);

    // The account-events relay polls the file every 2 s, and each poll waits out the 5 s busy timeout on the
    // main thread while the lock lasts (left for the relay's own issue): stopped here, so the waits measured
    // are the requests' own.
    await service.app.accountEvents.close();
    const holder = new Database(service.app.accounts.file.path);
    holder.exec('BEGIN IMMEDIATE');
    try {
      // REST: problem+json
      const claim = await browser.request('POST', `/toilets/${toilets[1]}/claims`, { body });
      assert.equal(claim.status, 503, JSON.stringify(claim.json));
      assert.ok(claim.json.type.endsWith('/problems/unavailable'));
      assert.ok(claim.json.detail.includes(LOCKED), claim.json.detail);
      assert.equal(claim.headers.get('retry-after'), String(STORAGE_RETRY_SECONDS));

      // OAuth endpoints: RFC 6749's temporarily_unavailable
      const registration = await fetch(`${service.url}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ client_name: 'Late Agent', redirect_uris: [REDIRECT_URI] }) });
      assert.equal(registration.status, 503);
      assert.equal(registration.headers.get('retry-after'), String(STORAGE_RETRY_SECONDS));
      assert.equal(((await registration.json()) as { error: string }).error, 'temporarily_unavailable');

      // the authorization endpoint, its client checked: back to the client with the error and its state
      const { authorizationUrl } = await authorizationRequest(agent, 'state-locked');
      const authorize = await page(browser, authorizationUrl.href);
      assert.equal(authorize.status, 303, authorize.text.slice(0, 300));
      const back = new URL(authorize.headers.get('location')!);
      assert.equal(`${back.origin}${back.pathname}`, REDIRECT_URI);
      assert.equal(back.searchParams.get('error'), 'temporarily_unavailable');
      assert.equal(back.searchParams.get('state'), 'state-locked');

      // /mcp/account: the read goes on though the grant's use cannot be recorded now
      clock.ms += TOUCH_EVERY_MS;
      const listed = await accountMcp(service, tokens.access_token, 'tools/call', { name: 'get_my_partner_listings', arguments: {} });
      assert.equal(listed.status, 200, JSON.stringify(listed.json));
      assert.notEqual(listed.json.result.isError, true, JSON.stringify(listed.json.result));
      assert.equal(listed.json.result.structuredContent.listings.length, 1);

      assert.equal(await nearest(service.url), 200, 'reads answer from memory');
      const ready = await readiness(service.url);
      assert.equal(ready.status, 503);
      assert.equal(ready.retryAfter, '30');
      assert.ok(ready.body.detail!.startsWith(`The accounts database cannot take a write: ${LOCKED}.`), ready.body.detail);
      assert.deepEqual(await degraded(service.url), [{ store: 'accounts database', trouble: LOCKED, refused: 'Sign-ups, sign-ins, business claims, partner payments and app connections' }]);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }

    clock.ms += READY_PROBE_MS;
    assert.deepEqual((await readiness(service.url)).body, { status: 'ready' });
    assert.equal(await degraded(service.url), undefined, 'absent while every store takes a write');
    assert.equal((await browser.request('POST', `/toilets/${toilets[1]}/claims`, { body })).status, 201, 'the refused claim, sent again');
    const listings = (await browser.request('GET', '/partner/listings')).json.listings as { toilet_id: string }[];
    assert.deepEqual(listings.map((l) => l.toilet_id), [toilets[0], toilets[1]], 'the claim acknowledged before is kept, the refused one made once');
  });
});

test('PostgreSQL shut down: /readyz and /status name it, reads go on, and it is ready again once PostgreSQL is back', { skip: noPostgres }, async () => {
  const data = await importedData();
  const cluster = await startPostgres();
  const clock = new Clock(Date.parse(TEST_START));
  const served = await serve({ db: data.toiletsDb, overlayDb: join(data.dir, 'overlay.db'), env: { ...TEST_ENV, DATABASE_URL: cluster.database('faults') }, now: clock.now, openStorage: true });
  const open = new pg.Client({ connectionString: cluster.url });
  open.on('error', () => {}); // told of the shutdown while idle: the query below says it
  try {
    assert.deepEqual((await readiness(served.origin)).body, { status: 'ready' });
    await open.connect();
    cluster.pause();
    clock.ms += READY_PROBE_MS;
    const ready = await readiness(served.origin);
    assert.equal(ready.status, 503);
    assert.match(ready.body.detail!, new RegExp(`^The PostgreSQL database postgresql://toilet_test@127\\.0\\.0\\.1:${cluster.port}/faults cannot take a write: ${UNREACHABLE}\\.`));
    assert.deepEqual(await degraded(served.origin), [{ store: `PostgreSQL database postgresql://toilet_test@127.0.0.1:${cluster.port}/faults`, trouble: UNREACHABLE, refused: 'Writes of the server key, contributions, moderation and the OSM note outbox' }]);
    assert.equal(await nearest(served.origin), 200, 'reads answer from memory');
    // what the driver says, on a connection the shutdown ended and on a new one, is a store that cannot be reached
    const failure = (query: Promise<unknown>) => query.then(() => assert.fail('the stopped server answered'), (error: unknown) => error);
    for (const error of [await failure(open.query('SELECT 1')), await failure(new pg.Pool({ connectionString: cluster.url }).query('SELECT 1'))]) {
      assert.equal(storageTrouble(error), UNREACHABLE, `${String(error)} (${(error as { code?: string }).code})`);
    }

    cluster.resume();
    clock.ms += READY_PROBE_MS;
    assert.deepEqual((await readiness(served.origin)).body, { status: 'ready' }, 'no restart: the pool connects again');
    assert.equal(await degraded(served.origin), undefined);
  } finally {
    await open.end().catch(() => {});
    await served.close();
    cluster.stop();
    data.remove();
  }
});
