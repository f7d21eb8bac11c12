import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EARTH_RADIUS_M, distanceMeters, initialBearingDegrees } from '../../src/geo/sphere.js';

const PARIS = [48.8566, 2.3522] as const;
const LONDON = [51.5074, -0.1278] as const;

test('Paris to London is 343.6 km on the mean sphere, within 0.1 %', () => {
  const metres = distanceMeters(...PARIS, ...LONDON);
  assert.ok(Math.abs(metres - 343_556) / 343_556 < 0.001, `got ${metres}`);
  assert.equal(distanceMeters(...LONDON, ...PARIS), metres);
});

test('one degree of longitude on the equator and half the circumference between antipodes', () => {
  const oneDegree = (2 * Math.PI * EARTH_RADIUS_M) / 360;
  assert.ok(Math.abs(distanceMeters(0, 10, 0, 11) - oneDegree) < 0.01);
  assert.ok(Math.abs(distanceMeters(0, 0, 0, 180) - Math.PI * EARTH_RADIUS_M) < 0.01);
  assert.ok(Math.abs(distanceMeters(90, 0, -90, 0) - Math.PI * EARTH_RADIUS_M) < 0.01);
  assert.equal(distanceMeters(47.14, 9.52, 47.14, 9.52), 0);
});

test('short distances keep metre precision (haversine, not the cosine law)', () => {
  // 0.00001° of latitude is 1.112 m.
  assert.ok(Math.abs(distanceMeters(43.7384, 7.4246, 43.73841, 7.4246) - 1.112) < 0.001);
});

test('distance across the antimeridian takes the short way', () => {
  const oneDegree = (2 * Math.PI * EARTH_RADIUS_M) / 360;
  assert.ok(Math.abs(distanceMeters(0, 179.5, 0, -179.5) - oneDegree) < 0.01);
  assert.ok(Math.abs(distanceMeters(-16.5, 179.9, -16.5, -179.9) - distanceMeters(-16.5, -0.1, -16.5, 0.1)) < 1e-6);
});

test('bearings of the cardinal directions', () => {
  assert.equal(initialBearingDegrees(47, 9, 48, 9), 0);
  assert.equal(initialBearingDegrees(0, 9, 0, 10), 90);
  assert.equal(initialBearingDegrees(47, 9, 46, 9), 180);
  assert.equal(initialBearingDegrees(0, 9, 0, 8), 270);
});

test('Paris to London heads 330° (north-west), back 148°', () => {
  assert.equal(initialBearingDegrees(...PARIS, ...LONDON), 330);
  assert.equal(initialBearingDegrees(...LONDON, ...PARIS), 148);
});

test('bearing across the antimeridian', () => {
  assert.equal(initialBearingDegrees(0, 179.5, 0, -179.5), 90);
  assert.equal(initialBearingDegrees(0, -179.5, 0, 179.5), 270);
  assert.equal(initialBearingDegrees(-17, 179.9, -18, -179.9), 169);
});

test('bearings are whole degrees 0..359; 359.6 rounds to 0', () => {
  // Target slightly west of due north: 359.6..359.9 must come out as 0, never 360.
  assert.equal(initialBearingDegrees(0, 0, 1, -0.005), 0);
  for (let lat = -80; lat <= 80; lat += 20) {
    for (let lon = -180; lon < 180; lon += 45) {
      const bearing = initialBearingDegrees(10, 20, lat, lon);
      assert.ok(Number.isInteger(bearing) && bearing >= 0 && bearing <= 359, `${lat},${lon} -> ${bearing}`);
    }
  }
});
