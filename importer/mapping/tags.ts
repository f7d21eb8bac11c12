// Reading OSM tag values (doc §0): normalisation, `;` lists, and the plain vs `toilets:` key families.

/** OSM tags of one object, as read from the extract. */
export type Tags = Record<string, string>;

/**
 * Tags the mapping reads fast: a null-prototype object is a dictionary to V8, so looking up the ~50 keys the
 * mapping asks for is a hash probe, where a million differently-shaped plain objects would make every lookup
 * megamorphic (about ten times slower). Keeps the key order, so the JSON is the same.
 */
export function lookupTags(tags: Tags = {}): Tags {
  return Object.assign(Object.create(null) as Tags, tags);
}

/**
 * A key as a standalone toilet writes it (`wheelchair`) and as a host writes it for its toilets
 * (`toilets:wheelchair`).
 */
export interface KeyPair {
  readonly plain: string;
  readonly scoped: string;
}

export function keyPair(plain: string, scoped = `toilets:${plain}`): KeyPair {
  return { plain, scoped };
}

/** Code for "no usable value": the key is absent, empty, or says `unknown`. */
export const ABSENT = -1;
/** Code for "a value is tagged but no item of it is in the table". */
export const UNREADABLE = -2;

/**
 * Normalised value → code; codes are >= 0, and a lower code is the more cautious statement. Also remembers
 * the code of each raw value it was asked about (codeOf): an import asks about `yes` a million times.
 */
export class CodeTable extends Map<string, number> {
  readonly byRawValue = new Map<string, number>();
}

/** Raw values remembered per table; a bound for tables asked about free text. */
const MAX_REMEMBERED = 10_000;

export function codeTable(entries: Record<string, number>): CodeTable {
  return new CodeTable(Object.entries(entries));
}

const INNER_SPACE = /\s+/g;

/** Doc §0: trim, lower-case, collapse inner whitespace (enum keys only, never name/operator). */
export function normaliseEnum(value: string): string {
  return isNormalised(value) ? value : value.trim().toLowerCase().replace(INNER_SPACE, ' ');
}

/** Printable ASCII without capitals or spaces: what normaliseEnum returns unchanged (the usual `yes`, `no;toilets`). */
function isNormalised(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || (c >= 0x41 && c <= 0x5a)) return false;
  }
  return true;
}

/** Trim and collapse whitespace, keeping case; empty becomes null. */
export function normaliseText(value: string | undefined): string | null {
  if (value === undefined) return null;
  const text = value.trim().replace(INNER_SPACE, ' ');
  return text === '' ? null : text;
}

function itemCode(item: string, table: CodeTable): number {
  if (item === '') return ABSENT;
  const code = table.get(item);
  return code === undefined ? UNREADABLE : code;
}

/**
 * Maps a tag value through `table`. A `;` list resolves to its most cautious known item (lowest code),
 * so `wheelchair=yes;limited` reads as `limited`; unknown items are ignored.
 */
export function codeOf(value: string | undefined, table: CodeTable): number {
  if (value === undefined) return ABSENT;
  let code = table.byRawValue.get(value);
  if (code === undefined) {
    code = codeOfValue(value, table);
    if (table.byRawValue.size >= MAX_REMEMBERED) table.byRawValue.clear();
    table.byRawValue.set(value, code);
  }
  return code;
}

function codeOfValue(value: string, table: CodeTable): number {
  const normalised = normaliseEnum(value);
  if (!normalised.includes(';')) return itemCode(normalised, table);
  let best = ABSENT;
  let unreadable = false;
  for (const item of normalised.split(';')) {
    const code = itemCode(item.trim(), table);
    if (code >= 0) {
      if (best < 0 || code < best) best = code;
    } else if (code === UNREADABLE) unreadable = true;
  }
  return best >= 0 ? best : unreadable ? UNREADABLE : ABSENT;
}

/**
 * Doc §0 precedence. A host reads only the `toilets:` key. A standalone toilet reads the `toilets:` key
 * when it gives a known value (it is the more specific statement), else the plain key.
 * Returns UNREADABLE over ABSENT when neither is known but one was tagged with something odd.
 */
export function readCode(tags: Tags, key: KeyPair, host: boolean, table: CodeTable): number {
  const scoped = codeOf(tags[key.scoped], table);
  if (host || scoped >= 0) return scoped;
  const plain = codeOf(tags[key.plain], table);
  return plain >= 0 ? plain : Math.min(scoped, plain);
}

/** The raw value by the same precedence, for keys read as text (`centralkey`, `gender`, counts). */
export function readValue(tags: Tags, key: KeyPair, host: boolean): string | undefined {
  return host ? tags[key.scoped] : (tags[key.scoped] ?? tags[key.plain]);
}

/** Yes/no keys (`locked`, `disused`, `nette_toilette` …). */
export const NO = 0;
export const YES = 1;
export const YES_NO = codeTable({ no: NO, yes: YES, unknown: ABSENT });

export function isYes(value: string | undefined): boolean {
  return codeOf(value, YES_NO) === YES;
}

/** The first item of a `;` list, trimmed; null when empty. Used for operator ("A;B" → "A"). */
export function firstItem(value: string | undefined): string | null {
  if (value === undefined) return null;
  const end = value.indexOf(';');
  const item = (end < 0 ? value : value.slice(0, end)).trim();
  return item === '' ? null : item;
}
