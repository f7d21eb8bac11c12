// One import: scan an extract, map toilets and places, write a complete source database beside the live
// one, carry id moves forward, and swap it in with a rename. The live file is never opened for writing,
// so a failed import leaves it exactly as it was.
import { closeSync, fsyncSync, openSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { scanExtract, readHeader, type OsmRelation, type OsmWay, type PostWork, type ScanResult } from './pbf/index.js';
import type { Classification, SkipReason } from './mapping/index.js';
import { buildPlaces, placeCandidate, type PlaceCandidate, type PlaceRow } from './places.js';
import { PLACE_SELECTOR, type PlaceKind } from '../src/rules/place-class.js';
import { classOf, classOfNote, type ElementClass } from './element-class.js';
import { assembleRings, interiorPoint, roundCoordinate, type Ring } from './geometry.js';
import { duplicateHosts, type HostSpot } from './duplicate-hosts.js';
import { DatabaseWriter } from './database-writer.js';
import { discardTemporary, keepTemporary, temporaryFile } from './temporaries.js';
import { WriteBack } from './write-back.js';
import type { NodeFindings, NodeTransformSetup, NodeWork, PositionedToilet } from './node-transform.js';
import { SOURCE_DDL, SOURCE_SCHEMA_VERSION, type Coverage, type ImportMeta } from '../src/source/schema.js';
import { coverageOf, extractName, regionFromFileName, type Positions } from './coverage.js';
import { buildPlaceIndex } from '../src/places/build.js';
import { placeIndexBlobs } from '../src/places/stored.js';
import { ToiletGrid, type ToiletPoints } from '../src/places/toilet-nearness.js';
import { worldTowns } from '../src/places/world-towns.js';
import { errorCode, isDiskFull } from '../src/storage/errors.js';

export interface ImportOptions {
  /** The live source database to replace. */
  db: string;
  /** Recorded in the metadata when the extract was downloaded. */
  sourceUrl?: string | null;
  /** Decoder threads; 0 decodes on the main thread. Default: one per core, 0 for an extract under 4 MiB. */
  threads?: number;
  onProgress?(p: { bytesRead: number; totalBytes: number; elements: number }): void;
  /** The extract's name as shown (a downloaded one's URL segment); default: the file's name. */
  extractName?: string;
  /** The covered region's name; default: from the extract's name (importer/coverage.ts). */
  region?: string;
  /** The built-in demo extract: recorded so the server says so and replaces it with an operator's data. */
  demo?: boolean;
  /** Clock for the import time (tests). */
  now?: () => Date;
}

export interface ImportSummary {
  toilets: { nodes: number; ways: number; relations: number; hosts: number; total: number };
  places: Record<PlaceKind, number>;
  skipped: Partial<Record<SkipReason | 'host_near_toilet' | 'no_geometry', number>>;
  elements: { nodes: number; ways: number; relations: number };
  idMoves: number;
  replicationTimestamp: string | null;
  /** The area the data covers (null: an extract without a header bbox and without toilets or places). */
  coverage: Coverage | null;
  elapsedMs: number;
}

export class ImportError extends Error {
  constructor(readonly code: 'disk_full' | 'write_failed', message: string) {
    super(message);
    this.name = 'ImportError';
  }
}

const TOILET_SELECTOR = { amenity: ['toilets', 'toilet'], toilets: '*', toilet: '*' } as const;
/** Entrances and doors on a toilet building's outline position the toilet where people walk in. */
const ENTRANCE_SELECTOR = { entrance: '*', door: '*' } as const;

function mergeSelectors(...selectors: Record<string, '*' | readonly string[]>[]): Record<string, '*' | string[]> {
  const merged: Record<string, '*' | string[]> = {};
  for (const selector of selectors) {
    for (const [key, values] of Object.entries(selector)) {
      const had = merged[key];
      merged[key] = had === '*' || values === '*' ? '*' : [...new Set([...(had ?? []), ...values])];
    }
  }
  return merged;
}

/** A highway node is a place only as a bus stop; streets are ways. */
const NODE_PLACE_SELECTOR = { ...PLACE_SELECTOR, highway: ['bus_stop'] };

const SCAN_SELECTORS = {
  nodes: mergeSelectors(TOILET_SELECTOR, NODE_PLACE_SELECTOR, ENTRANCE_SELECTOR),
  ways: mergeSelectors(TOILET_SELECTOR, PLACE_SELECTOR),
  relations: mergeSelectors(TOILET_SELECTOR, PLACE_SELECTOR),
};

/**
 * Below this size an extract is decoded on the main thread unless threads are asked for: starting decoder
 * threads (each loads the mapping, hours and country data) costs more than they save (Porto, 1.2 MB: 0.8 s
 * inline, 1.7 s with two threads).
 */
const SMALL_EXTRACT_BYTES = 4 * 1024 * 1024;
/** Per-node work, run in the decoder threads. */
const NODE_TRANSFORM = new URL('./node-transform.js', import.meta.url).href;
/** Toilet ways and relations go to the decoders for their records in groups this large. */
const ROWS_PER_WORK = 4096;
/**
 * The columns of the places table, each read from a row by a function of its own: one property each, so
 * every read is monomorphic (`place[column]` for ten columns was a megamorphic lookup per value).
 */
const PLACE_VALUES: Record<keyof PlaceRow, (place: PlaceRow) => unknown> = {
  id: (place) => place.id,
  kind: (place) => place.kind,
  subkind: (place) => place.subkind,
  name: (place) => place.name,
  alt_names: (place) => place.alt_names,
  lat: (place) => place.lat,
  lon: (place) => place.lon,
  importance: (place) => place.importance,
  city: (place) => place.city,
  country: (place) => place.country,
};
const PLACE_COLUMNS = Object.keys(PLACE_VALUES) as (keyof PlaceRow)[];
/** The order of skip reasons in the summary. */
const SKIP_ORDER: (keyof ImportSummary['skipped'])[] = [
  'private', 'lifecycle', 'building_only', 'no_toilets', 'host_without_access', 'host_not_public', 'no_geometry', 'host_near_toilet',
];

export async function importExtract(extractPath: string, options: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const now = options.now ?? (() => new Date());
  const livePath = resolve(options.db);
  const header = await readHeader(extractPath);
  const extractDate = header.replicationTimestamp !== null ? header.replicationTimestamp * 1000 : now().getTime();
  const tempPath = temporaryFile(dirname(livePath), `.${basename(livePath)}.`, '.importing');
  const db = new DatabaseWriter({ path: tempPath, cacheKiB: 32768 });
  let writeBack: WriteBack | null = null;
  try {
    await db.exec(SOURCE_DDL.replace('id             TEXT NOT NULL UNIQUE', 'id             TEXT NOT NULL'));
    writeBack = new WriteBack(tempPath);
    const shownName = options.extractName ?? extractName(extractPath);
    const region = options.region ?? regionFromFileName(shownName);
    const summary = await writeExtract(db, writeBack, extractPath, extractDate, { ...options, now }, livePath, (data) => coverageOf(region, header.bbox, data));
    const meta: ImportMeta = {
      schema_version: String(SOURCE_SCHEMA_VERSION),
      source_file: shownName,
      source_url: options.sourceUrl ?? null,
      replication_timestamp: header.replicationTimestamp !== null ? new Date(header.replicationTimestamp * 1000).toISOString() : null,
      writing_program: header.writingProgram,
      imported_at: now().toISOString(),
      counts: JSON.stringify(summary),
      coverage: summary.coverage && JSON.stringify(summary.coverage),
      demo: String(options.demo === true),
    };
    summary.replicationTimestamp = meta.replication_timestamp;
    const entries = Object.entries(meta).filter(([, value]) => value !== null);
    await db.runEach('INSERT INTO meta (key, value) VALUES (?, ?)', entries);
    await db.close();
    await writeBack.finish();
    swapIn(tempPath, livePath);
    keepTemporary(tempPath);
    summary.elapsedMs = Date.now() - started;
    return summary;
  } catch (error) {
    await db.terminate();
    discardTemporary(tempPath);
    throw asImportError(error, tempPath);
  } finally {
    await writeBack?.close();
  }
}

async function writeExtract(
  db: DatabaseWriter,
  writeBack: WriteBack,
  extractPath: string,
  extractDate: number,
  options: ImportOptions & { now: () => Date },
  livePath: string,
  cover: (data: Positions[]) => Coverage | null,
): Promise<ImportSummary> {
  const summary: ImportSummary = {
    toilets: { nodes: 0, ways: 0, relations: 0, hosts: 0, total: 0 },
    places: { settlement: 0, station: 0, street: 0, landmark: 0 },
    skipped: {},
    elements: { nodes: 0, ways: 0, relations: 0 },
    idMoves: 0,
    replicationTimestamp: null,
    coverage: null,
    elapsedMs: 0,
  };
  const skipped: ImportSummary['skipped'] = {};
  const skip: Skip = (reason, n = 1) => (skipped[reason] = (skipped[reason] ?? 0) + n);
  await db.exec('BEGIN');
  const scan = newScanState();
  await scanExtract(
    extractPath,
    {
      ...SCAN_SELECTORS,
      coordinatesFor: neededNodeIds,
      nodeTransform: {
        module: NODE_TRANSFORM,
        setup() {
          const { port, state } = db.connectDecoder();
          return { value: { extractDate, port, state } satisfies NodeTransformSetup, transfer: [port] };
        },
        onResult: (result, block) => takeNodeFindings(scan, result as NodeFindings, block, summary, skip),
        finish: (result, decoders, post) => positionAndIndex(db, scan, { result, decoders, post }, summary, skip),
      },
      onProgress: options.onProgress,
    },
    { threads: options.threads ?? (statSync(extractPath).size < SMALL_EXTRACT_BYTES ? 0 : undefined) },
  );
  await writePlacesAndColumns(db, writeBack, livePath, options.now, scan, summary, cover);
  if (scan.duplicateIds.length > 0) skip('host_near_toilet', scan.duplicateIds.length);
  for (const reason of SKIP_ORDER) if (skipped[reason] !== undefined) summary.skipped[reason] = skipped[reason];
  await db.exec('COMMIT');
  return summary;
}

/** Counts an element the import leaves out, by why. */
type Skip = (reason: keyof ImportSummary['skipped'], n?: number) => void;

/** What the scan gathers and positioning decides, for writing the places and the column store after it. */
interface ScanState {
  /** Standalone toilet positions (as written), to find host toilets that duplicate them. */
  standalone: GrowingPositions;
  hosts: HostSpot[];
  placeCandidates: PlaceCandidate[];
  /**
   * Node places by block, taken in file order once the nodes are read: the order places reach the place
   * index in decides its ties, so it must not depend on which decoder finished first.
   */
  nodePlacesByBlock: PlaceCandidate[][];
  entrances: Map<number, [number, number]>;
  /** Known once positioning is done: the ids of host toilets that duplicate a standalone one. */
  duplicateIds: string[];
  /** Known once positioning is done: where the toilets written are. */
  written: ToiletPoints;
}

function newScanState(): ScanState {
  return { standalone: new GrowingPositions(), hosts: [], placeCandidates: [], nodePlacesByBlock: [], entrances: new Map(), duplicateIds: [], written: { lat: new Float64Array(0), lon: new Float64Array(0) } };
}

/** One block's findings of the node decoders: standalone toilets, host nodes, entrances, places, skips. */
function takeNodeFindings(scan: ScanState, found: NodeFindings, block: number, summary: ImportSummary, skip: Skip): void {
  for (let t = 0; t < found.toilets.length; t += 2) scan.standalone.push(found.toilets[t], found.toilets[t + 1]);
  summary.toilets.nodes += found.toilets.length / 2;
  for (let h = 0; h < found.hostIds.length; h++) {
    scan.hosts.push({ id: found.hostIds[h], lon: found.hosts[2 * h], lat: found.hosts[2 * h + 1], outline: null });
  }
  for (let e = 0; e < found.entrances.length; e += 3) scan.entrances.set(found.entrances[e], [found.entrances[e + 1], found.entrances[e + 2]]);
  if (found.places.length > 0) {
    const blockPlaces = (scan.nodePlacesByBlock[block] ??= []);
    for (const place of found.places) blockPlaces.push(place);
  }
  for (const [reason, n] of Object.entries(found.skipped)) skip(reason as SkipReason, n);
}

/**
 * Once every node block is in: index the node rows while this thread positions ways and relations, the
 * decoders making their records meanwhile; then which host toilets duplicate a standalone one.
 */
async function positionAndIndex(db: DatabaseWriter, scan: ScanState, done: { result: ScanResult; decoders: number; post: PostWork }, summary: ImportSummary, skip: Skip): Promise<void> {
  const { result, decoders, post } = done;
  summary.elements = { nodes: result.counts.nodes, ways: result.counts.ways, relations: result.counts.relations };
  for (const places of scan.nodePlacesByBlock) if (places) for (const place of places) scan.placeCandidates.push(place);
  scan.nodePlacesByBlock.length = 0;
  // All node rows are sent: once they are in, index them while this thread positions ways and relations.
  await Promise.all(Array.from({ length: decoders }, (_, d) => post(d, { kind: 'mark' } satisfies NodeWork)));
  const marked = db.decodersMarked(); // requests run in order: the index waits for it
  const indexed = db.exec('CREATE UNIQUE INDEX toilets_id ON toilets (id)');
  for (const pending of [marked, indexed]) pending.catch(() => {}); // awaited below
  // The decoders make the records (caches warm) as the toilets are positioned, on the core this
  // thread leaves free, rather than all of them after positioning.
  const records = new RecordWork(decoders, post);
  positionElements(result, scan.entrances, scan.placeCandidates, skip, summary, (toilet) => {
    if (toilet.host) scan.hosts.push({ id: toilet.id, lat: toilet.lat, lon: toilet.lon, outline: toilet.outline });
    else scan.standalone.push(roundCoordinate(toilet.lon), roundCoordinate(toilet.lat));
    const { element } = toilet;
    records.add({ id: toilet.id, lat: toilet.lat, lon: toilet.lon, host: toilet.host, timestamp: element.timestamp, tags: JSON.stringify(element.tags) });
  });
  records.flush();
  // Only positioning needed these; the import's peak comes later (the places beside the column store).
  scan.entrances.clear();
  const duplicates = duplicateHosts(scan.hosts, scan.standalone);
  scan.duplicateIds = duplicates.map((host) => host.id);
  scan.written = toiletPositions(scan.standalone, scan.hosts, duplicates);
  summary.toilets.hosts = scan.hosts.length - duplicates.length;
  summary.toilets.total = scan.standalone.length + summary.toilets.hosts;
  scan.hosts.length = 0; // and their outlines: no longer needed
  await Promise.all(records.sent);
  await Promise.all([marked, indexed]);
}

/**
 * After the scan (its decoders closed, and its ways with them): once their last rows are in, drop the host
 * toilets that duplicate a standalone one. Then the database thread carries the id moves over and builds the
 * column store while this thread builds the places and the place index.
 */
async function writePlacesAndColumns(
  db: DatabaseWriter,
  writeBack: WriteBack,
  livePath: string,
  now: () => Date,
  scan: ScanState,
  summary: ImportSummary,
  cover: (data: Positions[]) => Coverage | null,
): Promise<void> {
  const { duplicateIds, written } = scan;
  writeBack.start(); // the toilet rows, but for the last ones
  await db.decodersDone();
  await db.runEach('DELETE FROM toilets WHERE id = ?', duplicateIds.map((id) => [id]));
  const idMovesCarried = db.carryIdMoves(livePath, now().toISOString());
  const columnsWritten = db.writeColumns(duplicateIds);
  for (const pending of [idMovesCarried, columnsWritten]) pending.catch(() => {}); // awaited below
  const places = buildPlaces(scan.placeCandidates);
  writeBack.start(); // the first part of the column store
  scan.placeCandidates.length = 0;
  for (const place of places) {
    place.lat = roundCoordinate(place.lat);
    place.lon = roundCoordinate(place.lon);
    summary.places[place.kind]++;
  }
  summary.coverage = cover([written, { lat: places.map((p) => p.lat), lon: places.map((p) => p.lon) }]);
  const placesInserted = db.insertRows('places', PLACE_COLUMNS, PLACE_COLUMNS.map((column) => places.map(PLACE_VALUES[column])));
  placesInserted.catch(() => {}); // awaited below
  const index = buildPlaceIndex(places, { towns: worldTowns(), nearness: ToiletGrid.of(written).nearness });
  const blobs = placeIndexBlobs(index);
  await columnsWritten;
  writeBack.start();
  // The index's arrays are moved, not copied (~24 MB: a copy cost ~0.25 s here, most of it fresh pages). A
  // buffer no larger than Node's Buffer pool might be the pool, shared with other buffers: those are copied.
  const moved = new Set(blobs.map(([, data]) => data.buffer as ArrayBuffer).filter((buffer) => buffer.byteLength > Buffer.poolSize));
  await db.insertRows('place_index', ['name', 'data'], [blobs.map(([name]) => name), blobs.map(([, data]) => data)], [...moved]);
  writeBack.start(); // the place index, beside the commit and the metadata
  await placesInserted;
  summary.idMoves = await idMovesCarried;
}

/** A way's class, as its decoder noted it (node-transform.ts noteWay). */
function classOfWay(way: OsmWay): ElementClass {
  if (way.note === undefined) throw new Error(`way ${way.id} has no note: the decoders note every way they deliver`);
  return classOfNote(way.note);
}

/** A toilet way or relation with the position its record gets, and its outline (to find duplicate hosts). */
interface PositionedElement {
  element: OsmWay | OsmRelation;
  id: string;
  lat: number;
  lon: number;
  host: boolean;
  outline: Ring | null;
}

/**
 * Positions the selected ways and relations that are toilets or places: place candidates go to `places`,
 * toilets to `onToilet` as they are positioned. Counts skips of toilet-tagged elements and the standalone
 * toilets per kind.
 */
function positionElements(
  result: ScanResult,
  entrances: Map<number, [number, number]>,
  places: PlaceCandidate[],
  skip: (reason: keyof ImportSummary['skipped']) => void,
  summary: ImportSummary,
  onToilet: (toilet: PositionedElement) => void,
): void {
  const coords = result.coordinates;
  const { ring, outlinePosition, kindOf, addToilet } = positioning(result, entrances, skip, onToilet);
  result.ways.forEach((way) => {
    const { kind: found, place } = classOfWay(way);
    const kind = kindOf(found);
    if (!kind && !place) return;
    const closed = way.refs.length >= 4 && way.refs[0] === way.refs[way.refs.length - 1];
    if (place?.kind === 'street') {
      const middle = coords.get(way.refs[way.refs.length >> 1]);
      if (middle) places.push(placeCandidate(`w${way.id}`, place, way.tags, middle.lat, middle.lon));
    }
    if (!kind && (!place || place.kind === 'street')) return;
    const outline = closed ? ring(way.refs) : null;
    const position = outline ? outlinePosition([outline], way.refs) : middleOf(way.refs.map((r) => coords.get(r)));
    if (!position) {
      if (kind) skip('no_geometry');
      return;
    }
    const [lon, lat] = position;
    if (place && place.kind !== 'street') places.push(placeCandidate(`w${way.id}`, place, way.tags, lat, lon));
    if (kind && addToilet(way, `w${way.id}`, kind, lon, lat, outline)) summary.toilets.ways++;
  });
  // Ways by id, for the members of multipolygons (only those: a map of all ways would be large).
  const memberIds = new Set(result.relations.flatMap((r) => r.members.filter((m) => m.type === 'way').map((m) => m.ref)));
  const wayById = new Map(result.ways.filter((w) => memberIds.has(w.id)).map((w) => [w.id, w]));
  result.relations.forEach((relation) => {
    if (relation.tags.type !== 'multipolygon') return;
    const { kind: found, place } = classOf(relation.tags, false);
    const kind = kindOf(found);
    if (!kind && !place) return;
    const outerRefs = relation.members
      .filter((m) => m.type === 'way' && m.role !== 'inner')
      .map((m) => wayById.get(m.ref)?.refs)
      .filter((refs): refs is number[] => refs !== undefined);
    const rings = assembleRings(outerRefs).map(ring).filter((ring): ring is Ring => ring !== null);
    const position = outlinePosition(rings, outerRefs.flat());
    if (!position) {
      if (kind) skip('no_geometry');
      return;
    }
    const [lon, lat] = position;
    if (place) places.push(placeCandidate(`r${relation.id}`, place, relation.tags, lat, lon));
    if (kind && addToilet(relation, `r${relation.id}`, kind, lon, lat, rings[0] ?? null)) summary.toilets.relations++;
  });
}

/** What positioning a way or a relation uses: outlines from node refs, where an outline is entered, the toilet's kind, the hand-over. */
function positioning(result: ScanResult, entrances: Map<number, [number, number]>, skip: (reason: keyof ImportSummary['skipped']) => void, onToilet: (toilet: PositionedElement) => void) {
  const coords = result.coordinates;
  return {
    ring: (refs: number[]): Ring | null => {
      const points: Ring = [];
      for (const ref of refs) {
        const c = coords.get(ref);
        if (!c) return null; // a clipped extract can cut ways at its border
        points.push([c.lon, c.lat]);
      }
      return points;
    },
    /** Where a closed outline is entered: a tagged entrance on it, else a point inside it. */
    outlinePosition: (rings: Ring[], refs: number[]): [number, number] | null => {
      for (const ref of refs) {
        const entrance = entrances.get(ref);
        if (entrance) return entrance;
      }
      return interiorPoint(rings);
    },
    /** The record kind of a toilet-tagged element, counting skips. */
    kindOf: (c: Classification): 'toilet' | 'host_toilet' | null => {
      if (c.kind !== 'skip') return c.kind;
      if (c.reason !== 'not_a_toilet') skip(c.reason);
      return null;
    },
    /** Hands a positioned toilet on; true for a standalone one (counted per kind by the caller). */
    addToilet: (element: OsmWay | OsmRelation, id: string, kind: 'toilet' | 'host_toilet', lon: number, lat: number, outline: Ring | null): boolean => {
      onToilet({ element, id, lat, lon, host: kind === 'host_toilet', outline });
      return kind === 'toilet';
    },
  };
}

/** Toilet ways and relations on their way to the decoders for their records, ROWS_PER_WORK at a time. */
class RecordWork {
  private chunk: PositionedToilet[] = [];
  /** What each chunk posted resolves to once its rows are sent to the database thread. */
  readonly sent: Promise<unknown>[] = [];

  constructor(
    private readonly decoders: number,
    private readonly post: PostWork,
  ) {}

  add(toilet: PositionedToilet): void {
    this.chunk.push(toilet);
    if (this.chunk.length === ROWS_PER_WORK) this.flush();
  }

  flush(): void {
    if (this.chunk.length === 0) return;
    this.sent.push(this.post(this.sent.length % this.decoders, { kind: 'toilets', toilets: this.chunk } satisfies NodeWork));
    this.chunk = [];
  }
}

/** Positions of the toilets written: the standalone ones and the hosts that duplicate none of them. */
function toiletPositions(standalone: GrowingPositions, hosts: HostSpot[], duplicates: HostSpot[]): ToiletPoints {
  const dropped = new Set(duplicates);
  const kept = hosts.filter((host) => !dropped.has(host));
  const lat = new Float64Array(standalone.length + kept.length);
  const lon = new Float64Array(standalone.length + kept.length);
  lat.set(standalone.lats.subarray(0, standalone.length));
  lon.set(standalone.lons.subarray(0, standalone.length));
  kept.forEach((host, i) => {
    lat[standalone.length + i] = host.lat;
    lon[standalone.length + i] = host.lon;
  });
  return { lat, lon };
}

/** Positions appended one at a time, stored flat (16 bytes a position). */
class GrowingPositions {
  lons = new Float64Array(1024);
  lats = new Float64Array(1024);
  length = 0;

  push(lon: number, lat: number): void {
    if (this.length === this.lons.length) {
      const lons = new Float64Array(this.length * 2);
      const lats = new Float64Array(this.length * 2);
      lons.set(this.lons);
      lats.set(this.lats);
      this.lons = lons;
      this.lats = lats;
    }
    this.lons[this.length] = lon;
    this.lats[this.length++] = lat;
  }
}

/**
 * Node ids whose coordinates positions need: every vertex of areas, only the middle vertex of a street. To
 * bound memory, ways keep only what positioning reads: a street its middle vertex, a way that is neither a
 * toilet, a place nor part of an area nothing. The ids are counted first and written to an array of that
 * size (~2.4 million at a million toilets: a JS array grown by push took ~0.3 s, most of it fresh pages).
 */
function neededNodeIds(ways: OsmWay[], relations: OsmRelation[]): Float64Array {
  const areaWays = new Set<number>();
  for (const relation of relations) {
    if (relation.tags.type !== 'multipolygon') continue;
    const { kind, place } = classOf(relation.tags, false);
    if (kind.kind === 'skip' && !place) continue;
    for (const m of relation.members) if (m.type === 'way') areaWays.add(m.ref);
  }
  let count = 0;
  for (const way of ways) {
    const { kind, place } = classOfWay(way);
    if (areaWays.has(way.id) || kind.kind !== 'skip' || (place !== null && place.kind !== 'street')) {
      count += way.refs.length;
    } else if (place) {
      way.refs = [way.refs[way.refs.length >> 1]];
      count++;
    } else {
      way.refs = [];
      way.tags = {};
    }
  }
  // What is left of each way's refs is what positioning reads.
  const ids = new Float64Array(count);
  let at = 0;
  for (const way of ways) for (const ref of way.refs) ids[at++] = ref;
  return ids;
}

function middleOf(points: ({ lat: number; lon: number } | undefined)[]): [number, number] | null {
  const middle = points[points.length >> 1];
  return middle ? [middle.lon, middle.lat] : null;
}

/** Renames the new database (on disk: WriteBack.finish) over the live one, and makes the rename durable. */
function swapIn(tempPath: string, livePath: string): void {
  renameSync(tempPath, livePath);
  const dir = openSync(dirname(livePath), 'r');
  fsyncSync(dir);
  closeSync(dir);
}

function asImportError(error: unknown, tempPath: string): unknown {
  const code = errorCode(error);
  if (isDiskFull(error)) {
    return new ImportError('disk_full', `the disk is full while writing ${tempPath}; free space and import again (the live database is unchanged)`);
  }
  if (code !== null && (code.startsWith('SQLITE_') || code === 'EACCES' || code === 'EROFS' || code === 'EIO')) {
    return new ImportError('write_failed', `cannot write ${tempPath}: ${(error as Error).message} (the live database is unchanged)`);
  }
  return error;
}
