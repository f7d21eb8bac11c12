// The toilet result item as the API answers it (spec "Toilet result item"), typed for the pages and the
// front end, and the plain-word pieces both say about one: fee, hours now, distance and direction. Pure
// functions of the item and the language, shared by the server-rendered pages and web/.
import { text, type Language, type TextKey } from './catalogue.js';
import { amount, closingTime, distance, walkingTime } from './format.js';
import type { SiteTitle } from '../../rules/site-title.js';

export type Tri = 'yes' | 'no' | 'unknown';

export interface Decided {
  by: 'votes' | 'moderator';
  votes_for: number | null;
  votes_total: number | null;
  as_of: string;
}

export interface ToiletItem {
  id: string;
  name: string | null;
  lat: number;
  lon: number;
  access: 'public' | 'permissive' | 'customers' | 'scheme' | 'unknown';
  access_rule: 'free' | 'fee' | 'customers' | 'key' | 'scheme' | 'unknown';
  scheme_name: string | null;
  fee: { required: boolean | null; amount: number | null; currency: string | null };
  opening_hours: string | null;
  open_now: boolean | 'unknown';
  closes_at: string | null;
  wheelchair: 'yes' | 'limited' | 'no' | 'unknown';
  changing_table: Tri;
  gender: ('unisex' | 'female' | 'male')[];
  operator: string | null;
  last_confirmed_at: string | null;
  verification_state: 'unverified' | 'source_claimed' | 'community_confirmed' | 'partner_confirmed' | 'disputed';
  confirmations: number;
  cleanliness: { average: number; count: number } | null;
  confidence: 'high' | 'medium' | 'low';
  source: string;
  partner: { name: string; tier: string; conditions: string | null; opening_hours: string | null; open_now: boolean | 'unknown'; closes_at: string | null } | null;
  provenance: { source: string; checked: string | null; decided: Partial<Record<string, Decided>> };
  url: string;
  directions: Record<string, string>;
  geo: string;
}

export interface NearestItem extends ToiletItem {
  distance_m: number;
  walk_min: number;
  bearing: number;
}

export interface Attribution {
  text: string;
  license: string;
  url: string;
  license_notice_url: string;
}

export interface FindResult {
  status: 'ok' | 'no_results' | 'needs_location' | 'place_not_found';
  origin: { lat: number; lon: number; label: string; source: string } | null;
  results: NearestItem[];
  bbox?: [number, number, number, number];
  ask_user?: string;
  attribution: Attribution;
  display_note: string;
}

export interface AreaResult {
  results: ToiletItem[];
  truncated: boolean;
  attribution: Attribution;
  display_note: string;
}

/** "€0.50" in the language's format. */
export function feeAmount(lang: Language, fee: ToiletItem['fee']): string | null {
  return fee.amount === null ? null : amount(lang, fee.amount, fee.currency);
}

/** The short fee label of a list entry. */
export function feeLabel(lang: Language, fee: ToiletItem['fee']): string {
  if (fee.required === false) return text(lang, 'item.free');
  if (fee.required === null) return text(lang, 'item.feeUnknown');
  const written = feeAmount(lang, fee);
  return written === null ? text(lang, 'item.fee') : text(lang, 'item.feeAmount', { amount: written });
}

/** Open now / closes at / closed / unknown, as a list entry says it. */
export function openLabel(lang: Language, item: Pick<ToiletItem, 'open_now' | 'closes_at'>): { text: string; state: 'open' | 'closed' | 'unknown' } {
  if (item.open_now === 'unknown') return { text: text(lang, 'item.hoursUnknown'), state: 'unknown' };
  if (!item.open_now) return { text: text(lang, 'item.closed'), state: 'closed' };
  return { text: item.closes_at ? text(lang, 'item.openUntil', { time: closingTime(lang, item.closes_at) }) : text(lang, 'item.openNow'), state: 'open' };
}

const COMPASS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;

/** "350 m · 5 minutes on foot, heading north-east" (the numbers and units by Intl). */
export function distanceLabel(lang: Language, item: Pick<NearestItem, 'distance_m' | 'walk_min' | 'bearing'>): string {
  const direction = text(lang, `dir.${COMPASS[Math.round(item.bearing / 45) % 8]}` as TextKey);
  return text(lang, 'item.distance', { distance: distance(lang, item.distance_m), minutes: walkingTime(lang, item.walk_min), direction });
}

const TITLE_KEYS = { host: 'item.atHost', street: 'item.onStreet', place: 'item.inPlace' } as const;

/** The name to show: the item's, else the site's title from what is known ("Public toilet in Parc Princesse Antoinette"), else "Public toilet". */
export function displayName(lang: Language, item: Pick<ToiletItem, 'name'>, title: SiteTitle | null = null): string {
  if (item.name !== null) return item.name;
  return title === null ? text(lang, 'item.unnamed') : text(lang, TITLE_KEYS[title.kind], { name: title.name });
}
