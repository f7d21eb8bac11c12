// The user's approximate position as an MCP host volunteers it in a tool call's `_meta` (ChatGPT's
// `openai/userLocation`, protocol-notes §5): a coarse object, possibly partly filled. It is a hint for
// where to search when the call names no place and no coordinates, never an identity, and it is not logged.
import type { Origin } from '../api/reads.js';
import { isCountryCode } from '../geo/where.js';
import { PlaceLookupUnavailable, type PlaceLookup, type PlaceMatch } from '../places/lookup.js';
import { FIND_PARAMS } from '../schemas/params.js';

export const USER_LOCATION_META_KEY = 'openai/userLocation';

interface UserLocation {
  city?: unknown;
  region?: unknown;
  country?: unknown;
  latitude?: unknown;
  longitude?: unknown;
}

/**
 * Where the host says the user is, as a search origin with source `host_hint`: its coordinates when it
 * sent both, else its city looked up by name (narrowed to its country); null when it sent nothing usable
 * or the lookup cannot place the city (the tool then asks the user). Known at once unless the city has
 * to be looked up and the lookup has to wait.
 */
export function hostHintOrigin(meta: Readonly<Record<string, unknown>> | undefined, places: PlaceLookup | null): Origin | null | Promise<Origin | null> {
  const hint = meta?.[USER_LOCATION_META_KEY];
  if (hint === null || typeof hint !== 'object' || Array.isArray(hint)) return null;
  const { city, region, country, latitude, longitude } = hint as UserLocation;
  const countryCode = typeof country === 'string' && isCountryCode(country) ? country.toUpperCase() : null;
  const cityName = text(city);

  if (inRange(latitude, FIND_PARAMS.lat) && inRange(longitude, FIND_PARAMS.lon)) {
    const named = [cityName, text(region), countryCode ?? text(country)].filter((part) => part !== null);
    return { lat: latitude, lon: longitude, label: named.length > 0 ? named.join(', ') : null, source: 'host_hint' };
  }
  if (cityName === null || places === null) return null;
  const unavailable = (error: unknown) => {
    if (error instanceof PlaceLookupUnavailable) return null;
    throw error;
  };
  const placed = (match: PlaceMatch | null): Origin | null => match && { lat: match.lat, lon: match.lon, label: match.label, source: 'host_hint' };
  try {
    const found = places.find({ text: cityName, country: countryCode, near: null });
    return found instanceof Promise ? found.then(placed, unavailable) : placed(found);
  } catch (error) {
    return unavailable(error);
  }
}

/** A trimmed name within the bounds a `place` may have, or null. */
function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed.length >= FIND_PARAMS.place.minLength && trimmed.length <= FIND_PARAMS.place.maxLength ? trimmed : null;
}

function inRange(value: unknown, bounds: { minimum: number; maximum: number }): value is number {
  return typeof value === 'number' && value >= bounds.minimum && value <= bounds.maximum;
}
