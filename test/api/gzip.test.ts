// Gzip answers made from marked pieces (src/rules/gzip-bytes.ts) against the plain answers, byte for byte
// after node:zlib decodes them, through the real server on real imports: nearest with every combination of
// filters at every limit, area answers at many limits, every toilet's getToilet, the empty answers
// (needs_location, no results, outside the coverage) and the hours states at three times of day.
// Partner listings and overlays: test/partners/answers.test.ts; Chromium: test/web/site.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { importedCopy, readSourceToilets, serve, tempDir, type Served } from './support.js';
import { assertGzipAgrees } from '../support/gzip.js';
import { GzipBytes } from '../../src/rules/gzip-bytes.js';
import { JsonBytes, fragment } from '../../src/rules/json-bytes.js';

const FILTERS = ['open_now', 'wheelchair', 'changing_table', 'free', 'no_purchase_needed'];
/** Every combination of the filters, as query parameters. */
const COMBINATIONS = Array.from({ length: 1 << FILTERS.length }, (_, bits) => FILTERS.filter((_, i) => bits & (1 << i)).map((name) => `&${name}=true`).join(''));
// 07:30, 12:00 and 23:00 in Porto in June (UTC+1): closed, open and closing later, closed for the night
const TIMES = ['2024-06-05T06:30:00Z', '2024-06-05T11:00:00Z', '2024-06-05T22:00:00Z'].map(Date.parse);

describe('gzip answers decode to the plain answers byte for byte', () => {
  const dir = tempDir();
  let nowMs = TIMES[0];
  let served: Served;
  let ids: { id: string; lat: number; lon: number }[] = [];
  const sizes = { plain: 0, gzip: 0 };
  const agrees = async (path: string) => {
    const { plain, gzip } = await assertGzipAgrees(served.port, path);
    sizes.plain += plain;
    sizes.gzip += gzip;
  };

  before(async () => {
    const db = join(dir.path, 'toilets.db');
    await importedCopy('porto', db);
    ids = readSourceToilets(db);
    served = await serve({ db, now: () => nowMs, env: { AREA_CACHE_SECONDS: '0' }, reach: 'socket' }); // the bytes on the wire are the subject
  });
  after(async () => {
    await served?.close();
    dir.remove();
  });

  it('nearest: every filter combination at every limit 1..20, at three times of day', async () => {
    const centre = ids[Math.floor(ids.length / 2)];
    for (const at of TIMES) {
      nowMs = at;
      for (const filters of COMBINATIONS) {
        for (let limit = 1; limit <= 20; limit++) await agrees(`/api/v1/toilets/nearest?lat=${centre.lat}&lon=${centre.lon}&limit=${limit}${filters}`);
      }
    }
    assert.ok(sizes.gzip < sizes.plain * 0.5, `gzip answers are ${sizes.gzip} bytes against ${sizes.plain}`);
  });

  it('area: every filter combination at limits 1..200, and a cached area answer', async () => {
    for (const filters of COMBINATIONS) {
      for (const limit of [1, 2, 3, 5, 10, 20, 50, 100, 200]) await agrees(`/api/v1/toilets?bbox=-8.70,41.10,-8.55,41.25&limit=${limit}${filters}`);
    }
  });

  it('getToilet: every toilet, at three times of day', async () => {
    for (const at of TIMES) {
      nowMs = at;
      for (const { id } of ids) await agrees(`/api/v1/toilets/${id}`);
    }
  });

  it('the empty answers: needs_location, no results, outside the coverage, an empty box', async () => {
    for (const path of ['/api/v1/toilets/nearest', '/api/v1/toilets/nearest?lat=41.1456&lon=-8.611&changing_table=true&free=true&wheelchair=true&open_now=true', '/api/v1/toilets/nearest?lat=0&lon=0', '/api/v1/toilets?bbox=0,0,0.1,0.1']) {
      await agrees(path);
    }
  });
});

describe('the gzip writer', () => {
  it('writes any bytes, marked anywhere, as gzip that decodes to them: long and overlapping repeats, unmarked and non-ASCII bytes, answers one after another', () => {
    const gzip = new GzipBytes();
    const out = new JsonBytes();
    out.setMarking(true);
    const piece = fragment('{"id":"n1","name":null,"lat":1.5,"lon":2.5,"access":"yes"}');
    const random = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919 + n) % 251));
    for (let round = 0; round < 40; round++) {
      out.reset();
      for (let i = 0; i < round * 3; i++) {
        out.bytes(piece);
        out.integer(i * round);
        if (i % 7 === 0) out.range(random(300 + round), round, 200 + round); // binary, repeated with shifts
        out.ascii('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'.repeat(round % 4));
      }
      const plain = Buffer.from(out.view());
      assert.ok(gunzipSync(gzip.answer(out)).equals(plain), `round ${round}`);
      // the same bytes with marks at every byte, and with none
      const every = Int32Array.from({ length: plain.length }, (_, i) => i);
      assert.ok(gunzipSync(gzip.encode(plain, { starts: every, count: every.length, sources: [] })).equals(plain), `round ${round}, every byte marked`);
      assert.ok(gunzipSync(gzip.encode(plain, { starts: every, count: 0, sources: [] })).equals(plain), `round ${round}, no marks`);
    }
  });

  it('refers back by what was written: fragments met again (also colliding ones: same length, same first bytes), slices within slices, bytes written without a mark, answers past the 32 KiB window', () => {
    const gzip = new GzipBytes();
    const out = new JsonBytes();
    out.setMarking(true);
    let seed = 42;
    const random = (n: number) => ((seed = (seed * 16807) % 2147483647) % n);
    // fragments sharing their length and first four bytes (one slot of the writer's table) but not their bytes
    const fragments = Array.from({ length: 40 }, (_, i) => fragment(i % 2 === 0 ? `,"same":"${String(i).padStart(30, 'x')}"` : `"${'ab'.repeat(1 + (i % 7))}${i}`));
    fragments.push(fragment('"'), fragment(','), fragment('},{'), fragment('null'));
    const text = Buffer.from(Array.from({ length: 4000 }, (_, i) => 32 + ((i * 31 + (i >> 5)) % 90)).map((c) => (c === 0x22 || c === 0x5c ? 0x41 : c)));
    for (let round = 0; round < 300; round++) {
      out.reset();
      const pieces = round === 299 ? 20_000 : 1 + random(400); // the last answer is over 100 KB
      for (let i = 0; i < pieces; i++) {
        const kind = random(10);
        if (kind < 5) out.bytes(fragments[random(fragments.length)]);
        else if (kind < 8) {
          const start = random(20) * 190;
          out.range(text, start, start + random(80)); // often a slice met before, or inside one
          if (kind === 7) out.range(text, start + random(3), start + 3 + random(60));
        } else if (kind === 8) out.integer(random(100_000));
        else out.ascii(String(random(1000)));
      }
      const plain = Buffer.from(out.view());
      assert.ok(gunzipSync(gzip.answer(out)).equals(plain), `round ${round}`);
    }
  });

  it('refuses an answer written without marking', () => {
    const out = new JsonBytes();
    out.ascii('{}');
    assert.throws(() => new GzipBytes().answer(out), /setMarking/);
  });
});
