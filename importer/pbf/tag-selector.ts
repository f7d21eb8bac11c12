// Matching TagSelectors against a block's string table by string index, so unselected elements cost a
// couple of typed-array reads and no string decoding.
import type { StringTable } from './string-table.js';
import type { TagSelector } from './types.js';

export interface CompiledSelector {
  /** UTF-8 bytes of each selected key. */
  readonly keys: readonly Uint8Array[];
  /** Per key: UTF-8 bytes of the accepted values, or null for any value ('*'). */
  readonly values: readonly (readonly Uint8Array[] | null)[];
}

const encoder = new TextEncoder();

/** Throws a TypeError naming `name` unless `selector` is a TagSelector. */
export function assertTagSelector(selector: unknown, name: string): asserts selector is TagSelector {
  if (typeof selector !== 'object' || selector === null || Array.isArray(selector)) {
    throw new TypeError(`${name} must be an object of key → '*' | string[]`);
  }
  for (const [key, values] of Object.entries(selector)) {
    const valid = values === '*' || (Array.isArray(values) && values.every((value) => typeof value === 'string'));
    if (!valid) throw new TypeError(`${name}.${key} must be '*' or an array of strings`);
  }
}

export function compileSelector(selector: TagSelector): CompiledSelector {
  const entries = Object.entries(selector);
  return {
    keys: entries.map(([key]) => encoder.encode(key)),
    values: entries.map(([, values]) => (values === '*' ? null : values.map((value) => encoder.encode(value)))),
  };
}

const UNKNOWN = -2;
const NO_RULE = -1;
const VALUE_YES = 1;
const VALUE_NO = 2;

/** A selector bound to one block's string table, caching per string index what it matched. */
export class BlockSelector {
  readonly empty: boolean;
  /** Per string index: the selector entry whose key it is, NO_RULE, or UNKNOWN until first asked. */
  private readonly ruleOfKey: Int32Array;
  /** Per selector entry with a value list, per string index: VALUE_YES, VALUE_NO or 0 until first asked. */
  private readonly valueVerdicts: (Int8Array | undefined)[];

  constructor(
    private readonly selector: CompiledSelector,
    private readonly table: StringTable,
  ) {
    this.empty = selector.keys.length === 0;
    this.ruleOfKey = new Int32Array(this.empty ? 0 : table.count).fill(UNKNOWN);
    this.valueVerdicts = new Array(selector.keys.length);
  }

  /** Whether the tag (key, value), given as string-table indexes, selects its element. */
  matches(key: number, value: number): boolean {
    if (this.empty) return false;
    let rule = this.ruleOfKey[key];
    if (rule === UNKNOWN) rule = this.ruleOfKey[key] = this.findRule(key);
    else if (rule === undefined) throw new Error(`string index ${key} outside the string table`);
    if (rule === NO_RULE) return false;
    const accepted = this.selector.values[rule];
    if (accepted === null) return true;
    if (value >= this.table.count) throw new Error(`string index ${value} outside the string table`);
    const verdicts = (this.valueVerdicts[rule] ??= new Int8Array(this.table.count));
    if (verdicts[value] === 0) verdicts[value] = accepted.some((bytes) => this.table.equals(value, bytes)) ? VALUE_YES : VALUE_NO;
    return verdicts[value] === VALUE_YES;
  }

  private findRule(key: number): number {
    const keys = this.selector.keys;
    for (let rule = 0; rule < keys.length; rule++) if (this.table.equals(key, keys[rule])) return rule;
    return NO_RULE;
  }
}
