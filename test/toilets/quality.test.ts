// verification_state and confidence of every toilet are refreshed in bulk (Snapshot.refreshQuality), the
// toilets without overlay data through SourceQuality, which computes each combination of check month,
// quality flags and edit age once: every toilet must get what computing it alone gives, at dates on both
// sides of the rules' age limits.
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { importExtract } from '../../importer/import.js';
import { generateExtract } from '../../bench/generate/generate.js';
import { openSourceDatabase } from '../../src/source/schema.js';
import { loadToilets } from '../../src/toilets/load.js';
import { Snapshot } from '../../src/toilets/snapshot.js';
import { qualityCode } from '../../src/rules/quality.js';
import { fragmentKey } from '../../src/toilets/fragment-keys.js';
import { tempDir } from '../importer/support.js';

test('toilets refreshed in bulk get the quality each gets computed alone, at any date', async () => {
  const dir = tempDir('quality');
  const pbf = join(dir, 'generated.osm.pbf');
  await generateExtract(pbf, { toilets: 4000, otherNodes: 2000, seed: 11 });
  await importExtract(pbf, { db: join(dir, 'generated.db'), threads: 0 });
  const db = openSourceDatabase(join(dir, 'generated.db'));
  const loaded = loadToilets(db);
  db.close();
  // Every combination of check month, flags and edit age the rules tell apart, with ages on both sides of
  // 24 and 60 months at the dates below; the generated toilets keep their enums and positions.
  const checks = [null, '2015-02', '2019-06', '2021-06', '2022-05', '2023-06', '2025-05'];
  const edits = [0, ...['2012-01-01', '2019-05-20', '2021-05-31', '2022-06-01', '2023-05-01', '2025-05-30'].map((d) => Date.parse(d) / 1000)];
  const s = loaded.source;
  for (let row = 0; row < s.count; row++) {
    s.checked.set(row, checks[row % checks.length]);
    s.lastEdited[row] = edits[Math.floor(row / checks.length) % edits.length];
    s.quality[row] = Math.floor(row / (checks.length * edits.length)) % 128;
  }
  const snapshot = Snapshot.build(loaded, { dataAsOf: null, importedAt: null, sourceFile: null, coverage: null, demo: false, places: 0, missing: [] }, { all: true, entries: [] }, Date.now());
  const t = snapshot.table;
  const seen = new Set<number>();
  for (const date of ['2019-06-01', '2023-03-15', '2025-06-01', '2026-05-31', '2027-06-01', '2030-06-02']) {
    const nowMs = Date.parse(`${date}T12:00:00Z`);
    snapshot.refreshQuality(nowMs);
    for (let row = 0; row < t.count; row++) {
      const inputs = { checked: t.checked.get(row), quality: t.quality[row], lastEdited: t.lastEdited[row], confirmations: 0, disputed: false, partnerRunning: false };
      const alone = qualityCode(inputs, nowMs);
      seen.add(alone);
      assert.equal(snapshot.fragmentKey[row], fragmentKey(t, row, alone), `row ${row} at ${date}`);
    }
  }
  assert.ok(seen.size >= 5, `the dates give several qualities (${seen.size})`);
});
