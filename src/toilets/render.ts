// Toilet result items as JSON text. Fragments that change rarely are rendered once (enum values at
// start-up; a row's head and facts on first use, see RenderCache); per request only the hours state,
// the partner and the links are added, and the item is one string concatenation. Members are grouped
// by how often they change, not in the spec table's order (JSON objects are unordered).
import { ACCESS, ACCESS_RULE, CHANGING_TABLE, CONFIDENCE, GENDER, VERIFICATION_STATE, WHEELCHAIR } from './facts.js';
import { hoursOf, SOURCE_OF_ID_TYPE, toiletId, Trait, type ToiletTable } from './table.js';
import type { MergedPartner, Snapshot } from './snapshot.js';
import { asciiJson } from './ascii-json.js';

const quote = (s: string) => asciiJson(s);
const quoteOrNull = (s: string | null) => (s === null ? 'null' : asciiJson(s));
const fragments = <T extends string>(values: readonly T[], key: string) => values.map((v) => `,"${key}":"${v}"`);

const ACCESS_JSON = fragments(ACCESS, 'access');
const ACCESS_RULE_JSON = fragments(ACCESS_RULE, 'access_rule');
const WHEELCHAIR_JSON = fragments(WHEELCHAIR, 'wheelchair');
const CHANGING_TABLE_JSON = fragments(CHANGING_TABLE, 'changing_table');
const VERIFICATION_JSON = fragments(VERIFICATION_STATE, 'verification_state');
const CONFIDENCE_JSON = fragments(CONFIDENCE, 'confidence');
const GENDER_JSON = Array.from({ length: 8 }, (_, bits) => `,"gender":${JSON.stringify(GENDER.filter((_, i) => bits & (1 << i)))}`);
const FEE_REQUIRED_JSON: Record<number, string> = { [-1]: 'null', 0: 'false', 1: 'true' };
const NO_OVERLAY_JSON = ',"last_confirmed_at":null';

export interface HoursAnswer {
  open_now: boolean | 'unknown';
  closes_at: string | null;
}

const UNKNOWN_HOURS: HoursAnswer = { open_now: 'unknown', closes_at: null };
const UNKNOWN_HOURS_JSON = ',"open_now":"unknown","closes_at":null';
const NO_PARTNER_JSON = ',"partner":null';
const GOOGLE_PREFIX = ',"directions":{"google_maps":"https://www.google.com/maps/dir/?api=1&destination=';
const GOOGLE_TO_APPLE = '&travelmode=walking","apple_maps":"https://maps.apple.com/?daddr=';
const APPLE_TO_GEO = '&dirflg=w"},"geo":"geo:';

/**
 * Renders toilet items. An item is: a head (id, name, position) and a facts fragment (access … provenance),
 * both rendered once per row on first use and kept in the snapshot (facts fragments are interned: most
 * toilets share one); then the parts that change per request (hours state, partner) and the links.
 */
export class ToiletRenderer {
  private readonly urlPrefix: string;

  constructor(baseUrl: string) {
    this.urlPrefix = `,"url":"${baseUrl}/t/`;
  }

  /** The toilet item JSON for a row; `extra` is appended inside the object (nearest-search fields). */
  item(snapshot: Snapshot, row: number, nowMs: number, extra = ''): string {
    const cache = snapshot.renderCache;
    let head = cache.head[row];
    if (head === null) head = cache.head[row] = flat(headJson(snapshot.table, row));
    let facts = cache.facts[row];
    if (facts === null) facts = cache.facts[row] = cache.intern(factsJson(snapshot, row));
    const t = snapshot.table;
    const where = `${t.lat[row]},${t.lon[row]}`;
    const partner = snapshot.overlayByRow.get(row)?.partner;
    return (
      head +
      facts +
      (t.traits[row] & Trait.HasHours ? hoursJson(hoursAt(t, row, nowMs)) : UNKNOWN_HOURS_JSON) +
      (partner ? `,"partner":${partnerJson(partner, nowMs)}` : NO_PARTNER_JSON) +
      this.urlPrefix + toiletId(t, row) +
      '"' + GOOGLE_PREFIX + where + GOOGLE_TO_APPLE + where + APPLE_TO_GEO + where + '"' +
      extra +
      '}'
    );
  }
}

/**
 * A string built by `+` is a tree of pieces that V8 copies into one buffer each time it is written out.
 * Cached fragments are flattened once (converting to a number makes V8 flatten in place), so an answer
 * copies a few flat strings instead of walking hundreds of small pieces.
 */
export function flat(s: string): string {
  void Number(s);
  return s;
}

function headJson(t: ToiletTable, row: number): string {
  return `{"id":"${toiletId(t, row)}","name":${quoteOrNull(t.name[row])},"lat":${t.lat[row]},"lon":${t.lon[row]}`;
}

/** The members that change only with overlays or the hourly quality refresh. */
function factsJson(snapshot: Snapshot, row: number): string {
  const t = snapshot.table;
  const overlay = snapshot.overlayByRow.get(row);
  return (
    ACCESS_JSON[t.access[row]] +
    ACCESS_RULE_JSON[t.accessRule[row]] +
    `,"scheme_name":${quoteOrNull(t.schemeName[row])}` +
    feeJson(t, row) +
    `,"opening_hours":${quoteOrNull(t.openingHours[row])}` +
    WHEELCHAIR_JSON[t.wheelchair[row]] +
    CHANGING_TABLE_JSON[t.changingTable[row]] +
    GENDER_JSON[t.gender[row]] +
    `,"operator":${quoteOrNull(t.operator[row])}` +
    (overlay ? `,"last_confirmed_at":${quoteOrNull(overlay.last_confirmed_at)}` : NO_OVERLAY_JSON) +
    VERIFICATION_JSON[snapshot.verification[row]] +
    `,"confirmations":${overlay ? overlay.confirmations : 0}` +
    `,"cleanliness":${overlay?.cleanliness ? JSON.stringify(overlay.cleanliness) : 'null'}` +
    CONFIDENCE_JSON[snapshot.confidence[row]] +
    `,"source":"${SOURCE_OF_ID_TYPE[t.idType[row]]}"` +
    `,"provenance":{"source":"${SOURCE_OF_ID_TYPE[t.idType[row]]}","checked":${quoteOrNull(t.checked[row])},"decided":${overlay ? overlay.decidedJson : '{}'}}`
  );
}

function hoursJson(h: HoursAnswer): string {
  return `,"open_now":${h.open_now === 'unknown' ? '"unknown"' : h.open_now},"closes_at":${quoteOrNull(h.closes_at)}`;
}

export function hoursAt(t: ToiletTable, row: number, nowMs: number): HoursAnswer {
  const compiled = t.traits[row] & Trait.HasHours ? hoursOf(t, row) : null;
  return compiled ? compiled.stateAt(nowMs) : UNKNOWN_HOURS;
}

function feeJson(t: ToiletTable, row: number): string {
  const amount = t.feeAmount[row];
  return `,"fee":{"required":${FEE_REQUIRED_JSON[t.feeRequired[row]]},"amount":${Number.isNaN(amount) ? 'null' : amount},"currency":${quoteOrNull(t.feeCurrency[row])}}`;
}

/** The partner object: the business's own hours and live switch, evaluated at the toilet's local time. */
function partnerJson(p: MergedPartner, nowMs: number): string {
  let state: HoursAnswer = UNKNOWN_HOURS;
  if (p.closed_until > nowMs) state = { open_now: false, closes_at: null };
  else if (p.hours !== null) state = p.hours.stateAt(nowMs);
  return (
    `{"name":${quote(p.name)},"tier":"${p.tier}","conditions":${quoteOrNull(p.conditions)},"opening_hours":${quoteOrNull(p.opening_hours)}` +
    `,"open_now":${state.open_now === 'unknown' ? '"unknown"' : state.open_now},"closes_at":${quoteOrNull(state.closes_at)}}`
  );
}
