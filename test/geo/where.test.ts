import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countryAt, isCountryCode, subdivisionAt, timeZoneAt } from '../../src/geo/where.js';

const PLACES = [
  { name: 'Vaduz', lat: 47.1410, lon: 9.5215, zone: 'Europe/Vaduz', country: 'LI' },
  { name: 'Andorra la Vella', lat: 42.5063, lon: 1.5218, zone: 'Europe/Andorra', country: 'AD' },
  { name: 'Monaco', lat: 43.7384, lon: 7.4246, zone: 'Europe/Monaco', country: 'MC' },
  { name: 'Porto', lat: 41.1579, lon: -8.6291, zone: 'Europe/Lisbon', country: 'PT' },
  { name: 'New York', lat: 40.7128, lon: -74.006, zone: 'America/New_York', country: 'US' },
  { name: 'Tokyo', lat: 35.6762, lon: 139.6503, zone: 'Asia/Tokyo', country: 'JP' },
];

for (const place of PLACES) {
  test(`${place.name}: ${place.zone}, ${place.country}`, () => {
    assert.equal(timeZoneAt(place.lat, place.lon), place.zone);
    assert.equal(countryAt(place.lat, place.lon), place.country);
  });
}

test('open sea: no country, a fixed-offset Etc zone', () => {
  assert.equal(countryAt(30, -40), null);
  assert.equal(countryAt(0, 0), null);
  assert.equal(countryAt(-40, 90), null);
  assert.equal(subdivisionAt(30, -40), null);
  assert.equal(timeZoneAt(30, -40), 'Etc/GMT+3');
});

test('territories get their own ISO 3166-1 code; exceptionally reserved codes do not leak', () => {
  assert.equal(countryAt(49.1858, -2.1090), 'JE'); // St Helier
  assert.equal(countryAt(18.4655, -66.1057), 'PR'); // San Juan
  assert.equal(countryAt(28.4636, -16.2518), 'ES'); // Santa Cruz de Tenerife, not IC
  assert.equal(countryAt(35.8894, -5.3213), 'ES'); // Ceuta, not EA
  assert.equal(countryAt(48.8566, 2.3522), 'FR'); // not FX
});

test('subdivisions country-coder knows', () => {
  assert.equal(subdivisionAt(51.5074, -0.1278), 'GB-ENG');
  assert.equal(subdivisionAt(55.9533, -3.1883), 'GB-SCT');
  assert.equal(subdivisionAt(37.7412, -25.6756), 'PT-20'); // Ponta Delgada, Azores
  assert.equal(subdivisionAt(21.3069, -157.8583), 'US-HI');
});

test('no subdivision where country-coder has none', () => {
  assert.equal(subdivisionAt(47.141, 9.5215), null);
  assert.equal(subdivisionAt(40.7128, -74.006), null);
  assert.equal(subdivisionAt(41.1579, -8.6291), null);
});

test('isCountryCode accepts assigned codes in any case', () => {
  for (const code of ['LI', 'li', 'Ad', 'MC', 'pt', 'US', 'JP', 'JE', 'PR', 'XK']) {
    assert.equal(isCountryCode(code), true, code);
  }
});

test('isCountryCode rejects aliases, reserved and unknown codes', () => {
  for (const code of ['UK', 'EU', 'UN', 'IC', 'EA', 'ZZ', 'XX', 'USA', 'L', '', '1A', 'Q1']) {
    assert.equal(isCountryCode(code), false, code);
  }
});
