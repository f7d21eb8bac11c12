import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToiletGrid } from '../../src/places/toilet-nearness.js';

test('nearness is 0 with no toilet within reach and grows with the toilets around, up to 1', () => {
  const vaduz = { lat: 47.1393, lon: 9.5228 };
  const one = ToiletGrid.of({ lat: [47.139], lon: [9.522] });
  const many = ToiletGrid.of({ lat: Array(500).fill(47.14), lon: Array(500).fill(9.52) });
  assert.equal(one.nearness(43.7311, 7.4198), 0, 'Monaco is far from a toilet in Vaduz');
  assert.ok(one.nearness(vaduz.lat, vaduz.lon) > 0);
  assert.ok(one.nearness(47.2, 9.6) > 0, 'a toilet some 10 km away is within reach');
  assert.ok(many.nearness(vaduz.lat, vaduz.lon) > one.nearness(vaduz.lat, vaduz.lon));
  assert.equal(many.nearness(vaduz.lat, vaduz.lon), 1);
});

test('only the first `count` entries are toilets (a ToiletTable has spare rows)', () => {
  const grid = ToiletGrid.of({ lat: new Float64Array([47.139, 43.73]), lon: new Float64Array([9.522, 7.42]), count: 1 });
  assert.equal(grid.nearness(43.73, 7.42), 0);
  assert.ok(grid.nearness(47.139, 9.522) > 0);
});
