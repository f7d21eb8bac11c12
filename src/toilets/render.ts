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
/** `,"fee":{…}` for the common case of no amount and no currency, by feeRequired + 1. */
const PLAIN_FEE = FEE_REQUIRED.map((required) => fragment(`,"fee":{"required":${required},"amount":null,"currency":null}`));
/** Enum members combined: access, access_rule, wheelchair, changing_table, gender (bits). */
const ENUM_COMBINATIONS = ACCESS.length * ACCESS_RULE.length * WHEELCHAIR.length * CHANGING_TABLE.length * (1 << GENDER.length);
const QUALITY_BITS = 6;
/** verification_state, confidence and source (by id type), which runs on into provenance up to its "checked" value. */
const QUALITY = VERIFICATION_STATE.flatMap((state) =>
  CONFIDENCE.flatMap((level) =>
    SOURCE_OF_ID_TYPE.map((source) => fragment(`,"verification_state":"${state}","confidence":"${level}","source":"${source}","provenance":{"source":"${source}","checked":`)),
  ),
);

/**
 * Which enum and quality fragments a row's item uses, as one number the snapshot keeps per row (set when
 * the row's facts or quality change): one read per item instead of one per enum column.
 */
export function fragmentKey(t: ToiletTable, row: number, verification: number, confidence: number): number {
  const enums = (((t.access[row] * ACCESS_RULE.length + t.accessRule[row]) * WHEELCHAIR.length + t.wheelchair[row]) * CHANGING_TABLE.length + t.changingTable[row]) * (1 << GENDER.length) + t.gender[row];
  return (enums << QUALITY_BITS) | ((verification * CONFIDENCE.length + confidence) * SOURCE_OF_ID_TYPE.length + t.idType[row]);
}

/** A text's fragment, made on first use and kept: the distinct values of a column are few. */
class TextFragments {
  private readonly made = new Map<string, Uint8Array>();
  private readonly none: Uint8Array;

  constructor(private readonly prefix: string) {
    this.none = fragment(`${prefix}null`);
  }

  of(text: string | null): Uint8Array {
    if (text === null) return this.none;
    let bytes = this.made.get(text);
    if (bytes === undefined) this.made.set(text, (bytes = fragment(this.prefix + asciiJson(text))));
    return bytes;
  }
}

export class ToiletRenderer {
  private readonly url: Uint8Array;
  private readonly enums: (Uint8Array | undefined)[] = new Array(ENUM_COMBINATIONS);
  private readonly schemeNames = new TextFragments(',"scheme_name":');
  private readonly openingHours = new TextFragments(',"opening_hours":');
  private readonly operators = new TextFragments(',"operator":');
  private readonly checked = new TextFragments('');
  private readonly fees = new Map<string, Uint8Array>();

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
    out.bytes(this.schemeNames.of(t.schemeName[row]));
    out.bytes(this.fee(t, row));
    out.bytes(this.openingHours.of(t.openingHours[row]));
    out.bytes(this.operators.of(t.operator[row]));
    out.bytes(overlay ? overlay.json : NO_OVERLAY);
    out.bytes(QUALITY[key & ((1 << QUALITY_BITS) - 1)]);
    out.bytes(this.checked.of(t.checked[row]));
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

  private fee(t: ToiletTable, row: number): Uint8Array {
    const required = t.feeRequired[row];
    const amount = t.feeAmount[row];
    const currency = t.feeCurrency[row];
    if (Number.isNaN(amount) && currency === null) return PLAIN_FEE[required + 1];
    const key = `${required} ${amount} ${currency}`;
    let bytes = this.fees.get(key);
    if (bytes === undefined) {
      const fee = `,"fee":{"required":${FEE_REQUIRED[required + 1]},"amount":${Number.isNaN(amount) ? 'null' : amount},"currency":${quoteOrNull(currency)}}`;
      this.fees.set(key, (bytes = fragment(fee)));
    }
    return bytes;
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
