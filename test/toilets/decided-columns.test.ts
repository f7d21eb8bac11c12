// The loaded columns are shared by every server thread and never written: a decision changes this
// thread's copy of a column (writable), withdrawing it restores the loaded value, and a second snapshot
// over the same loaded columns (another thread's) sees none of the first one's decisions.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadToilets } from '../../src/toilets/load.js';
import { Snapshot, type OverlayChange } from '../../src/toilets/snapshot.js';
import { Trait } from '../../src/toilets/table.js';
import { hoursAt } from '../../src/toilets/render.js';
import { WHEELCHAIR } from '../../src/rules/facts.js';
import { codesFor, TextColumn } from '../../src/source/text-column.js';
import type { CommunityToilet, Decision, ToiletOverlay } from '../../src/toilets/overlay.js';

const INFO = { dataAsOf: null, importedAt: null, sourceFile: null, coverage: null, demo: false, places: 0, missing: [] };
const NOW = Date.parse('2024-06-05T08:00:00Z');
const NO_OVERLAYS: OverlayChange = { all: true, entries: [] };

function toilet(n: number, fields: Partial<CommunityToilet> = {}): CommunityToilet {
  return {
    id: `c_${n}`,
    lat: 47.14 + n / 1000,
    lon: 9.52,
    name: `Toilet ${n}`,
    access: 'public',
    access_rule: 'free',
    fee_required: 0,
    opening_hours: '24/7',
    wheelchair: 'no',
    changing_table: 'unknown',
    time_zone: 'Europe/Vaduz',
    country: 'LI',
    approved_at: 1_700_000_000,
    ...fields,
  };
}

function decided(value: string): Decision {
  return { value, by: 'moderator', votes_for: null, votes_total: null, as_of: '2024-06-01' };
}

function overlay(decisions: ToiletOverlay['decided']): ToiletOverlay {
  return { confirmations: 0, last_confirmed_at: null, cleanliness: null, disputed: false, decided: decisions, partner: null, gone: false };
}

test('a text column keeps one code per distinct text; a copy gets new texts without touching the original', () => {
  const column = new TextColumn(new Uint32Array(3), ['a', 'b']);
  column.set(0, 'b');
  column.set(1, 'c');
  assert.deepEqual([column.get(0), column.get(1), column.get(2)], ['b', 'c', null]);
  assert.deepEqual([...column.codes], [2, 3, 0]);
  const copy = column.copy();
  copy.set(2, 'd');
  copy.set(0, null);
  assert.deepEqual([copy.get(0), copy.get(1), copy.get(2)], [null, 'c', 'd']);
  assert.deepEqual([column.get(0), column.get(1), column.get(2)], ['b', 'c', null]);
  assert.deepEqual(column.values, ['a', 'b', 'c']);
});

test('text codes widen when a new text needs a code they cannot hold', () => {
  const values = Array.from({ length: 255 }, (_, i) => `v${i}`);
  const column = new TextColumn(codesFor(values.length, 3), values);
  assert.equal(column.codes.constructor, Uint8Array);
  column.set(0, 'v254');
  column.set(1, 'new');
  assert.equal(column.codes.constructor, Uint16Array);
  assert.ok(column.codes.buffer instanceof SharedArrayBuffer);
  assert.deepEqual([column.get(0), column.get(1), column.get(2)], ['v254', 'new', null]);
  assert.deepEqual([...column.codes], [255, 256, 0]);
  assert.ok(codesFor(0x10000, 1) instanceof Uint32Array);
});

test('decisions change this snapshot only; the loaded columns stay as loaded, in shared memory', () => {
  const loaded = loadToilets(null, [toilet(1), toilet(2, { opening_hours: 'Mo-Fr 08:00-18:00' })]);
  for (const column of [loaded.source.access, loaded.source.wheelchair, loaded.source.feeRequired, loaded.source.name.codes, loaded.source.lat]) {
    assert.ok(column.buffer instanceof SharedArrayBuffer);
  }
  const first = Snapshot.build(loaded, INFO, NO_OVERLAYS, NOW);
  const second = Snapshot.build(loaded, INFO, NO_OVERLAYS, NOW);
  const row = first.rowOf('c_2');
  const t = first.table;
  assert.equal(hoursAt(t, row, NOW).open_now, true); // 10:00 in Vaduz

  first.applyOverlay(row, overlay({ name: decided('Town hall'), wheelchair: decided('yes'), fee: decided('paid'), opening_hours: decided('Mo-Su 14:00-16:00') }));
  assert.equal(t.name.get(row), 'Town hall');
  assert.equal(WHEELCHAIR[t.wheelchair[row]], 'yes');
  assert.equal(t.feeRequired[row], 1);
  assert.equal(t.openingHours.get(row), 'Mo-Su 14:00-16:00');
  assert.equal(hoursAt(t, row, NOW).open_now, false);
  assert.ok(t.traits[row] & Trait.Wheelchair);

  // the loaded columns, and a second snapshot over them, still hold the source's values
  for (const view of [loaded.source, second.table]) {
    assert.equal(view.name.get(row), 'Toilet 2');
    assert.equal(view.feeRequired[row], 0);
    assert.equal(view.openingHours.get(row), 'Mo-Fr 08:00-18:00');
  }
  assert.equal(second.table.traits[row] & Trait.Wheelchair, 0);
  assert.equal(first.sourceFacts('c_2')!.name, 'Toilet 2');
  assert.equal(first.sourceFacts('c_2')!.wheelchair, 'no');
  // the other row of the copied columns is untouched
  assert.equal(t.name.get(first.rowOf('c_1')), 'Toilet 1');

  first.applyOverlay(row, null);
  assert.equal(t.name.get(row), 'Toilet 2');
  assert.equal(t.feeRequired[row], 0);
  assert.equal(t.wheelchair[row], loaded.source.wheelchair[row]);
  assert.equal(t.traits[row] & Trait.Wheelchair, 0);
  assert.equal(hoursAt(t, row, NOW).open_now, true); // 10:00 in Vaduz
});
