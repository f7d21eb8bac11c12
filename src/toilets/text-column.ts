// A column of optional texts as a dictionary: a code per row (0 for null, else 1 + a position in `values`).
// Names, operators, zones and hours repeat across toilets, and codes, unlike strings, can sit in shared
// memory, so every server thread reads the same million codes.

export class TextColumn {
  /** Code of each value, made on the first set(): only decisions and community rows add values. */
  private codeOf: Map<string, number> | null = null;

  constructor(
    readonly codes: Uint32Array,
    readonly values: string[],
  ) {}

  get(row: number): string | null {
    const code = this.codes[row];
    return code === 0 ? null : this.values[code - 1];
  }

  set(row: number, value: string | null): void {
    this.codes[row] = value === null ? 0 : this.codeFor(value);
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
