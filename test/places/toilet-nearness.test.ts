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

test('the grid reaches the poles and both sides of ±180°, and a place there counts only what is near it', () => {
  const corners = [[90, 180], [-90, -180], [90, -180], [-90, 180], [0, 179.99], [0, -179.99]];
  const grid = ToiletGrid.of({ lat: corners.map(([lat]) => lat), lon: corners.map(([, lon]) => lon) });
  for (const [lat, lon] of corners) assert.ok(grid.nearness(lat, lon) > 0, `${lat}, ${lon}`);
  assert.equal(grid.nearness(89.5, 0), 0, 'no toilet near the pole at 0°');
  assert.equal(grid.nearness(0, 0), 0);
  assert.equal(grid.nearness(100, 0), 0, 'outside the grid: none');
});
