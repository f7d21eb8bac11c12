// Toilet result items, written as bytes (JsonBytes). An item is made of fragments most toilets share
// (the enum members combined into one fragment per combination, each distinct operator, hours, scheme or
// check date as its member once) and slices of the column store's item text (id, name, position); per
// request only the hours state, the partner and the nearest-search numbers are written. Nothing is
// rendered per toilet ahead of time, so the first answer showing a toilet costs what any later one does.
// Members are grouped by how they are made, not in the spec table's order (JSON objects are unordered).
import { ACCESS, ACCESS_RULE, CHANGING_TABLE, CONFIDENCE, GENDER, VERIFICATION_STATE, WHEELCHAIR } from './facts.js';
import { hoursOf, SOURCE_OF_ID_TYPE, Trait, type ToiletTable } from './table.js';
import type { MergedPartner, Snapshot } from './snapshot.js';
import { asciiJson } from './ascii-json.js';
import { fragment, type JsonBytes } from './json-bytes.js';
import { ID_OPEN, ITEM_TEXT_PARTS } from '../source/columns.js';

const quoteOrNull = (s: string | null) => (s === null ? 'null' : asciiJson(s));

export interface HoursAnswer {
  open_now: boolean | 'unknown';
  closes_at: string | null;
}

const UNKNOWN_HOURS: HoursAnswer = { open_now: 'unknown', closes_at: null };

/** Closes provenance and adds the overlay members, for a toilet without overlay data. */
const NO_OVERLAY_TEXT = ',"decided":{}},"last_confirmed_at":null,"confirmations":0,"cleanliness":null';
const NO_OVERLAY = fragment(NO_OVERLAY_TEXT);
const NULL = fragment('null');
const UNKNOWN_HOURS_MEMBERS = fragment(',"open_now":"unknown","closes_at":null');
const OPEN_NOW = [fragment(',"open_now":false,"closes_at":'), fragment(',"open_now":true,"closes_at":'), fragment(',"open_now":"unknown","closes_at":')];
const NO_PARTNER = fragment(',"partner":null');
const GOOGLE_MAPS = fragment('","directions":{"google_maps":"https://www.google.com/maps/dir/?api=1&destination=');
const APPLE_MAPS = fragment('&travelmode=walking","apple_maps":"https://maps.apple.com/?daddr=');
const GEO = fragment('&dirflg=w"},"geo":"geo:');
/** What closes an item: the quote of its last value and its brace; with the comma before the next item. */
export const ITEM_END = fragment('"}');
export const ITEM_END_NEXT = fragment('"},');

/** fee.required by feeRequired + 1. */
const FEE_REQUIRED = ['null', 'false', 'true'];
const QUALITY_BITS = 4;

/**
 * Which enum and quality fragments a row's item uses (`quality`: its qualityCode), as one number the
 * snapshot keeps per row (set when the row's facts or quality change): one read per item instead of one
 * per enum column. Numbers are given out in order of first use, per thread, so the renderer indexes a
 * short array: of the ~1.2M combinations of values an answer meets a few hundred.
 */
export function fragmentKey(t: ToiletTable, row: number, quality: number): number {
  const enums = (((t.access[row] * ACCESS_RULE.length + t.accessRule[row]) * WHEELCHAIR.length + t.wheelchair[row]) * CHANGING_TABLE.length + t.changingTable[row]) * (1 << GENDER.length) + t.gender[row];
  const combination = (enums << QUALITY_BITS) | quality;
  let key = keyOfCombination.get(combination);
  if (key === undefined) keyOfCombination.set(combination, (key = combinationOfKey.push(combination) - 1));
  return key;
}

/** The fragment keys given out on this thread, both ways. */
const keyOfCombination = new Map<number, number>();
const combinationOfKey: number[] = [];

/**
 * Each row's text facts as one fragment: source, scheme_name, fee, opening_hours, operator and provenance up
 * to its "checked" value. Rows share them (the combinations are far fewer than the toilets): the importer
 * numbers each combination (the column store's textFacts), and a fragment is made when a row of its
 * number is first rendered, so an answer reads one number per toilet for all of these instead of seven
 * columns. A row with overlay data (a decision may have changed its facts; forget when it changes) or
 * that the store does not cover (community toilets) is numbered here by its values instead, so the
 * stored numbers are read where they lie, in shared memory, and no thread copies them.
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

  forget(row: number): void {
    this.idOfRowHere.delete(row);
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
    const fee = `{"required":${FEE_REQUIRED[t.feeRequired[row] + 1]},"amount":${Number.isNaN(amount) ? 'null' : amount},"currency":${quoteOrNull(t.feeCurrency.get(row))}}`;
    return fragment(
      `,"source":"${source}","scheme_name":${quoteOrNull(t.schemeName.get(row))},"fee":${fee},"opening_hours":${quoteOrNull(t.openingHours.get(row))}` +
        `,"operator":${quoteOrNull(t.operator.get(row))},"provenance":{"source":"${source}","checked":${quoteOrNull(t.checked.get(row))}`,
    );
  }
}

export class ToiletRenderer {
  private readonly url: Uint8Array;
  /** The common tail: unknown hours, no partner, then the url up to the id. */
  private readonly plainTail: Uint8Array;
  /** The same behind the overlay members of a toilet without overlay data, for the most common item. */
  private readonly plainRest: Uint8Array;
  /** Enum and quality members, by fragmentKey. */
  private readonly enums: (Uint8Array | undefined)[] = [];

  constructor(baseUrl: string) {
    this.url = fragment(`,"url":"${baseUrl}/t/`);
    const plainTail = `,"open_now":"unknown","closes_at":null,"partner":null,"url":"${baseUrl}/t/`;
    this.plainTail = fragment(plainTail);
    this.plainRest = fragment(NO_OVERLAY_TEXT + plainTail);
  }

  /**
   * Writes a row's item up to its last value, without that value's closing quote: close it with
   * ITEM_END (or ITEM_END_NEXT), or with a quote and more members (nearest answers). Fewer, longer
   * copies are cheaper, so constant pieces that meet are written as one.
   */
  item(out: JsonBytes, snapshot: Snapshot, row: number, nowMs: number): void {
    const t = snapshot.table;
    const text = t.itemText.bytes;
    const at = row * ITEM_TEXT_PARTS;
    const start = t.itemText.starts[at];
    const idEnd = t.itemText.starts[at + 1];
    const position = t.itemText.starts[at + 2];
    const end = t.itemText.starts[at + 4];
    const traits = t.traits[row];
    const overlay = traits & Trait.HasOverlay ? snapshot.overlayByRow.get(row) : undefined;

    if (overlay?.headJson) out.bytes(overlay.headJson);
    else out.range(text, start, position);
    const key = snapshot.fragmentKey[row];
    out.bytes(this.enums[key] ?? this.enumMembers(key));
    out.bytes(snapshot.textFacts.of(t, row, traits));
    const hasHours = traits & Trait.HasHours;
    if (overlay === undefined && !hasHours) {
      out.bytes(this.plainRest);
    } else {
      if (overlay) {
        out.bytes(overlay.decidedJson);
        out.bytes(overlay.json);
      } else {
        out.bytes(NO_OVERLAY);
      }
      const partner = overlay?.partner;
      if (!hasHours && !partner) {
        out.bytes(this.plainTail);
      } else {
        if (hasHours) hoursMembers(out, hoursAt(t, row, nowMs));
        else out.bytes(UNKNOWN_HOURS_MEMBERS);
        if (partner) out.ascii(`,"partner":${partnerJson(partner, nowMs)}`);
        else out.bytes(NO_PARTNER);
        out.bytes(this.url);
      }
    }
    out.range(text, start + ID_OPEN.length, idEnd);
    out.bytes(GOOGLE_MAPS);
    out.range(text, position, end);
    out.bytes(APPLE_MAPS);
    out.range(text, position, end);
    out.bytes(GEO);
    out.range(text, position, end);
  }

  /** The enum and quality members of a fragmentKey, made on first use. */
  private enumMembers(key: number): Uint8Array {
    const combination = combinationOfKey[key];
    const quality = combination & ((1 << QUALITY_BITS) - 1);
    let rest = combination >>> QUALITY_BITS;
    const gender = rest % (1 << GENDER.length);
    rest = (rest - gender) / (1 << GENDER.length);
    const changingTable = rest % CHANGING_TABLE.length;
    rest = (rest - changingTable) / CHANGING_TABLE.length;
    const wheelchair = rest % WHEELCHAIR.length;
    rest = (rest - wheelchair) / WHEELCHAIR.length;
    const rule = rest % ACCESS_RULE.length;
    const access = (rest - rule) / ACCESS_RULE.length;
    const members = fragment(
      `,"access":"${ACCESS[access]}","access_rule":"${ACCESS_RULE[rule]}","wheelchair":"${WHEELCHAIR[wheelchair]}"` +
        `,"changing_table":"${CHANGING_TABLE[changingTable]}","gender":${JSON.stringify(GENDER.filter((_, i) => gender & (1 << i)))}` +
        `,"verification_state":"${VERIFICATION_STATE[Math.floor(quality / CONFIDENCE.length)]}","confidence":"${CONFIDENCE[quality % CONFIDENCE.length]}"`,
    );
    return (this.enums[key] = members);
  }
}

/** A row's latitude or longitude as its item text has it. */
export function writeCoordinate(out: JsonBytes, t: ToiletTable, row: number, axis: 'lat' | 'lon'): void {
  const at = row * ITEM_TEXT_PARTS;
  const starts = t.itemText.starts;
  if (axis === 'lat') out.range(t.itemText.bytes, starts[at + 2], starts[at + 3]);
  else out.range(t.itemText.bytes, starts[at + 3] + 1, starts[at + 4]); // behind the comma
}

function hoursMembers(out: JsonBytes, h: HoursAnswer): void {
  out.bytes(OPEN_NOW[h.open_now === 'unknown' ? 2 : h.open_now ? 1 : 0]);
  if (h.closes_at === null) out.bytes(NULL);
  else out.ascii(asciiJson(h.closes_at));
}

export function hoursAt(t: ToiletTable, row: number, nowMs: number): HoursAnswer {
  const compiled = t.traits[row] & Trait.HasHours ? hoursOf(t, row) : null;
  return compiled ? compiled.stateAt(nowMs) : UNKNOWN_HOURS;
}

/** The partner object: the business's own hours and live switch, evaluated at the toilet's local time. */
function partnerJson(p: MergedPartner, nowMs: number): string {
  let state: HoursAnswer = UNKNOWN_HOURS;
  if (p.closed_until > nowMs) state = { open_now: false, closes_at: null };
  else if (p.hours !== null) state = p.hours.stateAt(nowMs);
  return (
    `{"name":${asciiJson(p.name)},"tier":"${p.tier}","conditions":${quoteOrNull(p.conditions)},"opening_hours":${quoteOrNull(p.opening_hours)}` +
    `,"open_now":${state.open_now === 'unknown' ? '"unknown"' : state.open_now},"closes_at":${quoteOrNull(state.closes_at)}}`
  );
}
