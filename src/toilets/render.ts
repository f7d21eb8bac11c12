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
import { ITEM_TEXT_PARTS } from '../source/columns.js';

const quoteOrNull = (s: string | null) => (s === null ? 'null' : asciiJson(s));

export interface HoursAnswer {
  open_now: boolean | 'unknown';
  closes_at: string | null;
}

const UNKNOWN_HOURS: HoursAnswer = { open_now: 'unknown', closes_at: null };

const ID_OPEN = fragment('{"id":"');
const NAME = fragment('","name":');
const LAT = fragment(',"lat":');
const LON = fragment(',"lon":');
const NO_OVERLAY = fragment(',"last_confirmed_at":null,"confirmations":0,"cleanliness":null');
const NO_DECISIONS = fragment(',"decided":{}}');
const NULL = fragment('null');
const UNKNOWN_HOURS_MEMBERS = fragment(',"open_now":"unknown","closes_at":null');
const OPEN_NOW = [fragment(',"open_now":false,"closes_at":'), fragment(',"open_now":true,"closes_at":'), fragment(',"open_now":"unknown","closes_at":')];
const NO_PARTNER = fragment(',"partner":null');
const GOOGLE_MAPS = fragment('","directions":{"google_maps":"https://www.google.com/maps/dir/?api=1&destination=');
const APPLE_MAPS = fragment('&travelmode=walking","apple_maps":"https://maps.apple.com/?daddr=');
const GEO = fragment('&dirflg=w"},"geo":"geo:');
const QUOTE = fragment('"');
export const ITEM_CLOSE = fragment('}');

/** fee.required by feeRequired + 1. */
const FEE_REQUIRED = ['null', 'false', 'true'];
/** Enum members combined: access, access_rule, wheelchair, changing_table, gender (bits). */
const ENUM_COMBINATIONS = ACCESS.length * ACCESS_RULE.length * WHEELCHAIR.length * CHANGING_TABLE.length * (1 << GENDER.length);
const QUALITY_BITS = 4;
/** verification_state and confidence. */
const QUALITY = VERIFICATION_STATE.flatMap((state) => CONFIDENCE.map((level) => fragment(`,"verification_state":"${state}","confidence":"${level}"`)));

/**
 * Which enum and quality fragments a row's item uses, as one number the snapshot keeps per row (set when
 * the row's facts or quality change): one read per item instead of one per enum column.
 */
export function fragmentKey(t: ToiletTable, row: number, verification: number, confidence: number): number {
  const enums = (((t.access[row] * ACCESS_RULE.length + t.accessRule[row]) * WHEELCHAIR.length + t.wheelchair[row]) * CHANGING_TABLE.length + t.changingTable[row]) * (1 << GENDER.length) + t.gender[row];
  return (enums << QUALITY_BITS) | (verification * CONFIDENCE.length + confidence);
}

/**
 * Each row's text facts as one fragment: source, scheme_name, fee, opening_hours, operator and provenance up
 * to its "checked" value. Rows share them (the combinations are far fewer than the toilets); a row finds
 * its fragment through an id remembered on first use, so an answer reads one number per toilet for all of
 * these instead of seven columns. Kept per snapshot; forget() when a decision changes a row's facts.
 */
export class TextFactsCache {
  /** Fragment id of each row; 0: not looked up yet. */
  private readonly idOfRow: Uint32Array;
  private readonly fragments: Uint8Array[] = [new Uint8Array(0)];
  private readonly idOfKey = new Map<string, number>();

  constructor(count: number) {
    this.idOfRow = new Uint32Array(count);
  }

  of(t: ToiletTable, row: number): Uint8Array {
    const id = this.idOfRow[row];
    return this.fragments[id !== 0 ? id : (this.idOfRow[row] = this.idOf(t, row))];
  }

  forget(row: number): void {
    this.idOfRow[row] = 0;
  }

  private idOf(t: ToiletTable, row: number): number {
    const scheme = t.schemeName[row];
    const required = t.feeRequired[row];
    const amount = t.feeAmount[row];
    const currency = t.feeCurrency[row];
    const hours = t.openingHours[row];
    const operator = t.operator[row];
    const checked = t.checked[row];
    const key = [t.idType[row], scheme, required, amount, currency, hours, operator, checked].map((value) => (value === null ? '\u0001' : value)).join('\u0000');
    let id = this.idOfKey.get(key);
    if (id === undefined) {
      const source = SOURCE_OF_ID_TYPE[t.idType[row]];
      const fee = `{"required":${FEE_REQUIRED[required + 1]},"amount":${Number.isNaN(amount) ? 'null' : amount},"currency":${quoteOrNull(currency)}}`;
      id = this.fragments.push(fragment(
        `,"source":"${source}","scheme_name":${quoteOrNull(scheme)},"fee":${fee},"opening_hours":${quoteOrNull(hours)}` +
          `,"operator":${quoteOrNull(operator)},"provenance":{"source":"${source}","checked":${quoteOrNull(checked)}`,
      )) - 1;
      this.idOfKey.set(key, id);
    }
    return id;
  }
}

export class ToiletRenderer {
  private readonly url: Uint8Array;
  private readonly enums: (Uint8Array | undefined)[] = new Array(ENUM_COMBINATIONS);

  constructor(baseUrl: string) {
    this.url = fragment(`,"url":"${baseUrl}/t/`);
  }

  /** Writes a row's item without its closing brace (nearest answers add members; then ITEM_CLOSE). */
  item(out: JsonBytes, snapshot: Snapshot, row: number, nowMs: number): void {
    const t = snapshot.table;
    const text = t.itemText.bytes;
    const at = row * ITEM_TEXT_PARTS;
    const id = t.itemText.starts[at];
    const lat = t.itemText.starts[at + 1];
    const lon = t.itemText.starts[at + 2];
    const name = t.itemText.starts[at + 3];
    const end = t.itemText.starts[at + 4];
    const overlay = snapshot.overlayByRow.get(row);

    out.bytes(ID_OPEN);
    out.range(text, id, lat);
    out.bytes(NAME);
    if (overlay?.nameJson) out.bytes(overlay.nameJson);
    else out.range(text, name, end);
    out.bytes(LAT);
    out.range(text, lat, lon);
    out.bytes(LON);
    out.range(text, lon + 1, name);

    const key = snapshot.fragmentKey[row];
    out.bytes(this.enums[key >>> QUALITY_BITS] ?? this.enumMembers(key >>> QUALITY_BITS));
    out.bytes(overlay ? overlay.json : NO_OVERLAY);
    out.bytes(QUALITY[key & ((1 << QUALITY_BITS) - 1)]);
    out.bytes(snapshot.textFacts.of(t, row));
    out.bytes(overlay ? overlay.decidedJson : NO_DECISIONS);

    if (t.traits[row] & Trait.HasHours) hoursMembers(out, hoursAt(t, row, nowMs));
    else out.bytes(UNKNOWN_HOURS_MEMBERS);
    const partner = overlay?.partner;
    if (partner) out.ascii(`,"partner":${partnerJson(partner, nowMs)}`);
    else out.bytes(NO_PARTNER);

    out.bytes(this.url);
    out.range(text, id, lat);
    out.bytes(GOOGLE_MAPS);
    out.range(text, lat, name);
    out.bytes(APPLE_MAPS);
    out.range(text, lat, name);
    out.bytes(GEO);
    out.range(text, lat, name);
    out.bytes(QUOTE);
  }

  /** The enum members of a combination (see fragmentKey), made on first use. */
  private enumMembers(index: number): Uint8Array {
    const gender = index % (1 << GENDER.length);
    let rest = (index - gender) / (1 << GENDER.length);
    const changingTable = rest % CHANGING_TABLE.length;
    rest = (rest - changingTable) / CHANGING_TABLE.length;
    const wheelchair = rest % WHEELCHAIR.length;
    rest = (rest - wheelchair) / WHEELCHAIR.length;
    const rule = rest % ACCESS_RULE.length;
    const access = (rest - rule) / ACCESS_RULE.length;
    return (this.enums[index] = fragment(
      `,"access":"${ACCESS[access]}","access_rule":"${ACCESS_RULE[rule]}","wheelchair":"${WHEELCHAIR[wheelchair]}"` +
        `,"changing_table":"${CHANGING_TABLE[changingTable]}","gender":${JSON.stringify(GENDER.filter((_, i) => gender & (1 << i)))}`,
    ));
  }
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
