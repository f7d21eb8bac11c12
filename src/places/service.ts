// The place lookup the read path uses: the embedded index, and a remote geocoder when GEOCODER_URL is set,
// asked after the index finds nothing (fallback, the default) or before it (first).
import type { GeocoderConfig, GeocoderMode } from '../config.js';
import { PlaceLookupUnavailable, type PlaceLookup, type PlaceMatch, type PlaceQuery } from './lookup.js';
import { RemoteGeocoder } from './remote.js';

/** A lookup that answers at once: the embedded index. */
export interface ImmediatePlaceLookup {
  find(query: PlaceQuery): PlaceMatch | null;
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
