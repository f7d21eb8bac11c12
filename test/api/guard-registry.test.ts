// The guards every entry of the registry (src/operations.ts: the spec's operations and the routes outside
// it) declares, checked by looping over the registry itself, so that a new entry is covered without
// editing a list here: an operation
// guarded by `origin: 'site'` refuses another site's page with 403 before it spends any budget; one with
// `security: 'session'` refuses a request without a session with 401; and of two faults the earlier
// guard of src/api/guards.ts answers (feature switch before origin, origin before session). In process.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fullPath, isListed, type RegistryEntry } from '../../src/schemas/operations.js';
import { REGISTRY } from '../../src/operations.js';
import { Clock, importedData, SITE_ORIGIN, startService, TEST_START, type Answer, type Data, type Service } from '../support/server.js';

const OTHER_SITE = 'https://evil.example';
const SWITCH_OFF: Record<string, string> = { contributions: 'contributions-off', billing: 'payments-not-open' };

/** The operation's request: its path with every parameter filled, a JSON body where it takes one. */
function request(operation: RegistryEntry, service: Service, ip: string, origin: string | null): Promise<Answer> {
  const path = fullPath(operation).replace(/\{[^}]+\}/g, 'n1');
  const headers: Record<string, string> = { 'X-Forwarded-For': ip, ...(origin === null ? {} : { Origin: origin }) };
  if (operation.method === 'get') return service.get(path, ip);
  return fetchAnswer(service, path, operation.method.toUpperCase(), headers);
}

async function fetchAnswer(service: Service, path: string, method: string, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(service.url + path, { method, headers: { 'Content-Type': 'application/json', ...headers }, body: method === 'DELETE' ? null : '{}' });
  const text = await response.text();
  const json = /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined; // an HTML page's refusal is no JSON
  return { status: response.status, headers: response.headers, text, json };
}

/** The refusal's status; its problem type where the entry answers refusals as problem+json (else a page, an RFC 6749 or JSON-RPC error). */
function assertProblem(answer: Answer, status: number, type: string, what: string, operation: RegistryEntry): void {
  assert.equal(answer.status, status, `${what}: ${answer.text}`);
  if (isListed(operation) || operation.refusals === 'problem') assert.equal(JSON.parse(answer.text).type, `${SITE_ORIGIN}/problems/${type}`, what);
}

const label = (operation: RegistryEntry) => `${operation.operationId ?? ''} (${operation.method.toUpperCase()} ${fullPath(operation)})`;

describe('the guards of every operation in the registry', () => {
  let data: Data;
  let on: Service;
  let off: Service;
  let ipCounter = 0;
  const freshIp = () => `198.18.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

  before(async () => {
    data = await importedData('monaco');
    const clock = new Clock(Date.parse(TEST_START));
    on = await startService(data, clock);
    off = await startService(data, clock, { CONTRIBUTIONS_ENABLED: 'false' });
  });
  after(async () => {
    await Promise.all([on?.close(), off?.close()]);
    data?.remove();
  });

  const switched = REGISTRY.filter((o) => o.guards?.featureSwitch !== undefined);
  const siteOnly = REGISTRY.filter((o) => o.guards?.origin === 'site');
  const sessioned = REGISTRY.filter((o) => isListed(o) && o.security === 'session');

  test('the registry has entries of each kind, routes outside the spec among them (else this file tests nothing)', () => {
    assert.ok(switched.length > 0 && siteOnly.length > 0 && sessioned.length > 0);
    assert.ok(switched.some((o) => !isListed(o)) && siteOnly.some((o) => !isListed(o)), 'the challenge, the cancel link and the OAuth forms are looped over too');
  });

  test("an operation whose switch is off answers 503 first, even to another site's page", async () => {
    for (const operation of switched) {
      // billing is off on both services (no STRIPE_SECRET_KEY); contributions on the second
      const service = operation.guards!.featureSwitch!.name === 'billing' ? on : off;
      assertProblem(await request(operation, service, freshIp(), OTHER_SITE), 503, SWITCH_OFF[operation.guards!.featureSwitch!.name], label(operation), operation);
    }
  });

  test("an operation only this site's pages may send refuses another site's page with 403, before the session, spending nothing", async () => {
    for (const operation of siteOnly.filter((o) => o.guards?.featureSwitch?.name !== 'billing')) {
      const ip = freshIp();
      const refused = await request(operation, on, ip, OTHER_SITE);
      assertProblem(refused, 403, 'other-origin', label(operation), operation);
      if (operation.rateLimit === null) continue;
      const limit = refused.headers.get('ratelimit-limit');
      assert.ok(limit !== null, `${label(operation)}: the refusal carries the RateLimit headers`);
      assert.equal(refused.headers.get('ratelimit-remaining'), limit, `${label(operation)}: the refusal spent no budget`);
    }
  });

  test('an operation that needs a session refuses a request without one with 401, from the site itself', async () => {
    for (const operation of sessioned.filter((o) => o.guards?.featureSwitch?.name !== 'billing')) {
      assertProblem(await request(operation, on, freshIp(), SITE_ORIGIN), 401, 'sign-in-required', label(operation), operation);
    }
  });
});
