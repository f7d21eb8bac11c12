// The fast path's answers over generated calls, through the real server on the real Porto import, in both
// revisions: each gzip answer decodes (node:zlib) to exactly the plain one, and each result conforms to
// the tool's output schema, its text item being the structured content's JSON and its second item the
// credit. The fast path checks no output per call (src/mcp/fast-path.ts): this, with the differential
// test against the SDK (fast-path.test.ts), is what holds its answers to the schema. Calls: nearest with
// every combination of filters at every limit 1..20, every toilet's get_toilet, at three times of day
// (hours states), the empty answers (needs_location, no results, outside the coverage) and an unknown id.
// Partner listings and overlays: test/partners/answers.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { importedCopy, tempDir } from '../support/extracts.js';
import { readSourceToilets } from '../api/support.js';
import { selfContainedSchema } from '../../src/schemas/catalogue.js';
import { assertToolGzipAgrees, serve, type Served } from './support.js';

const FILTERS = ['open_now', 'wheelchair', 'changing_table', 'free', 'no_purchase_needed'];
const COMBINATIONS = Array.from({ length: 1 << FILTERS.length }, (_, bits) => Object.fromEntries(FILTERS.filter((_, i) => bits & (1 << i)).map((name) => [name, true])));
// 07:30, 12:00 and 23:00 in Porto in June (UTC+1): closed, open and closing later, closed for the night
const TIMES = ['2024-06-05T06:30:00Z', '2024-06-05T11:00:00Z', '2024-06-05T22:00:00Z'].map(Date.parse);
const ERAS = ['modern', 'legacy'] as const;

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
formats.default(ajv, ['uri', 'uri-reference', 'email', 'date-time', 'date']);
const schemas = { find_toilets_near: ajv.compile(selfContainedSchema('FindResult')), get_toilet: ajv.compile(selfContainedSchema('ToiletAnswer')) };

describe('fast-path answers: gzip decodes to the plain answer, and results conform to the output schema', () => {
  const dir = tempDir();
  let nowMs = TIMES[0];
  let served: Served;
  let port = 0;
  let ids: { id: string; lat: number; lon: number }[] = [];
  const sizes = { plain: 0, gzip: 0 };
  let calls = 0;

  const call = async (era: (typeof ERAS)[number], tool: keyof typeof schemas, args: Record<string, unknown>) => {
    const before = served.app.mcp.fastAnswers;
    const { plain, gzip, result } = await assertToolGzipAgrees(port, era, tool, args, ++calls);
    assert.equal(served.app.mcp.fastAnswers, before + 2, `the fast path answered ${tool} ${JSON.stringify(args)} both times`);
    sizes.plain += plain;
    sizes.gzip += gzip;
    if (result.isError === true) return result;
    const validate = schemas[tool];
    assert.ok(validate(result.structuredContent), `${tool} ${JSON.stringify(args)}: ${ajv.errorsText(validate.errors)}`);
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
    assert.equal(result.content[1].text, result.structuredContent.attribution.text);
    return result;
  };

  before(async () => {
    const db = join(dir.path, 'toilets.db');
    await importedCopy('porto', db);
    ids = readSourceToilets(db);
    // on a socket: the gzip check reads the bytes as sent
    served = await serve({ db, now: () => nowMs, env: { RATE_LIMIT_PER_MINUTE: '0' }, reach: 'socket' });
    port = Number(new URL(served.origin).port);
  });
  after(async () => {
    await served?.close();
    dir.remove();
  });

  it('find_toilets_near: every filter combination at every limit 1..20 (2026-07-28; 2025-11-25 at three limits), at three times of day', async () => {
    const centre = ids[Math.floor(ids.length / 2)];
    for (const at of TIMES) {
      nowMs = at;
      for (const filters of COMBINATIONS) {
        for (let limit = 1; limit <= 20; limit++) {
          for (const era of ERAS) if (era === 'modern' || [1, 5, 20].includes(limit)) await call(era, 'find_toilets_near', { lat: centre.lat, lon: centre.lon, limit, ...filters });
        }
      }
    }
    assert.ok(sizes.gzip < sizes.plain * 0.5, `gzip answers are ${sizes.gzip} bytes against ${sizes.plain}`);
  });

  it('get_toilet: every toilet, at three times of day, and an id no toilet has', async () => {
    for (const at of TIMES) {
      nowMs = at;
      for (const { id } of ids) for (const era of ERAS) await call(era, 'get_toilet', { id });
    }
    for (const era of ERAS) assert.equal((await call(era, 'get_toilet', { id: 'n1' })).isError, true);
  });

  it('the empty answers: needs_location, no results with every filter, outside the coverage', async () => {
    for (const era of ERAS) {
      assert.equal((await call(era, 'find_toilets_near', {})).structuredContent.status, 'needs_location');
      const none = await call(era, 'find_toilets_near', { lat: 41.1456, lon: -8.611, limit: 1, changing_table: true, free: true, wheelchair: true, open_now: true, no_purchase_needed: true });
      if (none.structuredContent.status === 'no_results') assert.match(none.content[2].text, /filters/);
      const outside = await call(era, 'find_toilets_near', { lat: 0, lon: 0 });
      assert.equal(outside.structuredContent.status, 'no_results');
      assert.equal(outside.content.length, 3, 'the sentence saying why');
    }
  });
});
