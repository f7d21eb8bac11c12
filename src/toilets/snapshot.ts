// Everything the read path needs at one instant: the toilet table with overlays merged in, the spatial
// indexes and the derived quality columns. Built whole beside the one in use and swapped in one
// assignment, so an answer never mixes two data versions.
import KDBush from 'kdbush';
import Flatbush from 'flatbush';
import type { LoadedToilets } from './load.js';
import { idKey, refreshTraits, Trait, type ToiletTable } from './table.js';
import { confidence, verificationState } from './quality.js';
import { CONFIDENCE, VERIFICATION_STATE } from './facts.js';
import type { OverlaySource, PartnerListing, ToiletOverlay } from './overlay.js';
import { applyDecision } from './decisions.js';
import { NearestSearch, type Accept } from '../index/nearest.js';
import { BoxSearch } from '../index/in-box.js';
import { compileHours, type CompiledHours } from '../hours/index.js';
import { countryAt, timeZoneAt } from '../geo/where.js';

export interface MergedPartner extends PartnerListing {
  /** The business hours compiled for the toilet's zone, or null when none or unparseable. */
  hours: CompiledHours | null;
}

export interface MergedOverlay extends Omit<ToiletOverlay, 'partner'> {
  partner: MergedPartner | null;
}

export interface SourceInfo {
  /** ISO time the map data was current (OSM replication timestamp), when known. */
  dataAsOf: string | null;
  importedAt: string | null;
  sourceFile: string | null;
}

export class Snapshot {
  readonly source = 'openstreetmap';
  readonly overlayByRow = new Map<number, MergedOverlay>();
  readonly verification: Uint8Array;
  readonly confidence: Uint8Array;
  private readonly nearest: NearestSearch;
  private readonly box: BoxSearch | null;
  /** When the derived quality columns were computed (they age: "checked within 24 months"). */
  qualityComputedAt = 0;

  constructor(
    readonly table: ToiletTable,
    private readonly rowByKey: Map<number, number>,
    readonly info: SourceInfo,
  ) {
    const n = table.count;
    this.verification = new Uint8Array(n);
    this.confidence = new Uint8Array(n);
    const kd = new KDBush(n, 64, Float64Array);
    const flat = n > 0 ? new Flatbush(n, 16, Float64Array) : null; // Flatbush holds at least one item
    for (let row = 0; row < n; row++) {
      kd.add(table.lon[row], table.lat[row]);
      flat?.add(table.lon[row], table.lat[row], table.lon[row], table.lat[row]);
    }
    kd.finish();
    flat?.finish();
    this.nearest = new NearestSearch(kd);
    this.box = flat && new BoxSearch(flat);
  }

  /** Up to k accepted rows nearest to a point within maxHaverSin, nearest first (see NearestSearch). */
  findNearest(lon: number, lat: number, k: number, maxHaverSin: number, accept: Accept, rows: Int32Array, haverSins: Float64Array): number {
    return this.nearest.search(lon, lat, k, maxHaverSin, accept, rows, haverSins);
  }

  /** Up to k accepted rows inside a box, nearest to its centre first (see BoxSearch). */
  findInBox(west: number, south: number, east: number, north: number, k: number, accept: Accept, rows: Int32Array): number {
    return this.box ? this.box.search(west, south, east, north, k, accept, rows) : 0;
  }

  static build(loaded: LoadedToilets, info: SourceInfo, overlays: OverlaySource, nowMs: number): Snapshot {
    const snapshot = new Snapshot(loaded.table, loaded.rowByKey, info);
    snapshot.mergeOverlays(overlays);
    snapshot.refreshQuality(nowMs);
    return snapshot;
  }

  /** The row of a toilet id, or -1 (unknown, malformed, or marked gone). */
  rowOf(id: string): number {
    const key = idKey(id);
    const row = key < 0 ? undefined : this.rowByKey.get(key);
    return row === undefined || this.table.traits[row] & Trait.Hidden ? -1 : row;
  }

  /** Recomputes verification_state and confidence, which depend on the date. */
  refreshQuality(nowMs: number): void {
    const t = this.table;
    for (let row = 0; row < t.count; row++) {
      const overlay = this.overlayByRow.get(row);
      const inputs = {
        checked: t.checked[row],
        quality: t.quality[row],
        lastEdited: t.lastEdited[row],
        confirmations: overlay?.confirmations ?? 0,
        disputed: overlay?.disputed ?? false,
        partnerRunning: overlay?.partner != null,
      };
      this.verification[row] = VERIFICATION_STATE.indexOf(verificationState(inputs, nowMs));
      this.confidence[row] = CONFIDENCE.indexOf(confidence(inputs, nowMs));
    }
    this.qualityComputedAt = nowMs;
  }

  private mergeOverlays(overlays: OverlaySource): void {
    const t = this.table;
    for (const [id, overlay] of overlays.entries()) {
      const row = this.rowOf(id);
      if (row < 0) continue; // not in this source (yet, or any more): its overlay rows wait in the overlay database
      for (const [attribute, decision] of Object.entries(overlay.decided)) applyDecision(t, row, attribute, decision.value);
      if (overlay.gone) t.traits[row] |= Trait.Hidden;
      refreshTraits(t, row);
      const partner = overlay.partner && {
        ...overlay.partner,
        hours: overlay.partner.opening_hours === null ? null : compileHours(overlay.partner.opening_hours, placeOf(t, row)),
      };
      this.overlayByRow.set(row, { ...overlay, partner });
    }
  }
}

function placeOf(t: ToiletTable, row: number) {
  const lat = t.lat[row];
  const lon = t.lon[row];
  return { lat, lon, country: countryAt(lat, lon), timeZone: timeZoneAt(lat, lon) };
}
