// Offline "where is this point" facts: time zone and country/subdivision codes from bundled boundary data.
// Used at import time (per record) and for request parameters, not per search candidate.

import tzLookup from '@photostructure/tz-lookup';
import { feature, featuresContaining } from '@rapideditor/country-coder';
import { BorderCells } from './border-cells.js';

type IsoStatus = string | undefined;

/** ISO 3166-1 assigned codes plus the user-assigned XK (Kosovo), which country-coder and CLDR treat as a country. */
function isCountryStatus(status: IsoStatus): boolean {
  return status === 'official' || status === 'usrAssn';
}

const ISO_3166_2 = /^[A-Z]{2}-[A-Z0-9]{1,3}$/;
const ALPHA_2 = /^[A-Za-z]{2}$/;

// Territory level first so that e.g. Jersey, Puerto Rico, Gibraltar get their own ISO 3166-1 codes;
// country level catches points whose territory code is only "exceptionally reserved" (Ceuta EA, Canaries IC).
const COUNTRY_LEVELS = ['territory', 'country'] as const;

/** IANA time zone at a coordinate (offline; Etc/GMT±N over the open sea). Throws on invalid coordinates. */
export function timeZoneAt(lat: number, lon: number): string {
  return tzLookup(lat, lon);
}

/** ISO 3166-1 alpha-2 code (upper case) at a coordinate, or null at sea or where unknown. */
export function countryAt(lat: number, lon: number): string | null {
  return countryCells.get(lat, lon);
}

function countryOfPoint(lat: number, lon: number): string | null {
  for (const level of COUNTRY_LEVELS) {
    const region = feature([lon, lat], { level, withProp: 'iso1A2' });
    if (region === null) return null;
    const { iso1A2, isoStatus } = region.properties;
    if (iso1A2 !== undefined && isCountryStatus(isoStatus)) return iso1A2;
  }
  return null;
}

/**
 * ISO 3166-2 subdivision code at a coordinate when country-coder knows one (e.g. 'GB-SCT', 'PT-20',
 * 'US-HI'), else null. country-coder only carries subdivisions that are separate landmasses or nations
 * of a union, so most points (e.g. any contiguous US state) get null.
 */
export function subdivisionAt(lat: number, lon: number): string | null {
  return subdivisionCells.get(lat, lon);
}

function subdivisionOfPoint(lat: number, lon: number): string | null {
  const country = countryOfPoint(lat, lon);
  if (country === null) return null;
  const prefix = country + '-';
  // featuresContaining lists the smallest region first, so the first match is the most specific one.
  for (const region of featuresContaining([lon, lat])) {
    for (const alias of region.properties.aliases ?? []) {
      if (ISO_3166_2.test(alias) && alias.startsWith(prefix)) return alias;
    }
  }
  return null;
}

// Both answers depend on the point only through the country-coder polygon that contains it.
const countryCells = new BorderCells(countryOfPoint);
const subdivisionCells = new BorderCells(subdivisionOfPoint);

/** True for an ISO 3166-1 alpha-2 code that exists (case-insensitive; aliases such as 'UK' are not codes). */
export function isCountryCode(code: string): boolean {
  if (!ALPHA_2.test(code)) return false;
  const upper = code.toUpperCase();
  const region = feature(upper);
  return region !== null && region.properties.iso1A2 === upper && isCountryStatus(region.properties.isoStatus);
}
