// "Save this area for offline use": one box of at most 0.2° per side, its basemap tiles (every zoom up to
// the tiles' maximum), its toilets without filters (the page filters them itself), and the code the page
// has loaded, into one cache the service worker answers from when the network is gone. A new save
// replaces the last one. What was saved, when, and its size are kept in localStorage.
import type { View } from './map.js';
import { AREA_LIMIT, bboxParam } from './area.js';

const CACHE = 'saved-area';
const KEY = 'saved-area';

export interface SavedArea {
  view: View;
  url: string;
  savedAt: string;
  bytes: number;
}

export function savedArea(): SavedArea | null {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? 'null') as SavedArea | null;
  } catch {
    return null;
  }
}

function tileRange(view: View, zoom: number): { x0: number; x1: number; y0: number; y1: number } {
  const n = 2 ** zoom;
  const x = (lon: number) => Math.min(n - 1, Math.max(0, Math.floor(((lon + 180) / 360) * n)));
  const y = (lat: number) => {
    const r = (lat * Math.PI) / 180;
    return Math.min(n - 1, Math.max(0, Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n)));
  };
  return { x0: x(view.west), x1: x(view.east), y0: y(view.north), y1: y(view.south) };
}

export function tileUrls(view: View, maxZoom: number): string[] {
  const urls: string[] = [];
  for (let z = 0; z <= maxZoom; z++) {
    const { x0, x1, y0, y1 } = tileRange(view, z);
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) urls.push(`/tiles/${z}/${x}/${y}.pbf`);
  }
  return urls;
}

export function savedAreaUrl(view: View): string {
  return `/api/v1/toilets?bbox=${bboxParam(view)}&limit=${AREA_LIMIT}`;
}

export async function saveArea(view: View, maxZoom: number | null): Promise<SavedArea> {
  await caches.delete(CACHE);
  const cache = await caches.open(CACHE);
  const url = savedAreaUrl(view);
  const loaded = performance.getEntriesByType('resource').map((e) => new URL(e.name)).filter((u) => u.origin === location.origin && u.pathname.startsWith('/assets/')).map((u) => u.pathname + u.search);
  const urls = [url, '/', ...new Set(loaded), ...(maxZoom === null ? [] : ['/tiles/tiles.json', ...tileUrls(view, maxZoom)])];
  let bytes = 0;
  await Promise.all(
    urls.map(async (path) => {
      const response = await fetch(path, { credentials: 'omit' });
      // a tile the basemap does not have answers 204: nothing to keep
      if (response.status !== 200) return;
      const body = await response.clone().arrayBuffer();
      bytes += body.byteLength;
      const headers = new Headers(response.headers);
      headers.set('X-Saved-At', new Date().toISOString());
      await cache.put(path, new Response(body, { status: 200, headers }));
    }),
  );
  const saved: SavedArea = { view, url, savedAt: new Date().toISOString(), bytes };
  localStorage.setItem(KEY, JSON.stringify(saved));
  return saved;
}

/** The saved area's toilets answer, from the cache (offline). */
export async function savedAreaAnswer(): Promise<{ saved: SavedArea; body: unknown } | null> {
  const saved = savedArea();
  if (saved === null) return null;
  const response = await caches.match(saved.url);
  return response ? { saved, body: await response.json() } : null;
}

/** "12.3 kB", "1,5 Mo": the size in the page's language (Intl's units). */
export function formatBytes(bytes: number, locale: string): string {
  const unit = bytes < 1024 * 1024 ? 'kilobyte' : 'megabyte';
  return new Intl.NumberFormat(locale, { style: 'unit', unit, maximumFractionDigits: 1 }).format(unit === 'kilobyte' ? bytes / 1024 : bytes / 1024 / 1024);
}
