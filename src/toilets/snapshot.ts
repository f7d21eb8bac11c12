// Everything the read path needs at one instant: the toilet table with overlays merged in, the spatial
// indexes and the derived quality columns. Built whole beside the one in use and swapped in one
// assignment, so an answer never mixes two data versions. A contribution changes one toilet's overlay in
// place (change): one synchronous update between requests, so no answer sees half of it. The loaded
// columns and indexes are shared with the other threads' snapshots of the same load; what a snapshot
// changes (decided columns, filter tags, fragments, compiled hours) is its own.
import type { Coverage } from '../source/schema.js';
import type { SourcePart } from '../rules/details.js';
import type { LoadedToilets } from './load.js';
import { idKey, refreshTraits, restoreRow, rowOfKey, tableOver, toiletId, Trait, type ToiletTable } from './table.js';
import { qualityCode, SourceQuality } from '../rules/quality.js';
import { ACCESS, ACCESS_RULE, CHANGING_TABLE, FACT_ATTRIBUTES, GENDER, WHEELCHAIR, type ToiletFacts } from '../rules/facts.js';
import type { OverlaySource, PartnerListing, SourceView, ToiletOverlay } from './overlay.js';
import { applyDecision } from './decisions.js';
import { fragment } from '../rules/json-bytes.js';
import { fragmentKey } from './fragment-keys.js';
import { TextFactsCache } from './text-facts.js';
import { asciiJson } from '../rules/ascii-json.js';
import { NearestSearch } from '../index/nearest.js';
import type { PointFilter } from '../index/point-filter.js';
import { BoxSearch } from '../index/in-box.js';
import { compileHours, type CompiledHours, type HoursPlace } from '../hours/index.js';
import { countryAt } from '../geo/where.js';
import { OverlayRows } from './overlay-rows.js';

export interface MergedPartner extends PartnerListing {
  /** The business hours compiled for the toilet's zone, or null when none or unparseable. */
  hours: CompiledHours | null;
  /** `,"partner":{` and its members up to opening_hours, made once per change. */
  head: Uint8Array;
}

export interface MergedOverlay extends Omit<ToiletOverlay, 'partner'> {
  partner: MergedPartner | null;
  /**
   * Answer fragments, made once per change (see render.ts): `provenance.decided`, the brace closing
   * provenance, then the last_confirmed_at, confirmations and cleanliness members;
   */
  membersJson: Uint8Array;
  /** the item's head (id, name, position) when a name was decided. */
  headJson: Uint8Array | null;
}

/** Overlays by current toilet id (null: none now); `all`: every other toilet has none. */
export interface OverlayChange {
  all: boolean;
  entries: [string, ToiletOverlay | null][];
}

/** verification_state and confidence depend on today's date: holders refresh them this often. */
export const QUALITY_REFRESH_MS = 3600_000;

/** Where the read path finds the snapshot in use (the catalog, or a replica of it on another thread). */
export interface SnapshotHolder {
  readonly snapshot: Snapshot;
}

export interface SourceInfo {
  /** ISO time the map data was current (OSM replication timestamp), when known. */
  dataAsOf: string | null;
  importedAt: string | null;
  sourceFile: string | null;
  /** The area the data covers (the import's region and bounds), when recorded. */
  coverage: Coverage | null;
  /** The built-in demo data (npm start with no data of its own). */
  demo: boolean;
  /** Places the import found in the extract (streets, stations, settlements, landmarks). */
  places: number;
  /** What the source database lacks because an older release wrote it; the next import adds it. */
  missing: readonly SourcePart[];
}

/** What a snapshot without a source database knows of its source. */
export const NO_SOURCE: SourceInfo = { dataAsOf: null, importedAt: null, sourceFile: null, coverage: null, demo: false, places: 0, missing: [] };

export class Snapshot implements SourceView {
  /** The rows' merged overlays, with the bytes their items last showed (see OverlayRows). */
  readonly overlays: OverlayRows<MergedOverlay>;
  /** Per row, the item fragments its facts and quality select (see fragmentKey). */
  readonly fragmentKey: Uint32Array;
  readonly textFacts: TextFactsCache;
  private readonly nearest: NearestSearch;
  private readonly box: BoxSearch | null;
  /** Ids each loaded id moved from (the reverse of movedTo). */
  private readonly movedFrom = new Map<string, string[]>();
  /** When the derived quality columns were computed (they age: "checked within 24 months"). */
  qualityComputedAt = 0;

  readonly table: ToiletTable;
  private readonly movedTo: ReadonlyMap<string, string>;

  constructor(
    /** What the snapshot is built over, shared with the other threads' snapshots of it. */
    readonly loaded: LoadedToilets,
    readonly info: SourceInfo,
  ) {
    const table = (this.table = tableOver(loaded.source));
    this.movedTo = loaded.movedTo;
    for (const [from, to] of loaded.movedTo) {
      const list = this.movedFrom.get(to);
      if (list) list.push(from);
      else this.movedFrom.set(to, [from]);
    }
    const n = table.count;
    this.fragmentKey = new Uint32Array(n);
    this.overlays = new OverlayRows(n);
    this.textFacts = new TextFactsCache(table.textFacts);
    this.nearest = new NearestSearch(loaded.indexes.nearest, table.traits);
    this.box = loaded.indexes.box && new BoxSearch(loaded.indexes.box, table.traits);
  }

  /** Up to k rows the filter keeps (tags: traits) nearest to a point within maxHaverSin, nearest first (see NearestSearch). */
  findNearest(lon: number, lat: number, k: number, maxHaverSin: number, filter: PointFilter, rows: Int32Array, haverSins: Float64Array): number {
    return this.nearest.search(lon, lat, k, maxHaverSin, filter, rows, haverSins);
  }

  /** Up to k rows the filter keeps (tags: traits) inside a box, nearest to its centre first (see BoxSearch). */
  findInBox(west: number, south: number, east: number, north: number, k: number, filter: PointFilter, rows: Int32Array): number {
    return this.box ? this.box.search(west, south, east, north, k, filter, rows) : 0;
  }

  /** A snapshot of loaded toilets with these overlays (see OverlayChange). */
  static build(loaded: LoadedToilets, info: SourceInfo, overlays: OverlayChange, nowMs: number): Snapshot {
    const snapshot = new Snapshot(loaded, info);
    snapshot.change(overlays, nowMs);
    return snapshot;
  }

  /** The row of a toilet id, or -1 (unknown, malformed, or marked gone). */
  rowOf(id: string): number {
    const row = this.loadedRowOf(id);
    return row < 0 || this.table.traits[row] & Trait.Hidden ? -1 : row;
  }

  /** The row of a loaded toilet id, marked gone or not, or -1. */
  loadedRowOf(id: string): number {
    const key = idKey(id);
    return key < 0 ? -1 : rowOfKey(this.table, key);
  }

  currentId(id: string): string | null {
    let current = id;
    // a toilet redrawn twice moved twice; the bound only guards against a cycle in a damaged table
    for (let hops = 0; hops < 8 && this.loadedRowOf(current) < 0; hops++) {
      const next = this.movedTo.get(current);
      if (next === undefined) return null;
      current = next;
    }
    return this.loadedRowOf(current) < 0 ? null : current;
  }

  aliases(id: string): string[] {
    const ids = [id];
    for (let i = 0; i < ids.length && ids.length < 64; i++) ids.push(...(this.movedFrom.get(ids[i]) ?? []));
    return ids;
  }

  sourceFacts(id: string): ToiletFacts | null {
    const row = this.loadedRowOf(id);
    if (row < 0) return null;
    const s = this.table.source;
    const amount = s.feeAmount[row];
    return {
      name: s.name.get(row),
      operator: s.operator.get(row),
      access: ACCESS[s.access[row]],
      access_rule: ACCESS_RULE[s.accessRule[row]],
      scheme_name: s.schemeName.get(row),
      fee: { required: s.feeRequired[row] === -1 ? null : s.feeRequired[row] === 1, amount: Number.isNaN(amount) ? null : amount, currency: s.feeCurrency.get(row) },
      opening_hours: s.openingHours.get(row),
      wheelchair: WHEELCHAIR[s.wheelchair[row]],
      changing_table: CHANGING_TABLE[s.changingTable[row]],
      gender: GENDER.filter((_, i) => s.gender[row] & (1 << i)),
      checked: s.checked.get(row),
      quality: s.quality[row],
    };
  }

  /**
   * The overlays of the given toilets (by any id they had) as they are now, or of every toilet when `ids`
   * is null (the count windows move with the date): apply it with change(), here and on other threads.
   */
  overlaysNow(overlays: OverlaySource, ids: Iterable<string> | null): OverlayChange {
    // an empty table (the catalog before its first load) has nothing to merge into
    if (ids === null) return { all: true, entries: this.table.count === 0 ? [] : [...overlays.entries(this)] };
    const entries: [string, ToiletOverlay | null][] = [];
    for (const stored of ids) {
      const id = this.currentId(stored);
      if (id !== null) entries.push([id, overlays.entry(id, this)]); // else not in this source: its rows wait in the overlay database
    }
    return { all: false, entries };
  }

  /** Applies overlays made by overlaysNow (on this thread or another, over the same loaded toilets). */
  change(overlays: OverlayChange, nowMs: number): void {
    const seen = new Set<number>();
    for (const [id, overlay] of overlays.entries) {
      const row = this.loadedRowOf(id);
      if (row < 0) continue;
      seen.add(row);
      this.applyOverlay(row, overlay);
      if (!overlays.all) this.refreshRowQuality(row, nowMs);
    }
    if (!overlays.all) return;
    for (const [row] of [...this.overlays.entries()]) if (!seen.has(row)) this.applyOverlay(row, null);
    this.refreshQuality(nowMs);
  }

  /** Puts a row's overlay in place of its previous one (null: none); decisions start from the source values. */
  applyOverlay(row: number, overlay: ToiletOverlay | null): void {
    const t = this.table;
    restoreRow(t, row);
    t.traits[row] &= ~Trait.Hidden;
    let decided = false;
    for (const attribute of FACT_ATTRIBUTES) {
      const value = overlay?.decided[attribute]?.value;
      if (value != null) {
        applyDecision(t, row, attribute, value);
        decided = true;
      }
    }
    if (overlay?.gone) t.traits[row] |= Trait.Hidden;
    t.traits[row] = overlay ? t.traits[row] | Trait.HasOverlay : t.traits[row] & ~Trait.HasOverlay;
    refreshTraits(t, row);
    this.textFacts.renumber(row, decided);
    this.nearest.setTag(row, t.traits[row]);
    this.box?.setTag(row, t.traits[row]);
    if (overlay === null) {
      this.overlays.delete(row);
      return;
    }
    const partner = overlay.partner && mergedPartner(overlay.partner, t, row);
    const counts = `,"last_confirmed_at":${overlay.last_confirmed_at === null ? 'null' : asciiJson(overlay.last_confirmed_at)},"confirmations":${overlay.confirmations},"cleanliness":${overlay.cleanliness ? JSON.stringify(overlay.cleanliness) : 'null'}`;
    this.overlays.set(row, {
      ...overlay,
      partner,
      membersJson: fragment(`,"decided":${decidedJson(overlay)}}${counts}`),
      headJson: overlay.decided.name?.value != null ? fragment(`{"id":"${toiletId(t, row)}","name":${asciiJson(t.name.get(row)!)},"lat":${t.lat[row]},"lon":${t.lon[row]}`) : null,
    });
  }

  /** Recomputes verification_state and confidence, which depend on the date. */
  refreshQuality(nowMs: number): void {
    const t = this.table;
    const source = new SourceQuality(nowMs);
    for (let row = 0; row < t.count; row++) {
      if (t.traits[row] & Trait.HasOverlay) this.refreshRowQuality(row, nowMs);
      else this.fragmentKey[row] = fragmentKey(t, row, source.of(t.checked.codes[row], t.checked.get(row), t.quality[row], t.lastEdited[row]));
    }
    this.qualityComputedAt = nowMs;
  }

  private refreshRowQuality(row: number, nowMs: number): void {
    const t = this.table;
    const overlay = this.overlays.get(row);
    const inputs = {
      checked: t.checked.get(row),
      quality: t.quality[row],
      lastEdited: t.lastEdited[row],
      confirmations: overlay?.confirmations ?? 0,
      disputed: overlay?.disputed ?? false,
      partnerRunning: overlay?.partner != null,
    };
    this.fragmentKey[row] = fragmentKey(t, row, qualityCode(inputs, nowMs));
  }
}

/** The partner object's fixed part and its business hours compiled, once per change rather than per answer. */
function mergedPartner(p: PartnerListing, t: ToiletTable, row: number): MergedPartner {
  return {
    ...p,
    hours: p.opening_hours === null ? null : compileHours(p.opening_hours, businessHoursPlace(t, row)),
    head: fragment(`,"partner":{"name":${asciiJson(p.name)},"tier":"${p.tier}","conditions":${asciiJson(p.conditions)},"opening_hours":${asciiJson(p.opening_hours)}`),
  };
}

/**
 * Where a partner's business hours are evaluated: the toilet's position and zone, and its country (public
 * holidays) as the importer stored it or, when not stored (no tag of the toilet needed it), looked up.
 */
export function businessHoursPlace(t: ToiletTable, row: number): HoursPlace {
  const lat = t.lat[row];
  const lon = t.lon[row];
  return { lat, lon, country: t.country.get(row) ?? countryAt(lat, lon), timeZone: t.timeZone.get(row)! };
}

/** `provenance.decided`: the spec's four keys per fact, facts in a fixed order. */
function decidedJson(overlay: ToiletOverlay): string {
  const entries: string[] = [];
  for (const attribute of FACT_ATTRIBUTES) {
    const d = overlay.decided[attribute];
    if (d) entries.push(`"${attribute}":${JSON.stringify({ by: d.by, votes_for: d.votes_for, votes_total: d.votes_total, as_of: d.as_of })}`);
  }
  return `{${entries.join(',')}}`;
}
