// A column of optional texts as a dictionary: a code per row (0 for null, else 1 + a position in `values`).
// Names, operators, zones and hours repeat across toilets, and codes, unlike strings, can sit in shared
// memory, so every server thread reads the same million codes. Codes are as narrow as the values allow
// (a byte for the few currencies, months or hours values; two for names): at a million toilets that is
// ~20 MB less than four bytes each.
import { sharedArray } from '../rules/shared-array.js';

export type Codes = Uint8Array | Uint16Array | Uint32Array;

/** Codes for `length` rows, in shared memory, wide enough for codes up to `largest`. */
export function codesFor(largest: number, length: number): Codes {
  if (largest <= 0xff) return sharedArray(Uint8Array, length);
  if (largest <= 0xffff) return sharedArray(Uint16Array, length);
  return sharedArray(Uint32Array, length);
}

export class TextColumn {
  /** Code of each value, made on the first set(): only decisions and community rows add values. */
  private codeOf: Map<string, number> | null = null;

  /** `codes`: replaced by wider ones when set() needs a code they cannot hold. */
  constructor(
    public codes: Codes,
    readonly values: string[],
  ) {}

  get(row: number): string | null {
    const code = this.codes[row];
    return code === 0 ? null : this.values[code - 1];
  }

  set(row: number, value: string | null): void {
    const code = value === null ? 0 : this.codeFor(value);
    if (code >= 2 ** (8 * this.codes.BYTES_PER_ELEMENT)) {
      const wider = codesFor(code, this.codes.length);
      wider.set(this.codes);
      this.codes = wider;
    }
    this.codes[row] = code;
  }

  /** A column of its own with the same rows: codes copied, values extended from here on (the existing codes keep their meaning). */
  copy(): TextColumn {
    return new TextColumn(this.codes.slice(), this.values.slice());
  }

  private codeFor(value: string): number {
    if (this.codeOf === null) this.codeOf = new Map(this.values.map((v, i) => [v, i + 1]));
    let code = this.codeOf.get(value);
    if (code === undefined) this.codeOf.set(value, (code = this.values.push(value)));
    return code;
  }
}
