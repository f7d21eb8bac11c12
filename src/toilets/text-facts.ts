// The text facts of a row (source, scheme, fee, hours, operator, provenance up to "checked") as one shared
// fragment per distinct combination: made on first use, numbered by the importer where it can be.
import { asciiJson } from '../rules/ascii-json.js';
import { fragment } from '../rules/json-bytes.js';
import { SOURCE_OF_ID_TYPE, Trait, type ToiletTable } from './table.js';

/** fee.required by feeRequired + 1. */
const FEE_REQUIRED = ['null', 'false', 'true'];

/**
 * Each row's text facts as one fragment: source, scheme_name, fee, opening_hours, operator and provenance up
 * to its "checked" value. Rows share them (the combinations are far fewer than the toilets): the importer
 * numbers each combination (the column store's textFacts), and a fragment is made when a row of its
 * number is first rendered, so an answer reads one number per toilet for all of these instead of seven
 * columns. A row with overlay data (renumber it when that changes) or that the store does not cover
 * (community toilets) is numbered here: by its values when a decision may have changed them, else with
 * its stored number. So the stored numbers are read where they lie, in shared memory, and no thread
 * copies them.
 */
export class TextFactsCache {
  /** Numbers of the rows numbered here. */
  private readonly idOfRowHere = new Map<number, number>();
  private readonly fragments: (Uint8Array | undefined)[];
  private readonly idOfKey = new Map<string, number>();

  /** `stored`: the importer's numbers (1-based) of the source rows. */
  constructor(private readonly stored: Uint32Array) {
    let largest = 0;
    for (let i = 0; i < stored.length; i++) if (stored[i] > largest) largest = stored[i];
    this.fragments = new Array(largest + 1);
  }

  /** `traits`: the row's (t.traits[row], which the caller has read already). */
  of(t: ToiletTable, row: number, traits: number): Uint8Array {
    const id = row < this.stored.length && !(traits & Trait.HasOverlay) ? this.stored[row] : this.idHere(t, row);
    return (this.fragments[id] ??= this.fragmentOf(t, row));
  }

  /** After the row's overlay changed; `decided`: a decision changed its facts (else the importer's number holds). */
  renumber(row: number, decided: boolean): void {
    if (decided || row >= this.stored.length) this.idOfRowHere.delete(row);
    else this.idOfRowHere.set(row, this.stored[row]);
  }

  private idHere(t: ToiletTable, row: number): number {
    let id = this.idOfRowHere.get(row);
    if (id === undefined) this.idOfRowHere.set(row, (id = this.idOf(t, row)));
    return id;
  }

  private idOf(t: ToiletTable, row: number): number {
    const key = [t.idType[row], t.schemeName.get(row), t.feeRequired[row], t.feeAmount[row], t.feeCurrency.get(row), t.openingHours.get(row), t.operator.get(row), t.checked.get(row)]
      .map((value) => (value === null ? '\u0001' : value))
      .join('\u0000');
    let id = this.idOfKey.get(key);
    if (id === undefined) this.idOfKey.set(key, (id = this.fragments.push(undefined) - 1));
    return id;
  }

  private fragmentOf(t: ToiletTable, row: number): Uint8Array {
    const source = SOURCE_OF_ID_TYPE[t.idType[row]];
    const amount = t.feeAmount[row];
    const fee = `{"required":${FEE_REQUIRED[t.feeRequired[row] + 1]},"amount":${Number.isNaN(amount) ? 'null' : amount},"currency":${asciiJson(t.feeCurrency.get(row))}}`;
    return fragment(
      `,"source":"${source}","scheme_name":${asciiJson(t.schemeName.get(row))},"fee":${fee},"opening_hours":${asciiJson(t.openingHours.get(row))}` +
        `,"operator":${asciiJson(t.operator.get(row))},"provenance":{"source":"${source}","checked":${asciiJson(t.checked.get(row))}`,
    );
  }
}
