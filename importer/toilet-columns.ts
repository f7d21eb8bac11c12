// Collects the toilet rows the database thread inserts into the columns the server loads
// (src/source/columns.ts): per batch, dictionary codes for the texts and each row's answer text (id, lat,
// lon, name; formatted by the decoder that made the rows, see toilet-rows.ts), so that the server does not
// format them at every start; put in spatial order at the end.
// Kept cheap because it runs beside the inserts: each batch's numbers go straight into typed columns of
// their stored types, and a batch's repeated texts are coded once.
import {
  COLUMN_PART_BYTES, DETAILS_BLOB, DETAILS_STARTS_BLOB, ID_ORDER_BLOB, ITEM_TEXT_BLOB, ITEM_TEXT_PARTS, ITEM_TEXT_STARTS_BLOB, NUMBER_COLUMNS, TEXT_COLUMNS, TEXT_FACTS_BLOB, textValuesBlob, valuesBlobName,
  type ColumnBlob, type NumberColumn, type NumberColumns, type TextColumn,
} from '../src/source/columns.js';
import Flatbush from 'flatbush';
import { TupleNumbers } from './tuple-numbers.js';
import { idKey } from '../src/rules/ids.js';
import { NUMBERS, TEXTS, valueAt, type Column, type ToiletRows } from './toilet-rows.js';

/** Where each stored number column comes from in a ToiletRows row (ids are parsed, see add). */
const NUMBER_SOURCES: [NumberColumn, Column][] = [
  ['lat', 'lat'], ['lon', 'lon'], ['access', 'access'], ['accessRule', 'access_rule'], ['wheelchair', 'wheelchair'],
  ['changingTable', 'changing_table'], ['gender', 'gender'], ['feeRequired', 'fee_required'], ['feeAmount', 'fee_amount'],
  ['quality', 'quality'], ['lastEdited', 'last_edited'],
];
const TEXT_SOURCES: Record<TextColumn, Column> = {
  name: 'name', operator: 'operator', schemeName: 'scheme_name', feeCurrency: 'fee_currency', openingHours: 'opening_hours',
  checked: 'checked', timeZone: 'time_zone', country: 'country',
};
type TypedArray = NumberColumns[NumberColumn] | Uint32Array;
type TypedArrayType<T> = { new (buffer: ArrayBuffer, byteOffset: number, length: number): T };

/** What a NULL number becomes in its column. */
const NULL_NUMBER: Partial<Record<NumberColumn, number>> = { feeRequired: -1, lastEdited: 0 };

const ID_AT = valueAt('id').at;
const DETAILS_AT = valueAt('details').at;
const NUMBER_AT = NUMBER_SOURCES.map(([, source]) => valueAt(source).at);
const NULL_VALUE = NUMBER_SOURCES.map(([name]) => NULL_NUMBER[name] ?? Number.NaN);
const TEXT_AT = TEXT_COLUMNS.map((name) => valueAt(TEXT_SOURCES[name]).at);
const TEXT_COUNT = TEXT_COLUMNS.length;
const columnOf = (name: NumberColumn) => NUMBER_SOURCES.findIndex(([source]) => source === name);
const LAT_COLUMN = columnOf('lat');
const LON_COLUMN = columnOf('lon');
const FEE_REQUIRED_AT = valueAt('fee_required').at;
const FEE_AMOUNT_AT = valueAt('fee_amount').at;
/** The text columns a text-facts number stands for (with the id type and the fee numbers). */
const FACT_TEXTS = (['schemeName', 'feeCurrency', 'openingHours', 'operator', 'checked'] as const).map((name) => TEXT_COLUMNS.indexOf(name));
/** A text-facts tuple: id type, fee required, fee amount, then the FACT_TEXTS codes (see textFactsNumber). */
const FACTS_WIDTH = 3 + FACT_TEXTS.length;

interface Batch {
  count: number;
  /** One column per NUMBER_SOURCES entry, NULLs already replaced. */
  numbers: NumberColumns[NumberColumn][];
  keys: Float64Array;
  /** TEXT_COUNT dictionary codes per row. */
  codes: Uint32Array;
  /** The text-facts number of each row (see StoredColumns.textFacts). */
  textFacts: Uint32Array;
  text: Uint8Array;
  /** ITEM_TEXT_PARTS starts per row, then the end. */
  starts: Uint32Array;
  /** Each row's details JSON, or null; only getToilet reads them, so they are stored apart (DETAILS_BLOB). */
  details: (string | null)[];
}

/** Bits of a key sorted per pass of rowsByKey. */
const RADIX_BITS = 11;

/**
 * The rows in the order of their keys (whole numbers below 2^53), by a radix sort: a digit of RADIX_BITS
 * per pass, the least significant first, of the low and then the high 32 bits, skipping a digit that all
 * keys share (most of the high bits of an OSM id). Sorting a million rows with a comparator took ~0.4 s.
 */
function rowsByKey(keys: Float64Array): Uint32Array {
  const count = keys.length;
  const low = new Uint32Array(count);
  const high = new Uint32Array(count);
  for (let row = 0; row < count; row++) {
    low[row] = keys[row] % 2 ** 32;
    high[row] = Math.floor(keys[row] / 2 ** 32);
  }
  let rows = new Uint32Array(count);
  let sorted = new Uint32Array(count);
  for (let row = 0; row < count; row++) rows[row] = row;
  const starts = new Uint32Array(1 << RADIX_BITS);
  const mask = (1 << RADIX_BITS) - 1;
  for (const words of [low, high]) {
    for (let shift = 0; shift < 32; shift += RADIX_BITS) {
      starts.fill(0);
      for (let row = 0; row < count; row++) starts[(words[row] >>> shift) & mask]++;
      if (count === 0 || starts[(words[0] >>> shift) & mask] === count) continue;
      for (let digit = 0, sum = 0; digit <= mask; digit++) {
        const n = starts[digit];
        starts[digit] = sum;
        sum += n;
      }
      for (let i = 0; i < count; i++) sorted[starts[(words[rows[i]] >>> shift) & mask]++] = rows[i];
      [rows, sorted] = [sorted, rows];
    }
  }
  return rows;
}

export class ToiletColumnsBuilder {
  private readonly batches: Batch[] = [];
  private readonly dictionaries = TEXT_COLUMNS.map(() => new Map<string, number>());
  private readonly textFactsNumbers = new TupleNumbers(FACTS_WIDTH);
  /** The tuple textFactsNumber numbers, reused. */
  private readonly facts = new Float64Array(FACTS_WIDTH);
  count = 0;

  add(rows: ToiletRows): void {
    const n = rows.count;
    const keys = new Float64Array(n);
    const codes = new Uint32Array(n * TEXT_COUNT);
    // A batch lists each repeated text once (shared by the columns: a name may also be an operator).
    const codeOfString = new Int32Array(rows.strings.length * TEXT_COUNT).fill(-1);
    for (let row = 0; row < n; row++) {
      const id = rows.strings[rows.texts[row * TEXTS + ID_AT]];
      const key = idKey(id);
      if (key < 0) throw new Error(`unexpected toilet id ${JSON.stringify(id)}`);
      keys[row] = key;
      for (let c = 0; c < TEXT_COUNT; c++) {
        const index = rows.texts[row * TEXTS + TEXT_AT[c]];
        if (index < 0) continue; // code 0: null
        const cached = index * TEXT_COUNT + c;
        if (codeOfString[cached] < 0) codeOfString[cached] = this.code(c, rows.strings[index]);
        codes[row * TEXT_COUNT + c] = codeOfString[cached];
      }
    }
    const textFacts = new Uint32Array(n);
    for (let row = 0; row < n; row++) textFacts[row] = this.textFactsNumber(rows, row, keys[row], codes);
    const numbers = NUMBER_SOURCES.map(([name], c) => {
      const column = new NUMBER_COLUMNS[name](n);
      for (let row = 0; row < n; row++) {
        const value = rows.numbers[row * NUMBERS + NUMBER_AT[c]];
        column[row] = Number.isNaN(value) ? NULL_VALUE[c] : value;
      }
      return column;
    });
    const details = new Array<string | null>(n);
    for (let row = 0; row < n; row++) {
      const index = rows.texts[row * TEXTS + DETAILS_AT];
      details[row] = index < 0 ? null : rows.strings[index];
    }
    const { bytes, starts } = rows.itemText;
    this.batches.push({ count: n, numbers, keys, codes, textFacts, text: bytes, starts, details });
    this.count += n;
  }

  /**
   * The column store's blobs without the rows whose ids are in `drop`, rows in the order of a Hilbert curve
   * through their positions (Flatbush's own sort), with the id index. Every column is first laid out in
   * arrival order, then gathered: one random read per value, not a walk through the batches. A column blob
   * is valid until the next blob is asked for: the columns are made in the same two buffers, since a first
   * write to a fresh page costs ~13 µs here, and fresh arrays per column were ~24,000 more page faults at a
   * million toilets.
   */
  *blobs(drop: ReadonlySet<string>): Generator<ColumnBlob> {
    const dropped = new Set([...drop].map(idKey));
    const keys = this.arrivals(Float64Array, (batch) => batch.keys, new ArrayBuffer(this.count * 8));
    let keptCount = 0;
    const kept = new Uint32Array(this.count);
    for (let arrival = 0; arrival < this.count; arrival++) if (!dropped.has(keys[arrival])) kept[keptCount++] = arrival;
    const arrivalBuffer = new ArrayBuffer(this.count * 8);
    const columnBuffer = new ArrayBuffer(this.count * 8);
    const order = this.spatialOrder(kept.subarray(0, keptCount), arrivalBuffer, columnBuffer);
    const count = order.length;
    const inOrder = <T extends TypedArray>(Type: TypedArrayType<T>, arrivals: ArrayLike<number>): T => {
      const column = new Type(columnBuffer, 0, count);
      for (let i = 0; i < count; i++) column[i] = arrivals[order[i]];
      return column;
    };

    const rowKeys = new Float64Array(columnBuffer, 0, count);
    for (let row = 0; row < count; row++) rowKeys[row] = keys[order[row]];
    yield [ID_ORDER_BLOB, rowsByKey(rowKeys)];

    yield [TEXT_FACTS_BLOB, inOrder(Uint32Array, this.arrivals(Uint32Array, (batch) => batch.textFacts, arrivalBuffer))];
    const idTypes = new Uint8Array(arrivalBuffer, 0, this.count);
    for (let arrival = 0; arrival < this.count; arrival++) idTypes[arrival] = keys[arrival] % 4;
    yield ['idType', inOrder(Uint8Array, idTypes)];
    const idNumbers = new Float64Array(arrivalBuffer, 0, this.count);
    for (let arrival = 0; arrival < this.count; arrival++) idNumbers[arrival] = Math.floor(keys[arrival] / 4);
    yield ['idNumber', inOrder(Float64Array, idNumbers)];
    for (let c = 0; c < NUMBER_SOURCES.length; c++) {
      const Type = NUMBER_COLUMNS[NUMBER_SOURCES[c][0]] as TypedArrayType<TypedArray>;
      yield [NUMBER_SOURCES[c][0], inOrder(Type, this.arrivals(Type, (batch) => batch.numbers[c], arrivalBuffer))];
    }
    for (let c = 0; c < TEXT_COUNT; c++) {
      yield [TEXT_COLUMNS[c], inOrder(Uint32Array, this.codeArrivals(c, new Uint32Array(arrivalBuffer, 0, this.count)))];
      yield [valuesBlobName(TEXT_COLUMNS[c]), textValuesBlob([...this.dictionaries[c].keys()])];
    }

    // Item texts: each row's bytes copied from its batch, written a part at a time (itemTextChunks).
    const batchOf = new Uint32Array(arrivalBuffer, 0, this.count);
    const rowOf = new Uint32Array(arrivalBuffer, this.count * 4, this.count);
    for (let b = 0, arrival = 0; b < this.batches.length; b++) {
      for (let row = 0; row < this.batches[b].count; row++, arrival++) {
        batchOf[arrival] = b;
        rowOf[arrival] = row;
      }
    }
    const starts = new Uint32Array(count * ITEM_TEXT_PARTS + 1);
    yield [ITEM_TEXT_BLOB, this.itemTextChunks(order, batchOf, rowOf, starts)];
    const detailsStarts = new Uint32Array(count + 1);
    yield [DETAILS_BLOB, this.detailsChunks(order, batchOf, rowOf, detailsStarts)];
    this.batches.length = 0;
    yield [ITEM_TEXT_STARTS_BLOB, starts];
    yield [DETAILS_STARTS_BLOB, detailsStarts];
  }

  /** The rows' details JSON in `order` (ASCII: a byte a character), as chunks as itemTextChunks makes them; fills `starts`. */
  private *detailsChunks(order: Uint32Array, batchOf: Uint32Array, rowOf: Uint32Array, starts: Uint32Array): Generator<Uint8Array> {
    const chunk = new Uint8Array(COLUMN_PART_BYTES);
    let written = 0;
    let filled = 0;
    for (let i = 0; i < order.length; i++) {
      starts[i] = written + filled;
      const text = this.batches[batchOf[order[i]]].details[rowOf[order[i]]];
      if (text === null) continue;
      for (let c = 0; c < text.length; c++) {
        chunk[filled++] = text.charCodeAt(c);
        if (filled === chunk.length) {
          yield chunk;
          written += filled;
          filled = 0;
        }
      }
    }
    starts[order.length] = written + filled;
    if (filled > 0 || written === 0) yield chunk.subarray(0, filled);
  }

  /**
   * The rows' item texts in `order`, as chunks of COLUMN_PART_BYTES (the last shorter) in one buffer, each
   * valid until the next is asked for; fills `starts` on the way. A buffer of the whole text (~130 MB at a
   * million toilets) was ~32,000 first writes to fresh pages.
   */
  private *itemTextChunks(order: Uint32Array, batchOf: Uint32Array, rowOf: Uint32Array, starts: Uint32Array): Generator<Uint8Array> {
    const chunk = new Uint8Array(COLUMN_PART_BYTES);
    let chunkStart = 0; // bytes in the chunks before this one
    let filled = 0;
    for (let i = 0; i < order.length; i++) {
      const batch = this.batches[batchOf[order[i]]];
      const row = rowOf[order[i]];
      const from = batch.starts[row * ITEM_TEXT_PARTS];
      const at = chunkStart + filled;
      for (let part = 0; part < ITEM_TEXT_PARTS; part++) starts[i * ITEM_TEXT_PARTS + part] = at + batch.starts[row * ITEM_TEXT_PARTS + part] - from;
      const end = batch.starts[(row + 1) * ITEM_TEXT_PARTS];
      // Byte by byte: a row is ~90 bytes, and set() with a subarray made an object per row (~0.25 s a million).
      const text = batch.text;
      for (let b = from; b < end; ) {
        const stop = Math.min(end, b + chunk.length - filled);
        while (b < stop) chunk[filled++] = text[b++];
        if (filled === chunk.length) {
          yield chunk;
          chunkStart += filled;
          filled = 0;
        }
      }
    }
    starts[order.length * ITEM_TEXT_PARTS] = chunkStart + filled;
    if (filled > 0 || chunkStart === 0) yield chunk.subarray(0, filled);
  }

  /**
   * A column of every batch, one after another (arrival order), in `buffer`. Copied a batch at a time: a
   * function called per value, one for each of the ~30 columns, was a megamorphic call a million times a column.
   */
  private arrivals<T extends TypedArray>(Type: TypedArrayType<T>, columnOf: (batch: Batch) => ArrayLike<number>, buffer: ArrayBuffer): T {
    const values = new Type(buffer, 0, this.count);
    let arrival = 0;
    for (const batch of this.batches) {
      values.set(columnOf(batch), arrival);
      arrival += batch.count;
    }
    return values;
  }

  /** Text column c's dictionary codes of every batch, in arrival order, into `values`. */
  private codeArrivals(c: number, values: Uint32Array): Uint32Array {
    let arrival = 0;
    for (const batch of this.batches) {
      for (let row = 0; row < batch.count; row++) values[arrival++] = batch.codes[row * TEXT_COUNT + c];
    }
    return values;
  }

  /** The number (from 1) of a row's text facts: its id type, fee numbers and the codes of FACT_TEXTS. */
  private textFactsNumber(rows: ToiletRows, row: number, key: number, codes: Uint32Array): number {
    const facts = this.facts;
    facts[0] = key % 4;
    facts[1] = rows.numbers[row * NUMBERS + FEE_REQUIRED_AT];
    facts[2] = rows.numbers[row * NUMBERS + FEE_AMOUNT_AT];
    for (let i = 0; i < FACT_TEXTS.length; i++) facts[3 + i] = codes[row * TEXT_COUNT + FACT_TEXTS[i]];
    return this.textFactsNumbers.numberOf(facts, 0);
  }

  /**
   * The arrivals in Hilbert order of their positions: the toilets near one another are near one another in
   * every column, so the rows of one answer share memory pages and cache lines instead of each being a
   * random read into hundreds of megabytes.
   */
  private spatialOrder(arrivals: Uint32Array, lonBuffer: ArrayBuffer, latBuffer: ArrayBuffer): Uint32Array {
    const order = new Uint32Array(arrivals.length);
    if (arrivals.length === 0) return order;
    const lon = this.arrivals(Float64Array, (batch) => batch.numbers[LON_COLUMN], lonBuffer);
    const lat = this.arrivals(Float64Array, (batch) => batch.numbers[LAT_COLUMN], latBuffer);
    const index = new Flatbush(arrivals.length, 16, Float64Array);
    for (let i = 0; i < arrivals.length; i++) {
      const a = arrivals[i];
      index.add(lon[a], lat[a], lon[a], lat[a]);
    }
    index.finish();
    const sorted = (index as unknown as { _indices: Uint32Array | Uint16Array })._indices;
    for (let i = 0; i < order.length; i++) order[i] = arrivals[sorted[i]];
    return order;
  }

  /** The dictionary code (1-based) of a text of text column c. */
  private code(c: number, text: string): number {
    const dictionary = this.dictionaries[c];
    let code = dictionary.get(text);
    if (code === undefined) dictionary.set(text, (code = dictionary.size + 1));
    return code;
  }
}

