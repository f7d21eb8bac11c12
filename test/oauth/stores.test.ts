// The OAuth store (src/oauth/store.ts) in both of its implementations, the same checks for each: the
// ACCOUNTS_DB file and PostgreSQL's accounts schema (a cluster of the test's own). Two processes over one
// place race as two replicas do: a code issued through one is redeemed through the other, and two
// redemptions at once make one grant; a refresh token is rotated once; a consent's form token is used once;
// a client document kept by both at once is one client; a grant's tokens go with it, and its account's
// deletion ends them all; purge removes what ended.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { secretHash } from '../../src/accounts/store.js';
import type { ClientRow, OAuthStore } from '../../src/oauth/store.js';
import type { Step } from '../../src/storage/steps.js';
import { anAccount, onEachEngine } from '../support/account-stores.js';

const T0 = Date.parse('2024-06-05T08:00:00Z');
const HOUR = 3_600_000;
const now = () => T0;
let clients = 0;
const byText = (x: unknown, y: unknown) => String(x).localeCompare(String(y));

function clientOf(id = `client-${++clients}`): ClientRow {
  return { id, name: 'Agent', redirect_uris: '["https://agent.example/cb"]', metadata: '{}', created_at: T0, authorized_at: null, document_expires_at: null };
}

/** What the token endpoint does with a code: redeemed once, a grant made for it (grants.ts, reduced to the race). */
function redeem(store: OAuthStore, code: Buffer, grantId: string): Promise<string> {
  return store.transaction(function* (t): Step<string> {
    const row = yield* t.code(code);
    if (row === null || !(yield* t.redeemCode(code, grantId))) return 'invalid_grant';
    yield* t.insertGrant({ id: grantId, account_id: row.account_id, client_id: row.client_id, scope: row.scope, resource: row.resource, created_at: T0, last_used_at: T0 });
    yield* t.insertAccess(secretHash(`access-${grantId}`), grantId, T0 + HOUR);
    yield* t.insertRefresh(secretHash(`refresh-${grantId}`), grantId, T0);
    return grantId;
  });
}

onEachEngine('toilet-oauth-stores', now, (sides) => {
  test('a code issued through one process is redeemed through the other; two redemptions at once make one grant', async () => {
    const { a, b } = sides;
    const account = await anAccount(a.accounts, T0);
    const client = clientOf();
    const code = secretHash(`code-${client.id}`);
    await a.oauth.transaction(function* (t) {
      yield* t.insertClient(client);
      yield* t.insertCode(code, { client_id: client.id, account_id: account, redirect_uri: 'https://agent.example/cb', code_challenge: 'c', resource: 'https://toilets.example/mcp/account', scope: 'partner', expires_at: T0 + 60_000 });
    });
    const results = await Promise.all([redeem(a.oauth, code, `grant-a-${client.id}`), redeem(b.oauth, code, `grant-b-${client.id}`)]);
    const granted = results.filter((r) => r !== 'invalid_grant');
    assert.equal(granted.length, 1, JSON.stringify(results));
    assert.equal((await a.oauth.read((t) => t.code(code)))?.grant_id, granted[0]);
    assert.deepEqual((await b.oauth.read((t) => t.connections(account))).map((c) => [c.id, c.client_name]), [[granted[0], 'Agent']]);
    assert.equal((await a.oauth.read((t) => t.access(secretHash(`access-${granted[0]}`))))?.expires_at, T0 + HOUR);

    const rotations = await Promise.all([a, b].map((side) => side.oauth.transaction((t) => t.rotateRefresh(secretHash(`refresh-${granted[0]}`), T0 + 1))));
    assert.deepEqual(rotations.sort(byText), [false, true], 'a refresh token is exchanged once');
    await b.accounts.deleteAccount(account);
    assert.equal(await a.oauth.read((t) => t.grant(granted[0])), null, "the account's deletion ends its grants");
    assert.equal(await a.oauth.read((t) => t.access(secretHash(`access-${granted[0]}`))), null, "and the grants' tokens");
  });

  test("a consent's form token is used once; a client's first approval is kept", async () => {
    const { a, b } = sides;
    const client = clientOf();
    const token = secretHash(`consent-${client.id}`);
    await a.oauth.transaction(function* (t) {
      yield* t.insertClient(client);
      yield* t.insertConsent(token, { session_hash: secretHash('session'), client_id: client.id, redirect_uri: 'https://agent.example/cb', code_challenge: 'c', resource: 'r', scope: 'partner', state: 'xyz', expires_at: T0 + 60_000 });
    });
    const taken = await Promise.all([a, b].map((side) => side.oauth.transaction((t) => t.takeConsent(token))));
    assert.deepEqual(taken.map((row) => row?.state ?? 'taken before').sort(byText), ['taken before', 'xyz']);
    await b.oauth.transaction((t) => t.markAuthorized(client.id, T0 + 5));
    await a.oauth.transaction((t) => t.markAuthorized(client.id, T0 + 9));
    assert.equal((await a.oauth.read((t) => t.client(client.id)))?.authorized_at, T0 + 5);
  });

  test('a client document kept by two processes at once is one client; registrations nobody approved are bounded', async () => {
    const { a, b } = sides;
    const document = { ...clientOf('https://agent.example/client.json'), document_expires_at: T0 + HOUR };
    const keep = (store: OAuthStore) =>
      store.transaction(function* (t) {
        if ((yield* t.client(document.id)) === null) yield* t.insertClient(document);
        else yield* t.refreshDocument({ ...document, name: 'Agent, refreshed' });
        return (yield* t.client(document.id))!.id;
      });
    assert.deepEqual(await Promise.all([keep(a.oauth), keep(b.oauth)]), [document.id, document.id]);
    const pending = [clientOf(), clientOf(), clientOf()];
    await a.oauth.transaction(function* (t) {
      for (const client of pending) yield* t.insertClient(client);
      yield* t.boundUnauthorized(T0 - HOUR, 2);
    });
    const left = await Promise.all([document, ...pending].map((client) => b.oauth.read((t) => t.client(client.id))));
    assert.deepEqual(left.map((client) => client !== null), [false, false, true, true], 'the oldest go first, until two remain');
  });

  test('purge removes the codes, consents and tokens that ended, and grants past their ends', async () => {
    const { a, b } = sides;
    const account = await anAccount(a.accounts, T0);
    const client = { ...clientOf(), authorized_at: T0 };
    const code = secretHash(`code-${client.id}`);
    await a.oauth.transaction(function* (t) {
      yield* t.insertClient(client);
      yield* t.insertCode(code, { client_id: client.id, account_id: account, redirect_uri: 'u', code_challenge: 'c', resource: 'r', scope: 's', expires_at: T0 + 1 });
    });
    assert.equal(await redeem(b.oauth, code, `grant-${client.id}`), `grant-${client.id}`);
    const ends = { absoluteMs: 90 * 24 * HOUR, idleMs: 30 * 24 * HOUR, unauthorizedClientMs: HOUR };
    await b.oauth.transaction((t) => t.purge(T0 + 2 * HOUR, ends));
    assert.equal(await a.oauth.read((t) => t.code(code)), null, 'the code ended');
    assert.equal(await a.oauth.read((t) => t.access(secretHash(`access-grant-${client.id}`))), null, 'the access token expired');
    assert.notEqual(await a.oauth.read((t) => t.grant(`grant-${client.id}`)), null, 'the grant lives on');
    await a.oauth.transaction((t) => t.purge(T0 + 31 * 24 * HOUR, ends));
    assert.equal(await b.oauth.read((t) => t.grant(`grant-${client.id}`)), null, 'idle past its end');
    assert.equal(await b.oauth.read((t) => t.refresh(secretHash(`refresh-grant-${client.id}`))), null, 'its refresh token went with it');
  });
});
