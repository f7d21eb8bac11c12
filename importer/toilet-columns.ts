// Collects the toilet rows the database thread inserts into the columns the server loads
// (src/source/columns.ts): per batch, dictionary codes for the texts and each row's answer text (id, lat,
// lon, name) formatted here once instead of at every server start; put in spatial order at the end.
// Kept cheap because it runs beside the inserts: each batch's numbers go straight into typed columns of
// their stored types, and a batch's repeated texts are coded once.
import {
  ID_ORDER_BLOB, ITEM_TEXT_BLOB, ITEM_TEXT_PARTS, ITEM_TEXT_STARTS_BLOB, ItemTextWriter, NUMBER_COLUMNS, TEXT_COLUMNS, TEXT_FACTS_BLOB, textValuesBlob, valuesBlobName,
  type ColumnBlob, type NumberColumn, type NumberColumns, type TextColumn,
} from '../src/source/columns.js';
import Flatbush from 'flatbush';
import { idKey } from '../src/toilets/table.js';
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
/** What a NULL number becomes in its column. */
const NULL_NUMBER: Partial<Record<NumberColumn, number>> = { feeRequired: -1, lastEdited: 0 };

const ID_AT = valueAt('id').at;
const NUMBER_AT = NUMBER_SOURCES.map(([, source]) => valueAt(source).at);
const NULL_VALUE = NUMBER_SOURCES.map(([name]) => NULL_NUMBER[name] ?? Number.NaN);
const TEXT_AT = TEXT_COLUMNS.map((name) => valueAt(TEXT_SOURCES[name]).at);
const LAT_AT = valueAt('lat').at;
const LON_AT = valueAt('lon').at;
const NAME_AT = valueAt('name').at;
const TEXT_COUNT = TEXT_COLUMNS.length;
const columnOf = (name: NumberColumn) => NUMBER_SOURCES.findIndex(([source]) => source === name);
const LAT_COLUMN = columnOf('lat');
const LON_COLUMN = columnOf('lon');
const FEE_REQUIRED_AT = valueAt('fee_required').at;
const FEE_AMOUNT_AT = valueAt('fee_amount').at;

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
}

export class ToiletColumnsBuilder {
  private readonly batches: Batch[] = [];
  private readonly dictionaries = TEXT_COLUMNS.map(() => new Map<string, number>());
  private readonly textFactsNumbers = new Map<string, number>();
  count = 0;

  add(rows: ToiletRows): void {
    const n = rows.count;
    const keys = new Float64Array(n);
    const codes = new Uint32Array(n * TEXT_COUNT);
    // A batch lists each repeated text once (shared by the columns: a name may also be an operator).
    const codeOfString = new Int32Array(rows.strings.length * TEXT_COUNT).fill(-1);
    const text = new ItemTextWriter(n);
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
      const name = rows.texts[row * TEXTS + NAME_AT];
      text.add(id, rows.numbers[row * NUMBERS + LAT_AT], rows.numbers[row * NUMBERS + LON_AT], name < 0 ? null : rows.strings[name]);
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
    const { bytes, starts } = text.finish();
    this.batches.push({ count: n, numbers, keys, codes, textFacts, text: bytes, starts });
    this.count += n;
  }

  /**
   * The column store's blobs without the rows whose ids are in `drop`, rows in the order of a Hilbert curve
   * through their positions (Flatbush's own sort), with the id index. Each blob is made just before it is
   * yielded, so only one output column is in memory beside the batches.
   */
  *blobs(drop: ReadonlySet<string>): Generator<ColumnBlob> {
    const dropped = new Set([...drop].map(idKey));
    // Where each arriving row is (its batch and its row there), and its key.
    const batchOf = new Uint32Array(this.count);
    const rowOf = new Uint32Array(this.count);
    const keys = new Float64Array(this.count);
    const kept: number[] = [];
    let arrival = 0;
    this.batches.forEach((batch, b) => {
      for (let row = 0; row < batch.count; row++, arrival++) {
        batchOf[arrival] = b;
        rowOf[arrival] = row;
        keys[arrival] = batch.keys[row];
        if (!dropped.has(batch.keys[row])) kept.push(arrival);
      }
    });
    const order = this.spatialOrder(kept, batchOf, rowOf);
    const count = order.length;
    const batchAt = (i: number) => this.batches[batchOf[order[i]]];
    const rowAt = (i: number) => rowOf[order[i]];

    const rowOfArrival = new Uint32Array(this.count);
    order.forEach((a, row) => (rowOfArrival[a] = row));
    // Each batch arrives in id order (a PBF lists ids ascending), so this sort merges runs (TimSort).
    yield [ID_ORDER_BLOB, Uint32Array.from(kept.sort((a, b) => keys[a] - keys[b]), (a) => rowOfArrival[a])];

    const textFacts = new Uint32Array(count);
    for (let i = 0; i < count; i++) textFacts[i] = batchAt(i).textFacts[rowAt(i)];
    yield [TEXT_FACTS_BLOB, textFacts];
    const idType = new Uint8Array(count);
    const idNumber = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const key = batchAt(i).keys[rowAt(i)];
      idType[i] = key % 4;
      idNumber[i] = Math.floor(key / 4);
    }
    yield ['idType', idType];
    yield ['idNumber', idNumber];
    for (let c = 0; c < NUMBER_SOURCES.length; c++) {
      const column = new NUMBER_COLUMNS[NUMBER_SOURCES[c][0]](count);
      for (let i = 0; i < count; i++) column[i] = batchAt(i).numbers[c][rowAt(i)];
      yield [NUMBER_SOURCES[c][0], column];
    }
    for (let c = 0; c < TEXT_COUNT; c++) {
      const codes = new Uint32Array(count);
      for (let i = 0; i < count; i++) codes[i] = batchAt(i).codes[rowAt(i) * TEXT_COUNT + c];
      yield [TEXT_COLUMNS[c], codes];
      yield [valuesBlobName(TEXT_COLUMNS[c]), textValuesBlob([...this.dictionaries[c].keys()])];
    }

    let textBytes = 0;
    for (const batch of this.batches) textBytes += batch.text.length;
    const bytes = new Uint8Array(textBytes);
    const starts = new Uint32Array(count * ITEM_TEXT_PARTS + 1);
    let at = 0;
    for (let i = 0; i < count; i++) {
      const batch = batchAt(i);
      const row = rowAt(i);
      const from = batch.starts[row * ITEM_TEXT_PARTS];
      for (let part = 0; part < ITEM_TEXT_PARTS; part++) starts[i * ITEM_TEXT_PARTS + part] = at + batch.starts[row * ITEM_TEXT_PARTS + part] - from;
      for (let b = from, end = batch.starts[(row + 1) * ITEM_TEXT_PARTS]; b < end; b++) bytes[at++] = batch.text[b];
    }
    starts[count * ITEM_TEXT_PARTS] = at;
    this.batches.length = 0;
    yield [ITEM_TEXT_BLOB, bytes.subarray(0, at)];
    yield [ITEM_TEXT_STARTS_BLOB, starts];
  }

  /** The number (from 1) of a row's text facts: its id type, fee numbers and the codes of FACT_TEXTS. */
  private textFactsNumber(rows: ToiletRows, row: number, key: number, codes: Uint32Array): number {
    let facts = `${key % 4} ${rows.numbers[row * NUMBERS + FEE_REQUIRED_AT]} ${rows.numbers[row * NUMBERS + FEE_AMOUNT_AT]}`;
    for (const c of FACT_TEXTS) facts += ` ${codes[row * TEXT_COUNT + c]}`;
    let number = this.textFactsNumbers.get(facts);
    if (number === undefined) this.textFactsNumbers.set(facts, (number = this.textFactsNumbers.size + 1));
    return number;
  }

  /**
   * The arrivals in Hilbert order of their positions: the toilets near one another are near one another in
   * every column, so the rows of one answer share memory pages and cache lines instead of each being a
   * random read into hundreds of megabytes.
   */
  private spatialOrder(arrivals: number[], batchOf: Uint32Array, rowOf: Uint32Array): number[] {
    if (arrivals.length === 0) return [];
    const index = new Flatbush(arrivals.length, 16, Float64Array);
    for (const a of arrivals) {
      const batch = this.batches[batchOf[a]];
      const lon = batch.numbers[LON_COLUMN][rowOf[a]];
      const lat = batch.numbers[LAT_COLUMN][rowOf[a]];
      index.add(lon, lat, lon, lat);
    }
    index.finish();
    const sorted = (index as unknown as { _indices: Uint32Array | Uint16Array })._indices;
    return Array.from(sorted.subarray(0, arrivals.length), (item) => arrivals[item]);
  }

  /** The dictionary code (1-based) of a text of text column c. */
  private code(c: number, text: string): number {
    const dictionary = this.dictionaries[c];
    let code = dictionary.get(text);
    if (code === undefined) dictionary.set(text, (code = dictionary.size + 1));
    return code;
  }
}

/** The text columns a text-facts number stands for (with the id type and the fee numbers). */
const FACT_TEXTS = (['schemeName', 'feeCurrency', 'openingHours', 'operator', 'checked'] as const).map((name) => TEXT_COLUMNS.indexOf(name));
