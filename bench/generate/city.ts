// Everything the generator puts in and around one city: its place nodes and stations, its share of the
// toilets (nodes, toilet buildings, multipolygons) with the host features and decoys that come with them,
// then streets, buildings, points of interest and landmarks until the file's running count of other nodes
// reaches the city's target. All draws come from the city's own seeded sequence, so a second pass replays
// the city exactly.
import type { OsmMember, Tags } from '../../importer/pbf/index.js';
import type { CityShare } from './cities.js';
import type { Emitter } from './emitter.js';
import { blob, midpoint, polyline, rectangle, ring, scatter, type Point } from './geometry.js';
import { CityNames } from './names.js';
import { Weighted, type Random } from './random.js';
import { countToiletLike, type GeneratedStats } from './stats.js';
import { TagMaker } from './tags.js';

/** Share of toilets away from the built-up area (rest areas, trails, beaches). */
const RURAL_SHARE = 0.07;
const RURAL_MIN_M = 5_000;
const RURAL_MAX_M = 40_000;
/** Most toilets are nodes; some are closed ways (toilet buildings), a few multipolygon relations. */
const TOILET_SHAPES = new Weighted<'node' | 'way' | 'relation'>([['node', 93.5], ['way', 6], ['relation', 0.5]]);
/** Objects generated alongside each toilet, per toilet. */
const HOSTS_PER_TOILET = 0.15;
const PRIVATE_PER_TOILET = 0.03;
const FORMER_PER_TOILET = 0.007;
const BUILDING_ONLY_PER_TOILET = 0.012;
const ENTRANCE_SHARE = 0.35;
/** Suburb place nodes and stations per toilet, up to what the city's population allows. */
const SUBURBS_PER_TOILET = 0.05;
const STATIONS_PER_TOILET = 0.1;
/**
 * Filler elements, weighted by count so that nodes split roughly: buildings 45 %, named streets 30 %, service
 * roads and footways 10 %, tagged points 10 %, landmarks 5 % (streets and buildings hold most of a real
 * extract's nodes as untagged vertices).
 */
const FILLERS = new Weighted<'building' | 'street' | 'path' | 'poi' | 'landmark'>([
  ['building', 10.5], ['street', 1.55], ['path', 2.5], ['poi', 10], ['landmark', 0.6],
]);

/** Spread (metres, per axis) of a city's toilets and streets: grows slowly with population. */
function spreadOf(population: number): number {
  return Math.min(4000, Math.max(400, 700 * Math.pow(population / 50_000, 0.3)));
}

export class CityContent {
  private readonly centre: Point;
  private readonly spread: number;
  private readonly names: CityNames;
  private readonly tags: TagMaker;
  private readonly streetNames = new Set<string>();
  /** The street the next address is on. */
  private street: string;

  constructor(
    private readonly emit: Emitter,
    private readonly stats: GeneratedStats,
    private readonly random: Random,
    private readonly share: CityShare,
    /** Epoch ms. */
    extractDate: number,
  ) {
    const [lon, lat] = share.city.loc.coordinates;
    this.centre = { lat, lon };
    this.spread = spreadOf(share.city.population);
    this.names = new CityNames(random, share.city.name, share.city.country);
    this.tags = new TagMaker(random, this.names, share.city.country, extractDate);
    this.street = this.names.street();
  }

  /** Generates the city; `otherNodeTarget` is the running count of non-toilet nodes to reach by its end. */
  generate(otherNodeTarget: number): void {
    this.places();
    this.stations();
    for (let i = 0; i < this.share.toilets; i++) {
      this.toilet();
      this.companions();
    }
    this.fill(otherNodeTarget);
    this.stats.streets.names += this.streetNames.size;
  }

  private places(): void {
    const { city } = this.share;
    const place = city.population >= 100_000 ? 'city' : city.population >= 10_000 ? 'town' : 'village';
    const tags: Tags = { place, name: city.name, population: String(city.population) };
    if (city.featureCode === 'PPLC') tags.capital = 'yes';
    this.emit.node(this.centre, tags);
    this.stats.places[place]++;
    const suburbs = this.perToilet(SUBURBS_PER_TOILET, Math.min(12, Math.floor(city.population / 200_000)));
    for (let i = 0; i < suburbs; i++) {
      this.emit.node(scatter(this.random, this.centre, this.spread), { place: 'suburb', name: this.names.suburb() });
      this.stats.places.suburb++;
    }
  }

  private stations(): void {
    const population = this.share.city.population;
    if (population < 20_000) return;
    const count = this.perToilet(STATIONS_PER_TOILET, 1 + Math.min(7, Math.floor(population / 400_000)));
    for (let i = 0; i < count; i++) {
      const tags = this.tags.station(this.names.station());
      this.emit.node(scatter(this.random, this.centre, this.spread * (i === 0 ? 0.3 : 1)), tags);
      this.stats.stations++;
      if (tags.toilets !== undefined) countToiletLike(this.stats, 'nodes', tags);
    }
  }

  /**
   * How many of something the city gets at `rate` per toilet, up to what its size allows: a city drawn once
   * for a small file does not bring all its suburbs and stations along.
   */
  private perToilet(rate: number, capacity: number): number {
    let count = 0;
    for (let i = 0; i < this.share.toilets && count < capacity; i++) if (this.random.chance(rate)) count++;
    return count;
  }

  private toilet(): void {
    const r = this.random;
    const rural = r.chance(RURAL_SHARE);
    const at = rural ? ring(r, this.centre, RURAL_MIN_M, RURAL_MAX_M) : scatter(r, this.centre, this.spread);
    const shape = TOILET_SHAPES.pick(r);
    if (shape === 'node') {
      const tags = this.tags.toilet(rural);
      this.emit.node(at, tags);
      countToiletLike(this.stats, 'nodes', tags);
    } else if (shape === 'way') {
      this.toiletBuilding(at, rural);
    } else {
      this.toiletMultipolygon(at);
    }
  }

  /** A small closed toilet building, sometimes with its entrance tagged on the outline. */
  private toiletBuilding(at: Point, rural: boolean): void {
    const r = this.random;
    const corners = rectangle(r, at, r.between(3, 10), r.between(3, 8));
    const refs: number[] = [];
    corners.forEach((corner, i) => {
      refs.push(this.emit.node(corner));
      if (i === 1 && r.chance(ENTRANCE_SHARE)) {
        refs.push(this.emit.node(midpoint(corner, corners[2]), this.tags.entrance()));
        this.stats.entrances++;
      }
    });
    refs.push(refs[0]);
    const tags = this.tags.toiletArea(rural);
    this.emit.way(refs, tags);
    countToiletLike(this.stats, 'ways', tags);
  }

  /** A toilet tagged on a multipolygon: one closed outer way, an outer with a courtyard, or an outer split in two. */
  private toiletMultipolygon(at: Point): void {
    const r = this.random;
    const width = r.between(8, 25);
    const depth = r.between(8, 25);
    const outer = this.nodes(rectangle(r, at, width, depth));
    const members: OsmMember[] = [];
    const variant = r.next();
    if (variant < 0.85) {
      members.push({ type: 'way', ref: this.emit.way([...outer, outer[0]]), role: 'outer' });
      if (variant >= 0.7) {
        // A square courtyard whose circumradius stays inside the outer's inradius whatever the turn.
        const side = 0.4 * Math.min(width, depth);
        const inner = this.nodes(rectangle(r, at, side, side));
        members.push({ type: 'way', ref: this.emit.way([...inner, inner[0]]), role: 'inner' });
      }
    } else {
      members.push({ type: 'way', ref: this.emit.way(outer.slice(0, 3)), role: 'outer' });
      members.push({ type: 'way', ref: this.emit.way([...outer.slice(2), outer[0]]), role: 'outer' });
    }
    const tags = this.tags.toiletMultipolygon();
    this.emit.relation(members, tags);
    countToiletLike(this.stats, 'relations', tags);
  }

  /** Host features and decoys that come with the toilets at realistic rates. */
  private companions(): void {
    const r = this.random;
    if (r.chance(HOSTS_PER_TOILET)) {
      const tags = this.tags.host();
      const at = scatter(r, this.centre, this.spread);
      if (r.chance(0.25)) {
        tags.building = r.pick(['retail', 'commercial', 'yes']);
        this.closedWay(rectangle(r, at, r.between(15, 80), r.between(15, 60)), tags);
        countToiletLike(this.stats, 'ways', tags);
      } else {
        this.emit.node(at, tags);
        countToiletLike(this.stats, 'nodes', tags);
      }
    }
    if (r.chance(PRIVATE_PER_TOILET)) {
      const tags = this.tags.privateToilet();
      this.emit.node(scatter(r, this.centre, this.spread), tags);
      countToiletLike(this.stats, 'nodes', tags);
    }
    if (r.chance(FORMER_PER_TOILET)) {
      const tags = this.tags.formerToilet();
      this.emit.node(scatter(r, this.centre, this.spread), tags);
      countToiletLike(this.stats, 'nodes', tags);
    }
    if (r.chance(BUILDING_ONLY_PER_TOILET)) {
      const tags = this.tags.toiletBuildingOnly();
      this.closedWay(rectangle(r, scatter(r, this.centre, this.spread), r.between(3, 8), r.between(3, 6)), tags);
      countToiletLike(this.stats, 'ways', tags);
    }
  }

  /** Streets, buildings, points and landmarks until the running count of non-toilet nodes reaches `target`. */
  private fill(target: number): void {
    for (let remaining = this.otherNodes(target); remaining > 0; remaining = this.otherNodes(target)) {
      const filler = FILLERS.pick(this.random);
      if (filler === 'street' && remaining >= 3) this.namedStreet(remaining);
      else if (filler === 'landmark') this.landmark(remaining);
      else if (filler === 'building' && remaining >= 4) this.building(remaining);
      else if (filler === 'path' && remaining >= 2) this.path(remaining);
      else this.poi();
    }
  }

  private otherNodes(target: number): number {
    return target - (this.emit.nodes - this.stats.toilets.nodes);
  }

  /** A building of at most `maxNodes` (≥ 4) nodes. */
  private building(maxNodes: number): void {
    const r = this.random;
    const at = scatter(r, this.centre, this.spread);
    const outline = r.chance(0.8) ? rectangle(r, at, r.between(6, 25), r.between(6, 25)) : blob(r, at, r.between(6, 15), Math.min(maxNodes, r.integer(5, 8)));
    this.closedWay(outline, this.tags.building(this.street));
  }

  /** A named street of at most `maxNodes` (≥ 3) nodes, split into 2–4 ways that share their end nodes, as mappers split streets at junctions. */
  private namedStreet(maxNodes: number): void {
    const r = this.random;
    const name = this.names.street();
    this.street = name;
    this.streetNames.add(name);
    const tags = this.tags.street(name);
    const vertices = Math.min(maxNodes, r.integer(6, 33));
    const refs = this.nodes(polyline(r, scatter(r, this.centre, this.spread), r.between(25, 70), vertices));
    const segments = Math.min(r.integer(2, 4), vertices - 1);
    for (let s = 0; s < segments; s++) {
      const from = Math.floor((s * (vertices - 1)) / segments);
      const to = Math.floor(((s + 1) * (vertices - 1)) / segments);
      this.emit.way(refs.slice(from, to + 1), tags);
      this.stats.streets.ways++;
    }
  }

  /** An unnamed service road, footway or track of at most `maxNodes` (≥ 2) nodes. */
  private path(maxNodes: number): void {
    const r = this.random;
    const points = polyline(r, scatter(r, this.centre, this.spread), r.between(10, 30), Math.min(maxNodes, r.integer(2, 6)));
    this.emit.way(this.nodes(points), this.tags.path());
  }

  private poi(): void {
    this.emit.node(scatter(this.random, this.centre, this.spread), this.tags.poi(this.street));
  }

  /** A named museum or monument node, a park outline, or a park multipolygon with a pond, in at most `maxNodes` nodes. */
  private landmark(maxNodes: number): void {
    const r = this.random;
    const at = scatter(r, this.centre, this.spread);
    const variant = r.next();
    const radius = r.between(60, 300);
    const vertices = r.integer(8, 16);
    const pondVertices = r.integer(5, 7);
    if (variant >= 0.9 && maxNodes >= vertices + pondVertices) {
      const outer = this.closedWay(blob(r, at, radius, vertices));
      // Pond radius ≤ 0.25 R stays inside an outline whose corners lie at ≥ 0.7 R.
      const pond = this.closedWay(blob(r, at, radius * 0.25, pondVertices), r.chance(0.5) ? { natural: 'water' } : undefined);
      const members: OsmMember[] = [{ type: 'way', ref: outer, role: 'outer' }, { type: 'way', ref: pond, role: 'inner' }];
      this.emit.relation(members, { type: 'multipolygon', ...this.tags.park() });
    } else if (variant >= 0.4 && maxNodes >= vertices) {
      this.closedWay(blob(r, at, radius, vertices), this.tags.park());
    } else {
      this.emit.node(at, this.tags.landmark());
    }
    this.stats.landmarks++;
  }

  private nodes(points: Point[]): number[] {
    return points.map((point) => this.emit.node(point));
  }

  /** A closed way over new nodes at `points`; returns its id. */
  private closedWay(points: Point[], tags?: Tags): number {
    const refs = this.nodes(points);
    refs.push(refs[0]);
    return this.emit.way(refs, tags);
  }
}
