// One toilet's tags → its details (docs/DETAILS.md: each tag, its values and its OSM wiki page). Pure; the
// importer calls it per toilet beside mapToiletTags. A standalone toilet reads the plain key and the
// `toilets:` key (the latter wins, as in doc §0); a host reads only `toilets:` keys, since its plain keys
// describe the café or station (its `description` is about the host, its `level` about the shop).
import {
  CHANGING_TABLE_LOCATIONS, DISPOSALS, HAND_DRYING, TOILET_POSITIONS,
  type ChangingTableDetails, type KeySystem, type ToiletDetails, type WheelchairDetails,
} from '../../src/rules/details.js';
import { NO, YES, YES_NO, codeOf, keyPair, normaliseEnum, normaliseText, readValue, type KeyPair, type Tags } from './tags.js';

/** Longest free text kept (description, wheelchair:description): a page shows it, an answer carries it. */
const MAX_TEXT = 500;
const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' });

const RADAR = /\bradar\b/i;
const EUROKEY = /\beuro[- ]?key\b|\beuroschl(?:ü|ue|u)ssel\b|\beurosleutel\b/i;
/** centralkey values that say there is none. */
const NO_CENTRAL_KEY = new Set(['no', 'none', 'unknown', '']);

const key = (plain: string) => keyPair(plain);
const CENTRAL_KEY = key('centralkey');
const RADAR_KEY = key('radar_key');
const SCHEME = key('scheme');
const ACCESS = key('access');
const CHANGING_PLACES = key('changing_places');
const LOCATION = key('changing_table:location');
const TABLE_COUNT = key('changing_table:count');
const TABLE_FEE = key('changing_table:fee');
const TABLE_ADULT = key('changing_table:adult');
const DOOR_WIDTH = key('door:width');
const HANDRAIL = key('handrail');
const STEP_COUNT = key('step_count');
const RAMP = key('ramp:wheelchair');
const WHEELCHAIR_TEXT = key('wheelchair:description');
const POSITION: KeyPair = { plain: 'toilets:position', scoped: 'toilets:position' };
const DISPOSAL: KeyPair = { plain: 'toilets:disposal', scoped: 'toilets:disposal' };
const HANDWASHING: KeyPair = { plain: 'toilets:handwashing', scoped: 'toilets:handwashing' };
const SOAP_KEYS = ['toilets:handwashing:soap', 'handwashing:soap', 'soap'];
const PAPER: KeyPair = { plain: 'toilets:paper_supplied', scoped: 'toilets:paper_supplied' };
const HAND_DRYING_KEYS = ['toilets:hand_drying', 'toilets:hands_drying', 'hand_drying'];
const DRINKING_WATER = key('drinking_water');
const SHOWER = key('shower');
const LEVEL = key('level');
const INDOOR = key('indoor');
const DESCRIPTION = key('description');

/** The details the tags give, or null when they give none (most toilets). */
export function readDetails(tags: Tags, host: boolean): ToiletDetails | null {
  const details: ToiletDetails = {};
  const keys = keySystems(tags, host);
  if (keys.length > 0) details.key_systems = keys;
  setFlag(details, 'changing_places', yesNo(tags, CHANGING_PLACES, host));
  const table = changingTable(tags, host);
  if (table !== null) details.changing_table = table;
  const wheelchair = wheelchairDetails(tags, host);
  if (wheelchair !== null) details.wheelchair = wheelchair;
  const positions = itemsOf(readValue(tags, POSITION, host), TOILET_POSITIONS);
  if (positions.length > 0) details.positions = positions;
  const disposal = itemsOf(readValue(tags, DISPOSAL, host), DISPOSALS);
  if (disposal.length > 0) details.disposal = disposal;
  setFlag(details, 'handwashing', yesNo(tags, HANDWASHING, host));
  setFlag(details, 'soap', firstYesNo(tags, SOAP_KEYS));
  setFlag(details, 'paper', yesNo(tags, PAPER, host));
  const drying = itemsOf(firstOf(tags, HAND_DRYING_KEYS), HAND_DRYING);
  if (drying.length > 0) details.hand_drying = drying;
  setFlag(details, 'drinking_water', yesNo(tags, DRINKING_WATER, host));
  setFlag(details, 'shower', showerOf(readValue(tags, SHOWER, host)));
  const level = normaliseText(readValue(tags, LEVEL, host));
  if (level !== null && /^-?\d+(?:\.5)?(?:\s*[;-]\s*-?\d+(?:\.5)?)*$/.test(level)) details.level = level.replace(/\s+/g, '');
  setFlag(details, 'indoor', indoorOf(readValue(tags, INDOOR, host)));
  const description = textOf(readValue(tags, DESCRIPTION, host));
  if (description !== null) details.description = description;
  return Object.keys(details).length > 0 ? details : null;
}

/**
 * `centralkey` (radar, eurokey, yes …), legacy `radar_key=yes`, and the systems named in `toilets:scheme`,
 * `access`/`toilets:access` and `operator` (a mapper writes "RADAR" or "Eurokey" where the tag has no room).
 */
function keySystems(tags: Tags, host: boolean): KeySystem[] {
  const found = new Set<KeySystem>();
  const central = readValue(tags, CENTRAL_KEY, host);
  if (central !== undefined) {
    for (const item of normaliseEnum(central).split(';')) {
      const value = item.trim();
      if (NO_CENTRAL_KEY.has(value)) continue;
      found.add(RADAR.test(value) ? 'radar' : EUROKEY.test(value) ? 'eurokey' : 'other');
    }
  }
  if (codeOf(readValue(tags, RADAR_KEY, host), YES_NO) === YES) found.add('radar');
  for (const text of [readValue(tags, SCHEME, true), readValue(tags, ACCESS, host), tags.operator]) {
    if (text === undefined) continue;
    if (RADAR.test(text)) found.add('radar');
    if (EUROKEY.test(text)) found.add('eurokey');
  }
  // A named system makes a bare `centralkey=yes` say nothing more.
  if (found.size > 1) found.delete('other');
  return (['radar', 'eurokey', 'other'] as const).filter((system) => found.has(system));
}

function changingTable(tags: Tags, host: boolean): ChangingTableDetails | null {
  const table: ChangingTableDetails = {};
  const locations = itemsOf(readValue(tags, LOCATION, host), CHANGING_TABLE_LOCATIONS);
  if (locations.length > 0) table.locations = locations;
  const count = readValue(tags, TABLE_COUNT, host)?.trim();
  if (count !== undefined && /^\d{1,2}$/.test(count) && Number(count) > 0) table.count = Number(count);
  setFlag(table, 'fee', yesNo(tags, TABLE_FEE, host));
  setFlag(table, 'adult', yesNo(tags, TABLE_ADULT, host));
  return Object.keys(table).length > 0 ? table : null;
}

function wheelchairDetails(tags: Tags, host: boolean): WheelchairDetails | null {
  const wheelchair: WheelchairDetails = {};
  const width = doorWidthCm(readValue(tags, DOOR_WIDTH, host));
  if (width !== null) wheelchair.door_width_cm = width;
  setFlag(wheelchair, 'grab_rails', yesNo(tags, HANDRAIL, host));
  const steps = readValue(tags, STEP_COUNT, host)?.trim();
  const ramp = yesNo(tags, RAMP, host);
  if (steps === '0' || ramp === true) wheelchair.step_free = true;
  else if (steps !== undefined && /^[1-9]\d{0,2}$/.test(steps)) wheelchair.step_free = false;
  const description = textOf(readValue(tags, WHEELCHAIR_TEXT, host));
  if (description !== null) wheelchair.description = description;
  return Object.keys(wheelchair).length > 0 ? wheelchair : null;
}

/**
 * `door:width` in centimetres: OSM's unit is the metre ("0.9"; a decimal comma too), "90 cm" and "900 mm"
 * are written as well. A bare number over 3 is not metres (someone wrote centimetres without the unit):
 * ambiguous, so dropped, as is anything outside 40–300 cm (no door of a toilet a person passes).
 */
export function doorWidthCm(value: string | undefined): number | null {
  if (value === undefined) return null;
  const match = /^\s*(\d+(?:[.,]\d+)?)\s*(m|cm|mm)?\s*$/i.exec(value);
  if (match === null) return null;
  const number = Number(match[1].replace(',', '.'));
  const unit = match[2]?.toLowerCase();
  if (unit === undefined && number > 3) return null;
  const cm = Math.round(unit === 'cm' ? number : unit === 'mm' ? number / 10 : number * 100);
  return cm >= 40 && cm <= 300 ? cm : null;
}

/** The known items of a `;` list, in the order of `known`, each once. */
function itemsOf<T extends string>(value: string | undefined, known: readonly T[]): T[] {
  if (value === undefined) return [];
  const items = new Set(normaliseEnum(value).split(';').map((item) => item.trim()));
  return known.filter((item) => items.has(item));
}

/** yes → true, no → false, else null; the `toilets:` key first unless it says nothing (doc §0). */
function yesNo(tags: Tags, pair: KeyPair, host: boolean): boolean | null {
  const scoped = codeOf(tags[pair.scoped], YES_NO);
  const code = host || scoped >= 0 ? scoped : codeOf(tags[pair.plain], YES_NO);
  return code === YES ? true : code === NO ? false : null;
}

function firstYesNo(tags: Tags, keys: readonly string[]): boolean | null {
  const code = codeOf(firstOf(tags, keys), YES_NO);
  return code === YES ? true : code === NO ? false : null;
}

function firstOf(tags: Tags, keys: readonly string[]): string | undefined {
  for (const k of keys) if (tags[k] !== undefined) return tags[k];
  return undefined;
}

/** `shower=yes|hot|cold|…` (the kind of water) → true, `no` → false. */
function showerOf(value: string | undefined): boolean | null {
  if (value === undefined) return null;
  const v = normaliseEnum(value);
  return v === 'no' ? false : v === 'yes' || v === 'hot' || v === 'cold' || v === 'outdoor' ? true : null;
}

/** `indoor=yes|room|area|corridor` → true (inside a building), `no` → false. */
function indoorOf(value: string | undefined): boolean | null {
  if (value === undefined) return null;
  const v = normaliseEnum(value);
  return v === 'no' ? false : v === 'yes' || v === 'room' || v === 'area' || v === 'corridor' ? true : null;
}

function textOf(value: string | undefined): string | null {
  const text = normaliseText(value);
  if (text === null) return null;
  if (text.length <= MAX_TEXT) return text;
  // by grapheme: a cut never splits a character (nor an emoji or an accent from its letter)
  const graphemes = Array.from(GRAPHEMES.segment(text), (part) => part.segment);
  return graphemes.length <= MAX_TEXT ? text : `${graphemes.slice(0, MAX_TEXT - 1).join('').trimEnd()}…`;
}

function setFlag<T extends object, K extends keyof T>(into: T, name: K, value: boolean | null): void {
  if (value !== null) into[name] = value as T[K];
}
