// Collects the toilet rows the database thread inserts into the columns the server loads
// (src/source/columns.ts): per batch, dictionary codes for the texts and each row's answer text (id, lat,
// lon, name) formatted here once instead of at every server start; put in spatial order at the end.
// Kept cheap because it runs beside the inserts: numbers stay in the batches' own arrays and a batch's
// repeated texts are coded once.
import { ItemTextWriter, ITEM_TEXT_PARTS, NUMBER_COLUMNS, TEXT_COLUMNS, type NumberColumn, type NumberColumns, type StoredColumns, type TextColumn } from '../src/source/columns.js';
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

interface Batch {
  count: number;
  numbers: Float64Array;
  keys: Float64Array;
  /** TEXT_COUNT dictionary codes per row. */
  codes: Uint32Array;
  text: Uint8Array;
  /** ITEM_TEXT_PARTS starts per row, then the end. */
  starts: Uint32Array;
}

export class ToiletColumnsBuilder {
  private readonly batches: Batch[] = [];
  private readonly dictionaries = TEXT_COLUMNS.map(() => new Map<string, number>());
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
    const { bytes, starts } = text.finish();
    this.batches.push({ count: n, numbers: rows.numbers, keys, codes, text: bytes, starts });
    this.count += n;
  }

  /**
   * The columns without the rows whose ids are in `drop`, rows in the order of a Hilbert curve through their
   * positions (Flatbush's own sort), with the id index.
   */
  finish(drop: ReadonlySet<string>): StoredColumns {
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
    // Each batch arrives in id order (a PBF lists ids ascending), so this sort merges runs (TimSort).
    const byKey = kept.slice().sort((a, b) => keys[a] - keys[b]);
    const rowOfArrival = new Uint32Array(this.count);
    order.forEach((a, row) => (rowOfArrival[a] = row));
    const idOrder = Uint32Array.from(byKey, (a) => rowOfArrival[a]);
    const count = order.length;
    const numbers = {} as Record<NumberColumn, NumberColumns[NumberColumn]>;
    for (const name of Object.keys(NUMBER_COLUMNS) as NumberColumn[]) numbers[name] = new NUMBER_COLUMNS[name](count);
    const codes = TEXT_COLUMNS.map(() => new Uint32Array(count));
    let textBytes = 0;
    for (const batch of this.batches) textBytes += batch.text.length;
    const bytes = new Uint8Array(textBytes);
    const starts = new Uint32Array(count * ITEM_TEXT_PARTS + 1);
    const targets = NUMBER_SOURCES.map(([name]) => numbers[name]);
    let at = 0;
    for (let i = 0; i < count; i++) {
      const batch = this.batches[batchOf[order[i]]];
      const row = rowOf[order[i]];
      const key = batch.keys[row];
      numbers.idType[i] = key % 4;
      numbers.idNumber[i] = Math.floor(key / 4);
      for (let c = 0; c < NUMBER_SOURCES.length; c++) {
        const value = batch.numbers[row * NUMBERS + NUMBER_AT[c]];
        targets[c][i] = Number.isNaN(value) ? NULL_VALUE[c] : value;
      }
      for (let c = 0; c < TEXT_COUNT; c++) codes[c][i] = batch.codes[row * TEXT_COUNT + c];
      const from = batch.starts[row * ITEM_TEXT_PARTS];
      for (let part = 0; part < ITEM_TEXT_PARTS; part++) starts[i * ITEM_TEXT_PARTS + part] = at + batch.starts[row * ITEM_TEXT_PARTS + part] - from;
      for (let b = from, end = batch.starts[(row + 1) * ITEM_TEXT_PARTS]; b < end; b++) bytes[at++] = batch.text[b];
    }
    starts[count * ITEM_TEXT_PARTS] = at;
    const textFacts = numberTextFacts(numbers as NumberColumns, codes);
    const texts = {} as StoredColumns['texts'];
    TEXT_COLUMNS.forEach((name, c) => (texts[name] = { codes: codes[c], values: [...this.dictionaries[c].keys()] }));
    return { count, numbers: numbers as NumberColumns, texts, itemText: { bytes: bytes.subarray(0, at), starts }, idOrder, textFacts };
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
      const lon = batch.numbers[rowOf[a] * NUMBERS + LON_AT];
      const lat = batch.numbers[rowOf[a] * NUMBERS + LAT_AT];
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

const FACT_TEXTS = (['schemeName', 'feeCurrency', 'openingHours', 'operator', 'checked'] as const).map((name) => TEXT_COLUMNS.indexOf(name));

/** The text-facts number of each row (see StoredColumns.textFacts), from its codes and fee numbers. */
function numberTextFacts(numbers: NumberColumns, codes: Uint32Array[]): Uint32Array {
  const numberOf = new Map<string, number>();
  const textFacts = new Uint32Array(numbers.lat.length);
  for (let row = 0; row < textFacts.length; row++) {
    let key = `${numbers.idType[row]} ${numbers.feeRequired[row]} ${numbers.feeAmount[row]}`;
    for (const c of FACT_TEXTS) key += ` ${codes[c][row]}`;
    let number = numberOf.get(key);
    if (number === undefined) numberOf.set(key, (number = numberOf.size + 1));
    textFacts[row] = number;
  }
  return textFacts;
}
