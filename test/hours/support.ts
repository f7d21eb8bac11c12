// Toilet places for the hours tests (resolved with the real geo lookups the importer uses) and a shortcut.

import assert from 'node:assert/strict';
import { countryAt, timeZoneAt } from '../../src/geo/where.js';
import { compileHours, type HoursPlace, type HoursState } from '../../src/hours/index.js';

export function placeAt(lat: number, lon: number): HoursPlace {
  return { lat, lon, country: countryAt(lat, lon), timeZone: timeZoneAt(lat, lon) };
}

export const VADUZ = placeAt(47.141, 9.5215);
export const ANDORRA_LA_VELLA = placeAt(42.5063, 1.5218);
export const MONACO = placeAt(43.7384, 7.4246);
export const BERLIN = placeAt(52.52, 13.405);
export const LONDON = placeAt(51.5074, -0.1278);
export const NEW_YORK = placeAt(40.7128, -74.006);
export const MADRID = placeAt(40.4168, -3.7038);
export const KOLKATA = placeAt(22.5726, 88.3639);

/** Compiles (which must succeed) and evaluates at an ISO instant. */
export function stateAt(value: string, place: HoursPlace, instant: string): HoursState {
  const compiled = compileHours(value, place);
  assert.ok(compiled !== null, `does not compile: ${value}`);
  return compiled.stateAt(Date.parse(instant));
}
