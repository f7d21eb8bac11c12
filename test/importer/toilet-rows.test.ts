// Toilet rows cross from the decoder threads to the database thread packed (numbers and enum codes in one
// array, texts as indexes into a list of distinct strings) and are inserted through TOILET_PLACEHOLDERS;
// in the table, every column must hold what the record said.
import test from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { BulkInsert } from '../../importer/bulk-insert.js';
import { fillToiletParams, NUMBERS, TEXTS, TOILET_COLUMNS, TOILET_PLACEHOLDERS, ToiletRowsBuilder, type ToiletRecord, type ToiletRows } from '../../importer/toilet-rows.js';
import { SOURCE_DDL } from '../../src/source/schema.js';
import { ACCESS, ACCESS_RULE, CHANGING_TABLE, QualityFlag, WHEELCHAIR, type Gender, type ToiletFacts } from '../../src/rules/facts.js';

const FACTS: ToiletFacts = {
  name: 'Sanitários',
  operator: null,
  access: 'public',
  access_rule: 'fee',
  scheme_name: null,
  fee: { required: true, amount: 0.5, currency: 'EUR' },
  opening_hours: 'Mo-Fr 08:00-20:00',
  wheelchair: 'yes',
  changing_table: 'unknown',
  gender: ['female', 'male'],
  checked: '2025-03',
  quality: QualityFlag.CurrencyInferred,
};

const RECORDS: ToiletRecord[] = [
  { id: 'n1', host: false, lat: 41.1, lon: -8.6, facts: FACTS, lastEdited: 1_700_000_000, timeZone: 'Europe/Lisbon', country: 'PT', tags: '{"amenity":"toilets","centralkey":"radar"}', details: '{"key_systems":["radar"]}' },
  {
    id: 'w2',
    host: true,
    lat: -33.9,
    lon: 151.2,
    facts: { ...FACTS, name: null, access: 'customers', fee: { required: null, amount: null, currency: null }, gender: [], checked: null, quality: 0 },
    lastEdited: null,
    timeZone: 'Australia/Sydney',
    country: null,
    tags: '{"shop":"mall","toilets":"yes"}',
    details: null,
  },
];

/** Inserts packed rows as the database thread does, and reads the table back. */
function throughTable(rows: ToiletRows): Record<string, unknown>[] {
  const db = new Database(':memory:');
  try {
    db.exec(SOURCE_DDL);
    new BulkInsert(db, 'toilets', TOILET_COLUMNS, TOILET_PLACEHOLDERS).run(rows.count, (params, at, row) => fillToiletParams(params, at, rows, row));
    return db.prepare('SELECT * FROM toilets ORDER BY rowid').all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

test('every column of every row holds what its record said, NULLs included', () => {
  const builder = new ToiletRowsBuilder();
  for (const record of RECORDS) builder.add(record);
  assert.equal(builder.count, 2);
  assert.deepEqual(throughTable(builder.take().rows), [
    {
      id: 'n1', kind: 'toilet', lat: 41.1, lon: -8.6, name: 'Sanitários', operator: null, access: 'public', access_rule: 'fee',
      scheme_name: null, fee_required: 1, fee_amount: 0.5, fee_currency: 'EUR', opening_hours: 'Mo-Fr 08:00-20:00',
      wheelchair: 'yes', changing_table: 'unknown', gender: 'female,male', checked: '2025-03', quality: QualityFlag.CurrencyInferred,
      last_edited: 1_700_000_000, time_zone: 'Europe/Lisbon', country: 'PT', tags: '{"amenity":"toilets","centralkey":"radar"}',
      details: '{"key_systems":["radar"]}',
    },
    {
      id: 'w2', kind: 'host_toilet', lat: -33.9, lon: 151.2, name: null, operator: null, access: 'customers', access_rule: 'fee',
      scheme_name: null, fee_required: null, fee_amount: null, fee_currency: null, opening_hours: 'Mo-Fr 08:00-20:00',
      wheelchair: 'yes', changing_table: 'unknown', gender: '', checked: null, quality: 0,
      last_edited: null, time_zone: 'Australia/Sydney', country: null, tags: '{"shop":"mall","toilets":"yes"}',
      details: null,
    },
  ]);
});

test('every value of every enum column and every gender list is stored as its text', () => {
  const builder = new ToiletRowsBuilder();
  const genders: Gender[][] = [[], ['unisex'], ['female'], ['male'], ['unisex', 'female'], ['unisex', 'male'], ['female', 'male'], ['unisex', 'female', 'male']];
  const longest = Math.max(ACCESS.length, ACCESS_RULE.length, WHEELCHAIR.length, CHANGING_TABLE.length, genders.length);
  for (let i = 0; i < longest; i++) {
    const facts = { ...FACTS, access: ACCESS[i % ACCESS.length], access_rule: ACCESS_RULE[i % ACCESS_RULE.length], wheelchair: WHEELCHAIR[i % WHEELCHAIR.length], changing_table: CHANGING_TABLE[i % CHANGING_TABLE.length], gender: genders[i % genders.length] };
    builder.add({ ...RECORDS[0], id: `n${i}`, host: i % 2 === 1, facts });
  }
  const stored = throughTable(builder.take().rows);
  stored.forEach((row, i) => {
    assert.deepEqual(
      [row.kind, row.access, row.access_rule, row.wheelchair, row.changing_table, row.gender],
      [i % 2 ? 'host_toilet' : 'toilet', ACCESS[i % ACCESS.length], ACCESS_RULE[i % ACCESS_RULE.length], WHEELCHAIR[i % WHEELCHAIR.length], CHANGING_TABLE[i % CHANGING_TABLE.length], genders[i % genders.length].join(',')],
    );
  });
});

test('a take starts a new batch: repeated texts are stored once per batch, and nothing carries over', () => {
  const builder = new ToiletRowsBuilder();
  for (let i = 0; i < 3; i++) builder.add({ ...RECORDS[0], id: `n${i}` });
  const first = builder.take().rows;
  assert.equal(first.count, 3);
  assert.equal(first.strings.filter((s) => s === 'Europe/Lisbon').length, 1);
  assert.equal(builder.count, 0);
  builder.add(RECORDS[1]);
  assert.deepEqual(throughTable(builder.take().rows).map((row) => [row.id, row.time_zone, row.country]), [['w2', 'Australia/Sydney', null]]);
});

test('one builder for many batches, some larger than its first room: each take holds exactly its rows, and keeps them', () => {
  const builder = new ToiletRowsBuilder();
  const batch = (size: number, from: number) => {
    for (let i = 0; i < size; i++) builder.add({ ...RECORDS[i % 2], id: `n${from + i}`, lat: (from + i) / 1e4 });
    return builder.take().rows;
  };
  const taken = [batch(1500, 0), batch(3000, 1500), batch(2, 4500)];
  batch(5000, 9000); // written after the others were taken: they must not change
  let next = 0;
  for (const rows of taken) {
    assert.deepEqual([rows.numbers.length, rows.texts.length], [rows.count * NUMBERS, rows.count * TEXTS], 'exactly its rows');
    const stored = throughTable(rows);
    assert.equal(stored.length, rows.count);
    for (const row of stored) {
      assert.deepEqual([row.id, row.lat, row.kind], [`n${next}`, next / 1e4, next % 2 === 0 ? 'toilet' : 'host_toilet']);
      next++;
    }
  }
  assert.equal(next, 4502);
});
