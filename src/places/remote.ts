// A Nominatim- or Photon-compatible geocoder over HTTP, for places the embedded index does not know.
// Anything but a well-formed answer within the time limit makes it unavailable (PlaceLookupUnavailable).
import { PlaceLookupUnavailable, type PlaceLookup, type PlaceMatch, type PlaceQuery } from './lookup.js';

export interface RemoteGeocoderOptions {
  /** Nominatim: the service root or its /search endpoint. Photon: its /api endpoint. */
  url: string;
  timeoutMs: number;
  /** Nominatim's usage policy asks every application to name itself. */
  userAgent: string;
  /** Told to clients when the service fails (Retry-After). */
  retryAfterSeconds?: number;
}

const DEFAULT_RETRY_AFTER_SECONDS = 30;
/** Results asked for, so a country the service does not filter by itself can still be found among them. */
const RESULT_LIMIT = 5;

type Flavour = 'nominatim' | 'photon';

export class RemoteGeocoder implements PlaceLookup {
  private readonly endpoint: URL;
  private readonly flavour: Flavour;

  constructor(private readonly options: RemoteGeocoderOptions) {
    const url = new URL(options.url);
    const path = url.pathname.replace(/\/+$/, '');
    this.flavour = path.endsWith('/api') ? 'photon' : 'nominatim';
    url.pathname = this.flavour === 'nominatim' && !path.endsWith('/search') ? `${path}/search` : path;
    this.endpoint = url;
  }

  async find(query: PlaceQuery): Promise<PlaceMatch | null> {
    const url = this.requestUrl(query);
    let body: unknown;
    try {
      const response = await fetch(url, {
        headers: { accept: 'application/json', 'user-agent': this.options.userAgent },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (!response.ok) throw new Error(`answered HTTP ${response.status}`);
      body = await response.json();
    } catch (error) {
      throw this.unavailable(this.reasonOf(error));
    }
    const match = this.flavour === 'photon' ? photonMatch(body, query.country) : nominatimMatch(body);
    if (match === undefined) throw this.unavailable('answered something that is not a geocoding result');
    return match;
  }

  private requestUrl(query: PlaceQuery): URL {
    const url = new URL(this.endpoint);
    url.searchParams.set('q', query.text);
    url.searchParams.set('limit', String(RESULT_LIMIT));
    if (this.flavour === 'nominatim') {
      url.searchParams.set('format', 'jsonv2');
      url.searchParams.set('addressdetails', '1');
      if (query.country !== null) url.searchParams.set('countrycodes', query.country.toLowerCase());
    } else {
      if (query.country !== null) url.searchParams.set('countrycode', query.country.toUpperCase());
      if (query.near !== null) {
        url.searchParams.set('lat', String(query.near.lat));
        url.searchParams.set('lon', String(query.near.lon));
      }
    }
    return url;
  }

  private reasonOf(error: unknown): string {
    if (!(error instanceof Error)) return String(error);
    if (error.name === 'TimeoutError') return `no answer within ${this.options.timeoutMs} ms`;
    // fetch reports a refused or reset connection as "fetch failed" with the system error as its cause.
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? `${error.message} (${code})` : error.message;
  }

  private unavailable(reason: string): PlaceLookupUnavailable {
    return new PlaceLookupUnavailable(`place lookup at ${this.endpoint.host} failed: ${reason}`, this.options.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS);
  }
}

/** The first result as a match; null when there is none; undefined when the body is not a Nominatim answer. */
function nominatimMatch(body: unknown): PlaceMatch | null | undefined {
  if (!Array.isArray(body)) return undefined;
  if (body.length === 0) return null;
  const first = body[0] as { lat?: unknown; lon?: unknown; name?: unknown; display_name?: unknown; address?: Record<string, unknown> };
  const lat = Number(first.lat);
  const lon = Number(first.lon);
  const name = text(first.name) ?? text(first.display_name)?.split(',')[0].trim() ?? null;
  const address = first.address ?? {};
  const city = text(address.city) ?? text(address.town) ?? text(address.village) ?? text(address.municipality) ?? text(address.hamlet);
  return matchOf(lat, lon, name, city);
}

/** The first result in the country as a match; null when there is none; undefined when not a Photon answer. */
function photonMatch(body: unknown, country: string | null): PlaceMatch | null | undefined {
  const features = (body as { features?: unknown } | null)?.features;
  if (!Array.isArray(features)) return undefined;
  for (const feature of features as { geometry?: { coordinates?: unknown }; properties?: Record<string, unknown> }[]) {
    const properties = feature?.properties ?? {};
    if (country !== null && text(properties.countrycode)?.toUpperCase() !== country.toUpperCase()) continue;
    const coordinates = feature?.geometry?.coordinates;
    if (!Array.isArray(coordinates)) return undefined;
    return matchOf(Number(coordinates[1]), Number(coordinates[0]), text(properties.name) ?? text(properties.street), text(properties.city));
  }
  return null;
}

function matchOf(lat: number, lon: number, name: string | null, city: string | null): PlaceMatch | undefined {
  if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180) || (name === null && city === null)) return undefined;
  const label = name === null || name === city ? city! : city === null ? name : `${name}, ${city}`;
  return { lat, lon, label };
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
