// The finder page (`/`): "Near me" (geolocation) or a place, the five filters, the nearest toilets as a
// list, and beside it the map (loaded only when the server has a basemap and the browser WebGL2). Moving
// the map asks for the toilets of the settled view (one request per view, at most 0.2° per side; wider
// views keep the nearest list). The list is always the full alternative to the map.
import { resultItemHtml } from '../../src/web/text/html.js';
import { problemText } from '../../src/web/text/problem.js';
import type { AreaResult, FindResult, ToiletItem } from '../../src/web/text/item.js';
import { areaUrl, FILTERS, filterQuery, inView, matchesFilters, tooWide, type Filter } from './area.js';
import { getJson, lang, locale, localHref, startPage, t } from './common.js';
import type { ToiletMap, View } from './map.js';
import { formatBytes, saveArea, savedArea, savedAreaAnswer } from './offline.js';

const form = document.getElementById('search') as HTMLFormElement;
const placeInput = document.getElementById('place') as HTMLInputElement;
const nearMe = document.getElementById('near-me') as HTMLButtonElement;
const message = document.getElementById('find-message')!;
const list = document.getElementById('result-list')!;
const results = document.getElementById('results')!;
const mapWrap = document.getElementById('map-wrap')!;
const mapMessage = document.getElementById('map-message')!;
const offlineTools = document.getElementById('offline-tools')!;
const saveButton = document.getElementById('save-area') as HTMLButtonElement;
const saveStatus = document.getElementById('save-status')!;

const LAST_VIEW = 'last-view';
type Query = { place: string } | { lat: number; lon: number };
let lastQuery: Query | null = null;
let nearest: ToiletItem[] = [];
let mode: 'near' | 'area' = 'near';
let map: ToiletMap | null = null;
let mapPromise: Promise<ToiletMap | null> | null = null;

function filters(): Set<Filter> {
  return new Set(FILTERS.filter((f) => (form.elements.namedItem(f) as HTMLInputElement).checked));
}

function say(text: string): void {
  message.textContent = text;
}

/** Redraws the list; focus that was in it stays on the same toilet, or on the results when it is gone (never on <body>). */
function showList(items: readonly ToiletItem[]): void {
  const active = document.activeElement;
  const hadFocus = active !== null && list.contains(active);
  const focusedId = hadFocus ? active.closest<HTMLElement>('li')?.dataset.id : undefined;
  list.innerHTML = items.map((item) => resultItemHtml(lang, item, localHref(`/t/${encodeURIComponent(item.id)}`))).join('');
  if (!hadFocus) return;
  const same = [...list.querySelectorAll<HTMLElement>('li')].find((li) => li.dataset.id === focusedId);
  (same?.querySelector('a') ?? results).focus();
}

function dateText(iso: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** Loads the map once, where it is possible; null (and a message beside the list) where not. */
function ensureMap(start: { lat: number; lon: number; zoom: number }): Promise<ToiletMap | null> {
  mapPromise ??= import('./map.js')
    .then(async ({ createMap }) => {
      mapWrap.hidden = false;
      const created = await createMap(document.getElementById('map')!, start);
      created.onSettled((view) => void onViewSettled(view));
      created.onMoved((view) => localStorage.setItem(LAST_VIEW, JSON.stringify(view)));
      map = created;
      offlineTools.hidden = false;
      return created;
    })
    .catch((error: unknown) => {
      mapWrap.hidden = true;
      say(`${message.textContent ?? ''} ${t('find.listOnly', { reason: error instanceof Error && error.name === 'MapUnavailable' ? error.message : t('find.mapFailed') })}`.trim());
      document.body.dataset.mapState = 'unavailable';
      return null;
    });
  return mapPromise;
}

async function runFind(query: Query): Promise<void> {
  lastQuery = query;
  mode = 'near';
  say(t('find.loading'));
  const where = 'place' in query ? `place=${encodeURIComponent(query.place)}` : `lat=${query.lat.toFixed(5)}&lon=${query.lon.toFixed(5)}`;
  let answer;
  try {
    answer = await getJson<FindResult & { type?: string }>(`/api/v1/toilets/nearest?${where}&limit=20${filterQuery(filters())}`);
  } catch {
    await showSavedArea(null);
    return;
  }
  if (answer.status !== 200) {
    say(t('find.error', { detail: problemText(lang, answer.body, answer.status) }));
    return;
  }
  const found = answer.body;
  nearest = found.results;
  showList(nearest);
  if (found.status === 'needs_location') say(t('find.needsLocation'));
  else if (found.status === 'place_not_found') say(t('find.placeNotFound', { place: 'place' in query ? query.place : '' }));
  else if (found.results.length === 0) say(t('find.none'));
  else say(found.origin?.source === 'coordinates' ? t('find.nearestYou') : t('find.nearestTo', { label: found.origin?.label ?? '' }));
  markStale(answer.headers);
  if (found.origin) {
    const shown = await ensureMap({ lat: found.origin.lat, lon: found.origin.lon, zoom: 15 });
    shown?.show(nearest);
    if (found.bbox) shown?.fit(found.bbox);
  }
}

/** An answer the service worker gave from its cache says when it was saved: the data may be stale. */
function markStale(headers: Headers): void {
  const saved = headers.get('X-Saved-At');
  if (saved) say(`${message.textContent ?? ''} ${t('find.offlineData', { date: dateText(saved) })}`);
}

async function onViewSettled(view: View): Promise<void> {
  if (tooWide(view)) {
    mapMessage.textContent = t('find.zoomIn');
    map?.show(nearest);
    return;
  }
  mode = 'area';
  mapMessage.textContent = '';
  let answer;
  try {
    answer = await getJson<AreaResult & { type?: string }>(areaUrl(view, filters()));
  } catch {
    await showSavedArea(view);
    return;
  }
  if (answer.status !== 200) {
    mapMessage.textContent = t('find.error', { detail: problemText(lang, answer.body, answer.status) });
    return;
  }
  showList(answer.body.results);
  map?.show(answer.body.results);
  say(answer.body.results.length ? t('find.inView') : t('find.none'));
  if (answer.body.truncated) mapMessage.textContent = t('find.truncated');
  markStale(answer.headers);
}

/** Offline without a cached answer for this exact request: the saved area, filtered here. */
async function showSavedArea(view: View | null): Promise<void> {
  const saved = await savedAreaAnswer().catch(() => null);
  if (saved === null) {
    say(t('improve.offline'));
    return;
  }
  const active = filters();
  const items = (saved.body as AreaResult).results.filter((item) => matchesFilters(item, active) && (view === null || inView(item, view)));
  showList(items);
  map?.show(items);
  say(t('find.offlineData', { date: dateText(saved.saved.savedAt) }));
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const place = placeInput.value.trim();
  if (place.length < 2) {
    say(t('find.needsLocation'));
    placeInput.focus();
    return;
  }
  const url = new URL(location.href);
  url.searchParams.set('place', place);
  history.replaceState(null, '', url);
  void runFind({ place });
});

form.addEventListener('change', (event) => {
  if (!(event.target instanceof HTMLInputElement) || event.target.type !== 'checkbox') return;
  if (mode === 'area' && map) void onViewSettled(map.view());
  else if (lastQuery) void runFind(lastQuery);
});

if ('geolocation' in navigator) {
  nearMe.hidden = false;
  nearMe.addEventListener('click', () => {
    say(t('find.locating'));
    navigator.geolocation.getCurrentPosition(
      (position) => void runFind({ lat: position.coords.latitude, lon: position.coords.longitude }),
      (error) => say(t('find.locationDenied', { reason: t(error.code === error.PERMISSION_DENIED ? 'geo.denied' : error.code === error.TIMEOUT ? 'geo.timeout' : 'geo.unavailable') })),
      { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 },
    );
  });
}

saveButton.addEventListener('click', () => {
  if (!map) return;
  const view = map.view();
  if (tooWide(view)) {
    saveStatus.textContent = t('offline.tooBig');
    return;
  }
  saveButton.disabled = true;
  saveStatus.textContent = t('offline.saving');
  saveArea(view, map.maxZoom())
    .then((saved) => (saveStatus.textContent = t('offline.saved', { date: dateText(saved.savedAt), size: formatBytes(saved.bytes, locale) })))
    .catch((error: unknown) => (saveStatus.textContent = String(error)))
    .finally(() => (saveButton.disabled = false));
});

function start(): void {
  startPage();
  const params = new URLSearchParams(location.search);
  const place = params.get('place');
  const lat = Number(params.get('lat'));
  const lon = Number(params.get('lon'));
  const saved = savedArea();
  if (saved) saveStatus.textContent = t('offline.saved', { date: dateText(saved.savedAt), size: formatBytes(saved.bytes, locale) });
  if (place && place.trim().length >= 2) void runFind({ place: place.trim() });
  else if (params.has('lat') && Number.isFinite(lat) && Number.isFinite(lon)) void runFind({ lat, lon });
  else {
    const last = JSON.parse(localStorage.getItem(LAST_VIEW) ?? 'null') as View | null;
    if (last) {
      // the last viewed area comes back, from the service worker's cache when offline
      void ensureMap({ lat: (last.north + last.south) / 2, lon: (last.east + last.west) / 2, zoom: last.zoom }).then(() => onViewSettled(last));
    }
  }
}

start();
