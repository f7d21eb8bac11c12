// Toilet result items, written as bytes (JsonBytes). An item is made of fragments most toilets share
// (the enum members combined into one fragment per combination, each distinct operator, hours, scheme or
// check date as its member once) and slices of the column store's item text (id, name, position); per
// request only the toilet's hours state and the nearest-search numbers are written. Nothing else is
// rendered per toilet ahead of time. A toilet with overlay data (contributions, a partner listing) has its
// overlay-dependent part (text facts, provenance.decided, counts, both hours states, the partner object)
// made into one fragment when first shown and kept until either hours state or the live switch changes
// (OverlayRows), so such an item copies no more pieces than a plain one.
// Members are grouped by how they are made, not in the spec table's order (JSON objects are unordered).
import { ACCESS, ACCESS_RULE, CHANGING_TABLE, CONFIDENCE, GENDER, VERIFICATION_STATE, WHEELCHAIR } from '../rules/facts.js';
import { hoursOf, Trait, type ToiletTable } from './table.js';
import type { MergedPartner, Snapshot } from './snapshot.js';
import type { HoursState } from '../hours/compiled-hours.js';
import { asciiJson } from '../rules/ascii-json.js';
import { fragment, JsonBytes } from '../rules/json-bytes.js';
import { ID_OPEN, ITEM_TEXT_PARTS } from '../source/columns.js';
import { combinationOf, QUALITY_BITS } from './fragment-keys.js';

export interface HoursAnswer {
  open_now: boolean | 'unknown';
  closes_at: string | null;
}

const UNKNOWN_HOURS: HoursState = { open_now: 'unknown', closes_at: null, validUntil: Infinity };
/** A partner's live switch closed: closed now, with no known end from the hours (until closed_until). */
const SWITCHED_OFF: HoursAnswer = { open_now: false, closes_at: null };

/** Closes provenance and adds the overlay members, for a toilet without overlay data. */
const NO_OVERLAY_TEXT = ',"decided":{}},"last_confirmed_at":null,"confirmations":0,"cleanliness":null';
const NO_OVERLAY = fragment(NO_OVERLAY_TEXT);
const NULL = fragment('null');
const OPEN_NOW = [fragment(',"open_now":false,"closes_at":'), fragment(',"open_now":true,"closes_at":'), fragment(',"open_now":"unknown","closes_at":')];
const NO_PARTNER = fragment(',"partner":null');
const PARTNER_END = fragment('}');
const GOOGLE_MAPS = fragment('","directions":{"google_maps":"https://www.google.com/maps/dir/?api=1&destination=');
const APPLE_MAPS = fragment('&travelmode=walking","apple_maps":"https://maps.apple.com/?daddr=');
const GEO = fragment('&dirflg=w"},"geo":"geo:');
/** What closes an item: the quote of its last value and its brace; with the comma before the next item. */
export const ITEM_END = fragment('"}');
export const ITEM_END_NEXT = fragment('"},');

export class ToiletRenderer {
  private readonly url: Uint8Array;
  /** What follows the text facts of a toilet without overlay data or hours, the most common item. */
  private readonly plainRest: Uint8Array;
  /** Enum and quality members, by fragmentKey. */
  private readonly enums: (Uint8Array | undefined)[] = [];
  /** Where an overlay's part is assembled before it is kept (overlayPart). */
  private readonly scratch = new JsonBytes();

  constructor(baseUrl: string) {
    this.url = fragment(`,"url":"${baseUrl}/t/`);
    this.plainRest = fragment(`${NO_OVERLAY_TEXT},"open_now":"unknown","closes_at":null,"partner":null,"url":"${baseUrl}/t/`);
  }

  /**
   * Writes a row's item up to its last value, without that value's closing quote: close it with
   * ITEM_END (or ITEM_END_NEXT), or with a quote and more members (nearest answers). Fewer, longer
   * copies are cheaper, so constant pieces that meet are written as one. Returns the counter number of
   * the partner listing shown (ListingCounters), or -1 when none is counted, for the caller to count.
   */
  item(out: JsonBytes, snapshot: Snapshot, row: number, nowMs: number): number {
    const t = snapshot.table;
    const text = t.itemText.bytes;
    const at = row * ITEM_TEXT_PARTS;
    const start = t.itemText.starts[at];
    const idEnd = t.itemText.starts[at + 1];
    const position = t.itemText.starts[at + 2];
    const end = t.itemText.starts[at + 4];
    const traits = t.traits[row];
    const key = snapshot.fragmentKey[row];
    let counter = -1;
    if (traits & Trait.HasOverlay) {
      const overlays = snapshot.overlays;
      const slot = overlays.slotOf(row);
      counter = overlays.counterOf(slot);
      const head = overlays.headOf(slot);
      if (head) out.bytes(head);
      else out.range(text, start, position);
      out.bytes(this.enums[key] ?? this.enumMembers(key));
      out.bytes(overlays.shownAt(slot, nowMs) ?? this.overlayPart(snapshot, row, slot, nowMs));
      out.bytes(this.url);
    } else {
      out.range(text, start, position);
      out.bytes(this.enums[key] ?? this.enumMembers(key));
      out.bytes(snapshot.textFacts.of(t, row, traits));
      if (traits & Trait.HasHours) {
        out.bytes(NO_OVERLAY);
        hoursMembers(out, hoursAt(t, row, nowMs));
        out.bytes(NO_PARTNER);
        out.bytes(this.url);
      } else {
        out.bytes(this.plainRest);
      }
    }
    out.range(text, start + ID_OPEN.length, idEnd);
    out.bytes(GOOGLE_MAPS);
    out.range(text, position, end);
    out.bytes(APPLE_MAPS);
    out.range(text, position, end);
    out.bytes(GEO);
    out.range(text, position, end);
    return counter;
  }

  /**
   * A row's overlay-dependent part (text facts to partner), as shown at nowMs, kept in its slot for as
   * long as it holds: until the toilet's hours state, its partner's or the live switch changes.
   */
  private overlayPart(snapshot: Snapshot, row: number, slot: number, nowMs: number): Uint8Array {
    const t = snapshot.table;
    const overlay = snapshot.overlays.overlay(slot);
    const out = this.scratch;
    out.reset();
    out.bytes(snapshot.textFacts.of(t, row, t.traits[row]));
    out.bytes(overlay.membersJson);
    const hours = hoursAt(t, row, nowMs);
    hoursMembers(out, hours);
    let until = hours.validUntil;
    const partner = overlay.partner;
    if (partner) until = Math.min(until, partnerMembers(out, partner, nowMs));
    else out.bytes(NO_PARTNER);
    const bytes = Buffer.from(out.view()); // from the pool shared by small buffers, where a Uint8Array has a store of its own
    snapshot.overlays.show(slot, bytes, nowMs, until);
    return bytes;
  }

  /** The enum and quality members of a fragmentKey, made on first use. */
  private enumMembers(key: number): Uint8Array {
    const combination = combinationOf(key);
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

export function hoursAt(t: ToiletTable, row: number, nowMs: number): HoursState {
  const compiled = t.traits[row] & Trait.HasHours ? hoursOf(t, row) : null;
  return compiled ? compiled.stateAt(nowMs) : UNKNOWN_HOURS;
}

/**
 * The partner object: its fixed part made at change time (MergedPartner.head), then the business's own
 * hours and live switch at the toilet's local time. Returns until when that state holds.
 */
function partnerMembers(out: JsonBytes, p: MergedPartner, nowMs: number): number {
  const switchedOff = p.closed_until > nowMs;
  const state = switchedOff ? SWITCHED_OFF : p.hours === null ? UNKNOWN_HOURS : p.hours.stateAt(nowMs);
  out.bytes(p.head);
  hoursMembers(out, state);
  out.bytes(PARTNER_END);
  return switchedOff ? p.closed_until : (state as HoursState).validUntil;
}
