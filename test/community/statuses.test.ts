// Every status the spec lists for the five contribution operations, and the order of the guards: rate
// limit, contributions switch, origin, body size and JSON, validation, unknown toilet, human check, write.
// A request refused by a later guard never burns the user's token.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertValid, Clock, deviceId, SITE_ORIGIN, startService, type Data, type Service, startPortoService, stopPortoService, TEST_START } from './support.js';

const TOILET = 'n5225387845'; // Porto: public, paid, wheelchair yes
const OTHER = 'n3191740661';
const UNKNOWN = 'n1';
const START = TEST_START;

/** A valid body for each operation (challenge_token added by the test client). */
const VALID: Record<string, [path: string, body: object]> = {
  submitToilet: ['/api/v1/submissions', { lat: 41.15, lon: -8.61, name: 'Kiosk WC', access: 'public', fee: 'free', opening_hours: 'Mo-Su 08:00-20:00' }],
  confirmToilet: [`/api/v1/toilets/${TOILET}/confirmations`, {}],
  rateToilet: [`/api/v1/toilets/${TOILET}/ratings`, { rating: 4, device_id: deviceId(1) }],
  reportToilet: [`/api/v1/toilets/${TOILET}/reports`, { kind: 'wrong_hours', note: 'closed on Sundays' }],
  correctToilet: [`/api/v1/toilets/${TOILET}/votes`, { votes: [{ attribute: 'changing_table', value: 'yes' }], device_id: deviceId(1) }],
};
const TOILET_OPERATIONS = ['confirmToilet', 'rateToilet', 'reportToilet', 'correctToilet'];

describe('contribution statuses and guards', () => {
  let data: Data;
  let clock: Clock;
  let s: Service;
  let ipCounter = 0;
  /** A fresh client address, so per-address-per-day rules stay out of the way. */
  const freshIp = () => `203.0.113.${++ipCounter}`;

  before(async () => ({ data, clock, s } = await startPortoService()));
  after(() => stopPortoService({ data, clock, s }));

  test('201: each operation saves and answers its body', async () => {
    const submitted = await s.post(...VALID.submitToilet, { ip: freshIp() });
    assert.equal(submitted.status, 201);
    assert.match(submitted.json.id, /^sub_[1-9][0-9]*$/);
    assert.equal(submitted.json.status, 'pending');

    const confirmed = await s.post(...VALID.confirmToilet, { ip: freshIp() });
    assert.equal(confirmed.status, 201);
    assertValid('ConfirmToiletAnswer', confirmed.json);
    assert.deepEqual(confirmed.json, { id: TOILET, last_confirmed_at: '2026-06-15T10:00:00.000Z', confirmations: 1 });

    const rated = await s.post(...VALID.rateToilet, { ip: freshIp() });
    assert.equal(rated.status, 201);
    assertValid('RateToiletAnswer', rated.json);
    assert.deepEqual(rated.json, { id: TOILET, rating: 4, cleanliness: { average: 4, count: 1 } });

    const reported = await s.post(...VALID.reportToilet, { ip: freshIp() });
    assert.equal(reported.status, 201);
    assert.match(reported.json.id, /^rep_[1-9][0-9]*$/);
    assert.equal(reported.json.status, 'pending');

    const voted = await s.post(...VALID.correctToilet, { ip: freshIp() });
    assert.equal(voted.status, 201);
    assert.deepEqual(voted.json, {
      id: TOILET,
      attributes: { changing_table: { value: null, decided: { by: 'votes', votes_for: 0, votes_total: 1, as_of: '2026-06-15' } } },
    });
    for (const answer of [confirmed, rated, reported, voted, submitted]) assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  });

  test('400: not JSON, each invalid field listed, out-of-range values', async () => {
    const notJson = await s.post(VALID.rateToilet[0], '{"rating": 4', { ip: freshIp() });
    assert.equal(notJson.status, 400);
    assert.deepEqual(notJson.json.invalid_params.map((p: { name: string }) => p.name), ['body']);

    const fields = await s.post('/api/v1/submissions', { lat: 91, name: 'x'.repeat(121), access: 'private', colour: 'blue' }, { ip: freshIp() });
    assert.equal(fields.status, 400);
    assert.deepEqual(fields.json.invalid_params.map((p: { name: string }) => p.name).sort(), ['access', 'colour', 'lat', 'lon', 'name']);

    const rating = await s.post(VALID.rateToilet[0], { rating: 6, device_id: deviceId(2) }, { ip: freshIp() });
    assert.deepEqual(rating.json.invalid_params.map((p: { name: string }) => p.name), ['rating']);
    const noKind = await s.post(VALID.reportToilet[0], { kind: 'smelly' }, { ip: freshIp() });
    assert.deepEqual(noKind.json.invalid_params.map((p: { name: string }) => p.name), ['kind']);
    const tooMany = await s.post(VALID.correctToilet[0], { votes: Array.from({ length: 11 }, () => ({ attribute: 'name', value: 'x' })), device_id: deviceId(2) }, { ip: freshIp() });
    assert.deepEqual(tooMany.json.invalid_params.map((p: { name: string }) => p.name), ['votes']);
    const badHours = await s.post('/api/v1/submissions', { lat: 41.15, lon: -8.61, opening_hours: 'when the kiosk is open' }, { ip: freshIp() });
    assert.deepEqual(badHours.json.invalid_params.map((p: { name: string }) => p.name), ['opening_hours']);
  });

  test('400: device_id is required for ratings and votes without an account', async () => {
    for (const [path, body] of [VALID.rateToilet, VALID.correctToilet]) {
      const { device_id: _omitted, ...rest } = body as { device_id: string };
      const answer = await s.post(path, rest, { ip: freshIp() });
      assert.equal(answer.status, 400);
      assert.deepEqual(answer.json.invalid_params.map((p: { name: string }) => p.name), ['device_id']);
    }
  });

  test('400: a vote value outside its fact’s forms, and one fact twice', async () => {
    const answer = await s.post(
      VALID.correctToilet[0],
      {
        votes: [
          { attribute: 'wheelchair', value: 'maybe' },
          { attribute: 'fee_amount', value: '0.50 XYZ' },
          { attribute: 'opening_hours', value: 'sometimes' },
          { attribute: 'gender', value: 'male,other' },
          { attribute: 'name', value: 'A' },
          { attribute: 'name', value: 'B' },
        ],
        device_id: deviceId(3),
      },
      { ip: freshIp() },
    );
    assert.equal(answer.status, 400);
    // the schema's faults come first; the normal-form checks run once the schema is satisfied
    assert.deepEqual(answer.json.invalid_params.map((p: { name: string }) => p.name).sort(), ['votes[0].value', 'votes[3].value']);
    const second = await s.post(
      VALID.correctToilet[0],
      { votes: [{ attribute: 'fee_amount', value: '0.50 XYZ' }, { attribute: 'opening_hours', value: 'sometimes' }, { attribute: 'name', value: 'A' }, { attribute: 'name', value: 'B' }], device_id: deviceId(3) },
      { ip: freshIp() },
    );
    assert.deepEqual(second.json.invalid_params.map((p: { name: string }) => p.name), ['votes[0].value', 'votes[1].value', 'votes[3].attribute']);
  });

  test('400 for a body over 16 KiB (no 413); exactly 16 KiB is accepted', async () => {
    const ip = freshIp();
    const token = await s.token(ip);
    const body = JSON.stringify({ rating: 3, device_id: deviceId(4), challenge_token: token });
    const exact = body.slice(0, -1) + ' '.repeat(16 * 1024 - Buffer.byteLength(body)) + '}';
    assert.equal(Buffer.byteLength(exact), 16 * 1024);
    const over = await s.post(VALID.rateToilet[0], exact + ' ', { ip });
    assert.equal(over.status, 400);
    assert.deepEqual(over.json.invalid_params.map((p: { name: string }) => p.name), ['body']);
    const accepted = await s.post(VALID.rateToilet[0], exact, { ip });
    assert.equal(accepted.status, 201, 'the token was not burned by the oversized request');
  });

  test('403: another origin, or no Origin and no same-origin Sec-Fetch-Site', async () => {
    const other = await s.post(...VALID.confirmToilet, { ip: freshIp(), origin: 'https://evil.example' });
    assert.equal(other.status, 403);
    assert.equal(other.json.type, `${SITE_ORIGIN}/problems/other-origin`);
    const none = await s.post(...VALID.confirmToilet, { ip: freshIp(), origin: null });
    assert.equal(none.status, 403);
    const crossSite = await s.post(...VALID.confirmToilet, { ip: freshIp(), origin: null, headers: { 'Sec-Fetch-Site': 'cross-site' } });
    assert.equal(crossSite.status, 403);
    const sameSite = await s.post(...VALID.confirmToilet, { ip: freshIp(), origin: null, headers: { 'Sec-Fetch-Site': 'same-origin' } });
    assert.equal(sameSite.status, 201);
  });

  test('403: the human check: missing, not a payload, tampered, expired, replayed', async () => {
    const [path, body] = VALID.confirmToilet;
    const missing = await s.post(path, body, { ip: freshIp(), token: false });
    assert.equal(missing.status, 403);
    assert.equal(missing.json.type, `${SITE_ORIGIN}/problems/human-check-failed`);
    assert.equal((await s.post(path, body, { ip: freshIp(), token: 'bm90IGEgcGF5bG9hZA==' })).status, 403);

    const ip = freshIp();
    const token = await s.token(ip);
    const payload = JSON.parse(Buffer.from(token, 'base64').toString());
    payload.challenge.parameters.data.expires += 3600; // a longer life the server never signed
    assert.equal((await s.post(path, body, { ip, token: Buffer.from(JSON.stringify(payload)).toString('base64') })).status, 403);
    const wrongKey = JSON.parse(Buffer.from(token, 'base64').toString());
    wrongKey.solution.derivedKey = '00'.repeat(32);
    assert.equal((await s.post(path, body, { ip, token: Buffer.from(JSON.stringify(wrongKey)).toString('base64') })).status, 403);

    const stale = await s.token(ip);
    clock.ms += 1201_000; // ALTCHA_EXPIRES_SECONDS is 1200 by default
    const expired = await s.post(path, body, { ip, token: stale });
    clock.ms -= 1201_000;
    assert.equal(expired.status, 403);
    assert.match(expired.json.detail, /expired/);

    const first = await s.post(path, body, { ip, token });
    assert.equal(first.status, 201);
    const replayed = await s.post(`/api/v1/toilets/${OTHER}/confirmations`, body, { ip, token });
    assert.equal(replayed.status, 403);
    assert.match(replayed.json.detail, /used before/);
  });

  test('404: no toilet has the id (or the id is malformed)', async () => {
    for (const operation of TOILET_OPERATIONS) {
      const [path, body] = VALID[operation];
      for (const id of [UNKNOWN, 'c_999', 'not%20an%20id']) {
        const answer = await s.post(path.replace(TOILET, id), body, { ip: freshIp() });
        assert.equal(answer.status, 404, `${operation} ${id}`);
      }
    }
  });

  test('guards in order, and a token survives every refusal that is not the human check', async () => {
    const ip = freshIp();
    const token = await s.token(ip);
    const [ratePath] = VALID.rateToilet;
    // validation before the unknown toilet; the unknown toilet before the human check
    assert.equal((await s.post(ratePath.replace(TOILET, UNKNOWN), { rating: 9, device_id: deviceId(5) }, { ip, token })).status, 400);
    assert.equal((await s.post(ratePath.replace(TOILET, UNKNOWN), { rating: 5, device_id: deviceId(5) }, { ip, token: false })).status, 404);
    // origin before the body: a wrong origin with a malformed body is 403
    assert.equal((await s.post(ratePath, '{', { ip, origin: 'https://evil.example' })).status, 403);
    // the same token, refused four times for other reasons, still works once
    assert.equal((await s.post(ratePath, { rating: 9, device_id: deviceId(5) }, { ip, token })).status, 400);
    assert.equal((await s.post(ratePath.replace(TOILET, UNKNOWN), { rating: 5, device_id: deviceId(5) }, { ip, token })).status, 404);
    assert.equal((await s.post(ratePath, { rating: 5, device_id: deviceId(5) }, { ip, token, origin: 'https://evil.example' })).status, 403);
    assert.equal((await s.post(ratePath, { rating: 5, device_id: deviceId(5) }, { ip, token })).status, 201);
  });

  test('503 with Retry-After when contributions are off; the challenge too; reads go on', async () => {
    const off = await startService(data, clock, { CONTRIBUTIONS_ENABLED: 'false' });
    try {
      for (const [path, body] of Object.values(VALID)) {
        const answer = await off.post(path, body, { ip: freshIp(), token: 'irrelevant' });
        assert.equal(answer.status, 503, path);
        assert.equal(answer.headers.get('retry-after'), '3600');
        assert.equal(answer.json.type, `${SITE_ORIGIN}/problems/contributions-off`);
      }
      // the switch comes before the origin check and the body (src/api/guards.ts GUARD_ORDER)
      assert.equal((await off.post(VALID.rateToilet[0], '{', { ip: freshIp() })).status, 503);
      assert.equal((await off.post(VALID.rateToilet[0], '{', { ip: freshIp(), origin: 'https://evil.example' })).status, 503);
      assert.equal((await off.get('/api/v1/challenge')).status, 503);
      assert.equal((await off.get(`/api/v1/toilets/${TOILET}`)).status, 200);
    } finally {
      await off.close();
    }
  });

  test('429: contributions share the per-IP budget with reads, first of all guards', async () => {
    const limited = await startService(data, clock, { RATE_LIMIT_PER_MINUTE: '3' });
    try {
      clock.ms = Date.parse('2026-06-15T10:05:00Z');
      const ip = freshIp();
      assert.equal((await limited.get(`/api/v1/toilets/${TOILET}`, ip)).status, 200);
      const token = await limited.token(ip); // the challenge counts too: 2 of 3
      const confirmed = await limited.post(...VALID.confirmToilet, { ip, token });
      assert.equal(confirmed.status, 201);
      assert.equal(confirmed.headers.get('ratelimit-remaining'), '0');
      const refused = await limited.post(VALID.rateToilet[0], '{', { ip, origin: 'https://evil.example', token: false });
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('retry-after'), '60');
      assert.equal((await limited.get(`/api/v1/toilets/${TOILET}`, ip)).status, 429);
    } finally {
      clock.ms = Date.parse(START);
      await limited.close();
    }
  });
});
