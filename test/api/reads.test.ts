// The three public reads over HTTP on the real Porto extract, checked against the source database read
// directly and against independent great-circle arithmetic.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PlaceLookup, PlaceMatch, PlaceQuery } from '../../src/places/lookup.js';
import {
  BASE_URL,
  bearingGap,
  byDistanceFrom,
  haversineMeters,
  importedCopy,
  initialBearing,
  query,
  readSourceToilets,
  serve,
  tempDir,
  type Served,
  type SourceToilet,
} from './support.js';

const NEAREST = '/api/v1/toilets/nearest';
const AREA = '/api/v1/toilets';
/** Holds every toilet of the Porto extract (checked in `before`). */
const PORTO_BOX = { west: -8.63, south: 41.13, east: -8.58, north: 41.16 };
const PORTO_CENTRE = { lat: 41.1445, lon: -8.6105 };
const bboxParam = (b: typeof PORTO_BOX) => `${b.west},${b.south},${b.east},${b.north}`;

type OpenNow = boolean | 'unknown';
const FILTERS: Record<string, (t: SourceToilet, openNow: OpenNow) => boolean> = {
  wheelchair: (t) => t.wheelchair === 'yes' || t.wheelchair === 'limited',
  changing_table: (t) => t.changing_table === 'yes',
  free: (t) => t.fee_required === 0,
  no_purchase_needed: (t) => ['public', 'permissive', 'scheme'].includes(t.access),
  open_now: (_t, openNow) => openNow !== false,
};
const FILTER_SETS: string[][] = [...Object.keys(FILTERS).map((name) => [name]), ['wheelchair', 'free'], ['open_now', 'no_purchase_needed']];

/** A place lookup that knows a fixed list of names and records what it was asked. */
class FixedPlaces implements PlaceLookup {
  readonly asked: PlaceQuery[] = [];
  constructor(private readonly known: Record<string, PlaceMatch>) {}
  find(place: PlaceQuery): PlaceMatch | null {
    this.asked.push(place);
    return this.known[place.text] ?? null;
  }
}

/** The same lookup answering on a later tick, as a remote geocoder would. */
class LaterPlaces implements PlaceLookup {
  constructor(private readonly inner: FixedPlaces) {}
  async find(place: PlaceQuery): Promise<PlaceMatch | null> {
    await new Promise((resolve) => setImmediate(resolve));
    return this.inner.find(place);
  }
}

/** Answers nothing until open(), then every waiting lookup at once. */
class GatedPlaces implements PlaceLookup {
  private readonly gate: Promise<void>;
  private release!: () => void;
  private asked = 0;

  constructor(private readonly inner: FixedPlaces) {
    this.gate = new Promise((resolve) => (this.release = resolve));
  }

  async find(place: PlaceQuery): Promise<PlaceMatch | null> {
    this.asked++;
    await this.gate;
    return this.inner.find(place);
  }

  async waiting(count: number): Promise<void> {
    while (this.asked < count) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  open(): void {
    this.release();
  }
}

const RIBEIRA: PlaceMatch = { lat: 41.1406, lon: -8.6115, label: 'Ribeira, Porto' };

describe('public reads on the Porto extract', () => {
  const dir = tempDir();
  const db = join(dir.path, 'toilets.db');
  const places = new FixedPlaces({ Ribeira: RIBEIRA });
  let porto: Served;
  let portoLater: Served;
  let near700m: Served;
  let toilets: SourceToilet[];
  /** open_now of every toilet at the fixed clock, as the unfiltered area answer says. */
  const openNowById = new Map<string, OpenNow>();

  before(async () => {
    await importedCopy('porto', db);
    toilets = readSourceToilets(db);
    porto = await serve({ db, places });
    portoLater = await serve({ db, places: new LaterPlaces(places) });
    near700m = await serve({ db, env: { NEAREST_MAX_DISTANCE_M: '700' } });
    const all = await porto.call(query(AREA, { bbox: bboxParam(PORTO_BOX), limit: 200 }));
    for (const item of all.json.results) openNowById.set(item.id, item.open_now);
  });
  after(async () => {
    await porto?.close(); // undefined when before() failed; the folder still goes
    await portoLater?.close();
    await near700m?.close();
    dir.remove();
  });

  const matching = (filters: string[]) => toilets.filter((t) => filters.every((name) => FILTERS[name](t, openNowById.get(t.id)!)));
  const filterParams = (filters: string[]) => Object.fromEntries(filters.map((name) => [name, true]));

  /** Checks a FindResult from a coordinate origin against the brute-force nearest list. */
  function assertNearest(body: any, origin: { lat: number; lon: number }, expected: (SourceToilet & { meters: number })[]): void {
    assert.deepEqual(body.results.map((r: any) => r.id), expected.map((t) => t.id));
    let previous = 0;
    for (const [i, result] of body.results.entries()) {
      const meters = expected[i].meters;
      assert.ok(Math.abs(result.distance_m - meters) <= 1, `${result.id}: distance_m ${result.distance_m}, haversine ${meters}`);
      assert.ok(result.distance_m >= previous, 'sorted by distance');
      previous = result.distance_m;
      const bearing = initialBearing(origin.lat, origin.lon, result.lat, result.lon);
      assert.ok(bearingGap(result.bearing, bearing) <= 1, `${result.id}: bearing ${result.bearing}, expected ${bearing}`);
      // walk_min is ceil(distance / 80 m), at least 1; allow the 1 m the distances may differ by
      assert.ok(result.walk_min >= 1 && result.walk_min * 80 >= meters - 1 && (result.walk_min - 1) * 80 < Math.max(meters + 1, 1), `${result.id}: walk_min ${result.walk_min} for ${meters} m`);
    }
    if (expected.length === 0) {
      assert.equal(body.status, 'no_results');
      assert.equal(body.bbox, undefined);
      return;
    }
    assert.equal(body.status, 'ok');
    const lats = [origin.lat, ...expected.map((t) => t.lat)];
    const lons = [origin.lon, ...expected.map((t) => t.lon)];
    assert.deepEqual(body.bbox, [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)]);
  }

  test('the fixed clock puts toilets with hours on both sides of open_now, and the box holds every toilet', () => {
    assert.equal(openNowById.size, toilets.length);
    const states = [...openNowById.values()];
    assert.ok(states.includes(false) && states.includes(true) && states.includes('unknown'), `open_now states: ${states}`);
  });

  test('nearest from coordinates: brute-force order, haversine distances, bearings, walk minutes, bbox', async () => {
    for (const limit of [1, 5, 20]) {
      const answer = await porto.call(query(NEAREST, { ...PORTO_CENTRE, limit }));
      assert.equal(answer.status, 200);
      assertNearest(answer.json, PORTO_CENTRE, byDistanceFrom(toilets, PORTO_CENTRE.lat, PORTO_CENTRE.lon).slice(0, limit));
    }
    const byDefault = await porto.call(query(NEAREST, PORTO_CENTRE));
    assert.equal(byDefault.json.results.length, 5, 'limit defaults to 5');
  });

  test('a coordinate origin echoes the position and labels it with coordinates rounded to 5 decimals', async () => {
    const origin = { lat: 41.141234567, lon: -8.612345678 };
    const answer = await porto.call(query(NEAREST, origin));
    assert.deepEqual(answer.json.origin, { lat: origin.lat, lon: origin.lon, label: '41.14123, -8.61235', source: 'coordinates' });
    assertNearest(answer.json, origin, byDistanceFrom(toilets, origin.lat, origin.lon).slice(0, 5));
  });

  test('each filter, alone and combined, gives the nearest matching toilets', async () => {
    for (const filters of FILTER_SETS) {
      for (const limit of [3, 20]) {
        const answer = await porto.call(query(NEAREST, { ...PORTO_CENTRE, limit, ...filterParams(filters) }));
        const expected = byDistanceFrom(matching(filters), PORTO_CENTRE.lat, PORTO_CENTRE.lon).slice(0, limit);
        assertNearest(answer.json, PORTO_CENTRE, expected);
        if (filters.includes('open_now')) assert.ok(answer.json.results.every((r: any) => r.open_now !== false));
      }
    }
  });

  test('filters apply inside the search: a filtered query still returns up to limit matches', async () => {
    const unfilteredTop3 = new Set(byDistanceFrom(toilets, PORTO_CENTRE.lat, PORTO_CENTRE.lon).slice(0, 3).map((t) => t.id));
    const wheelchair = byDistanceFrom(matching(['wheelchair']), PORTO_CENTRE.lat, PORTO_CENTRE.lon).slice(0, 3);
    assert.equal(wheelchair.length, 3);
    assert.ok(wheelchair.some((t) => !unfilteredTop3.has(t.id)), 'precondition: filtering after the search would lose matches');
    const answer = await porto.call(query(NEAREST, { ...PORTO_CENTRE, limit: 3, wheelchair: true }));
    assert.deepEqual(answer.json.results.map((r: any) => r.id), wheelchair.map((t) => t.id));
  });

  test('nearest looks no farther than NEAREST_MAX_DISTANCE_M', async () => {
    const inRange = byDistanceFrom(toilets, PORTO_CENTRE.lat, PORTO_CENTRE.lon).filter((t) => t.meters <= 700);
    assert.ok(inRange.length > 0 && inRange.length < 20, `precondition: fewer than limit toilets within 700 m, got ${inRange.length}`);
    assert.ok(toilets.every((t) => Math.abs(haversineMeters(PORTO_CENTRE.lat, PORTO_CENTRE.lon, t.lat, t.lon) - 700) > 1), 'precondition: none on the edge');
    const answer = await near700m.call(query(NEAREST, { ...PORTO_CENTRE, limit: 20 }));
    assertNearest(answer.json, PORTO_CENTRE, inRange);

    // The default 50 km: a point about 40 km north of Porto still finds toilets, one about 56 km away does not.
    const north40 = { lat: 41.5, lon: -8.61 };
    const north56 = { lat: 41.65, lon: -8.61 };
    const nearestFrom = (p: { lat: number; lon: number }) => byDistanceFrom(toilets, p.lat, p.lon)[0].meters;
    assert.ok(nearestFrom(north40) < 50_000 && nearestFrom(north56) > 50_000, 'precondition: the two points straddle 50 km');
    const within = await porto.call(query(NEAREST, { ...north40, limit: 2 }));
    assertNearest(within.json, north40, byDistanceFrom(toilets, north40.lat, north40.lon).slice(0, 2));
    const beyond = await porto.call(query(NEAREST, north56));
    assert.equal(beyond.status, 200);
    assert.equal(beyond.json.status, 'no_results');
    assert.deepEqual(beyond.json.results, []);
    assert.equal(beyond.json.origin.source, 'coordinates');
  });

  test('no location at all: 200 needs_location with a question for the user', async () => {
    const answer = await porto.call(NEAREST);
    assert.equal(answer.status, 200);
    assert.equal(answer.json.status, 'needs_location');
    assert.equal(answer.json.origin, null);
    assert.deepEqual(answer.json.results, []);
    assert.match(answer.json.ask_user, /where/i);
    const filteredOnly = await porto.call(query(NEAREST, { wheelchair: true, limit: 3 }));
    assert.equal(filteredOnly.json.status, 'needs_location');
  });

  test('a place the lookup knows is the origin; one it does not know asks the user, naming it', async () => {
    const found = await porto.call(query(NEAREST, { place: 'Ribeira', country: 'pt', limit: 4 }));
    assert.equal(found.status, 200);
    assert.deepEqual(found.json.origin, { ...RIBEIRA, source: 'place' });
    assertNearest(found.json, RIBEIRA, byDistanceFrom(toilets, RIBEIRA.lat, RIBEIRA.lon).slice(0, 4));
    assert.deepEqual(places.asked.at(-1), { text: 'Ribeira', country: 'PT', near: null });

    const missing = await porto.call(query(NEAREST, { place: 'Atlantis Square', country: 'PT', lat: 41.1, lon: -8.6 }));
    assert.equal(missing.status, 200);
    assert.equal(missing.json.status, 'place_not_found');
    assert.equal(missing.json.origin, null);
    assert.deepEqual(missing.json.results, []);
    assert.ok(missing.json.ask_user.includes('Atlantis Square'), missing.json.ask_user);
    assert.deepEqual(places.asked.at(-1), { text: 'Atlantis Square', country: 'PT', near: { lat: 41.1, lon: -8.6 } });
  });

  test('a lookup that answers later gives the same answers', async () => {
    const searches: Record<string, string | number | boolean>[] = [{ place: 'Ribeira', limit: 4, wheelchair: true }, { place: 'Atlantis Square', country: 'PT' }];
    for (const search of searches) {
      const now = await porto.call(query(NEAREST, search));
      const later = await portoLater.call(query(NEAREST, search));
      assert.equal(later.status, 200);
      assert.equal(later.text, now.text);
    }
  });

  test('later answers settling in one go each keep their own bytes (the reads reuse one answer buffer)', async () => {
    // Lookups that all wait for one event (one index load, one shared fetch) settle in the same turn: every
    // answer is rendered before any is written out.
    const gated = new GatedPlaces(places);
    const s = await serve({ db, places: gated });
    try {
      const searches: Record<string, string | number | boolean>[] = [
        { place: 'Ribeira', limit: 4 },
        { place: 'Atlantis Square', country: 'PT' },
        { place: 'Ribeira', limit: 1, wheelchair: true },
        { place: 'Ribeira', limit: 9 },
      ];
      const expected = await Promise.all(searches.map(async (search) => (await porto.call(query(NEAREST, search))).text));
      const answers = Promise.all(searches.map((search) => s.call(query(NEAREST, search))));
      await gated.waiting(searches.length);
      gated.open();
      assert.deepEqual((await answers).map((answer) => answer.text), expected);
    } finally {
      await s.close();
    }
  });

  test('area: every toilet in the box, nearest to the box centre first, truncated past the limit', async () => {
    const centre = { lat: (PORTO_BOX.south + PORTO_BOX.north) / 2, lon: (PORTO_BOX.west + PORTO_BOX.east) / 2 };
    const all = byDistanceFrom(toilets, centre.lat, centre.lon);
    for (const limit of [1, 5, all.length - 1, all.length, 200]) {
      const answer = await porto.call(query(AREA, { bbox: bboxParam(PORTO_BOX), limit }));
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.json.results.map((r: any) => r.id), all.slice(0, limit).map((t) => t.id), `limit ${limit}`);
      assert.equal(answer.json.truncated, all.length > limit, `truncated at limit ${limit}`);
    }
    const byDefault = await porto.call(query(AREA, { bbox: bboxParam(PORTO_BOX) }));
    assert.equal(byDefault.json.results.length, all.length, 'limit defaults to 100');
  });

  test('area: a smaller box holds exactly the toilets inside it, and an empty box none', async () => {
    const box = { west: -8.615, south: 41.14, east: -8.605, north: 41.15 };
    const inside = toilets.filter((t) => t.lon >= box.west && t.lon <= box.east && t.lat >= box.south && t.lat <= box.north);
    assert.ok(inside.length > 0 && inside.length < toilets.length, 'precondition: the box splits the toilets');
    const answer = await porto.call(query(AREA, { bbox: bboxParam(box) }));
    const centre = { lat: (box.south + box.north) / 2, lon: (box.west + box.east) / 2 };
    assert.deepEqual(answer.json.results.map((r: any) => r.id), byDistanceFrom(inside, centre.lat, centre.lon).map((t) => t.id));
    assert.equal(answer.json.truncated, false);

    const sea = await porto.call(query(AREA, { bbox: '-9.2,41.1,-9.1,41.2' }));
    assert.deepEqual(sea.json.results, []);
    assert.equal(sea.json.truncated, false);
  });

  test('area: each filter keeps exactly the matching toilets, and truncation counts matches only', async () => {
    const centre = { lat: (PORTO_BOX.south + PORTO_BOX.north) / 2, lon: (PORTO_BOX.west + PORTO_BOX.east) / 2 };
    for (const filters of FILTER_SETS) {
      const expected = byDistanceFrom(matching(filters), centre.lat, centre.lon);
      const answer = await porto.call(query(AREA, { bbox: bboxParam(PORTO_BOX), ...filterParams(filters) }));
      assert.deepEqual(answer.json.results.map((r: any) => r.id), expected.map((t) => t.id), filters.join('+'));
      assert.equal(answer.json.truncated, false);
      const one = await porto.call(query(AREA, { bbox: bboxParam(PORTO_BOX), limit: 1, ...filterParams(filters) }));
      assert.deepEqual(one.json.results.map((r: any) => r.id), expected.slice(0, 1).map((t) => t.id));
      assert.equal(one.json.truncated, expected.length > 1, `${filters.join('+')} with limit 1`);
    }
  });

  test('getToilet answers every toilet with {toilet, details when it has any, attribution, display_note}, the same item the area lists', async () => {
    const area = await porto.call(query(AREA, { bbox: bboxParam(PORTO_BOX), limit: 200 }));
    const itemById = new Map(area.json.results.map((item: any) => [item.id, item]));
    for (const t of toilets) {
      const answer = await porto.call(`${AREA}/${t.id}`);
      assert.equal(answer.status, 200);
      assert.deepEqual(Object.keys(answer.json), t.details === null ? ['toilet', 'attribution', 'display_note'] : ['toilet', 'details', 'attribution', 'display_note']);
      assert.deepEqual(answer.json.details, t.details === null ? undefined : JSON.parse(t.details));
      assert.deepEqual(answer.json.toilet, itemById.get(t.id));
      const { id, lat, lon, name, access, wheelchair, changing_table, opening_hours } = answer.json.toilet;
      assert.deepEqual({ id, lat, lon, name, access, wheelchair, changing_table, opening_hours }, {
        id: t.id, lat: t.lat, lon: t.lon, name: t.name, access: t.access, wheelchair: t.wheelchair, changing_table: t.changing_table, opening_hours: t.opening_hours,
      });
      assert.equal(answer.json.toilet.fee.required, t.fee_required === null ? null : t.fee_required === 1);
      assert.equal(answer.json.attribution.license, 'ODbL-1.0');
    }
  });

  test('success answers are JSON and say how long a cache may keep them (the area answer at most 5 minutes)', async () => {
    const maxAge = async (path: string) => {
      const answer = await porto.call(path);
      assert.equal(answer.headers.get('content-type'), 'application/json');
      return Number(/max-age=(\d+)/.exec(answer.headers.get('cache-control') ?? '')?.[1]);
    };
    assert.ok(await maxAge(query(NEAREST, PORTO_CENTRE)) > 0);
    const area = await maxAge(query(AREA, { bbox: bboxParam(PORTO_BOX) }));
    assert.ok(area > 0 && area <= 300, `area max-age ${area}`);
  });

  test('every absolute URL about the service starts with BASE_URL; the others are the map and licence links', async () => {
    const bodies = [
      (await porto.call(query(NEAREST, { ...PORTO_CENTRE, limit: 20 }))).json,
      (await porto.call(query(AREA, { bbox: bboxParam(PORTO_BOX) }))).json,
      (await porto.call(`${AREA}/${toilets[0].id}`)).json,
      (await porto.call(`${AREA}/n1`)).json,
      (await porto.call(query(NEAREST, { lat: 100, lon: 0 }))).json,
    ];
    const external = new Set(['https://www.openstreetmap.org', 'https://www.google.com', 'https://maps.apple.com']);
    let own = 0;
    for (const url of bodies.flatMap(absoluteUrls)) {
      if (url.startsWith(`${BASE_URL}/`)) own++;
      else assert.ok(external.has(new URL(url).origin), `${url} neither starts with BASE_URL nor is a known external link`);
    }
    assert.ok(own >= 20 + 24 + 1 + 2, `service URLs seen: ${own}`);
    assert.equal(bodies[2].toilet.url, `${BASE_URL}/t/${toilets[0].id}`);
    assert.equal(bodies[2].attribution.license_notice_url, `${BASE_URL}/licenses`);
  });
});

/** Every string in a JSON value that is an absolute http(s) URL. */
function absoluteUrls(value: unknown): string[] {
  if (typeof value === 'string') return /^https?:\/\//.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(absoluteUrls);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(absoluteUrls);
  return [];
}
