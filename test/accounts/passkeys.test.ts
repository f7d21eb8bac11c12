// Accounts with passkeys through the real server: sign-up, sign-in, sessions, and each WebAuthn and session
// rule of docs/SECURITY.md ("Accounts and sessions"), with passkeys of a software authenticator that the
// real @simplewebauthn/server verifies.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Clock, importedData, SITE_ORIGIN, type Data, type Service } from '../community/support.js';
import { Browser, startAccountsService, valid } from './support.js';
import type { Logger } from '../../src/log.js';

const START = '2024-06-05T08:00:00Z';
const MINUTE = 60_000;

describe('accounts with passkeys', () => {
  let data: Data;
  let service: Service;
  const clock = new Clock(Date.parse(START));
  const errors: { message: string; fields?: object }[] = [];

  before(async () => {
    data = await importedData();
    // the counter-regression log line is what an operator sees
    const log: Logger = { info() {}, error: (message, fields) => void errors.push({ message, fields }) };
    service = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' }, log);
  });
  after(async () => {
    await service.close();
    data.remove();
  });

  test('sign up, read the account, sign out, sign in again: the cookie is __Host-, HttpOnly, SameSite=Lax, rotated', async () => {
    clock.set(START);
    const browser = new Browser(service);
    const account = await browser.signUp('Ada Lovelace', 'ada@example.org');
    assert.match(account.id, /^acc_[0-9a-f]{24}$/);
    assert.deepEqual({ ...account, id: null }, { id: null, display_name: 'Ada Lovelace', email: 'ada@example.org', moderator: false, created_at: new Date(START).toISOString() });
    assert.match(browser.setCookie!, /^__Host-session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Secure; Max-Age=2592000$/);
    const firstCookie = browser.cookie;

    const read = await browser.request('GET', '/account');
    assert.equal(read.status, 200);
    assert.deepEqual(read.json, account);
    assert.equal(read.headers.get('cache-control'), 'no-store');
    assert.equal(read.headers.get('access-control-allow-origin'), null, 'account reads carry no CORS header');

    const out = await browser.request('DELETE', '/session');
    assert.deepEqual([out.status, out.json], [200, { signed_out: true }]);
    assert.match(browser.setCookie!, /^__Host-session=; .*Max-Age=0$/);
    const stale = new Browser(service);
    stale.cookie = firstCookie;
    const refused = await stale.request('GET', '/account');
    assert.equal(refused.status, 401);
    assert.equal(refused.json.type.endsWith('/problems/sign-in-required'), true);
    assert.equal(refused.headers.get('cache-control'), 'no-store', 'refusals are not cached either');

    browser.cookie = firstCookie; // a signed-out cookie the browser still sends is replaced at sign-in
    const signedIn = await browser.signIn();
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.json));
    assert.deepEqual(signedIn.json, account);
    assert.notEqual(browser.cookie, firstCookie, 'a new token at every sign-in');
    assert.equal((await browser.request('GET', '/account')).status, 200);
  });

  test('the database keeps no session token, challenge or address; only hashes', async () => {
    clock.set(START);
    const browser = new Browser(service, '203.0.113.77');
    await browser.signUp('Grace');
    const options = await browser.request('POST', '/session/options');
    service.app.accounts.file.db.pragma('wal_checkpoint(TRUNCATE)');
    const file = readFileSync(service.app.accounts.file.path).toString('latin1');
    const token = browser.cookie!.split('=')[1];
    for (const secret of [token, options.json.challenge, '203.0.113.77', Buffer.from(token).toString('hex')]) assert.equal(file.includes(secret), false, `${secret} is stored`);
  });

  test('every state-changing account operation refuses another origin (403); the reads need no Origin', async () => {
    clock.set(START);
    const browser = new Browser(service);
    await browser.signUp();
    const writes: [string, string, unknown][] = [
      ['POST', '/account/passkey-options', {}],
      ['POST', '/account', {}],
      ['DELETE', '/account', {}],
      ['POST', '/account/passkeys', {}],
      ['DELETE', '/account/passkeys/abc', undefined],
      ['DELETE', '/account/sessions', undefined],
      ['POST', '/account/recovery', {}],
      ['POST', '/session/options', undefined],
      ['POST', '/session', {}],
      ['DELETE', '/session', undefined],
    ];
    for (const [method, path, body] of writes) {
      const answer = await browser.request(method, path, { body, origin: 'https://evil.example' });
      assert.equal(answer.status, 403, `${method} ${path}`);
      assert.ok(answer.json.type.endsWith('/problems/other-origin'));
    }
    assert.equal((await browser.request('GET', '/account', { origin: null })).status, 200);
    assert.equal((await browser.request('GET', '/account/passkeys', { origin: null })).status, 200);
  });

  test('without a session: 401 on every operation that needs one', async () => {
    const nobody = new Browser(service);
    for (const [method, path] of [['GET', '/account'], ['DELETE', '/account'], ['GET', '/account/passkeys'], ['POST', '/account/passkeys'], ['DELETE', '/account/passkeys/abc'], ['DELETE', '/account/sessions']]) {
      const answer = await nobody.request(method, path, { body: method === 'GET' || path.includes('abc') || path.endsWith('sessions') ? undefined : {} });
      assert.equal(answer.status, 401, `${method} ${path}`);
      assert.ok(answer.json.type.endsWith('/problems/sign-in-required'));
    }
    nobody.cookie = '__Host-session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    assert.equal((await nobody.request('GET', '/account')).status, 401, 'an unknown token');
  });

  test('a passkey for another origin or RP, or without user verification, is refused', async () => {
    clock.set(START);
    for (const [answer, what] of [
      [{ origin: 'https://evil.example' }, 'origin'],
      [{ userVerified: false }, 'user verification'],
    ] as const) {
      const browser = new Browser(service);
      const options = await browser.request('POST', '/account/passkey-options', { body: { display_name: 'Eve' } });
      const credential = browser.authenticator.register(options.json, answer);
      const created = await browser.request('POST', '/account', { body: { display_name: 'Eve', challenge_token: await service.token(browser.ip), credential } });
      assert.equal(created.status, 400, what);
      assert.ok(created.json.type.endsWith('/problems/passkey-refused'), what);
      assert.equal(browser.cookie, null);
    }
    const otherRp = new Browser(service);
    (otherRp.authenticator as { rpId: string }).rpId = 'evil.example';
    const options = await otherRp.request('POST', '/account/passkey-options', { body: { display_name: 'Eve' } });
    const created = await otherRp.request('POST', '/account', { body: { display_name: 'Eve', challenge_token: await service.token(), credential: otherRp.authenticator.register(options.json) } });
    assert.equal(created.status, 400, 'RP ID');

    const browser = new Browser(service);
    await browser.signUp();
    const signIn = await browser.signIn(undefined, { origin: 'https://evil.example' });
    assert.equal(signIn.status, 401, 'a sign-in for another origin');
  });

  test('passkeys are asked for EdDSA, ES256 or RS256 on every Node: never the runtime-dependent ML-DSA', async () => {
    clock.set(START);
    const browser = new Browser(service);
    const options = await browser.request('POST', '/account/passkey-options', { body: { display_name: 'Ada' } });
    assert.equal(options.status, 200);
    // Node 24's Web Crypto has ML-DSA-44 (-48): @simplewebauthn/server would offer it first there, and a
    // passkey made with it signs sign-ins too long for the body's bound and fails on Node 20
    assert.deepEqual((options.json.pubKeyCredParams as { alg: number; type: string }[]).map(({ alg, type }) => [alg, type]), [[-8, 'public-key'], [-7, 'public-key'], [-257, 'public-key']]);
  });

  test('challenges are single use and expire after 5 minutes', async () => {
    clock.set(START);
    const browser = new Browser(service);
    await browser.signUp();
    const options = await browser.request('POST', '/session/options');
    const credential = browser.authenticator.assert(options.json);
    assert.equal((await browser.request('POST', '/session', { body: { credential } })).status, 200);
    const replayed = await browser.request('POST', '/session', { body: { credential } });
    assert.equal(replayed.status, 401, 'replayed');
    assert.match(replayed.json.detail, /expired .* or was used already/);

    const late = await browser.request('POST', '/session/options');
    clock.ms += 5 * MINUTE;
    const expired = await browser.request('POST', '/session', { body: { credential: browser.authenticator.assert(late.json) } });
    assert.equal(expired.status, 401, 'expired');

    clock.set(START);
    const registration = await browser.request('POST', '/account/passkey-options', { body: { display_name: 'Late' } });
    clock.ms += 5 * MINUTE + 1;
    const tooLate = await browser.request('POST', '/account', { body: { display_name: 'Late', challenge_token: await service.token(), credential: browser.authenticator.register(registration.json) } });
    assert.equal(tooLate.status, 400);
    clock.set(START);
  });

  test('an unknown passkey gets the same answer as a wrong signature', async () => {
    clock.set(START);
    const browser = new Browser(service);
    await browser.signUp();
    const stranger = browser.authenticator.stranger();
    stranger.register({ user: { id: 'AAAA' }, challenge: 'x' });
    const unknownOptions = await browser.request('POST', '/session/options');
    const unknown = await browser.request('POST', '/session', { body: { credential: stranger.assert(unknownOptions.json) } });
    const wrongOptions = await browser.request('POST', '/session/options');
    const wrong = await browser.request('POST', '/session', { body: { credential: browser.authenticator.assert(wrongOptions.json, undefined, { signWith: [...stranger.passkeys.values()][0].privateKey }) } });
    assert.equal(unknown.status, 401);
    assert.deepEqual({ ...unknown.json, instance: null }, { ...wrong.json, instance: null });
  });

  test('a signature counter that goes back is refused and logged', async () => {
    clock.set(START);
    const browser = new Browser(service);
    const account = await browser.signUp();
    assert.equal((await browser.signIn(undefined, { counter: 5 })).status, 200);
    errors.length = 0;
    const cloned = await browser.signIn(undefined, { counter: 5 });
    assert.equal(cloned.status, 401);
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /counter went back/);
    assert.equal((errors[0].fields as { account: string }).account, account.id);
    assert.equal((await browser.signIn(undefined, { counter: 6 })).status, 200);
  });

  test('passkeys: add (recent sign-in needed), list, remove (never the last); a removed passkey signs in no more', async () => {
    clock.set(START);
    const browser = new Browser(service);
    await browser.signUp();
    const [first] = browser.authenticator.passkeys.keys();
    const other = new Browser(service);
    other.authenticator.passkeys.set(first, browser.authenticator.passkeys.get(first)!);
    assert.equal((await other.signIn(first)).status, 200, 'a second session');

    const early = await browser.request('POST', '/account/passkey-options', { body: {} });
    clock.ms += 6 * MINUTE;
    const addLate = await browser.request('POST', '/account/passkeys', { body: { credential: browser.authenticator.register(early.json) } });
    assert.equal(addLate.status, 401);
    assert.ok(addLate.json.type.endsWith('/problems/reauthentication-required'));
    // asked before the authenticator makes a passkey, so that no passkey is made that could not be added
    const lateOptions = await browser.request('POST', '/account/passkey-options', { body: {} });
    assert.equal(lateOptions.status, 401);
    assert.ok(lateOptions.json.type.endsWith('/problems/reauthentication-required'));

    assert.equal((await browser.signIn(first)).status, 200, 're-authenticated');
    const options = await browser.request('POST', '/account/passkey-options', { body: {} });
    assert.deepEqual(options.json.excludeCredentials.map((c: { id: string }) => c.id), [first]);
    const added = await browser.request('POST', '/account/passkeys', { body: { name: 'Laptop', credential: browser.authenticator.register(options.json) } });
    assert.equal(added.status, 201, JSON.stringify(added.json));
    valid('PasskeyAdded', added.json);
    assert.equal(added.json.other_sessions, 1, 'offers to end the other session');
    const second = added.json.passkey.id;

    const list = await browser.request('GET', '/account/passkeys');
    valid('PasskeyList', list.json);
    assert.deepEqual(list.json.passkeys.map((p: { name: string }) => p.name), ['Passkey 1', 'Laptop']);
    assert.equal(list.headers.get('cache-control'), 'no-store');

    const removed = await browser.request('DELETE', `/account/passkeys/${first}`);
    assert.deepEqual(removed.json, { removed: first, other_sessions: 1 });
    assert.equal((await browser.request('DELETE', `/account/passkeys/${first}`)).status, 404);
    const last = await browser.request('DELETE', `/account/passkeys/${second}`);
    assert.equal(last.status, 409);
    assert.ok(last.json.type.endsWith('/problems/last-passkey'));
    assert.equal((await browser.signIn(first)).status, 401, 'the removed passkey');
    assert.equal((await browser.signIn(second)).status, 200);

    const ended = await browser.request('DELETE', '/account/sessions');
    assert.deepEqual(ended.json, { ended: 1, connections_ended: 0 });
    assert.equal((await other.request('GET', '/account')).status, 401, 'the other session ended');
    assert.equal((await browser.request('GET', '/account')).status, 200, 'this one stays');
  });

  test('a passkey belongs to one account: registering it again, for another account or the same, is refused', async () => {
    clock.set(START);
    const owner = new Browser(service);
    await owner.signUp();
    const [id] = owner.authenticator.passkeys.keys();
    owner.cookie = null;
    const newOptions = await owner.request('POST', '/account/passkey-options', { body: { display_name: 'Copy' } });
    const again = owner.authenticator.register(newOptions.json, { reuse: id });
    const created = await owner.request('POST', '/account', { body: { display_name: 'Copy', challenge_token: await service.token(), credential: again } });
    assert.equal(created.status, 400);
    assert.match(created.json.detail, /registered already/);
  });

  test('sessions end after 14 days idle or 30 days in all', async () => {
    clock.set(START);
    const browser = new Browser(service);
    await browser.signUp();
    for (let day = 1; day <= 29; day += 13) {
      clock.set(START);
      clock.ms += day * 24 * 60 * MINUTE;
      assert.equal((await browser.request('GET', '/account')).status, 200, `day ${day}`);
    }
    clock.ms += 3 * 24 * 60 * MINUTE; // used on day 27, but 30 days since sign-in
    assert.equal((await browser.request('GET', '/account')).status, 401, 'absolute end');
    await browser.signIn();
    clock.ms += 14 * 24 * 60 * MINUTE;
    assert.equal((await browser.request('GET', '/account')).status, 401, 'idle end');
    clock.set(START);
  });

  test('sign-in and registration attempts have their own limit per address: 429 with Retry-After', async () => {
    const limited = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '10', OVERLAY_DB: `${data.dir}/limited-overlay.db`, ACCOUNTS_DB: `${data.dir}/limited-accounts.db` });
    try {
      clock.set(START);
      const browser = new Browser(limited, '198.51.100.99');
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await browser.request(i % 2 === 0 ? 'POST' : 'POST', i % 2 === 0 ? '/session/options' : '/account/passkey-options', { body: i % 2 === 0 ? undefined : { display_name: 'x' } })).status);
      assert.deepEqual(statuses, [...Array(10).fill(200), 429]);
      const refused = await browser.request('POST', '/session', { body: {} });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.equal((await new Browser(limited, '198.51.100.98').request('POST', '/session/options')).status, 200, 'another address has its own budget');
    } finally {
      await limited.close();
    }
  });

  test('a request refused for its origin spends no attempt, and its 403 carries the RateLimit headers; client registration has its own budget', async () => {
    const limited = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '3', OVERLAY_DB: `${data.dir}/origin-overlay.db`, ACCOUNTS_DB: `${data.dir}/origin-accounts.db` });
    try {
      clock.set(START);
      const browser = new Browser(limited, '198.51.100.97');
      for (let i = 0; i < 10; i++) {
        // what a no-cors POST of another site's page sends
        const refused = await browser.request('POST', '/session/options', { origin: 'https://evil.example' });
        assert.equal(refused.status, 403, `attempt ${i + 1}`);
        assert.equal(refused.headers.get('ratelimit-limit'), '3');
        assert.equal(refused.headers.get('ratelimit-remaining'), '3', 'read, not spent');
        assert.ok(Number(refused.headers.get('ratelimit-reset')) > 0);
      }
      const register = () => fetch(`${limited.url}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': browser.ip, Origin: 'https://evil.example' }, body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'] }) });
      const registrations: number[] = [];
      for (let i = 0; i < 4; i++) registrations.push((await register()).status);
      assert.deepEqual(registrations, [201, 201, 201, 429], 'registration counts its own budget');
      const signIn = await browser.request('POST', '/session/options');
      assert.equal(signIn.status, 200, 'the sign-in budget is untouched by refused origins and by registrations');
      assert.equal(signIn.headers.get('ratelimit-remaining'), '2');
    } finally {
      await limited.close();
    }
  });

  test('the public reads ignore cookies: the same bytes and headers with and without a session', async () => {
    clock.set(START);
    const browser = new Browser(service);
    await browser.signUp();
    for (const path of ['/api/v1/toilets/nearest?lat=43.7384&lon=7.4246', '/api/v1/toilets?bbox=7.40,43.72,7.44,43.75', '/api/v1/openapi.json']) {
      const plain = await fetch(service.url + path);
      const withCookie = await fetch(service.url + path, { headers: { Cookie: browser.cookie! } });
      assert.equal(plain.status, 200, path);
      const headers = (r: Response) => [...r.headers].filter(([name]) => name !== 'date' && !name.startsWith('ratelimit'));
      assert.deepEqual(headers(withCookie), headers(plain), path);
      assert.equal(await withCookie.text(), await plain.text(), path);
    }
  });

  test('the OpenAPI document describes the account operations with the session scheme', async () => {
    const doc: any = await (await fetch(`${service.url}/api/v1/openapi.json`)).json();
    assert.deepEqual(doc.components.securitySchemes.session, { ...doc.components.securitySchemes.session, type: 'apiKey', in: 'cookie', name: '__Host-session' });
    assert.deepEqual(doc.paths['/account'].get.security, [{ session: [] }]);
    assert.deepEqual(doc.paths['/session'].post.security, [], 'signing in needs no session: an empty list says so');
    assert.ok(SITE_ORIGIN.startsWith('https://'));
  });
});
