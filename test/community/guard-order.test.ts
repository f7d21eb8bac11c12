// The guard order (src/api/guards.ts), as a table: for every pair of faults in one request, the earlier
// guard's answer wins; and every answer of a rate-limited route, refusals included, carries the RateLimit
// headers. Real HTTP requests to the real service on a loopback port (test/community/support.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GUARD_ORDER } from '../../src/api/guards.js';
import { deviceId, SITE_ORIGIN, startService, startPortoService, stopPortoService, type Answer, type PortoService, type Service } from './support.js';

/** The order the issue decided (issue 27); the chain must list the same. */
const ORDER = ['rateLimit', 'featureSwitch', 'origin', 'bodySize', 'validation', 'existence', 'humanCheck'] as const;
type Fault = (typeof ORDER)[number];

/** The answer each fault alone gets: status, problem type and, for 400, the offending field. */
const ANSWER: Record<Fault, { status: number; type: string; param?: string }> = {
  rateLimit: { status: 429, type: 'rate-limited' },
  featureSwitch: { status: 503, type: 'contributions-off' },
  origin: { status: 403, type: 'other-origin' },
  bodySize: { status: 400, type: 'invalid-parameters', param: 'body' },
  validation: { status: 400, type: 'invalid-parameters', param: 'rating' },
  existence: { status: 404, type: 'not-found' },
  humanCheck: { status: 403, type: 'human-check-failed' },
};

const TOILET = 'n5225387845'; // Porto
const UNKNOWN = 'n1';
/** Small enough to spend in a few requests, large enough for a token and the request itself. */
const BUDGET = 4;
const RATE_LIMIT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'ratelimit'];

function assertRateLimitHeaders(answer: Answer, what: string): void {
  for (const name of RATE_LIMIT_HEADERS) assert.ok(answer.headers.get(name) !== null, `${what}: ${name} is missing`);
}

describe('guard order', () => {
  let porto: PortoService;
  let off: Service;
  let ipCounter = 0;
  const freshIp = () => `203.0.113.${++ipCounter}`;

  before(async () => {
    porto = await startPortoService({ RATE_LIMIT_PER_MINUTE: String(BUDGET) });
    off = await startService(porto.data, porto.clock, { RATE_LIMIT_PER_MINUTE: String(BUDGET), CONTRIBUTIONS_ENABLED: 'false' });
  });
  after(async () => {
    await off.close();
    await stopPortoService(porto);
  });

  /** One rating request with every fault of `faults`, and nothing else wrong. */
  async function rate(faults: readonly Fault[]): Promise<Answer> {
    const has = (fault: Fault) => faults.includes(fault);
    const service = has('featureSwitch') ? off : porto.s;
    const ip = freshIp();
    // with contributions off there is no challenge to solve, and the switch refuses before the check
    const token = has('humanCheck') ? false : has('featureSwitch') ? 'not-checked' : await service.token(ip);
    let body = JSON.stringify({ rating: has('validation') ? 9 : 4, device_id: deviceId(ipCounter), ...(token === false ? {} : { challenge_token: token }) });
    if (has('bodySize')) body = body.slice(0, -1) + ' '.repeat(16 * 1024) + '}';
    if (has('rateLimit')) {
      let remaining = Infinity;
      while (remaining > 0) remaining = Number((await service.get(`/api/v1/toilets/${TOILET}`, ip)).headers.get('ratelimit-remaining'));
    }
    const path = `/api/v1/toilets/${has('existence') ? UNKNOWN : TOILET}/ratings`;
    return service.post(path, body, { ip, origin: has('origin') ? 'https://evil.example' : undefined });
  }

  function assertAnswer(answer: Answer, fault: Fault, what: string): void {
    const expected = ANSWER[fault];
    assert.equal(answer.status, expected.status, `${what}: ${JSON.stringify(answer.json)}`);
    assert.equal(answer.json.type, `${SITE_ORIGIN}/problems/${expected.type}`, what);
    if (expected.param !== undefined) assert.deepEqual(answer.json.invalid_params.map((p: { name: string }) => p.name), [expected.param], what);
    assertRateLimitHeaders(answer, what);
  }

  test('the chain runs the decided order', () => {
    // the session step refuses nothing on a contribution (it only reads a session when one is sent);
    // its 401s are tested on the account operations (test/accounts); the webhook's signature step, on
    // receiveStripeEvent only, in test/billing/webhook.test.ts
    assert.deepEqual(GUARD_ORDER, [...ORDER.slice(0, 3), 'session', ORDER[3], 'signature', ...ORDER.slice(4)]);
  });

  test('each fault alone gets its own answer, with the RateLimit headers', async () => {
    assert.equal((await rate([])).status, 201, 'the request without faults is served');
    for (const fault of ORDER) assertAnswer(await rate([fault]), fault, fault);
  });

  test('of two faults, the earlier guard answers', async () => {
    for (let i = 0; i < ORDER.length; i++) {
      for (let j = i + 1; j < ORDER.length; j++) assertAnswer(await rate([ORDER[i], ORDER[j]]), ORDER[i], `${ORDER[i]} + ${ORDER[j]}`);
    }
  });

  test('a request refused for its origin spends no budget: its 403 carries the RateLimit headers, read without spending', async () => {
    const ip = freshIp();
    for (let i = 0; i < BUDGET + 2; i++) {
      const refused = await porto.s.post(`/api/v1/toilets/${TOILET}/ratings`, JSON.stringify({ rating: 4, device_id: deviceId(ipCounter) }), { ip, origin: 'https://evil.example' });
      assertAnswer(refused, 'origin', `cross-origin attempt ${i + 1}`);
      assert.equal(refused.headers.get('ratelimit-remaining'), String(BUDGET), 'nothing spent');
    }
    assert.equal((await porto.s.get(`/api/v1/toilets/${TOILET}`, ip)).headers.get('ratelimit-remaining'), String(BUDGET - 1), 'the whole budget is left');
  });

  test('every answer of the other rate-limited routes carries the RateLimit headers', async () => {
    const ip = freshIp();
    const answers: [string, Answer][] = [
      ['getToilet 404', await porto.s.get(`/api/v1/toilets/${UNKNOWN}`, ip)],
      ['findToiletsNear 400', await porto.s.get('/api/v1/toilets/nearest?lat=91&lon=0', ip)],
      ['listToiletsInArea 400', await porto.s.get('/api/v1/toilets?bbox=1,2,3', freshIp())],
      ['dump 404', await porto.s.get('/dumps/nothing.csv.gz', ip)],
      ['challenge 503 (contributions off)', await off.get('/api/v1/challenge', freshIp())],
    ];
    for (const [what, answer] of answers) {
      assert.ok(answer.status >= 400, `${what}: ${answer.status}`);
      assertRateLimitHeaders(answer, what);
    }
  });
});
