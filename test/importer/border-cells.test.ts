// The import looks up countries through BorderCells (src/geo), which answers from a grid cell whenever no border
// runs through it. Its answers must be exactly those of the lookup it memoises, near borders above all.
import test from 'node:test';
import assert from 'node:assert/strict';
import { borders, featuresContaining } from '@rapideditor/country-coder';
import { BorderCells } from '../../src/geo/border-cells.js';
import { countryAt, subdivisionAt } from '../../src/geo/where.js';

/** A function of the country-coder polygon that contains the point: the smallest region's id. */
const smallestRegion = (lat: number, lon: number) => featuresContaining([lon, lat])[0]?.properties.id ?? null;

/** Deterministic points around every third vertex of every border, within `spread` degrees. */
function pointsNearBorders(spread: number): [number, number][] {
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const points: [number, number][] = [];
  for (const feature of borders.features) {
    const geometry = feature.geometry as { type: string; coordinates: unknown } | null;
    if (!geometry) continue;
    const polygons = (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates) as number[][][][];
    for (const ring of polygons.flat()) {
      for (let i = 0; i < ring.length; i += 3) {
        const lat = ring[i][1] + (random() - 0.5) * spread;
        const lon = ring[i][0] + (random() - 0.5) * spread;
        if (Math.abs(lat) <= 90 && Math.abs(lon) <= 180) points.push([lat, lon]);
      }
    }
  }
  return points;
}

test('answers exactly as the function it memoises, near every border and at every scale', () => {
  for (const spread of [2, 0.05, 1e-4]) {
    const cells = new BorderCells(smallestRegion);
    const points = pointsNearBorders(spread);
    assert.ok(points.length > 5000);
    const expected = points.map(([lat, lon]) => smallestRegion(lat, lon));
    // Twice, so the second round answers from the cells the first one filled.
    for (const round of [1, 2]) {
      let differ = 0;
      for (const [i, [lat, lon]] of points.entries()) if (cells.get(lat, lon) !== expected[i]) differ++;
      assert.equal(differ, 0, `spread ${spread}°, round ${round}`);
    }
  }
});

test('cells a border crosses answer per point: both sides of a border in one cell', () => {
  // Geneva and Annemasse: 7 km apart, either side of the Swiss-French border, in one 1/4° cell.
  for (let round = 0; round < 2; round++) {
    assert.equal(countryAt(46.2044, 6.1432), 'CH');
    assert.equal(countryAt(46.1934, 6.2346), 'FR');
  }
});

test('countryAt and subdivisionAt answer as before for points far from borders too, repeatedly', () => {
  const places: [number, number, string | null, string | null][] = [
    [41.15, -8.61, 'PT', null], // Porto
    [37.74, -25.67, 'PT', 'PT-20'], // Ponta Delgada, Azores
    [55.95, -3.19, 'GB', 'GB-SCT'], // Edinburgh
    [30, -40, null, null], // Atlantic
  ];
  for (let round = 0; round < 2; round++) {
    for (const [lat, lon, country, subdivision] of places) {
      assert.equal(countryAt(lat, lon), country);
      assert.equal(subdivisionAt(lat, lon), subdivision);
    }
  }
});
