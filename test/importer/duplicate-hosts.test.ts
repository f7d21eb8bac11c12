import { test } from 'node:test';
import assert from 'node:assert/strict';
import { duplicateHosts, type HostSpot, type Positions } from '../../importer/duplicate-hosts.js';

function positions(points: [lon: number, lat: number][]): Positions {
  return { lons: Float64Array.from(points, ([lon]) => lon), lats: Float64Array.from(points, ([, lat]) => lat), length: points.length };
}

const METRE = 1 / 111_320; // of latitude

test('a host is a duplicate with a standalone toilet within 30 m, across a grid cell edge too', () => {
  const hosts: HostSpot[] = [
    { id: 'n1', lat: 47.0 - 10 * METRE, lon: 9.5, outline: null }, // 1/100° cells: 47.0 is an edge
    { id: 'n2', lat: 46.5, lon: 9.0, outline: null },
    { id: 'n3', lat: -33.9, lon: 179.9999, outline: null },
  ];
  const toilets = positions([
    [9.5, 47.0 + 15 * METRE], // 25 m north of n1, in the next cell row
    [9.0, 46.5 + 31 * METRE], // 31 m from n2: another toilet
    [179.9999, -33.9 - 29 * METRE],
  ]);
  assert.deepEqual(duplicateHosts(hosts, toilets).map((host) => host.id), ['n1', 'n3']);
});

test('a host is a duplicate with a standalone toilet inside its outline, however far from its point', () => {
  // A park of ~5 × 5 km: its box covers some 2,000 cells.
  const outline: [number, number][] = [[9.0, 47.0], [9.07, 47.0], [9.07, 47.045], [9.0, 47.045], [9.0, 47.0]];
  const hosts: HostSpot[] = [
    { id: 'w1', lat: 47.001, lon: 9.001, outline },
    { id: 'w2', lat: 47.001, lon: 9.101, outline: outline.map(([lon, lat]) => [lon + 0.1, lat]) },
  ];
  const toilets = positions([[9.065, 47.04], [9.2, 47.06]]);
  assert.deepEqual(duplicateHosts(hosts, toilets).map((host) => host.id), ['w1']);
  assert.deepEqual(duplicateHosts(hosts, positions([])), []);
});
