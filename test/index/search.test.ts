import test from 'node:test';
import assert from 'node:assert/strict';
import KDBush from 'kdbush';
import Flatbush from 'flatbush';
import { nearestIndex, NearestSearch } from '../../src/index/nearest.js';
import { boxIndex, BoxSearch } from '../../src/index/in-box.js';
import { acceptFilter, EVERY_POINT, type PointFilter } from '../../src/index/point-filter.js';
import { haverSinToMeters, metersToHaverSin } from '../../src/index/great-circle.js';
import { distanceMeters } from '../../src/geo/sphere.js';
import { seededRandom } from '../support/random.js';

/** Points clustered around a few centres, some near the poles and the antimeridian. */
function points(n: number, seed = 7): { lon: Float64Array; lat: Float64Array } {
  const random = seededRandom(seed);
  const centres = [[9.52, 47.14], [-8.61, 41.15], [179.9, -16.5], [-179.95, 65.0], [16.0, 78.2], [0, 0]];
  const lon = new Float64Array(n);
  const lat = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const [clon, clat] = centres[i % centres.length];
    lat[i] = Math.max(-90, Math.min(90, clat + (random() - 0.5) * 0.6));
    lon[i] = ((clon + (random() - 0.5) * 0.6 + 540) % 360) - 180;
  }
  return { lon, lat };
}

function indexes(p: { lon: Float64Array; lat: Float64Array }) {
  const { kd, flat } = builtIndexes(p);
  return { nearest: new NearestSearch(nearestIndex(kd)), box: new BoxSearch(boxIndex(flat)) };
}

function builtIndexes(p: { lon: Float64Array; lat: Float64Array }) {
  const kd = new KDBush(p.lon.length, 16, Float64Array);
  const flat = new Flatbush(p.lon.length, 16, Float64Array);
  for (let i = 0; i < p.lon.length; i++) {
    kd.add(p.lon[i], p.lat[i]);
    flat.add(p.lon[i], p.lat[i], p.lon[i], p.lat[i]);
  }
  kd.finish();
  flat.finish();
  return { kd, flat };
}

const p = points(20000);
const { nearest, box } = indexes(p);
const rows = new Int32Array(300);
const hs = new Float64Array(300);

/**
 * The k accepted points nearest to lon,lat within maxM, by the distance of every point: what sorting them all
 * by distance (stably: of equal distances the lower row first) and taking the first k gives, kept k at a time.
 */
function bruteNearest(lon: number, lat: number, k: number, maxM: number, accept: (row: number) => boolean) {
  const best: { row: number; d: number }[] = [];
  for (let i = 0; i < p.lon.length; i++) {
    if (!accept(i)) continue;
    const d = distanceMeters(lat, lon, p.lat[i], p.lon[i]);
    if (d > maxM || (best.length === k && d >= best[k - 1].d)) continue;
    let at = best.length;
    while (at > 0 && best[at - 1].d > d) at--;
    best.splice(at, 0, { row: i, d });
    if (best.length > k) best.pop();
  }
  return best;
}

test('nearest-k equals a brute-force great-circle ranking, also across the antimeridian and near a pole', () => {
  for (const [lon, lat] of [[9.5, 47.1], [-8.6, 41.2], [179.99, -16.4], [-179.99, 64.9], [16.1, 78.3], [0.01, -0.02]]) {
    const n = nearest.search(lon, lat, 20, 1, EVERY_POINT, rows, hs);
    const expected = bruteNearest(lon, lat, 20, Infinity, () => true);
    assert.equal(n, 20);
    for (let i = 0; i < n; i++) {
      assert.ok(Math.abs(haverSinToMeters(hs[i]) - expected[i].d) < 1e-3, `distance ${i} at ${lon},${lat}`);
      if (i > 0) assert.ok(hs[i] >= hs[i - 1], 'sorted nearest first');
    }
  }
});

test('nearest-k answers alike with the top levels copied (TopLevels) or read from the index', () => {
  const { kd } = builtIndexes(p);
  const [shallow, deep] = [new NearestSearch(nearestIndex(kd, 3)), new NearestSearch(nearestIndex(kd, 20))];
  const random = seededRandom(11);
  const [rowsA, rowsB, hsA, hsB] = [new Int32Array(50), new Int32Array(50), new Float64Array(50), new Float64Array(50)];
  for (let q = 0; q < 300; q++) {
    const i = Math.floor(random() * p.lon.length);
    // every third query stands exactly on a point, and so on a split line when that point splits a node
    const jitter = q % 3 === 0 ? 0 : 0.05;
    const [lon, lat] = [p.lon[i] + (random() - 0.5) * jitter, p.lat[i] + (random() - 0.5) * jitter];
    const k = 1 + Math.floor(random() * 40);
    const n = shallow.search(lon, lat, k, 1, EVERY_POINT, rowsA, hsA);
    assert.equal(deep.search(lon, lat, k, 1, EVERY_POINT, rowsB, hsB), n);
    assert.deepEqual(Array.from(hsA.subarray(0, n)), Array.from(hsB.subarray(0, n)), `distances at ${lon},${lat}`);
    const expected = bruteNearest(lon, lat, k, Infinity, () => true);
    for (let j = 0; j < n; j++) assert.ok(Math.abs(haverSinToMeters(hsA[j]) - expected[j].d) < 1e-3, `distance ${j} at ${lon},${lat}`);
  }
});

test('nearest-k applies the filter inside the search and still returns k matches', () => {
  const rare = (row: number) => row % 97 === 0;
  const n = nearest.search(9.5, 47.1, 5, 1, acceptFilter(rare), rows, hs);
  const expected = bruteNearest(9.5, 47.1, 5, Infinity, rare);
  assert.equal(n, 5);
  assert.deepEqual(Array.from(rows.subarray(0, n)), expected.map((e) => e.row));
});

test('nearest-k stops at the maximum distance', () => {
  const maxM = 5000;
  const n = nearest.search(9.5, 47.1, 300, metersToHaverSin(maxM), EVERY_POINT, rows, hs);
  const expected = bruteNearest(9.5, 47.1, 300, maxM, () => true);
  assert.equal(n, expected.length);
  assert.ok(n > 0 && n < 300);
  assert.equal(nearest.search(-40, 30, 5, metersToHaverSin(50000), EVERY_POINT, rows, hs), 0, 'nothing within 50 km in the mid-Atlantic');
});

test('box search returns exactly the points in the box, nearest to its centre first, stopping at k', () => {
  const [west, south, east, north] = [9.4, 47.0, 9.6, 47.2];
  const cLon = (west + east) / 2;
  const cLat = (south + north) / 2;
  const inside: { row: number; d: number }[] = [];
  for (let i = 0; i < p.lon.length; i++) {
    if (p.lon[i] >= west && p.lon[i] <= east && p.lat[i] >= south && p.lat[i] <= north) {
      inside.push({ row: i, d: distanceMeters(cLat, cLon, p.lat[i], p.lon[i]) });
    }
  }
  inside.sort((a, b) => a.d - b.d);
  assert.ok(inside.length > 200, 'the fixture box is dense');
  const n = box.search(west, south, east, north, 200, EVERY_POINT, rows);
  assert.equal(n, 200);
  assert.deepEqual(Array.from(rows.subarray(0, n)), inside.slice(0, 200).map((e) => e.row));
  const all = new Int32Array(inside.length + 10);
  assert.equal(box.search(west, south, east, north, all.length, EVERY_POINT, all), inside.length, 'every point in the box, no more');
});

test('box search ordering is great-circle, not planar degrees, far from the equator', () => {
  // At 78°N a degree of longitude is ~23 km but a degree of latitude ~111 km: planar order would differ.
  const [west, south, east, north] = [15.9, 78.1, 16.1, 78.3];
  const n = box.search(west, south, east, north, 50, EVERY_POINT, rows);
  const centre = [(west + east) / 2, (south + north) / 2];
  const d = Array.from(rows.subarray(0, n), (row) => distanceMeters(centre[1], centre[0], p.lat[row], p.lon[row]));
  assert.ok(n > 10);
  for (let i = 1; i < d.length; i++) assert.ok(d[i] >= d[i - 1] - 1e-6, `ordered at ${i}`);
});

test('box search applies the filter and handles an empty box', () => {
  const even = (row: number) => row % 2 === 0;
  const n = box.search(9.4, 47.0, 9.6, 47.2, 50, acceptFilter(even), rows);
  assert.ok(n > 0);
  for (let i = 0; i < n; i++) assert.equal(rows[i] % 2, 0);
  assert.equal(box.search(-30, -30, -29.9, -29.9, 50, EVERY_POINT, rows), 0);
});

test('an empty index answers nothing', () => {
  const kd = new KDBush(0);
  kd.finish();
  assert.equal(new NearestSearch(nearestIndex(kd)).search(0, 0, 5, 1, EVERY_POINT, rows, hs), 0);
});

test('tag filters: kept by mask, the callback asked only about points with a verify bit, tags followed through set()', () => {
  const tags = new Uint8Array(p.lon.length);
  for (let row = 0; row < tags.length; row++) tags[row] = (row % 3 === 0 ? 1 : 0) | (row % 5 === 0 ? 2 : 0);
  const { kd, flat } = builtIndexes(p);
  const tagged = { nearest: new NearestSearch(nearestIndex(kd), tags), box: new BoxSearch(boxIndex(flat), tags) };
  const asked = new Set<number>();
  const filter: PointFilter = { mask: 1, required: 1, verify: 2, accept: (row) => (asked.add(row), row % 2 === 0) };
  const wanted = (row: number) => tags[row] & 1 && (!(tags[row] & 2) || row % 2 === 0);
  const n = tagged.nearest.search(9.5, 47.1, 10, 1, filter, rows, hs);
  assert.deepEqual(Array.from(rows.subarray(0, n)), bruteNearest(9.5, 47.1, 10, Infinity, (row) => Boolean(wanted(row))).map((e) => e.row));
  for (const row of asked) assert.ok(tags[row] & 2, 'asked only about points with the verify bit');
  const inBox = tagged.box.search(9.4, 47.0, 9.6, 47.2, 100, filter, rows);
  for (let i = 0; i < inBox; i++) assert.ok(wanted(rows[i]));
  // rows' tags change: the searches see it, also for split points copied into the nearest search's top levels
  const cleared = new Set(Array.from(rows.subarray(0, tagged.nearest.search(9.5, 47.1, 300, 1, EVERY_POINT, rows, hs))));
  for (const row of cleared) {
    tagged.nearest.setTag(row, 0);
    tagged.box.setTag(row, 0);
  }
  const keptNear = Array.from(rows.subarray(0, tagged.nearest.search(9.5, 47.1, 10, 1, filter, rows, hs)));
  assert.equal(keptNear.length, 10);
  assert.ok(keptNear.every((row) => !cleared.has(row) && wanted(row)));
  assert.ok(Array.from(rows.subarray(0, tagged.box.search(9.4, 47.0, 9.6, 47.2, 100, filter, rows))).every((row) => !cleared.has(row)));
});
