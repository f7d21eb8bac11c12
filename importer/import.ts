// One import: scan an extract, map toilets and places, write a complete source database beside the live
// one, carry id moves forward, and swap it in with a rename. The live file is never opened for writing,
// so a failed import leaves it exactly as it was.
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import KDBush from 'kdbush';
import { scanExtract, readHeader, type OsmNode, type OsmRelation, type OsmWay, type Tags } from './pbf/index.js';
import { classify, mapToiletTags, type SkipReason } from './mapping/index.js';
import { buildPlaces, classifyPlace, PLACE_SELECTOR, type PlaceCandidate, type PlaceKind } from './places.js';
import { assembleRings, interiorPoint, pointInRing, roundCoordinate, type Ring } from './geometry.js';
import { SOURCE_DDL, SOURCE_SCHEMA_VERSION, type ImportMeta } from '../src/source/schema.js';
import { countryAt, timeZoneAt } from '../src/geo/where.js';
import { distanceMeters } from '../src/geo/sphere.js';
import { checkHours } from '../src/hours/index.js';
import { QualityFlag, type ToiletFacts } from '../src/toilets/facts.js';

export interface ImportOptions {
  /** The live source database to replace. */
  db: string;
  /** Recorded in the metadata when the extract was downloaded. */
  sourceUrl?: string | null;
  threads?: number;
  onProgress?(p: { bytesRead: number; totalBytes: number; elements: number }): void;
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
  elapsedMs: number;
}

export class ImportError extends Error {
  constructor(readonly code: 'disk_full' | 'write_failed', message: string) {
    super(message);
    this.name = 'ImportError';
  }
}

/** Host toilets closer than this to a standalone toilet are the same facility mapped twice (doc §1). */
const HOST_DUPLICATE_M = 30;
/** A vanished toilet reappearing this close with the same kind was redrawn, not removed (doc §1). */
const REDRAWN_WITHIN_M = 25;

const TOILET_SELECTOR = { amenity: ['toilets', 'toilet'], toilets: '*', toilet: '*' } as const;
/** Entrances and doors on a toilet building's outline position the toilet where people walk in. */
const ENTRANCE_SELECTOR = { entrance: '*', door: '*' } as const;
/** Keys whose values depend on the country (currency symbols, bare amounts, holidays in hours). */
const COUNTRY_DEPENDENT_KEYS = ['fee', 'charge', 'toilets:fee', 'toilets:charge', 'opening_hours', 'toilets:opening_hours'];

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

const INSERT_TOILET = `INSERT INTO toilets (id, kind, lat, lon, name, operator, access, access_rule, scheme_name,
  fee_required, fee_amount, fee_currency, opening_hours, wheelchair, changing_table, gender, checked, quality,
  last_edited, time_zone, country, tags) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`;

interface HostToilet {
  id: string;
  lat: number;
  lon: number;
  tags: Tags;
  timestamp: number | null;
  outline: Ring | null;
}

export async function importExtract(extractPath: string, options: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const now = options.now ?? (() => new Date());
  const livePath = resolve(options.db);
  const header = await readHeader(extractPath);
  const extractDate = header.replicationTimestamp !== null ? header.replicationTimestamp * 1000 : now().getTime();
  const tempPath = join(dirname(livePath), `.${basename(livePath)}.${process.pid}.importing`);
  rmSync(tempPath, { force: true });
  let db: Database.Database | null = null;
  try {
    db = new Database(tempPath);
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    db.exec(SOURCE_DDL.replace('id             TEXT NOT NULL UNIQUE', 'id             TEXT NOT NULL'));
    const summary = await writeExtract(db, extractPath, extractDate, options);
    db.exec('CREATE UNIQUE INDEX toilets_id ON toilets (id)');
    summary.idMoves = carryIdMoves(db, livePath, now().toISOString());
    const meta: ImportMeta = {
      schema_version: String(SOURCE_SCHEMA_VERSION),
      source_file: basename(extractPath),
      source_url: options.sourceUrl ?? null,
      replication_timestamp: header.replicationTimestamp !== null ? new Date(header.replicationTimestamp * 1000).toISOString() : null,
      writing_program: header.writingProgram,
      imported_at: now().toISOString(),
      counts: JSON.stringify(summary),
    };
    summary.replicationTimestamp = meta.replication_timestamp;
    const setMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    for (const [key, value] of Object.entries(meta)) if (value !== null) setMeta.run(key, value);
    db.close();
    db = null;
    swapIn(tempPath, livePath);
    summary.elapsedMs = Date.now() - started;
    return summary;
  } catch (error) {
    db?.close();
    rmSync(tempPath, { force: true });
    throw asImportError(error, tempPath);
  }
}

async function writeExtract(db: Database.Database, extractPath: string, extractDate: number, options: ImportOptions): Promise<ImportSummary> {
  const insertToilet = db.prepare(INSERT_TOILET);
  const summary: ImportSummary = {
    toilets: { nodes: 0, ways: 0, relations: 0, hosts: 0, total: 0 },
    places: { settlement: 0, station: 0, street: 0, landmark: 0 },
    skipped: {},
    elements: { nodes: 0, ways: 0, relations: 0 },
    idMoves: 0,
    replicationTimestamp: null,
    elapsedMs: 0,
  };
  const skip = (reason: keyof ImportSummary['skipped']) => (summary.skipped[reason] = (summary.skipped[reason] ?? 0) + 1);
  // Standalone toilet positions, kept to find host toilets that duplicate them.
  const toiletLons: number[] = [];
  const toiletLats: number[] = [];
  const hosts: HostToilet[] = [];
  const placeCandidates: PlaceCandidate[] = [];
  const entrances = new Map<number, [number, number]>();

  const writeToilet = (id: string, lat: number, lon: number, tags: Tags, host: boolean, timestamp: number | null) => {
    lat = roundCoordinate(lat);
    lon = roundCoordinate(lon);
    const country = COUNTRY_DEPENDENT_KEYS.some((k) => tags[k] !== undefined) ? countryAt(lat, lon) : null;
    const timeZone = timeZoneAt(lat, lon);
    const facts = mapToiletTags(tags, { country, host, extractDate });
    validateHours(facts, lat, lon, country, timeZone);
    insertToilet.run(
      id, host ? 'host_toilet' : 'toilet', lat, lon, facts.name, facts.operator, facts.access, facts.access_rule,
      facts.scheme_name, facts.fee.required === null ? null : facts.fee.required ? 1 : 0, facts.fee.amount,
      facts.fee.currency, facts.opening_hours, facts.wheelchair, facts.changing_table, facts.gender.join(','),
      facts.checked, facts.quality, timestamp === null ? null : Math.floor(timestamp / 1000), timeZone, country,
      JSON.stringify(tags),
    );
    summary.toilets.total++;
    if (!host) {
      toiletLons.push(lon);
      toiletLats.push(lat);
    }
  };

  /** Classifies a selected element as a toilet record; counts skips of toilet-tagged objects only. */
  const toiletKind = (tags: Tags): 'toilet' | 'host_toilet' | null => {
    const c = classify(tags);
    if (c.kind !== 'skip') return c.kind;
    if (c.reason !== 'not_a_toilet') skip(c.reason);
    return null;
  };

  db.exec('BEGIN');
  const result = await scanExtract(
    extractPath,
    {
      ...SCAN_SELECTORS,
      coordinatesFor: (ways, relations) => neededNodeIds(ways, relations),
      onNodes(batch: OsmNode[]) {
        for (const node of batch) {
          const tags = node.tags;
          if (tags.entrance !== undefined || tags.door !== undefined) entrances.set(node.id, [node.lon, node.lat]);
          const kind = toiletKind(tags);
          if (kind === 'toilet') {
            writeToilet(`n${node.id}`, node.lat, node.lon, tags, false, node.timestamp);
            summary.toilets.nodes++;
          } else if (kind === 'host_toilet') {
            hosts.push({ id: `n${node.id}`, lat: node.lat, lon: node.lon, tags, timestamp: node.timestamp, outline: null });
          }
          const place = classifyPlace(tags, false);
          if (place) placeCandidates.push({ id: `n${node.id}`, cls: place, tags, lat: node.lat, lon: node.lon });
        }
      },
      onProgress: options.onProgress,
    },
    { threads: options.threads },
  );
  summary.elements = { nodes: result.counts.nodes, ways: result.counts.ways, relations: result.counts.relations };
  const coords = result.coordinates;
  const ring = (refs: number[]): Ring | null => {
    const points: Ring = [];
    for (const ref of refs) {
      const c = coords.get(ref);
      if (!c) return null; // a clipped extract can cut ways at its border
      points.push([c.lon, c.lat]);
    }
    return points;
  };
  const wayById = new Map(result.ways.map((w) => [w.id, w]));

  /** Where a closed outline is entered: a tagged entrance on it, else a point inside it. */
  const outlinePosition = (rings: Ring[], refs: number[]): [number, number] | null => {
    for (const ref of refs) {
      const entrance = entrances.get(ref);
      if (entrance) return entrance;
    }
    return interiorPoint(rings);
  };

  for (const way of result.ways) {
    const kind = toiletKind(way.tags);
    const place = classifyPlace(way.tags, true);
    if (!kind && !place) continue;
    const closed = way.refs.length >= 4 && way.refs[0] === way.refs[way.refs.length - 1];
    if (place?.kind === 'street') {
      const middle = coords.get(way.refs[way.refs.length >> 1]);
      if (middle) placeCandidates.push({ id: `w${way.id}`, cls: place, tags: way.tags, lat: middle.lat, lon: middle.lon });
    }
    if (!kind && (!place || place.kind === 'street')) continue;
    const outline = closed ? ring(way.refs) : null;
    const position = outline ? outlinePosition([outline], way.refs) : middleOf(way.refs.map((r) => coords.get(r)));
    if (!position) {
      if (kind) skip('no_geometry');
      continue;
    }
    const [lon, lat] = position;
    if (place && place.kind !== 'street') placeCandidates.push({ id: `w${way.id}`, cls: place, tags: way.tags, lat, lon });
    if (kind === 'toilet') {
      writeToilet(`w${way.id}`, lat, lon, way.tags, false, way.timestamp);
      summary.toilets.ways++;
    } else if (kind === 'host_toilet') {
      hosts.push({ id: `w${way.id}`, lat, lon, tags: way.tags, timestamp: way.timestamp, outline });
    }
  }

  for (const relation of result.relations) {
    if (relation.tags.type !== 'multipolygon') continue;
    const kind = toiletKind(relation.tags);
    const place = classifyPlace(relation.tags, false);
    if (!kind && !place) continue;
    const outerRefs = relation.members
      .filter((m) => m.type === 'way' && m.role !== 'inner')
      .map((m) => wayById.get(m.ref)?.refs)
      .filter((refs): refs is number[] => refs !== undefined);
    const rings = assembleRings(outerRefs).map(ring).filter((r): r is Ring => r !== null);
    const position = outlinePosition(rings, outerRefs.flat());
    if (!position) {
      if (kind) skip('no_geometry');
      continue;
    }
    const [lon, lat] = position;
    if (place) placeCandidates.push({ id: `r${relation.id}`, cls: place, tags: relation.tags, lat, lon });
    if (kind === 'toilet') {
      writeToilet(`r${relation.id}`, lat, lon, relation.tags, false, relation.timestamp);
      summary.toilets.relations++;
    } else if (kind === 'host_toilet') {
      hosts.push({ id: `r${relation.id}`, lat, lon, tags: relation.tags, timestamp: relation.timestamp, outline: rings[0] ?? null });
    }
  }

  for (const host of withoutDuplicates(hosts, toiletLons, toiletLats)) {
    writeToilet(host.id, host.lat, host.lon, host.tags, true, host.timestamp);
    summary.toilets.hosts++;
  }
  summary.skipped.host_near_toilet = hosts.length - summary.toilets.hosts || undefined;
  if (!summary.skipped.host_near_toilet) delete summary.skipped.host_near_toilet;

  const insertPlace = db.prepare(`INSERT INTO places (id, kind, subkind, name, alt_names, lat, lon, importance, city, country)
    VALUES (@id, @kind, @subkind, @name, @alt_names, @lat, @lon, @importance, @city, @country)`);
  for (const place of buildPlaces(placeCandidates)) {
    place.lat = roundCoordinate(place.lat);
    place.lon = roundCoordinate(place.lon);
    insertPlace.run(place);
    summary.places[place.kind]++;
  }
  db.exec('COMMIT');
  return summary;
}

/** Node ids whose coordinates positions need: every vertex of areas, only the middle vertex of a street. */
function neededNodeIds(ways: OsmWay[], relations: OsmRelation[]): number[] {
  const ids: number[] = [];
  const areaWays = new Set<number>();
  for (const relation of relations) {
    if (relation.tags.type !== 'multipolygon') continue;
    if (classify(relation.tags).kind === 'skip' && !classifyPlace(relation.tags, false)) continue;
    for (const m of relation.members) if (m.type === 'way') areaWays.add(m.ref);
  }
  for (const way of ways) {
    const place = classifyPlace(way.tags, true);
    const needsOutline = areaWays.has(way.id) || classify(way.tags).kind !== 'skip' || (place !== null && place.kind !== 'street');
    if (needsOutline) for (const ref of way.refs) ids.push(ref);
    else if (place) ids.push(way.refs[way.refs.length >> 1]);
  }
  return ids;
}

function middleOf(points: ({ lat: number; lon: number } | undefined)[]): [number, number] | null {
  const middle = points[points.length >> 1];
  return middle ? [middle.lon, middle.lat] : null;
}

function validateHours(facts: ToiletFacts, lat: number, lon: number, country: string | null, timeZone: string): void {
  if (facts.opening_hours === null) return;
  const check = checkHours(facts.opening_hours, { lat, lon, country, timeZone });
  if (!check.ok) {
    facts.opening_hours = null;
    facts.quality |= QualityFlag.HoursUnparseable;
  } else if (check.holidaysUnresolved) {
    facts.quality |= QualityFlag.HolidaysUnresolved;
  }
}

/** Host toilets with no standalone toilet within 30 m or inside the host's outline. */
function withoutDuplicates(hosts: HostToilet[], lons: number[], lats: number[]): HostToilet[] {
  if (hosts.length === 0 || lons.length === 0) return hosts;
  const index = new KDBush(lons.length, 64, Float64Array);
  for (let i = 0; i < lons.length; i++) index.add(lons[i], lats[i]);
  index.finish();
  return hosts.filter((host) => {
    let [minX, minY, maxX, maxY] = [host.lon, host.lat, host.lon, host.lat];
    for (const [x, y] of host.outline ?? []) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
    const pad = HOST_DUPLICATE_M / 111_320;
    const padLon = pad / Math.max(0.01, Math.cos((host.lat * Math.PI) / 180));
    for (const i of index.range(minX - padLon, minY - pad, maxX + padLon, maxY + pad)) {
      if (distanceMeters(host.lat, host.lon, lats[i], lons[i]) <= HOST_DUPLICATE_M) return false;
      if (host.outline && pointInRing(lons[i], lats[i], host.outline)) return false;
    }
    return true;
  });
}

/**
 * Copies the live database's id moves forward and records new ones: a toilet id that vanished while a new
 * id of the same kind appeared within 25 m is the same toilet, redrawn. Returns the number of moves.
 */
function carryIdMoves(db: Database.Database, livePath: string, movedAt: string): number {
  if (!existsSync(livePath)) return 0;
  db.prepare('ATTACH DATABASE ? AS live').run(livePath);
  const liveHasToilets = db.prepare(`SELECT 1 FROM live.sqlite_master WHERE type = 'table' AND name = 'toilets'`).get();
  if (liveHasToilets) {
    db.exec(`INSERT INTO id_moves (old_id, new_id, moved_at) SELECT old_id, new_id, moved_at FROM live.id_moves
             WHERE old_id NOT IN (SELECT id FROM main.toilets)`);
    type Spot = { id: string; kind: string; lat: number; lon: number };
    const vanished = db.prepare(`SELECT id, kind, lat, lon FROM live.toilets o WHERE NOT EXISTS (SELECT 1 FROM main.toilets n WHERE n.id = o.id)`).all() as Spot[];
    if (vanished.length > 0) {
      const appeared = db.prepare(`SELECT id, kind, lat, lon FROM main.toilets n WHERE NOT EXISTS (SELECT 1 FROM live.toilets o WHERE o.id = n.id)`).all() as Spot[];
      const taken = new Set<string>();
      const record = db.prepare('INSERT OR REPLACE INTO id_moves (old_id, new_id, moved_at) VALUES (?, ?, ?)');
      const follow = db.prepare('UPDATE id_moves SET new_id = ? WHERE new_id = ?');
      for (const gone of vanished) {
        let best: Spot | null = null;
        let bestDistance = REDRAWN_WITHIN_M;
        for (const fresh of appeared) {
          if (fresh.kind !== gone.kind || taken.has(fresh.id)) continue;
          const d = distanceMeters(gone.lat, gone.lon, fresh.lat, fresh.lon);
          if (d <= bestDistance) {
            bestDistance = d;
            best = fresh;
          }
        }
        if (!best) continue;
        taken.add(best.id);
        follow.run(best.id, gone.id);
        record.run(gone.id, best.id, movedAt);
      }
    }
  }
  db.exec('DETACH DATABASE live');
  return (db.prepare('SELECT count(*) AS n FROM id_moves').get() as { n: number }).n;
}

/** Makes the finished file durable, then renames it over the live one (atomic on one file system). */
function swapIn(tempPath: string, livePath: string): void {
  const fd = openSync(tempPath, 'r+');
  fsyncSync(fd);
  closeSync(fd);
  renameSync(tempPath, livePath);
  const dir = openSync(dirname(livePath), 'r');
  fsyncSync(dir);
  closeSync(dir);
}

function asImportError(error: unknown, tempPath: string): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return new ImportError('disk_full', `the disk is full while writing ${tempPath}; free space and import again (the live database is unchanged)`);
  }
  if (typeof code === 'string' && (code.startsWith('SQLITE_') || code === 'EACCES' || code === 'EROFS')) {
    return new ImportError('write_failed', `cannot write ${tempPath}: ${(error as Error).message} (the live database is unchanged)`);
  }
  return error;
}
