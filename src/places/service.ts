// The place lookup the read path uses: the embedded index, and a remote geocoder when GEOCODER_URL is set,
// asked after the index finds nothing (fallback, the default) or before it (first).
import { ConfigError } from '../config.js';
import { PlaceLookupUnavailable, type PlaceLookup, type PlaceMatch, type PlaceQuery } from './lookup.js';
import { RemoteGeocoder } from './remote.js';

export const GEOCODER_MODES = ['fallback', 'first'] as const;
export type GeocoderMode = (typeof GEOCODER_MODES)[number];

export interface GeocoderConfig {
  /** GEOCODER_URL: a Nominatim root or /search endpoint, or a Photon /api endpoint; null for none. */
  url: string | null;
  /** GEOCODER_MODE, default fallback. */
  mode: GeocoderMode;
  /** GEOCODER_TIMEOUT_MS, default 2000. */
  timeoutMs: number;
}

/** A lookup that answers at once: the embedded index. */
export interface ImmediatePlaceLookup {
  find(query: PlaceQuery): PlaceMatch | null;
}

export function readGeocoderConfig(env: NodeJS.ProcessEnv = process.env): GeocoderConfig {
  const url = env.GEOCODER_URL || null;
  if (url !== null && !/^https?:\/\//.test(url)) throw new ConfigError(`GEOCODER_URL=${url} must start with http:// or https://`);
  const mode = (env.GEOCODER_MODE || 'fallback') as GeocoderMode;
  if (!GEOCODER_MODES.includes(mode)) throw new ConfigError(`GEOCODER_MODE=${env.GEOCODER_MODE} is not valid: use ${GEOCODER_MODES.join(' or ')} (default fallback)`);
  const rawTimeout = env.GEOCODER_TIMEOUT_MS;
  const timeoutMs = rawTimeout === undefined || rawTimeout === '' ? 2000 : Number(rawTimeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 60_000) {
    throw new ConfigError(`GEOCODER_TIMEOUT_MS=${rawTimeout} is not valid: use a whole number of milliseconds from 1 to 60000 (default 2000)`);
  }
  return { url, mode, timeoutMs };
}

/** The embedded index alone, or layered with the configured remote geocoder. */
export function createPlaceLookup(embedded: ImmediatePlaceLookup, geocoder: GeocoderConfig, userAgent: string): PlaceLookup {
  if (geocoder.url === null) return embedded;
  return new LayeredPlaceLookup(embedded, new RemoteGeocoder({ url: geocoder.url, timeoutMs: geocoder.timeoutMs, userAgent }), geocoder.mode);
}

export class LayeredPlaceLookup implements PlaceLookup {
  constructor(
    private readonly embedded: ImmediatePlaceLookup,
    private readonly remote: PlaceLookup,
    private readonly mode: GeocoderMode,
  ) {}

  /** In fallback mode a place the index knows is answered synchronously, without touching the network. */
  find(query: PlaceQuery): PlaceMatch | null | Promise<PlaceMatch | null> {
    if (this.mode === 'first') return this.remoteFirst(query);
    return this.embedded.find(query) ?? this.remote.find(query);
  }

  /** The remote answer; the index when the remote finds nothing or fails (the failure counts only if the index finds nothing too). */
  private async remoteFirst(query: PlaceQuery): Promise<PlaceMatch | null> {
    let remote: PlaceMatch | null;
    try {
      remote = await this.remote.find(query);
    } catch (error) {
      if (!(error instanceof PlaceLookupUnavailable)) throw error;
      const embedded = this.embedded.find(query);
      if (embedded === null) throw error;
      return embedded;
    }
    return remote ?? this.embedded.find(query);
  }
}
