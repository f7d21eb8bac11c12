// The toilets once more, column by column: each column's bytes in table toilet_columns as 1 MiB parts,
// written by the importer with the rows in spatial order (a Hilbert curve), so the toilets of one answer
// lie close together in memory, and an id index (rows in id order) for binary search. The server reads a
// million toilets with a few hundred reads straight into typed arrays instead of a million row steps.
// The toilets table stays the readable form (and keeps the raw tags); both hold the same toilets.
import type Database from 'better-sqlite3';
import { asciiJson } from '../rules/ascii-json.js';
import { sharedArray, type SharedArrayType } from '../rules/shared-array.js';
import { codesFor, type Codes } from './text-column.js';

/** Number columns and their element types. Enum columns hold positions in the enums of src/rules/facts.ts. */
export const NUMBER_COLUMNS = {
  /** Position in ID_TYPES (src/toilets/table.ts). */
  idType: Uint8Array,
  idNumber: Float64Array,
  lat: Float64Array,
  lon: Float64Array,
  access: Uint8Array,
  accessRule: Uint8Array,
  wheelchair: Uint8Array,
  changingTable: Uint8Array,
  /** Bits in GENDER order. */
  gender: Uint8Array,
  /** 1 required, 0 free, -1 unknown. */
  feeRequired: Int8Array,
  /** NaN when unknown. */
  feeAmount: Float64Array,
  quality: Uint8Array,
  /** Epoch seconds, 0 when unknown. */
  lastEdited: Uint32Array,
} as const;

export type NumberColumn = keyof typeof NUMBER_COLUMNS;
export type NumberColumns = { [C in NumberColumn]: InstanceType<(typeof NUMBER_COLUMNS)[C]> };

/** Read first: the spatial indexes need only them. */
const POSITION_COLUMNS = ['lat', 'lon'] as const;

/**
 * Text columns, each stored as a dictionary: `<column>` holds a Uint32 code per row (0 for null, else 1 + a
 * position in `<column>.values`, a JSON array of the distinct texts). Names, operators and zones repeat.
 */
export const TEXT_COLUMNS = ['name', 'operator', 'schemeName', 'feeCurrency', 'openingHours', 'checked', 'timeZone', 'country'] as const;

export type TextColumn = (typeof TEXT_COLUMNS)[number];

export interface DictionaryColumn {
  /** As narrow as the values allow (codesFor), with room for a new value per extra row. */
  codes: Codes;
  values: string[];
}

/**
 * Each row's head and position as they appear in an answer (ASCII JSON), so the server copies them instead
 * of formatting numbers per request or per start: `{"id":"n1","name":"X","lat":1.5,"lon":2.5` (the name
 * quoted or null), then `1.5,2.5` for the links. `starts` has four offsets per row, and the start of the
 * row after the last: where the row starts, where its id ends (the id starts 7 bytes in), where the head
 * ends and the position begins, and where the comma in the position is.
 */
export interface ItemText {
  bytes: Uint8Array;
  starts: Uint32Array;
}

export const ITEM_TEXT_PARTS = 4;
/** What a row's item text starts with, before its id. */
export const ID_OPEN = '{"id":"';

/** Writes item texts row after row (coordinates as String() writes them, the name as ASCII JSON or null). */
export class ItemTextWriter {
  private bytes: Uint8Array;
  private readonly starts: Uint32Array;
  private length = 0;
  private rows = 0;

  constructor(private readonly capacity: number) {
    this.bytes = new Uint8Array(Math.max(capacity * 40, 64));
    this.starts = new Uint32Array(capacity * ITEM_TEXT_PARTS + 1);
  }

  add(id: string, lat: number, lon: number, name: string | null): void {
    if (this.rows === this.capacity) throw new RangeError('more rows than the writer was made for');
    const part = this.rows++ * ITEM_TEXT_PARTS;
    this.starts[part] = this.length;
    this.ascii(ID_OPEN);
    this.ascii(id);
    this.starts[part + 1] = this.length;
    this.ascii('","name":');
    this.ascii(name === null ? 'null' : asciiJson(name));
    this.ascii(',"lat":');
    const latAt = this.length;
    this.coordinate(lat);
    const latEnd = this.length;
    this.ascii(',"lon":');
    const lonAt = this.length;
    this.coordinate(lon);
    const lonEnd = this.length;
    // The position again for the links, copied rather than formatted twice.
    this.starts[part + 2] = this.length;
    this.copyWithin(latAt, latEnd);
    this.starts[part + 3] = this.length;
    this.ascii(',');
    this.copyWithin(lonAt, lonEnd);
  }

  /** Appends bytes already written at [from, to). */
  private copyWithin(from: number, to: number): void {
    this.reserve(to - from);
    this.bytes.copyWithin(this.length, from, to);
    this.length += to - from;
  }

  finish(): ItemText {
    this.starts[this.rows * ITEM_TEXT_PARTS] = this.length;
    return { bytes: this.bytes.subarray(0, this.length), starts: this.starts.subarray(0, this.rows * ITEM_TEXT_PARTS + 1) };
  }

  private ascii(text: string): void {
    this.reserve(text.length);
    for (let i = 0; i < text.length; i++) this.bytes[this.length++] = text.charCodeAt(i);
  }

  /**
   * Coordinates are whole multiples of 1e-7 degrees (OSM's precision), whose shortest round-trip form (what
   * String() writes) is the multiple's digits with the point put in and trailing zeros dropped: written so
   * without a number-to-string call. Anything else goes through String().
   */
  private coordinate(value: number): void {
    const units = Math.round(value * 1e7);
    if (units / 1e7 !== value || Math.abs(units) >= 1e10 || (Math.abs(units) < 10 && units !== 0) || Object.is(value, -0)) {
      this.ascii(String(value));
      return;
    }
    this.reserve(13);
    if (units < 0) this.bytes[this.length++] = 45; // '-'
    let rest = Math.abs(units);
    const whole = Math.floor(rest / 1e7);
    rest -= whole * 1e7;
    this.digits(whole, 1);
    if (rest === 0) return;
    let places = 7;
    while (rest % 10 === 0) {
      rest /= 10;
      places--;
    }
    this.bytes[this.length++] = 46; // '.'
    this.digits(rest, places);
  }

  /** `value` in decimal, left-padded with zeros to `width` digits. */
  private digits(value: number, width: number): void {
    let count = 1;
    for (let v = value; v >= 10; v = Math.floor(v / 10)) count++;
    count = Math.max(count, width);
    for (let i = count - 1; i >= 0; i--) {
      this.bytes[this.length + i] = 48 + (value % 10);
      value = Math.floor(value / 10);
    }
    this.length += count;
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.length + extra, this.bytes.length * 2));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

/** Two item texts one after the other, in shared memory. */
export function joinItemTexts(first: ItemText, second: ItemText): ItemText {
  const firstEnd = first.starts.length - 1;
  const bytes = sharedArray(Uint8Array, first.bytes.length + second.bytes.length);
  bytes.set(first.bytes);
  bytes.set(second.bytes, first.bytes.length);
  const starts = sharedArray(Uint32Array, firstEnd + second.starts.length);
  starts.set(first.starts.subarray(0, firstEnd));
  for (let i = 0; i < second.starts.length; i++) starts[firstEnd + i] = first.bytes.length + second.starts[i];
  return { bytes, starts };
}

export interface StoredColumns {
  count: number;
  numbers: NumberColumns;
  texts: Record<TextColumn, DictionaryColumn>;
  itemText: ItemText;
  /** The rows in id order (see idKey in src/toilets/table.ts). */
  idOrder: Uint32Array;
  /**
   * A number per row (from 1) shared by the rows whose id type, scheme name, fee, opening hours, operator
   * and check date are all equal: the server renders those members once per number.
   */
  textFacts: Uint32Array;
}

export const TOILET_COLUMNS_DDL = `
-- The toilets again, column by column in parts (src/source/columns.ts), rows in spatial order: what the server loads.
CREATE TABLE toilet_columns (
  name TEXT NOT NULL,
  part INTEGER NOT NULL,                 -- 0, 1, …: the column's bytes in this order
  data BLOB NOT NULL,
  PRIMARY KEY (name, part)
);
`;

/** A blob of the column store: its name and bytes, whole or as consecutive chunks. */
export type ColumnBlob = [name: string, data: ArrayBufferView | Iterable<Uint8Array>];

export const ITEM_TEXT_BLOB = 'itemText';
export const ITEM_TEXT_STARTS_BLOB = 'itemText.starts';
export const ID_ORDER_BLOB = 'idOrder';
export const TEXT_FACTS_BLOB = 'textFacts';
/** Each row's details as the answer's ASCII JSON (empty: none), and the start of each row's and the end. */
export const DETAILS_BLOB = 'details';
export const DETAILS_STARTS_BLOB = 'details.starts';
/** The blob of a text column's distinct values. */
export const valuesBlobName = (column: TextColumn) => `${column}.values`;
export const textValuesBlob = (values: string[]) => Buffer.from(JSON.stringify(values));

/**
 * The size of a stored part. Read as one blob, a column of ~100 MB made SQLite and better-sqlite3 each
 * allocate a buffer of its whole size before it was copied into shared memory, and the kernel zero every
 * page of both: a third of the page faults of a start. Parts this size reuse the same few buffers
 * (malloc hands freed ones back), so reading costs one copy into memory touched once: at a million
 * toilets 0.3–1 s less on a virtual machine where a fresh page costs ~15 µs (docs/PERFORMANCE.md).
 */
export const COLUMN_PART_BYTES = 1 << 20;

/**
 * Writes the blobs as they come, each as parts of `partBytes` (a blob given as chunks: each chunk as parts of
 * its own, so chunks of `partBytes` store as the whole blob would). The importer makes each blob just before
 * it is written (its blobs()), so only one is in memory at a time, and its largest, the item text, a chunk at
 * a time. Every name readToiletColumns reads must come: number columns by their NUMBER_COLUMNS name; each
 * text column's codes by its name and its values; the item text and its starts; the id order; the
 * text-facts numbers.
 */
export function writeToiletColumns(db: Database.Database, blobs: Iterable<ColumnBlob>, partBytes = COLUMN_PART_BYTES): void {
  const insert = db.prepare('INSERT INTO toilet_columns (name, part, data) VALUES (?, ?, ?)');
  for (const [name, data] of blobs) {
    let part = 0;
    for (const chunk of ArrayBuffer.isView(data) ? [data] : data) {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      for (let at = 0; at === 0 || at < bytes.length; at += partBytes) insert.run(name, part++, bytes.subarray(at, at + partBytes));
    }
  }
}

/**
 * Reads what writeToiletColumns wrote into shared memory (SharedArrayBuffer), so every server thread can
 * read the same columns; number and text columns get `extraRows` zeroed rows after the stored ones (for
 * community toilets). `positionsRead` is called once lat and lon are read, before the other columns (the
 * loader starts the spatial indexes from them). Throws with what to do when a column is missing or has the
 * wrong size.
 */
export function readToiletColumns(db: Database.Database, extraRows = 0, positionsRead?: (lat: Float64Array, lon: Float64Array) => void): StoredColumns {
  const { sizeOf, readInto } = blobReader(db);
  const size = (name: string) => {
    const bytes = sizeOf(name);
    if (bytes === null) throw damaged(`column ${name} is missing`);
    return bytes;
  };
  const sized = (name: string, bytes: number, rows: number) => {
    const stored = size(name);
    if (stored !== bytes) throw damaged(`column ${name} holds ${stored} bytes for ${rows} rows`);
  };
  const typed = <T extends ArrayBufferView>(name: string, Type: SharedArrayType<T>, length: number, extra = 0): T => {
    sized(name, length * Type.BYTES_PER_ELEMENT, length);
    const array = sharedArray(Type, length + extra);
    readInto(name, new Uint8Array(array.buffer, array.byteOffset, length * Type.BYTES_PER_ELEMENT));
    return array;
  };
  const count = size('lat') / Float64Array.BYTES_PER_ELEMENT;
  const numbers = {} as Record<NumberColumn, ArrayBufferView>;
  for (const name of POSITION_COLUMNS) numbers[name] = typed(name, Float64Array, count, extraRows);
  positionsRead?.(numbers.lat as Float64Array, numbers.lon as Float64Array);
  for (const [name, Type] of Object.entries(NUMBER_COLUMNS) as [NumberColumn, SharedArrayType<ArrayBufferView>][]) {
    numbers[name] ??= typed(name, Type, count, extraRows);
  }
  const texts = {} as Record<TextColumn, DictionaryColumn>;
  const stored = new Uint32Array(count); // every text column's codes as stored, four bytes a code; narrowed below
  for (const name of TEXT_COLUMNS) {
    const valuesBytes = new Uint8Array(size(valuesBlobName(name)));
    readInto(valuesBlobName(name), valuesBytes);
    const values = JSON.parse(Buffer.from(valuesBytes.buffer).toString()) as string[];
    sized(name, stored.byteLength, count);
    readInto(name, new Uint8Array(stored.buffer));
    const codes = codesFor(values.length + extraRows, count + extraRows);
    for (let row = 0; row < count; row++) {
      if (stored[row] > values.length) throw damaged(`column ${name} has a code beyond its values`);
      codes[row] = stored[row];
    }
    texts[name] = { codes, values };
  }
  const starts = typed(ITEM_TEXT_STARTS_BLOB, Uint32Array, count * ITEM_TEXT_PARTS + 1);
  const bytes = sharedArray(Uint8Array, size(ITEM_TEXT_BLOB));
  if (starts[count * ITEM_TEXT_PARTS] !== bytes.byteLength) throw damaged('column itemText does not match its starts');
  readInto(ITEM_TEXT_BLOB, bytes);
  const idOrder = typed(ID_ORDER_BLOB, Uint32Array, count);
  for (let i = 0; i < count; i++) if (idOrder[i] >= count) throw damaged('column idOrder names a row beyond the last');
  const textFacts = typed(TEXT_FACTS_BLOB, Uint32Array, count);
  return { count, numbers: numbers as NumberColumns, texts, itemText: { bytes, starts }, idOrder, textFacts };
}

/**
 * Each row's details (src/rules/details.ts) as ASCII JSON: row r's are bytes[starts[r], starts[r + 1]),
 * empty when it has none. Kept apart from the columns the searches read: only getToilet reads them.
 */
export interface DetailsText {
  bytes: Uint8Array;
  starts: Uint32Array;
}

/**
 * The details of the `count` stored rows, in shared memory, or null when the database predates them (layout
 * 4: it has no details blobs). Throws with what to do when they do not fit the rows.
 */
export function readDetailsColumn(db: Database.Database, count: number): DetailsText | null {
  const { sizeOf, readInto } = blobReader(db);
  const startsBytes = sizeOf(DETAILS_STARTS_BLOB);
  if (startsBytes === null) return null;
  if (startsBytes !== (count + 1) * Uint32Array.BYTES_PER_ELEMENT) throw damaged(`column ${DETAILS_STARTS_BLOB} holds ${startsBytes} bytes for ${count} rows`);
  const starts = sharedArray(Uint32Array, count + 1);
  const bytes = sharedArray(Uint8Array, sizeOf(DETAILS_BLOB) ?? 0);
  readInto(DETAILS_STARTS_BLOB, new Uint8Array(starts.buffer, starts.byteOffset, starts.byteLength));
  readInto(DETAILS_BLOB, bytes);
  for (let row = 0; row < count; row++) if (starts[row] > starts[row + 1]) throw damaged(`column ${DETAILS_STARTS_BLOB} is out of order`);
  if (starts[count] !== bytes.length) throw damaged(`column ${DETAILS_BLOB} does not match its starts`);
  return { bytes, starts };
}

/** The stored size of a blob (null: none is stored), and its parts read one after another into `into`. */
function blobReader(db: Database.Database): { sizeOf: (name: string) => number | null; readInto: (name: string, into: Uint8Array) => void } {
  const size = db.prepare('SELECT sum(length(data)) FROM toilet_columns WHERE name = ?').pluck();
  const partsOf = db.prepare('SELECT data FROM toilet_columns WHERE name = ? ORDER BY part').pluck();
  return {
    sizeOf: (name) => size.get(name) as number | null,
    readInto: (name, into) => {
      let at = 0;
      for (const part of partsOf.iterate(name) as IterableIterator<Buffer>) {
        into.set(part, at);
        at += part.length;
      }
    },
  };
}

function damaged(what: string): Error {
  return new Error(`the source database is damaged (${what}): run \`npm run import\` again`);
}
