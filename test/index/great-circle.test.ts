import test from 'node:test';
import assert from 'node:assert/strict';
import { haverSin, haverSinToBox, RAD } from '../../src/index/great-circle.js';
import { seededRandom } from '../support/random.js';

const origin = (lon: number, lat: number) => Float64Array.of(lon, lat, Math.cos(lat * RAD));

function exactHaverSin(lon1: number, lat1: number, lon2: number, lat2: number): number {
  return haverSin((lat2 - lat1) * RAD) + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * haverSin((lon2 - lon1) * RAD);
}

/**
 * The least haversine value from the point to a 101 × 101 grid over the box, edges included, and to the
 * box's points at the query's own longitude or latitude (where the least often lies): at least the exact least.
 */
function gridLeast(lon: number, lat: number, box: Float64Array): number {
  const clamp = (v: number, min: number, max: number) => Math.max(min, Math.min(max, v));
  const lons = [clamp(lon, box[0], box[2])];
  const lats = [clamp(lat, box[1], box[3])];
  for (let i = 0; i <= 100; i++) {
    lons.push(box[0] + ((box[2] - box[0]) * i) / 100);
    lats.push(box[1] + ((box[3] - box[1]) * i) / 100);
  }
  let least = Infinity;
  for (const lon2 of lons) for (const lat2 of lats) least = Math.min(least, exactHaverSin(lon, lat, lon2, lat2));
  return least;
}

/** Random boxes and query points, near the poles and across the antimeridian too. */
function cases(count: number, maxSpan: number, maxLat: number, seed: number) {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const span = maxSpan * random() ** 2;
    const minLat = Math.max(-90, (random() * 2 - 1) * maxLat - span / 2);
    const maxLatOfBox = Math.min(90, minLat + span);
    const minLon = -180 + random() * (360 - span);
    const box = Float64Array.of(minLon, minLat, minLon + span * (0.5 + random()) / 1.5, maxLatOfBox);
    const lat = Math.max(-90, Math.min(90, (minLat + maxLatOfBox) / 2 + (random() - 0.5) * 4 * Math.max(span, 0.5)));
    let lon = (box[0] + box[2]) / 2 + (random() - 0.5) * 4 * Math.max(span, 0.5);
    if (random() < 0.1) lon = box[0] - 359.5 + random(); // just across the antimeridian from the box's west side
    lon = ((((lon + 180) % 360) + 360) % 360) - 180;
    return { lon, lat, box };
  });
}

test('haverSinToBox never exceeds the distance to any point of the box, across the antimeridian and near the poles', () => {
  for (const { lon, lat, box } of [...cases(300, 0.5, 89, 3), ...cases(200, 60, 80, 5)]) {
    const bound = haverSinToBox(origin(lon, lat), box, 0);
    assert.ok(bound >= 0, `negative bound for ${lon},${lat}`);
    const least = gridLeast(lon, lat, box);
    assert.ok(bound <= least * (1 + 1e-12) + 1e-18, `bound ${bound} exceeds ${least} for ${lon},${lat} to [${[...box]}]`);
  }
});

test('haverSinToBox is 0 for a point in the box, and close to the exact distance for the small boxes searches rank', () => {
  assert.equal(haverSinToBox(origin(9.5, 47.1), Float64Array.of(9.4, 47.0, 9.6, 47.2), 0), 0);
  // leaves and inner nodes of a dense index span well under a degree; away from the poles the bound stays within 3%
  for (const { lon, lat, box } of cases(300, 0.5, 70, 11)) {
    if (lon >= box[0] && lon <= box[2] && lat >= box[1] && lat <= box[3]) continue;
    const least = gridLeast(lon, lat, box);
    const bound = haverSinToBox(origin(lon, lat), box, 0);
    assert.ok(bound >= 0.97 * least, `bound ${bound} is under 97% of ${least} for ${lon},${lat} to [${[...box]}]`);
  }
});
