// getToilet's `details` over HTTP, on the details extract (test/support/details-extract.ts) imported by
// the real importer: each toilet's details as its tags give them, none for a toilet without, and the
// nearest and area answers exactly as the spec has them (their items have no `details`, and every answer
// is checked against its schema by call()).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CASES } from '../support/details-extract.js';
import { importDetailsExtract } from '../support/details-extract.js';
import { serve, tempDir, type Served } from './support.js';

const dir = tempDir('toilet-details');
let served: Served;

before(async () => {
  const db = join(dir.path, 'toilets.db');
  await importDetailsExtract(dir.path, db);
  served = await serve({ db });
});
after(async () => {
  await served?.close();
  dir.remove();
});

test('getToilet answers each toilet with its details beside the item, and without them when it has none', async () => {
  for (const c of CASES) {
    const answer = await served.call(`/api/v1/toilets/${c.id}`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json.details, c.details, c.id);
    assert.deepEqual(Object.keys(answer.json), c.details === undefined ? ['toilet', 'attribution', 'display_note'] : ['toilet', 'details', 'attribution', 'display_note']);
    assert.equal(answer.json.toilet.id, c.id);
  }
});

test('nearest and area items keep exactly the spec fields: no details in them', async () => {
  const near = await served.call('/api/v1/toilets/nearest?lat=51.5049&lon=-0.0863&limit=1');
  assert.equal(near.status, 200);
  assert.equal(near.json.results[0].id, 'n1001');
  assert.equal(near.json.results[0].details, undefined);
  assert.equal(near.json.details, undefined);
  const area = await served.call('/api/v1/toilets?bbox=-0.1,51.5,-0.08,51.51');
  assert.equal(area.status, 200);
  assert.deepEqual(area.json.results.map((r: { id: string }) => r.id), ['n1001']);
  assert.equal(area.json.results[0].details, undefined);
});

test('/status says the data has every part', async () => {
  const status = await served.call('/status');
  assert.deepEqual(status.json.source_layout, { missing: [], note: null });
});
