// The three public reads as plain functions from typed parameters to JSON bytes: REST routes and MCP
// tools both call these, so every interface answers alike. Searches run synchronously on shared
// buffers (each server thread has its own Reads), and items are written straight into one answer buffer.
import type { Snapshot, SnapshotHolder } from '../toilets/snapshot.js';
import { Trait, type ToiletTable } from '../toilets/table.js';
import type { PointFilter } from '../index/point-filter.js';
import { hoursAt, ITEM_END, ITEM_END_NEXT, ToiletRenderer, writeCoordinate } from '../toilets/render.js';
import { fragment, JsonBytes, type Pieces } from '../rules/json-bytes.js';
import { GzipBytes } from '../rules/gzip-bytes.js';
import { haverSinToMeters, metersToHaverSin } from '../index/great-circle.js';
import { initialBearingDegrees } from '../geo/sphere.js';
import type { AreaParams, FindParams } from '../schemas/params.js';
import { PlaceLookupUnavailable, type PlaceLookup, type PlaceMatch } from '../places/lookup.js';
import { attributionJson, DISPLAY_NOTE } from './attribution.js';
import { asciiJson } from '../rules/ascii-json.js';
import { covers, OutsideCoverageTails, outsideCoverageText, touches } from './coverage.js';
import { ListingCount, type ListingCounters } from '../toilets/listing-counters.js';

/** Walking speed for walk_min: 80 m a minute (4.8 km/h), a common planning figure for city walking. */
const WALK_METERS_PER_MINUTE = 80;
const MAX_RESULTS = 200;

export type OriginSource = 'place' | 'coordinates' | 'host_hint';
export interface Origin {
  lat: number;
  lon: number;
  /** null: a position without a name, labelled with its coordinates rounded to 5 decimals. */
  label: string | null;
  source: OriginSource;
}

/** The filters of findToiletsNear and listToiletsInArea (FilterFlags' keys, in the spec's order). */
const FILTER_NAMES: readonly (keyof FilterFlags)[] = ['open_now', 'wheelchair', 'changing_table', 'free', 'no_purchase_needed'];

export interface FilterFlags {
  open_now: boolean;
  wheelchair: boolean;
  changing_table: boolean;
  free: boolean;
  no_purchase_needed: boolean;
}

/** A place lookup could not answer: REST says 503 with Retry-After, MCP an isError result. */
export { PlaceLookupUnavailable };

const STATUS_OK = fragment('{"status":"ok","origin":{"lat":');
const STATUS_NO_RESULTS = fragment('{"status":"no_results","origin":{"lat":');
const ORIGIN_LON = fragment(',"lon":');
const ORIGIN_LABEL = fragment(',"label":');
const QUOTE = fragment('"');
const LABEL_COMMA = fragment(', ');
const ORIGIN_SOURCE: Record<OriginSource, Uint8Array> = {
  place: fragment(',"source":"place"}'),
  coordinates: fragment(',"source":"coordinates"}'),
  host_hint: fragment(',"source":"host_hint"}'),
};
const RESULTS_OPEN = fragment(',"results":[');
const BRACKET_CLOSE = fragment(']');
const BBOX_OPEN = fragment(',"bbox":[');
const NO_MORE = fragment('],"truncated":false');
const MORE = fragment('],"truncated":true');
const COMMA = fragment(',');
/** Closes the item's last value, then its first nearest-search member. */
const DISTANCE = fragment('","distance_m":');
const BRACE_CLOSE = fragment('}');
const WALK = fragment(',"walk_min":');
const BEARING = fragment(',"bearing":');
const AREA_OPEN = fragment('{"results":[');
const TOILET_OPEN = fragment('{"toilet":');
const DETAILS = fragment(',"details":');
/** The counter numbers of an area answer that showed no counted partner listing (most answers). */
export const NONE_COUNTED = new Int32Array(0);

/**
 * The reads. An answer returned directly is a view of the reads' one answer buffer, valid until the next
 * read: write it out (uWS copies it) or copy it before reading again. A promised answer is a copy.
 */
export class Reads {
  private readonly renderer: ToiletRenderer;
  /** The attribution and display note members, and the answer's closing brace. */
  private readonly tail: Uint8Array;
  /** The tails of empty answers about a position outside the data's coverage. */
  private readonly outsideTails: OutsideCoverageTails;
  private readonly out = new JsonBytes();
  private readonly gzip = new GzipBytes();
  private readonly rows = new Int32Array(MAX_RESULTS + 1);
  private readonly haverSins = new Float64Array(MAX_RESULTS + 1);
  /** The counter numbers of the partner listings the last area answer showed, the first `countedInArea`. */
  private readonly areaCounters = new Int32Array(MAX_RESULTS + 1);
  private countedInArea = 0;
  // The filter of the search in progress: one object reused, so a query allocates nothing. Traits decide
  // every filter but open_now, which asks the hours of toilets that have them.
  private filterNow = 0;
  private filterSnapshot: Snapshot | null = null;
  private readonly filter: PointFilter = {
    mask: Trait.Hidden,
    required: 0,
    verify: 0,
    accept: (row) => hoursAt(this.filterSnapshot!.table, row, this.filterNow).open_now !== false,
  };

  constructor(
    private readonly catalog: SnapshotHolder,
    baseUrl: string,
    private readonly places: PlaceLookup | null,
    private readonly maxDistanceM: number,
    /** Where Plus listings' figures are counted: shown in nearest and area answers, opened by toilet(). */
    private readonly counters: ListingCounters,
  ) {
    this.renderer = new ToiletRenderer(baseUrl);
    this.tail = fragment(`,"attribution":${attributionJson(baseUrl)},"display_note":${DISPLAY_NOTE}}`);
    this.outsideTails = new OutsideCoverageTails(attributionJson(baseUrl));
  }

  /**
   * Whether the answers from now on can be gzipped (gzipOfAnswer): their pieces are marked as they are
   * written, which a plain answer need not pay for. Set before each read by a caller that cares; `slices`
   * false: the pieces are for a writer copying the answer into a larger one (MCP), not for gzipOfAnswer.
   */
  preparesGzip(on: boolean, slices = on): void {
    this.out.setMarking(on, slices);
  }

  /** The pieces of the answer returned last (none unless preparesGzip was on), for a writer that copies it into a larger answer. */
  answerPieces(): Pieces {
    return this.out.pieces();
  }

  /** The gzip form of the answer returned last (made while preparesGzip was on); valid until the next one. */
  gzipOfAnswer(): Buffer {
    return this.gzip.answer(this.out);
  }

  /**
   * Why a findToiletsNear answer from `origin` has no results, in a sentence for a model (MCP): the region
   * this service covers when the origin lies outside it, else the filters that were sent, else the distance
   * searched. Never advice about filters that were not sent.
   */
  noResultsReason(origin: { lat: number; lon: number; label: string }, filters: FilterFlags): string {
    const coverage = this.catalog.snapshot.info.coverage;
    if (coverage !== null && !covers(coverage, origin.lat, origin.lon)) return `No results for ${origin.label}. ${outsideCoverageText(coverage, 'position')}`;
    const within = this.maxDistanceM < 1000 ? `${this.maxDistanceM} m` : `${Math.round(this.maxDistanceM / 100) / 10} km`;
    const sent = FILTER_NAMES.filter((name) => filters[name]);
    if (sent.length > 0) {
      return `No toilet within ${within} of ${origin.label} matched ${sent.length === 1 ? 'the filter' : 'all of the filters'} ${sent.join(', ')}. Ask the user whether to search without ${sent.length === 1 ? 'it' : 'some of them'}.`;
    }
    return `No public toilet is mapped within ${within} of ${origin.label}.`;
  }

  /**
   * findToiletsNear. `hostHint` is an approximate user position an MCP host supplied; it is used only when
   * neither place nor coordinates were sent. Synchronous unless the place lookup has to wait for a remote
   * geocoder. Throws (or rejects with) PlaceLookupUnavailable.
   */
  findNear(params: FindParams, nowMs: number, hostHint: Origin | null = null): Buffer | Promise<Buffer> {
    if (params.place !== undefined) {
      if (!this.places) throw new PlaceLookupUnavailable('this server has no place lookup yet', 3600);
      const country = params.country?.toUpperCase() ?? null;
      const near = params.lat !== undefined && params.lon !== undefined ? { lat: params.lat, lon: params.lon } : null;
      const place = params.place;
      const answer = (match: PlaceMatch | null) =>
        match ? this.nearestFrom({ ...match, source: 'place' }, params, nowMs) : this.emptyFindAnswer('place_not_found', placeNotFoundQuestion(place, country));
      const found = this.places.find({ text: place, country, near });
      // a later read may run before the caller resumes: a promised answer gets bytes of its own
      return found instanceof Promise ? found.then((match) => Buffer.from(answer(match))) : answer(found);
    }
    if (params.lat !== undefined && params.lon !== undefined) {
      return this.nearestFrom({ lat: params.lat, lon: params.lon, label: null, source: 'coordinates' }, params, nowMs);
    }
    if (hostHint) return this.nearestFrom(hostHint, params, nowMs);
    return this.emptyFindAnswer('needs_location', NEEDS_LOCATION_QUESTION);
  }

  /** listToiletsInArea: every toilet in the box, nearest to its centre first. */
  inArea(params: AreaParams, nowMs: number): Buffer {
    const snapshot = this.catalog.snapshot;
    const found = this.searchArea(params, nowMs);
    const shown = Math.min(found, params.limit);
    const out = this.out;
    out.reset();
    out.bytes(AREA_OPEN);
    let counted = 0;
    for (let i = 0; i < shown; i++) {
      const counter = this.renderer.item(out, snapshot, this.rows[i], nowMs);
      if (counter >= 0) this.areaCounters[counted++] = counter;
      out.bytes(i + 1 < shown ? ITEM_END_NEXT : ITEM_END);
    }
    this.countedInArea = counted;
    this.countShown(this.areaCounters, counted);
    out.bytes(found > params.limit ? MORE : NO_MORE);
    const coverage = snapshot.info.coverage;
    out.bytes(found === 0 && coverage !== null && !touches(coverage, params.bbox) ? this.outsideTails.tail(coverage, 'box') : this.tail);
    return out.view();
  }

  /**
   * The counter numbers of the partner listings the last inArea answer showed, as an array of their own
   * (NONE_COUNTED when none): an area answer kept in the cache counts them again each time it is served.
   */
  countedByLastArea(): Int32Array {
    return this.countedInArea === 0 ? NONE_COUNTED : this.areaCounters.slice(0, this.countedInArea);
  }

  /** Counts the first `n` of these listings as shown (an area answer, made now or kept in the cache). */
  countShown(counters: Int32Array, n = counters.length): void {
    for (let i = 0; i < n; i++) this.counters.add(counters[i], ListingCount.Shown);
  }

  /** listToiletsInArea's search alone (inArea renders what it found): how many rows, up to limit + 1, nearest to the box's centre first. */
  searchArea(params: AreaParams, nowMs: number): number {
    const snapshot = this.catalog.snapshot;
    const { west, south, east, north } = params.bbox;
    this.setFilter(snapshot, params, nowMs);
    return snapshot.findInBox(west, south, east, north, params.limit + 1, this.filter, this.rows);
  }

  /** getToilet body, or null when no toilet has the id (or a moderator marked it gone). */
  toilet(id: string, nowMs: number): Buffer | null {
    const snapshot = this.catalog.snapshot;
    const row = snapshot.rowOf(id);
    if (row < 0) return null;
    const out = this.out;
    out.reset();
    out.bytes(TOILET_OPEN);
    this.counters.add(this.renderer.item(out, snapshot, row, nowMs), ListingCount.Opened);
    out.bytes(ITEM_END);
    // Stored as the answer's JSON at import; a row without details (or data from before them) has none.
    const details = snapshot.table.details;
    if (details !== null && row + 1 < details.starts.length && details.starts[row] < details.starts[row + 1]) {
      out.bytes(DETAILS);
      out.range(details.bytes, details.starts[row], details.starts[row + 1]);
    }
    out.bytes(this.tail);
    return out.view();
  }

  private nearestFrom(origin: Origin, filters: FilterFlags & { limit: number }, nowMs: number): Buffer {
    const snapshot = this.catalog.snapshot;
    this.setFilter(snapshot, filters, nowMs);
    const found = snapshot.findNearest(origin.lon, origin.lat, filters.limit, metersToHaverSin(this.maxDistanceM), this.filter, this.rows, this.haverSins);
    const t = snapshot.table;
    const out = this.out;
    out.reset();
    // Coordinates become text once: the origin's here, the toilets' at import (their item text).
    out.bytes(found > 0 ? STATUS_OK : STATUS_NO_RESULTS);
    out.decimal(origin.lat);
    out.bytes(ORIGIN_LON);
    out.decimal(origin.lon);
    out.bytes(ORIGIN_LABEL);
    if (origin.label !== null) {
      out.ascii(asciiJson(origin.label));
    } else {
      out.bytes(QUOTE);
      out.decimal(round5(origin.lat));
      out.bytes(LABEL_COMMA);
      out.decimal(round5(origin.lon));
      out.bytes(QUOTE);
    }
    out.bytes(ORIGIN_SOURCE[origin.source]);
    out.bytes(RESULTS_OPEN);
    // The rows on the bbox's sides (-1: the origin).
    let [west, south, east, north] = [-1, -1, -1, -1];
    for (let i = 0; i < found; i++) {
      const row = this.rows[i];
      const lat = t.lat[row];
      const lon = t.lon[row];
      const meters = haverSinToMeters(this.haverSins[i]);
      if (i > 0) out.bytes(COMMA);
      this.counters.add(this.renderer.item(out, snapshot, row, nowMs), ListingCount.Shown);
      out.bytes(DISTANCE);
      out.integer(Math.round(meters));
      out.bytes(WALK);
      out.integer(Math.max(1, Math.ceil(meters / WALK_METERS_PER_MINUTE)));
      out.bytes(BEARING);
      out.integer(initialBearingDegrees(origin.lat, origin.lon, lat, lon));
      out.bytes(BRACE_CLOSE);
      if (lon < (west < 0 ? origin.lon : t.lon[west])) west = row;
      if (lon > (east < 0 ? origin.lon : t.lon[east])) east = row;
      if (lat < (south < 0 ? origin.lat : t.lat[south])) south = row;
      if (lat > (north < 0 ? origin.lat : t.lat[north])) north = row;
    }
    out.bytes(BRACKET_CLOSE);
    if (found > 0) {
      out.bytes(BBOX_OPEN);
      writeSide(out, t, west, origin, 'lon');
      out.bytes(COMMA);
      writeSide(out, t, south, origin, 'lat');
      out.bytes(COMMA);
      writeSide(out, t, east, origin, 'lon');
      out.bytes(COMMA);
      writeSide(out, t, north, origin, 'lat');
      out.bytes(BRACKET_CLOSE);
    }
    const coverage = snapshot.info.coverage;
    out.bytes(found === 0 && coverage !== null && !covers(coverage, origin.lat, origin.lon) ? this.outsideTails.tail(coverage, 'position') : this.tail);
    return out.view();
  }

  /** An answer without results that asks the user a question. */
  private emptyFindAnswer(status: 'place_not_found' | 'needs_location', askUser: string): Buffer {
    const out = this.out;
    out.reset();
    out.ascii(`{"status":"${status}","origin":null,"results":[],"ask_user":${asciiJson(askUser)}`);
    out.bytes(this.tail);
    return out.view();
  }

  private setFilter(snapshot: Snapshot, f: FilterFlags, nowMs: number): void {
    this.filterSnapshot = snapshot;
    this.filterNow = nowMs;
    const required = (f.wheelchair ? Trait.Wheelchair : 0) | (f.changing_table ? Trait.ChangingTable : 0) | (f.free ? Trait.Free : 0) | (f.no_purchase_needed ? Trait.NoPurchase : 0);
    this.filter.mask = required | Trait.Hidden;
    this.filter.required = required;
    this.filter.verify = f.open_now ? Trait.HasHours : 0;
  }
}

const NEEDS_LOCATION_QUESTION =
  'Where are you? Tell me a street, station, landmark or town (or share your location) and I will find the nearest public toilets.';

function placeNotFoundQuestion(place: string, country: string | null): string {
  return `I could not find "${place}"${country ? ` in ${country}` : ''}. Which town, street or station near you should I search instead?`;
}

/** One side of a nearest answer's bbox: a row's coordinate as its item text has it, or the origin's (row -1). */
function writeSide(out: JsonBytes, t: ToiletTable, row: number, origin: Origin, axis: 'lat' | 'lon'): void {
  if (row < 0) out.decimal(axis === 'lat' ? origin.lat : origin.lon);
  else writeCoordinate(out, t, row, axis);
}

function round5(value: number): number {
  return Math.round(value * 1e5) / 1e5;
}
