// The column store (src/source/columns.ts): the importer writes it beside the toilets table; the server
// loads only it. Every loaded row must equal its toilets-table row and be found by its id, with answer
// texts that match what String() and JSON would write; rows lie in spatial order.
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { importExtract } from '../../importer/import.js';
import { generateExtract } from '../../bench/generate/generate.js';
import { openSourceDatabase } from '../../src/source/schema.js';
import { ItemTextWriter, ITEM_TEXT_PARTS, readToiletColumns, writeToiletColumns, type ItemText } from '../../src/source/columns.js';
import { loadToilets } from '../../src/toilets/load.js';
import { ACCESS, ACCESS_RULE, CHANGING_TABLE, GENDER, WHEELCHAIR } from '../../src/rules/facts.js';
import { idKey, rowOfKey, tableOver, toiletId, type ToiletTable } from '../../src/toilets/table.js';
import { asciiJson } from '../../src/rules/ascii-json.js';
import { importedCopy } from '../support/extracts.js';
import { rows, tempDir } from '../importer/support.js';
import type { SourceRow } from '../support/column-store.js';

const dir = tempDir('columns');

/** The columns of a toilets row this test compares (the raw tags and the kind are not in the store). */
type TableRow = Omit<SourceRow, 'kind' | 'tags'>;

const part = (text: ItemText, row: number, p: number) =>
  Buffer.from(text.bytes.subarray(text.starts[row * ITEM_TEXT_PARTS + p], text.starts[row * ITEM_TEXT_PARTS + p + 1])).toString('latin1');

function assertSameToilets(dbPath: string): number {
  const expected = rows<TableRow>(dbPath, `SELECT id, lat, lon, name, operator, access, access_rule, scheme_name, fee_required, fee_amount, fee_currency,
    opening_hours, wheelchair, changing_table, gender, checked, quality, last_edited, time_zone, country FROM toilets`);
  const db = openSourceDatabase(dbPath);
  let t: ToiletTable;
  try {
    t = tableOver(loadToilets(db).source);
  } finally {
    db.close();
  }
  assert.equal(t.count, expected.length);
  const byId = new Map(expected.map((r) => [r.id, r]));
  for (let row = 0; row < t.count; row++) {
    const id = toiletId(t, row);
    const r = byId.get(id);
    assert.ok(r, `${id} is in the toilets table`);
    if (row > 0) assert.ok(idKey(toiletId(t, t.idOrder[row - 1])) < idKey(toiletId(t, t.idOrder[row])), 'the id index in id order');
    assert.equal(rowOfKey(t, idKey(id)), row, `${id} found by id`);
    const loaded = {
      lat: t.lat[row], lon: t.lon[row], name: t.name.get(row), operator: t.operator.get(row), access: ACCESS[t.access[row]], access_rule: ACCESS_RULE[t.accessRule[row]],
      scheme_name: t.schemeName.get(row), fee_required: t.feeRequired[row] === -1 ? null : t.feeRequired[row], fee_amount: Number.isNaN(t.feeAmount[row]) ? null : t.feeAmount[row],
      fee_currency: t.feeCurrency.get(row), opening_hours: t.openingHours.get(row), wheelchair: WHEELCHAIR[t.wheelchair[row]], changing_table: CHANGING_TABLE[t.changingTable[row]],
      gender: GENDER.filter((_, i) => t.gender[row] & (1 << i)).join(','), checked: t.checked.get(row), quality: t.quality[row], last_edited: t.lastEdited[row] || null,
      time_zone: t.timeZone.get(row), country: t.country.get(row),
    };
    const { id: _, ...stored } = r;
    assert.deepEqual(loaded, stored, id);
    const at = (p: number) => t.itemText.starts[row * ITEM_TEXT_PARTS + p];
    const slice = (from: number, to: number) => Buffer.from(t.itemText.bytes.subarray(from, to)).toString('latin1');
    assert.equal(slice(at(0), at(2)), `{"id":"${id}","name":${r.name === null ? 'null' : asciiJson(r.name)},"lat":${r.lat},"lon":${r.lon}`, `${id} head`);
    assert.equal(slice(at(0) + 7, at(1)), id);
    assert.equal(slice(at(2), at(4)), `${r.lat},${r.lon}`);
    assert.equal(slice(at(3), at(4)), `,${r.lon}`);
  }
  // One text-facts number per distinct combination of the members it stands for, and back.
  const signatureOf = new Map<number, string>();
  const numberOf = new Map<string, number>();
  for (let row = 0; row < t.count; row++) {
    const signature = JSON.stringify([t.idType[row], t.schemeName.get(row), t.feeRequired[row], String(t.feeAmount[row]), t.feeCurrency.get(row), t.openingHours.get(row), t.operator.get(row), t.checked.get(row)]);
    const number = t.textFacts[row];
    assert.ok(number > 0);
    assert.equal(signatureOf.get(number) ?? signature, signature, `text facts ${number}`);
    assert.equal(numberOf.get(signature) ?? number, number, signature);
    signatureOf.set(number, signature);
    numberOf.set(signature, number);
  }
  return t.count;
}

for (const name of ['porto', 'andorra'] as const) {
  test(`${name}: the loaded column store holds exactly the toilets table, each row found by its id`, async () => {
    const db = join(dir, `${name}.db`);
    await importedCopy(name, db);
    assert.ok(assertSameToilets(db) > 20);
  });
}

test('a generated extract (ways, multipolygons, hosts, messy tags) loads as its toilets table says', async () => {
  const pbf = join(dir, 'generated.osm.pbf');
  await generateExtract(pbf, { toilets: 15000, otherNodes: 15000, seed: 5 });
  const db = join(dir, 'generated.db');
  // decoded on the main thread (decoder threads write the same toilets: test/importer/pipeline, real-extracts)
  await importExtract(pbf, { db, threads: 0 });
  assert.ok(assertSameToilets(db) >= 15000);
  // The importer writes the item text a part at a time, so rows straddle the parts: more than one here.
  const itemTextParts = rows<{ n: number }>(db, "SELECT count(*) AS n FROM toilet_columns WHERE name = 'itemText'")[0].n;
  assert.ok(itemTextParts > 1, `item text in ${itemTextParts} parts`);
  // Rows follow a space-filling curve: neighbouring rows are near each other, far nearer than rows at random.
  const source = openSourceDatabase(db);
  const t = loadToilets(source).source;
  source.close();
  const gap = (a: number, b: number) => Math.abs(t.lat[a] - t.lat[b]) + Math.abs(t.lon[a] - t.lon[b]);
  let next = 0;
  let random = 0;
  for (let row = 1; row < t.count; row++) {
    next += gap(row - 1, row);
    random += gap(row, (row * 7919) % t.count);
  }
  assert.ok(next * 20 < random, `consecutive rows ${next.toFixed(0)} vs random pairs ${random.toFixed(0)}`);
});

test('item texts write coordinates exactly as String() does', () => {
  const values = [0, 1e-7, -1e-7, 9e-7, 1e-6, 1.5e-6, 0.1, -0.1, 90, -90, 180, -180, 48.202535, 16.3735609, -33.8688197, 1.23e-5, Math.PI, 1 / 3, 12.5];
  for (let k = 1; k < 5000; k++) values.push(Math.round(Math.sin(k) * 1.8e9) / 1e7, k / 1e7);
  const writer = new ItemTextWriter(values.length);
  for (const v of values) writer.add('n1', v, -v, null);
  const text = writer.finish();
  values.forEach((v, row) => {
    assert.equal(part(text, row, 0), '{"id":"n1');
    assert.equal(part(text, row, 1), `","name":null,"lat":${v},"lon":${-v}`);
    assert.equal(part(text, row, 2), String(v));
    assert.equal(part(text, row, 3), `,${-v}`);
  });
});

test('text codes are read as narrow as their values allow, with room for the community rows', async () => {
  const dbPath = join(dir, 'narrow.db');
  await importedCopy('monaco', dbPath);
  const db = openSourceDatabase(dbPath);
  try {
    const alone = readToiletColumns(db);
    assert.ok(alone.texts.country.values.length < 255);
    assert.ok(alone.texts.country.codes instanceof Uint8Array && alone.texts.country.codes.buffer instanceof SharedArrayBuffer);
    assert.equal(alone.texts.country.codes.length, alone.count);
    const withCommunity = readToiletColumns(db, 300);
    assert.ok(withCommunity.texts.country.codes instanceof Uint16Array);
    assert.equal(withCommunity.texts.country.codes.length, withCommunity.count + 300);
    assert.deepEqual([...withCommunity.texts.country.codes.subarray(0, alone.count)], [...alone.texts.country.codes]);
  } finally {
    db.close();
  }
});

test('a damaged column store is refused with what to do', async () => {
  const db = join(dir, 'damaged.db');
  await importedCopy('monaco', db);
  const writable = new Database(db);
  writable.prepare(`UPDATE toilet_columns SET data = substr(data, 1, 10) WHERE name = 'lon'`).run();
  assert.throws(() => readToiletColumns(writable), /damaged \(column lon holds 10 bytes for \d+ rows\).*npm run import/);
  writable.prepare(`UPDATE toilet_columns SET data = (SELECT data FROM toilet_columns WHERE name = 'lat') WHERE name = 'lon'`).run();
  writable.prepare(`INSERT INTO toilet_columns (name, part, data) VALUES ('lon', 1, x'00')`).run();
  assert.throws(() => readToiletColumns(writable), /damaged \(column lon holds \d+ bytes for \d+ rows\)/, 'a part too many');
  writable.prepare(`DELETE FROM toilet_columns WHERE name = 'lon' AND part = 1`).run();
  writable.prepare(`DELETE FROM toilet_columns WHERE name = 'name.values'`).run();
  assert.throws(() => readToiletColumns(writable), /column name\.values is missing.*npm run import/);
  writable.close();
});

test('columns stored in many parts load as stored in one', async () => {
  const dbPath = join(dir, 'parts.db');
  await importedCopy('porto', dbPath);
  const db = new Database(dbPath);
  try {
    const whole = readToiletColumns(db);
    assert.equal(db.prepare(`SELECT count(*) FROM toilet_columns WHERE part > 0`).pluck().get(), 0, 'the extract is small: one part a column');
    const blobs = db.prepare(`SELECT name, data FROM toilet_columns`).raw().all() as [string, Buffer][];
    db.prepare('DELETE FROM toilet_columns').run();
    writeToiletColumns(db, blobs, 7); // parts that split the elements of every column wider than a byte
    assert.ok((db.prepare(`SELECT max(part) FROM toilet_columns WHERE name = 'itemText'`).pluck().get() as number) > 100);
    assert.deepEqual(readToiletColumns(db), whole);
  } finally {
    db.close();
  }
});
