// Rows of the toilets table, packed so a decoder thread can hand a block's worth to the database thread
// cheaply: numbers and enum codes of all rows in one transferable Float64Array, other texts as indexes into
// one list of distinct strings (zones and countries repeat, so most rows add only their id and tags JSON),
// and each row's answer text for the column store, made here because the database thread is the busier.
// Enum columns travel as codes and become text in SQL (CASE), because better-sqlite3 binds a short string
// for ~100 ns and an integer for far less: that saves about a sixth of the insert time.
import { ACCESS, ACCESS_RULE, CHANGING_TABLE, GENDER, WHEELCHAIR, type ToiletFacts } from '../src/rules/facts.js';
import { ItemTextWriter, type ItemText } from '../src/source/columns.js';

/** Columns of the toilets table, in insert order. */
export const TOILET_COLUMNS = [
  'id', 'kind', 'lat', 'lon', 'name', 'operator', 'access', 'access_rule', 'scheme_name', 'fee_required', 'fee_amount',
  'fee_currency', 'opening_hours', 'wheelchair', 'changing_table', 'gender', 'checked', 'quality', 'last_edited', 'time_zone',
  'country', 'tags', 'details',
] as const;
export type Column = (typeof TOILET_COLUMNS)[number];

/** Every subset of GENDER in spec order, as the gender column stores it ('' for none). */
const GENDER_LISTS = Array.from({ length: 1 << GENDER.length }, (_, bits) => GENDER.filter((_, i) => bits & (1 << i)).join(','));

/** The values of each enum column; a row holds the value's position. */
const ENUMS: Partial<Record<Column, readonly string[]>> = {
  kind: ['toilet', 'host_toilet'],
  access: ACCESS,
  access_rule: ACCESS_RULE,
  wheelchair: WHEELCHAIR,
  changing_table: CHANGING_TABLE,
  gender: GENDER_LISTS,
};

/** Columns stored in `numbers`, in the order add() pushes them: numbers, then enum codes. Others are text. */
const NUMBER_COLUMNS: readonly Column[] = ['lat', 'lon', 'fee_required', 'fee_amount', 'quality', 'last_edited', 'kind', 'access', 'access_rule', 'wheelchair', 'changing_table', 'gender'];
export const NUMBERS = NUMBER_COLUMNS.length;
export const TEXTS = TOILET_COLUMNS.length - NUMBERS;

/** The placeholder of each column in an INSERT: `?`, or a CASE turning an enum code into its text. */
export const TOILET_PLACEHOLDERS = TOILET_COLUMNS.map((column) => {
  const values = ENUMS[column];
  return values ? `CASE ? ${values.map((value, code) => `WHEN ${code} THEN '${value}'`).join(' ')} END` : '?';
});

const codes = Object.fromEntries(Object.entries(ENUMS).map(([column, values]) => [column, new Map(values.map((value, code) => [value, code]))]));

function codeOf(column: Column, value: string): number {
  const code = codes[column].get(value);
  if (code === undefined) throw new Error(`toilets.${column} has no value ${JSON.stringify(value)}`);
  return code;
}

/** What a row is made of. */
export interface ToiletRecord {
  /** n/w/r and the OSM id. */
  id: string;
  host: boolean;
  lat: number;
  lon: number;
  facts: ToiletFacts;
  /** Epoch seconds, or null. */
  lastEdited: number | null;
  timeZone: string;
  country: string | null;
  /** The raw tags as JSON. */
  tags: string;
  /** The details (src/rules/details.ts) as the answer's ASCII JSON, or null when the tags give none. */
  details: string | null;
}

export interface ToiletRows {
  count: number;
  /** NUMBERS per row; NaN is NULL. */
  numbers: Float64Array;
  /** TEXTS per row: index into `strings`, -1 for NULL. */
  texts: Int32Array;
  strings: string[];
  /** Each row's answer text (id, name, position) as the column store keeps it. */
  itemText: ItemText;
}

/** Rows a new builder has room for; it doubles when a batch needs more (blocks hold up to ~8,000 nodes). */
const INITIAL_ROWS = 1024;

/** The gender code per shared array from the mapping. */
const genderCodes = new WeakMap<readonly string[], number>();

/**
 * Rows added one by one, taken as ToiletRows a batch at a time. A decoder keeps one builder: its typed
 * arrays keep their size from batch to batch, where JS arrays grown by push took fresh memory for every
 * batch (V8 gives an array over ~128 KB pages of its own), ~45,000 page faults of an import at a million.
 */
export class ToiletRowsBuilder {
  private numbers = new Float64Array(INITIAL_ROWS * NUMBERS);
  private texts = new Int32Array(INITIAL_ROWS * TEXTS);
  /** Rows added since the last take, and the texts written. */
  private rows = 0;
  private textsWritten = 0;
  private strings: string[] = [];
  private readonly shared = new Map<string, number>();
  /** The text last stored in each repeated column, and its index: consecutive rows often agree. */
  private readonly lastText: (string | null)[] = [];
  private readonly lastIndex: number[] = [];

  get count(): number {
    return this.rows;
  }

  add(r: ToiletRecord): void {
    const f = r.facts;
    let gender = genderCodes.get(f.gender);
    if (gender === undefined) genderCodes.set(f.gender, (gender = codeOf('gender', f.gender.join(','))));
    if ((this.rows + 1) * NUMBERS > this.numbers.length) this.grow();
    // in NUMBER_COLUMNS order
    const numbers = this.numbers;
    let at = this.rows++ * NUMBERS;
    numbers[at++] = r.lat;
    numbers[at++] = r.lon;
    numbers[at++] = f.fee.required === null ? NaN : f.fee.required ? 1 : 0;
    numbers[at++] = f.fee.amount ?? NaN;
    numbers[at++] = f.quality;
    numbers[at++] = r.lastEdited ?? NaN;
    numbers[at++] = r.host ? 1 : 0;
    numbers[at++] = codeOf('access', f.access);
    numbers[at++] = codeOf('access_rule', f.access_rule);
    numbers[at++] = codeOf('wheelchair', f.wheelchair);
    numbers[at++] = codeOf('changing_table', f.changing_table);
    numbers[at] = gender;
    this.unique(r.id);
    this.repeated(0, f.name);
    this.repeated(1, f.operator);
    this.repeated(2, f.scheme_name);
    this.repeated(3, f.fee.currency);
    this.repeated(4, f.opening_hours);
    this.repeated(5, f.checked);
    this.repeated(6, r.timeZone);
    this.repeated(7, r.country);
    this.unique(r.tags);
    if (r.details === null) this.text(-1);
    else this.unique(r.details);
  }

  /** The rows added since the last take, and the buffers to transfer. */
  take(): { rows: ToiletRows; transfer: ArrayBuffer[] } {
    const count = this.count;
    const numbers = this.numbers.slice(0, count * NUMBERS);
    const texts = this.texts.slice(0, count * TEXTS);
    const strings = this.strings;
    const itemText = new ItemTextWriter(count);
    for (let row = 0; row < count; row++) {
      const name = texts[row * TEXTS + NAME_AT];
      itemText.add(strings[texts[row * TEXTS + ID_AT]], numbers[row * NUMBERS + LAT_AT], numbers[row * NUMBERS + LON_AT], name < 0 ? null : strings[name]);
    }
    // The writer's buffer grows by doubling; the database thread keeps these bytes to the end, so exactly.
    const { bytes, starts } = itemText.finish();
    const rows: ToiletRows = { count, numbers, texts, strings, itemText: { bytes: bytes.slice(), starts } };
    this.rows = 0;
    this.textsWritten = 0;
    this.strings = [];
    this.shared.clear();
    this.lastText.length = 0;
    this.lastIndex.length = 0;
    const transfer = [numbers.buffer, texts.buffer, rows.itemText.bytes.buffer, rows.itemText.starts.buffer] as ArrayBuffer[];
    return { rows, transfer };
  }

  private unique(value: string): void {
    this.text(this.strings.push(value) - 1);
  }

  private text(index: number): void {
    this.texts[this.textsWritten++] = index;
  }

  private grow(): void {
    const numbers = new Float64Array(this.numbers.length * 2);
    numbers.set(this.numbers);
    this.numbers = numbers;
    const texts = new Int32Array(this.texts.length * 2);
    texts.set(this.texts);
    this.texts = texts;
  }

  /** A text of repeated column `column` (0, 1, … in add's order). */
  private repeated(column: number, value: string | null): void {
    if (value === null) {
      this.text(-1);
      return;
    }
    if (value === this.lastText[column]) {
      this.text(this.lastIndex[column]);
      return;
    }
    let index = this.shared.get(value);
    if (index === undefined) this.shared.set(value, (index = this.strings.push(value) - 1));
    this.lastText[column] = value;
    this.lastIndex[column] = index;
    this.text(index);
  }
}

/** Per column: [true, i] for numbers[row * NUMBERS + i], [false, i] for texts[row * TEXTS + i]. */
const SOURCES: [numeric: boolean, index: number][] = (() => {
  let text = 0;
  return TOILET_COLUMNS.map((name) => (NUMBER_COLUMNS.includes(name) ? [true, NUMBER_COLUMNS.indexOf(name)] : [false, text++]));
})();

/** Where a column's value sits in a row: numbers[row * NUMBERS + at] or texts[row * TEXTS + at] (NaN, -1: NULL). */
export function valueAt(column: Column): { numeric: boolean; at: number } {
  const [numeric, at] = SOURCES[TOILET_COLUMNS.indexOf(column)];
  return { numeric, at };
}

const ID_AT = valueAt('id').at;
const NAME_AT = valueAt('name').at;
const LAT_AT = valueAt('lat').at;
const LON_AT = valueAt('lon').at;

/** Writes row `row` of `rows` to params[at .. at + TOILET_COLUMNS.length), for TOILET_PLACEHOLDERS; NULLs as null. */
export function fillToiletParams(params: unknown[], at: number, rows: ToiletRows, row: number): void {
  for (let c = 0; c < SOURCES.length; c++) {
    const [numeric, index] = SOURCES[c];
    if (numeric) {
      const value = rows.numbers[row * NUMBERS + index];
      params[at + c] = Number.isNaN(value) ? null : value;
    } else {
      const value = rows.texts[row * TEXTS + index];
      params[at + c] = value < 0 ? null : rows.strings[value];
    }
  }
}
