// All toilets in columns: typed arrays for numbers and enum codes, dictionary codes for the few texts a
// toilet may have (TextColumn). One row per toilet; row numbers are what the spatial indexes store. A
// million toilets fit in well under 200 MB this way, where a million record objects would take over 500
// MB, and the loaded columns sit in shared memory, read by every server thread.
import { ACCESS, ACCESS_RULE, CHANGING_TABLE, GENDER, WHEELCHAIR, type Access } from '../rules/facts.js';
import { compileHours, type CompiledHours } from '../hours/index.js';
import type { DetailsText, ItemText } from '../source/columns.js';
import { codesFor, TextColumn } from '../source/text-column.js';
import { sharedArray } from '../rules/shared-array.js';
import { ID_TYPES } from '../rules/ids.js';

export { ID_TYPES, idKey } from '../rules/ids.js';

/** The `source` of a record by id type code. */
export const SOURCE_OF_ID_TYPE = ['openstreetmap', 'openstreetmap', 'openstreetmap', 'community'] as const;

/** Per-row filter bits, precomputed so a filtered search tests one byte per candidate. */
export const Trait = {
  Wheelchair: 1 << 0, // wheelchair yes or limited
  ChangingTable: 1 << 1, // changing_table yes
  Free: 1 << 2, // fee.required === false
  NoPurchase: 1 << 3, // access public, permissive or scheme
  HasHours: 1 << 4, // opening hours to evaluate for open_now
  Hidden: 1 << 5, // a moderator marked it gone: in no answer
  HasOverlay: 1 << 6, // overlay data to merge (the snapshot's overlays): rows without skip the lookup
} as const;

/**
 * Every column as loaded, in shared memory (SharedArrayBuffer) where it is an array: written while
 * loading, never after, and read by every server thread.
 */
export interface SourceTable {
  count: number;
  idType: Uint8Array;
  idNumber: Float64Array;
  lat: Float64Array;
  lon: Float64Array;
  access: Uint8Array;
  accessRule: Uint8Array;
  wheelchair: Uint8Array;
  changingTable: Uint8Array;
  /** Bits in GENDER order: unisex 1, female 2, male 4. */
  gender: Uint8Array;
  /** 1 required, 0 free, -1 unknown. */
  feeRequired: Int8Array;
  /** NaN when unknown. */
  feeAmount: Float64Array;
  feeCurrency: TextColumn;
  name: TextColumn;
  operator: TextColumn;
  schemeName: TextColumn;
  openingHours: TextColumn;
  /** Where the hours are evaluated: set only for rows with opening hours. */
  timeZone: TextColumn;
  country: TextColumn;
  checked: TextColumn;
  quality: Uint8Array;
  /** Epoch seconds of the last edit in the source, 0 when unknown. */
  lastEdited: Uint32Array;
  /** Id, lat, lon and source name of each row as answer text (see ItemText). */
  itemText: ItemText;
  /** The source's rows in id order (see rowOfKey); community rows come after them, found in communityRows. */
  idOrder: Uint32Array;
  /** The importer's number of each source row's text facts (see TextFactsCache). */
  textFacts: Uint32Array;
  /**
   * The source rows' details, read only by getToilet (community rows, after them, have none); null when the
   * source database predates them (SourceInfo.missing says so).
   */
  details: DetailsText | null;
  communityRows: Map<number, number>;
}

/** The columns a vote or moderator decision may change (decisions.ts). */
export const DECIDABLE_COLUMNS = [
  'access',
  'accessRule',
  'wheelchair',
  'changingTable',
  'gender',
  'feeRequired',
  'feeAmount',
  'feeCurrency',
  'name',
  'operator',
  'openingHours',
  'timeZone',
  'country',
] as const satisfies readonly (keyof SourceTable)[];

export type DecidableColumn = (typeof DECIDABLE_COLUMNS)[number];

/** One thread's view of the toilets: the loaded columns, with decisions applied, and what it derives from them. */
export interface ToiletTable extends SourceTable {
  /** The columns as loaded. A decidable column is the loaded one until a decision changes it (see writable). */
  readonly source: SourceTable;
  traits: Uint8Array;
  /** By row, compiled on first use (hoursOf): most toilets never appear in an answer, and parsing costs ~0.3 ms. */
  hours: CompiledHoursByRow;
}

/** Empty columns for `count` rows, in shared memory. */
export function createSourceTable(count: number): SourceTable {
  return {
    count,
    idType: sharedArray(Uint8Array, count),
    idNumber: sharedArray(Float64Array, count),
    lat: sharedArray(Float64Array, count),
    lon: sharedArray(Float64Array, count),
    access: sharedArray(Uint8Array, count),
    accessRule: sharedArray(Uint8Array, count),
    wheelchair: sharedArray(Uint8Array, count),
    changingTable: sharedArray(Uint8Array, count),
    gender: sharedArray(Uint8Array, count),
    feeRequired: sharedArray(Int8Array, count),
    feeAmount: sharedArray(Float64Array, count),
    feeCurrency: sharedText(count),
    name: sharedText(count),
    operator: sharedText(count),
    schemeName: sharedText(count),
    openingHours: sharedText(count),
    timeZone: sharedText(count),
    country: sharedText(count),
    checked: sharedText(count),
    quality: sharedArray(Uint8Array, count),
    lastEdited: sharedArray(Uint32Array, count),
    itemText: { bytes: new Uint8Array(0), starts: new Uint32Array(1) },
    idOrder: new Uint32Array(0),
    textFacts: new Uint32Array(0),
    details: null,
    communityRows: new Map(),
  };
}

/** Each row can add at most one value. */
function sharedText(count: number): TextColumn {
  return new TextColumn(codesFor(count, count), []);
}

/** This thread's table over loaded columns: filter traits computed, hours compiled on first use. */
export function tableOver(source: SourceTable): ToiletTable {
  const table: ToiletTable = { ...source, source, traits: new Uint8Array(source.count), hours: new CompiledHoursByRow(source.count) };
  for (let row = 0; row < table.count; row++) refreshTraits(table, row);
  return table;
}

/** A decidable column this table may write: the loaded one is copied on the first write. */
export function writable<C extends DecidableColumn>(table: ToiletTable, column: C): ToiletTable[C] {
  const current = table[column];
  if (current !== table.source[column]) return current;
  const copy = (current instanceof TextColumn ? current.copy() : current.slice()) as ToiletTable[C];
  return (table[column] = copy);
}

/** Puts a row's decidable columns back to their loaded values (its compiled hours go when they change). */
export function restoreRow(table: ToiletTable, row: number): void {
  const source = table.source;
  for (const column of DECIDABLE_COLUMNS) {
    const current = table[column];
    const loaded = source[column];
    if (current === loaded) continue;
    if (current instanceof TextColumn) {
      // a copy's values extend the loaded ones, so a loaded code means the same text in both
      const code = (loaded as TextColumn).codes[row];
      if (current.codes[row] !== code && (column === 'openingHours' || column === 'timeZone' || column === 'country')) table.hours.delete(row);
      current.codes[row] = code;
    } else {
      current[row] = (loaded as typeof current)[row];
    }
  }
}

/** The row of an id key (see idKey), or -1: binary search over the source rows in id order, then the community rows. */
export function rowOfKey(table: ToiletTable, key: number): number {
  const byId = table.idOrder;
  let low = 0;
  let high = byId.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const row = byId[middle];
    const at = table.idNumber[row] * 4 + table.idType[row];
    if (at < key) low = middle + 1;
    else if (at > key) high = middle - 1;
    else return row;
  }
  return table.communityRows.get(key) ?? -1;
}

export function toiletId(table: ToiletTable, row: number): string {
  return ID_TYPES[table.idType[row]] + table.idNumber[row];
}

export const code = {
  access: indexer(ACCESS),
  accessRule: indexer(ACCESS_RULE),
  wheelchair: indexer(WHEELCHAIR),
  changingTable: indexer(CHANGING_TABLE),
};

export function genderBits(list: string): number {
  let bits = 0;
  for (const g of list.split(',')) {
    const i = GENDER.indexOf(g as (typeof GENDER)[number]);
    if (i >= 0) bits |= 1 << i;
  }
  return bits;
}

const NO_PURCHASE: readonly Access[] = ['public', 'permissive', 'scheme'];

/** Recomputes a row's filter bits from its (effective) facts; Hidden and HasOverlay are kept. */
export function refreshTraits(table: ToiletTable, row: number): void {
  let traits = table.traits[row] & (Trait.Hidden | Trait.HasOverlay);
  const wheelchair = WHEELCHAIR[table.wheelchair[row]];
  if (wheelchair === 'yes' || wheelchair === 'limited') traits |= Trait.Wheelchair;
  if (CHANGING_TABLE[table.changingTable[row]] === 'yes') traits |= Trait.ChangingTable;
  if (table.feeRequired[row] === 0) traits |= Trait.Free;
  if (NO_PURCHASE.includes(ACCESS[table.access[row]])) traits |= Trait.NoPurchase;
  if (table.openingHours.codes[row] !== 0) traits |= Trait.HasHours;
  table.traits[row] = traits;
}

/**
 * Compiled opening hours by row. Rows share compiled values (per value, holiday region and zone), so each
 * row keeps a 32-bit number of its value in a short list: a read is two array reads, where a Map keyed by
 * row is a chain of dependent cache misses, and an array of a million references costs each thread 8 MB
 * of heap up front (these pages are touched only as rows are compiled).
 */
export class CompiledHoursByRow {
  /** 0: not compiled yet; else 1 + a position in `values`. */
  private readonly slots: Uint32Array;
  private readonly values: CompiledHours[] = [];
  private readonly slotOf = new Map<CompiledHours, number>();

  constructor(rows: number) {
    this.slots = new Uint32Array(rows);
  }

  get(row: number): CompiledHours | undefined {
    const slot = this.slots[row];
    return slot === 0 ? undefined : this.values[slot - 1];
  }

  set(row: number, hours: CompiledHours): void {
    let slot = this.slotOf.get(hours);
    if (slot === undefined) this.slotOf.set(hours, (slot = this.values.push(hours)));
    this.slots[row] = slot;
  }

  delete(row: number): void {
    this.slots[row] = 0;
  }
}

/** The row's compiled opening hours, compiled on first use; null when it has none (or they no longer parse). */
export function hoursOf(table: ToiletTable, row: number): CompiledHours | null {
  if (!(table.traits[row] & Trait.HasHours)) return null;
  const compiled = table.hours.get(row);
  if (compiled !== undefined) return compiled;
  const hours = compileHours(table.openingHours.get(row)!, { lat: table.lat[row], lon: table.lon[row], country: table.country.get(row), timeZone: table.timeZone.get(row)! });
  if (hours === null) table.traits[row] &= ~Trait.HasHours;
  else table.hours.set(row, hours);
  return hours;
}

function indexer<T extends string>(values: readonly T[]): (value: string) => number {
  const map = new Map<string, number>(values.map((v, i) => [v, i]));
  return (value) => {
    const i = map.get(value);
    if (i === undefined) throw new Error(`unexpected value ${JSON.stringify(value)}; expected one of ${values.join(', ')}`);
    return i;
  };
}
