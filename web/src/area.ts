// The map view as an area request: the spec's 0.2° limit per side, one stable URL per view (so the
// service worker can answer it offline), and the five filters applied on the client to saved data.
import type { ToiletItem } from '../../src/web/text/item.js';
import type { View } from './map.js';

export const MAX_SIDE_DEGREES = 0.2;
export const AREA_LIMIT = 200;
export const FILTERS = ['open_now', 'wheelchair', 'changing_table', 'free', 'no_purchase_needed'] as const;
export type Filter = (typeof FILTERS)[number];

export function tooWide(view: View): boolean {
  return view.east - view.west > MAX_SIDE_DEGREES || view.north - view.south > MAX_SIDE_DEGREES;
}

export function bboxParam(view: View): string {
  return [view.west, view.south, view.east, view.north].map((v) => v.toFixed(5)).join(',');
}

export function filterQuery(filters: ReadonlySet<Filter>): string {
  return [...filters].map((f) => `&${f}=true`).join('');
}

export function areaUrl(view: View, filters: ReadonlySet<Filter>): string {
  return `/api/v1/toilets?bbox=${bboxParam(view)}&limit=${AREA_LIMIT}${filterQuery(filters)}`;
}

/** The same filters the server applies, for data saved without them. */
export function matchesFilters(item: ToiletItem, filters: ReadonlySet<Filter>): boolean {
  for (const filter of filters) {
    if (filter === 'open_now' && item.open_now === false) return false;
    if (filter === 'wheelchair' && item.wheelchair !== 'yes') return false;
    if (filter === 'changing_table' && item.changing_table !== 'yes') return false;
    if (filter === 'free' && item.fee.required !== false) return false;
    if (filter === 'no_purchase_needed' && !['public', 'permissive', 'scheme'].includes(item.access)) return false;
  }
  return true;
}

export function inView(item: ToiletItem, view: View): boolean {
  return item.lon >= view.west && item.lon <= view.east && item.lat >= view.south && item.lat <= view.north;
}
