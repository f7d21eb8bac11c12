// Toilet result items as JSON text. Enum fragments are rendered once at start-up; per request only the
// parts that change are computed (hours state, overlays, distance), and the item is one string concat.
// Field order follows the spec's table so answers read like the documentation.
import { ACCESS, ACCESS_RULE, CHANGING_TABLE, CONFIDENCE, GENDER, VERIFICATION_STATE, WHEELCHAIR } from './facts.js';
import { toiletId, type ToiletTable } from './table.js';
import type { MergedPartner, Snapshot } from './snapshot.js';

const quote = (s: string) => JSON.stringify(s);
const quoteOrNull = (s: string | null) => (s === null ? 'null' : JSON.stringify(s));
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

export class ToiletRenderer {
  private readonly urlPrefix: string;

  constructor(baseUrl: string) {
    this.urlPrefix = `${baseUrl}/t/`;
  }

  /** The toilet item JSON for a row; `extra` is appended inside the object (nearest-search fields). */
  item(snapshot: Snapshot, row: number, nowMs: number, extra = ''): string {
    const t = snapshot.table;
    const id = toiletId(t, row);
    const lat = t.lat[row];
    const lon = t.lon[row];
    const overlay = snapshot.overlayByRow.get(row);
    const hours = hoursAt(t, row, nowMs);
    return (
      `{"id":"${id}","name":${quoteOrNull(t.name[row])},"lat":${lat},"lon":${lon}` +
      ACCESS_JSON[t.access[row]] +
      ACCESS_RULE_JSON[t.accessRule[row]] +
      `,"scheme_name":${quoteOrNull(t.schemeName[row])}` +
      feeJson(t, row) +
      `,"opening_hours":${quoteOrNull(t.openingHours[row])}` +
      `,"open_now":${hours.open_now === 'unknown' ? '"unknown"' : hours.open_now},"closes_at":${quoteOrNull(hours.closes_at)}` +
      WHEELCHAIR_JSON[t.wheelchair[row]] +
      CHANGING_TABLE_JSON[t.changingTable[row]] +
      GENDER_JSON[t.gender[row]] +
      `,"operator":${quoteOrNull(t.operator[row])}` +
      (overlay ? `,"last_confirmed_at":${quoteOrNull(overlay.last_confirmed_at)}` : NO_OVERLAY_JSON) +
      VERIFICATION_JSON[snapshot.verification[row]] +
      `,"confirmations":${overlay ? overlay.confirmations : 0}` +
      `,"cleanliness":${overlay?.cleanliness ? JSON.stringify(overlay.cleanliness) : 'null'}` +
      CONFIDENCE_JSON[snapshot.confidence[row]] +
      `,"source":"${snapshot.source}"` +
      `,"partner":${overlay?.partner ? partnerJson(overlay.partner, nowMs) : 'null'}` +
      `,"provenance":{"source":"${snapshot.source}","checked":${quoteOrNull(t.checked[row])},"decided":${overlay ? JSON.stringify(overlay.decided) : '{}'}}` +
      `,"url":"${this.urlPrefix}${id}"` +
      `,"directions":{"google_maps":"https://www.google.com/maps/dir/?api=1&destination=${lat},${lon}&travelmode=walking","apple_maps":"https://maps.apple.com/?daddr=${lat},${lon}&dirflg=w"}` +
      `,"geo":"geo:${lat},${lon}"` +
      extra +
      '}'
    );
  }
}

export function hoursAt(t: ToiletTable, row: number, nowMs: number): HoursAnswer {
  const compiled = t.hours[row];
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
