// Compression and conditional requests through the real server on a really imported extract: which coding
// each Accept-Encoding gets (q-values, identity, refusals), Vary, the sizes, ETags that follow the exact
// bytes (open_now turning with the injected clock), and 304 answers that carry ETag, Cache-Control and the
// rate-limit headers and count toward the limit.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { FIXED_NOW, importInto, serve, tempDir, type Served } from './support.js';
import { rawRequest, type RawAnswer } from '../http/harness.js';

/** Open Mo-Su 10:00-19:00 in Porto (UTC+1 in June). */
const HOURS_TOILET = 'n4791588622';
const NEAREST_20 = '/api/v1/toilets/nearest?lat=41.1456&lon=-8.611&limit=20';
const AREA = '/api/v1/toilets?bbox=-8.63,41.13,-8.59,41.16';

describe('compression and ETags through the server', () => {
  const dir = tempDir();
  let nowMs = FIXED_NOW;
  let served: Served;
  let limited: Served;
  const get = (path: string, headers: Record<string, string> = {}, server = served): Promise<RawAnswer> => rawRequest(server.origin + path, { headers });

  before(async () => {
    const db = join(dir.path, 'toilets.db');
    await importInto('porto', db);
    served = await serve({ db, now: () => nowMs, reach: 'socket' }); // the coded bytes and headers as sent are the subject
    limited = await serve({ db, now: () => nowMs, env: { RATE_LIMIT_PER_MINUTE: '3', AREA_RATE_LIMIT_PER_MINUTE: '3', OVERLAY_DB: join(dir.path, 'limited-overlay.db') }, reach: 'socket' });
  });
  after(async () => {
    await served?.close();
    await limited?.close();
    dir.remove();
  });

  it('sends a large JSON answer gzipped when the client accepts gzip, and the same bytes decompressed', async () => {
    const plain = await get(NEAREST_20);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding', 'the answer depends on Accept-Encoding even when sent plain');
    assert.ok(plain.body.length > 8000, `a 20-result answer is large (${plain.body.length} bytes)`);
    assert.equal(Number(plain.headers['content-length']), plain.body.length);

    const zipped = await get(NEAREST_20, { 'Accept-Encoding': 'gzip' });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(zipped.headers.vary, 'Accept-Encoding');
    assert.equal(Number(zipped.headers['content-length']), zipped.body.length);
    assert.deepEqual(gunzipSync(zipped.body), plain.body);
    // the pieces' writer trades some bytes for CPU (docs/PERFORMANCE.md, "Compression"): ~26% here
    assert.ok(zipped.body.length * 10 < plain.body.length * 3, `gzip makes it at most 30% (${zipped.body.length} of ${plain.body.length} bytes)`);
  });

  it('follows the q-values: refused codings, identity, x-gzip, and no brotli made per request', async () => {
    const cases: [string, string | undefined][] = [
      ['gzip;q=0', undefined],
      ['gzip;q=0.5, identity', undefined],
      ['identity', undefined],
      ['identity;q=0, gzip;q=0.1', 'gzip'],
      ['*', 'gzip'],
      ['*;q=0', undefined], // nothing acceptable: the uncoded body, which every client reads
      ['x-gzip', 'gzip'],
      ['GZIP;Q=1', 'gzip'],
      ['br', undefined], // brotli per request does not pay (docs/PERFORMANCE.md)
      ['br, gzip;q=0.8', 'gzip'],
      ['gzip;q=2', undefined], // not a q-value: counts as refused
      ['', undefined],
    ];
    for (const [acceptEncoding, expected] of cases) {
      const answer = await get(NEAREST_20, { 'Accept-Encoding': acceptEncoding });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-encoding'], expected, `Accept-Encoding: ${acceptEncoding}`);
      JSON.parse((expected === 'gzip' ? gunzipSync(answer.body) : answer.body).toString());
    }
  });

  it('leaves small answers as they are, without Vary', async () => {
    const small = await get('/api/v1/toilets/nearest', { 'Accept-Encoding': 'gzip' }); // needs_location
    assert.ok(small.body.length < 1024, `${small.body.length} bytes`);
    assert.equal(small.headers['content-encoding'], undefined);
    assert.equal(small.headers.vary, undefined);
    const problem = await get('/api/v1/toilets/nearest?lat=91', { 'Accept-Encoding': 'gzip' });
    assert.equal(problem.status, 400);
    assert.equal(problem.headers['content-encoding'], undefined);
  });

  it('serves the OpenAPI document in brotli or gzip prepared once, tagged, and 304 on its tag', async () => {
    const plain = await get('/api/v1/openapi.json');
    const br = await get('/api/v1/openapi.json', { 'Accept-Encoding': 'gzip, deflate, br' });
    const gz = await get('/api/v1/openapi.json', { 'Accept-Encoding': 'gzip' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
    assert.deepEqual(gunzipSync(gz.body), plain.body);
    assert.ok(br.body.length < gz.body.length && gz.body.length * 5 < plain.body.length, `${plain.body.length} → gzip ${gz.body.length}, br ${br.body.length}`);
    const tags = [plain, br, gz].map((answer) => answer.headers.etag!);
    assert.equal(new Set(tags).size, 3, `each coding is its own representation: ${tags.join(' ')}`);
    for (const tag of tags) {
      const again = await get('/api/v1/openapi.json', { 'Accept-Encoding': 'gzip', 'If-None-Match': tag });
      assert.equal(again.status, 304, `If-None-Match ${tag}`);
      assert.equal(again.headers.etag, gz.headers.etag, 'the 304 names the representation this request would get');
      assert.equal(again.body.length, 0);
    }
  });

  it('tags getToilet by its exact bytes: equal bytes the same tag, a turned open_now a new one', async () => {
    nowMs = FIXED_NOW; // 09:00 in Porto: closed
    const closed = await get(`/api/v1/toilets/${HOURS_TOILET}`);
    const closedAgain = await get(`/api/v1/toilets/${HOURS_TOILET}`);
    nowMs = FIXED_NOW + 2 * 3600_000; // 11:00: open
    const open = await get(`/api/v1/toilets/${HOURS_TOILET}`);
    nowMs = FIXED_NOW;
    assert.equal(JSON.parse(closed.body.toString()).toilet.open_now, false);
    assert.equal(JSON.parse(open.body.toString()).toilet.open_now, true);
    assert.match(closed.headers.etag!, /^"[A-Za-z0-9_-]{27}"$/, 'a strong tag');
    assert.deepEqual(closedAgain.body, closed.body);
    assert.equal(closedAgain.headers.etag, closed.headers.etag);
    assert.notEqual(open.headers.etag, closed.headers.etag);
    assert.equal(closed.headers['cache-control'], 'no-cache', 'caches keep it but ask each time');

    // the cached closed copy is stale once the toilet opens: a full answer, not a 304
    nowMs = FIXED_NOW + 2 * 3600_000;
    const revalidated = await get(`/api/v1/toilets/${HOURS_TOILET}`, { 'If-None-Match': closed.headers.etag! });
    assert.equal(revalidated.status, 200);
    assert.equal(revalidated.headers.etag, open.headers.etag);
    const current = await get(`/api/v1/toilets/${HOURS_TOILET}`, { 'If-None-Match': `"other", W/${open.headers.etag!}` });
    assert.equal(current.status, 304, 'a list with a weak form of the tag matches');
    nowMs = FIXED_NOW;
  });

  it('tags area answers per coding, and gives no tag to nearest answers or problems', async () => {
    const plain = await get(AREA);
    const gz = await get(AREA, { 'Accept-Encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gz.headers.etag, `${plain.headers.etag!.slice(0, -1)}-gz"`);
    assert.equal((await get(AREA, { 'If-None-Match': gz.headers.etag! })).status, 304, 'either coding’s tag revalidates the same bytes');
    assert.equal((await get(AREA, { 'If-None-Match': '*' })).status, 304);
    assert.equal((await get(NEAREST_20)).headers.etag, undefined);
    assert.equal((await get('/api/v1/toilets/n1')).headers.etag, undefined);
    assert.equal((await get('/api/v1/toilets/n1', { 'If-None-Match': '*' })).status, 404, 'no 304 for what does not exist');
  });

  it('answers 304 with ETag, Cache-Control, Vary and the rate-limit headers, counted toward the limit', async () => {
    nowMs = FIXED_NOW + 3 * 60_000; // a fresh window
    const first = await get(`/api/v1/toilets/${HOURS_TOILET}`, {}, limited);
    assert.equal(first.status, 200);
    assert.equal(first.headers['ratelimit-remaining'], '2');
    const unchanged = await get(`/api/v1/toilets/${HOURS_TOILET}`, { 'If-None-Match': first.headers.etag! }, limited);
    assert.equal(unchanged.status, 304);
    assert.equal(unchanged.headers.etag, first.headers.etag);
    assert.equal(unchanged.headers['cache-control'], 'no-cache');
    assert.equal(unchanged.headers['ratelimit-remaining'], '1', 'the 304 counted');
    for (const name of ['ratelimit-limit', 'ratelimit-reset', 'ratelimit-policy', 'ratelimit', 'access-control-allow-origin', 'x-content-type-options']) {
      assert.ok(unchanged.headers[name] !== undefined, `304 carries ${name}`);
    }
    assert.equal(unchanged.headers['content-type'], undefined, 'no header about a body it does not have');
    assert.equal(unchanged.body.length, 0);

    const area = await get(AREA, { 'Accept-Encoding': 'gzip' }, limited);
    const areaUnchanged = await get(AREA, { 'Accept-Encoding': 'gzip', 'If-None-Match': area.headers.etag! }, limited);
    assert.equal(areaUnchanged.status, 304);
    assert.equal(areaUnchanged.headers['cache-control'], 'public, max-age=300');
    assert.equal(areaUnchanged.headers.vary, 'Accept-Encoding');

    assert.equal((await get(`/api/v1/toilets/${HOURS_TOILET}`, { 'If-None-Match': first.headers.etag! }, limited)).status, 304);
    const refused = await get(`/api/v1/toilets/${HOURS_TOILET}`, { 'If-None-Match': first.headers.etag! }, limited);
    assert.equal(refused.status, 429, 'the fourth request of three is refused, 304s included');
    nowMs = FIXED_NOW;
  });

  it('answers HEAD with the headers of GET, 304 included', async () => {
    const head = await rawRequest(served.origin + AREA, { method: 'HEAD', headers: { 'Accept-Encoding': 'gzip' } });
    const got = await get(AREA, { 'Accept-Encoding': 'gzip' });
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-encoding'], 'gzip');
    assert.equal(head.headers.etag, got.headers.etag);
    assert.equal(head.body.length, 0);
    assert.equal((await rawRequest(served.origin + AREA, { method: 'HEAD', headers: { 'If-None-Match': got.headers.etag! } })).status, 304);
  });
});
