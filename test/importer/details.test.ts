// Golden test of the details mapping (docs/DETAILS.md) on the four shared extracts: exactly which toilets
// carry which details, and, independently, that they are what the raw tags say, the raw tags read by
// osmium (`osmium tags-filter` + `osmium export`), not by our decoder. Then the extract of
// test/support/details-extract.ts, whose toilets carry every kind of detail, end to end into the column
// store the server loads.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { importedCopy } from '../support/extracts.js';
import { osmExtract } from '../support/paths.js';
import { CASES, importDetailsExtract } from '../support/details-extract.js';
import { readDetailsColumn, readToiletColumns } from '../../src/source/columns.js';
import { idKey } from '../../src/rules/ids.js';
import { rows, tempDir } from './support.js';

const osmium = spawnSync('osmium', ['--version']).error === undefined;
if (!osmium && process.env.CI === 'true') throw new Error('osmium-tool is missing: apt-get install osmium-tool');
const noOsmium = osmium ? false : 'osmium-tool is not installed (apt-get install osmium-tool); CI fails instead of skipping';

type Extract = 'monaco' | 'andorra' | 'liechtenstein' | 'porto';

/** Every toilet with details in each extract, and its details; every other toilet has none. */
const GOLDEN: Record<Extract, Record<string, object>> = {
  monaco: {
    n1872357150: { disposal: ['flush'] },
    n2088725211: { level: '0', indoor: true, description: 'toilette dans la galerie commercante' },
    n3775589690: { disposal: ['flush'] },
    n5918146882: { disposal: ['flush'] },
    n6720523793: { disposal: ['flush'], level: '-1' },
    n6720523794: { disposal: ['flush'] },
    w708906033: { disposal: ['flush'] },
  },
  andorra: {
    n2967250119: { disposal: ['flush'] },
    n2967465076: { disposal: ['flush'] },
    n2967465077: { disposal: ['flush'] },
    n5845961486: { disposal: ['flush'], drinking_water: true },
    w320008245: { disposal: ['flush'] },
  },
  liechtenstein: {
    n2708588765: { disposal: ['flush'] },
    w299038731: { disposal: ['flush'] },
    w361701740: { disposal: ['flush'] },
  },
  porto: {
    n3455265386: { disposal: ['flush'] },
    n3455265387: { disposal: ['flush'] },
    n4791588622: { disposal: ['flush'] },
    n5225387845: { positions: ['seated'], disposal: ['flush'] },
    w286753973: { positions: ['seated'] },
  },
};

/**
 * What the raw tags of a standalone toilet say, by a rule of its own for each detail key these extracts
 * carry (values as tagged: they are all plain yes/no, single items and integers here).
 */
function expectedFromRaw(tags: Record<string, string>): Record<string, unknown> {
  const expected: Record<string, unknown> = {};
  if (tags['toilets:position']) expected.positions = tags['toilets:position'].split(';').sort((a, b) => a.localeCompare(b));
  if (tags['toilets:disposal']) expected.disposal = [tags['toilets:disposal']];
  if (tags.drinking_water) expected.drinking_water = tags.drinking_water === 'yes';
  if (tags.level) expected.level = tags.level;
  if (tags.indoor) expected.indoor = tags.indoor !== 'no';
  if (tags.description) expected.description = tags.description;
  return expected;
}

/** Detail keys the mapping reads; the extracts carry only those expectedFromRaw knows (checked below). */
const DETAIL_KEY = /^(toilets:)?(centralkey|radar_key|changing_places|changing_table:(location|count|fee|adult)|door:width|handrail|step_count|ramp:wheelchair|wheelchair:description|drinking_water|shower|level|indoor|description)$|^toilets:(position|disposal|handwashing|paper_supplied|hands?_drying|handwashing:soap|scheme)$|^(handwashing:)?soap$|^hand_drying$/;

/** id → tags of every toilet-ish object, as osmium reads the extract. */
function rawTagsByOsmium(extract: Extract, dir: string): Map<string, Record<string, string>> {
  const filtered = join(dir, `${extract}-toilets.osm.pbf`);
  const run = (args: string[]) => {
    const result = spawnSync('osmium', args, { encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.equal(result.status, 0, `osmium ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  run(['tags-filter', '-O', '-o', filtered, osmExtract(extract), 'nwr/amenity=toilets,toilet', 'nwr/toilets', 'nwr/toilet']);
  const features = run(['export', '-f', 'geojsonseq', '--add-unique-id=type_id', filtered, '-o', '-'])
    .split('\n')
    .map((line) => line.replace(/^\x1e/, ''))
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: string; properties: Record<string, string> });
  // An area's id ("a…") repeats its way's tags; the way itself is there as "w…".
  return new Map(features.filter((f) => /^[nwr]\d+$/.test(f.id)).map((f) => [f.id, f.properties]));
}

const dir = tempDir('details');

for (const extract of Object.keys(GOLDEN) as Extract[]) {
  test(`${extract}: exactly these toilets carry details, each as its raw tags (read by osmium) say`, { skip: noOsmium }, async () => {
    const db = join(dir, `${extract}.db`);
    await importedCopy(extract, db);
    const stored = rows<{ id: string; kind: string; details: string | null }>(db, 'SELECT id, kind, details FROM toilets ORDER BY id');
    const withDetails = Object.fromEntries(stored.filter((r) => r.details !== null).map((r) => [r.id, JSON.parse(r.details!)]));
    assert.deepEqual(withDetails, GOLDEN[extract]);

    const raw = rawTagsByOsmium(extract, dir);
    for (const toilet of stored) {
      const tags = raw.get(toilet.id);
      assert.ok(tags, `osmium finds ${toilet.id}`);
      if (toilet.kind === 'host_toilet') {
        // A host's plain keys describe the host; these extracts' hosts carry no toilets:* detail key.
        assert.deepEqual(Object.keys(tags).filter((k) => k.startsWith('toilets:') && DETAIL_KEY.test(k)), [], toilet.id);
        assert.equal(toilet.details, null, `${toilet.id} is a host: its level, description … are its own`);
        continue;
      }
      const unknown = Object.keys(tags).filter((k) => DETAIL_KEY.test(k) && !['toilets:position', 'toilets:disposal', 'drinking_water', 'level', 'indoor', 'description'].includes(k));
      assert.deepEqual(unknown, [], `${toilet.id} has detail keys this check has no rule for`);
      const got = toilet.details === null ? {} : (JSON.parse(toilet.details) as Record<string, unknown>);
      if (Array.isArray(got.positions)) got.positions = (got.positions as string[]).toSorted((a, b) => a.localeCompare(b));
      assert.deepEqual(got, expectedFromRaw(tags), `${toilet.id}: ${JSON.stringify(tags)}`);
    }
  });
}

test('the details extract: every detail of every toilet reaches the column store the server loads, in its row', async () => {
  const db = join(dir, 'details.db');
  await importDetailsExtract(dir, db);
  const database = new Database(db, { readonly: true });
  try {
    const columns = readToiletColumns(database);
    const details = readDetailsColumn(database, columns.count)!;
    assert.ok(details !== null, 'a current import stores the details blobs');
    const rowOfId = new Map<number, number>();
    for (let row = 0; row < columns.count; row++) rowOfId.set(columns.numbers.idType[row] + 4 * columns.numbers.idNumber[row], row);
    for (const c of CASES) {
      const row = rowOfId.get(idKey(c.id));
      assert.ok(row !== undefined, `${c.id} imported`);
      const text = Buffer.from(details.bytes.subarray(details.starts[row], details.starts[row + 1])).toString('latin1');
      assert.deepEqual(text === '' ? undefined : JSON.parse(text), c.details, c.id);
      assert.match(text, /^[\x20-\x7e]*$/, 'ASCII, as answers are');
    }
    // the readable form says the same
    const table = new Map(rows<{ id: string; details: string | null }>(db, 'SELECT id, details FROM toilets').map((r) => [r.id, r.details]));
    for (const c of CASES) assert.deepEqual(table.get(c.id) === null ? undefined : JSON.parse(table.get(c.id)!), c.details, c.id);
  } finally {
    database.close();
  }
});
