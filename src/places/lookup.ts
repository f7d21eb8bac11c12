// What the read path asks of a place lookup ("Bahnhofstrasse, Vaduz" → a point and a label).

export interface PlaceMatch {
  lat: number;
  lon: number;
  /** "<place>, <city>", or just the town for a town. */
  label: string;
}

export interface PlaceQuery {
  text: string;
  /** ISO 3166-1 alpha-2, upper case, when the caller narrowed the lookup. */
  country: string | null;
  /** Breaks ties between equally good matches (findToiletsNear with both place and lat/lon). */
  near: { lat: number; lon: number } | null;
}

export interface PlaceLookup {
  /** The best match or null; throws PlaceLookupUnavailable when the lookup cannot answer now. */
  find(query: PlaceQuery): PlaceMatch | null | Promise<PlaceMatch | null>;
}

export class PlaceLookupUnavailable extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'PlaceLookupUnavailable';
  }
}
