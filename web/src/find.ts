// The finder (`/`), map first: from the first visit the map shows the data's coverage and the list beside it
// (below it on a phone) the toilets in view, nearest the map's centre first: listToiletsInArea for a view
// within its 0.2° box, else the toilets nearest the centre (findToiletsNear) over the overview's counts.
// The list is asked before MapLibre loads (the first view is computed from the coverage), so the first
// results never wait for the map. "Near me" and a place search list the nearest toilets, move the map,
// mark the origin and number the markers like the rows; a row under the pointer or in focus marks its
// marker and the other way round. The list is always the full alternative to the map.
import { resultItemHtml } from '../../src/web/text/html.js';
import { problemText } from '../../src/web/text/problem.js';
import type { AreaResult, FindResult, ToiletItem } from '../../src/web/text/item.js';
import { areaUrl, FILTERS, filterQuery, inView, matchesFilters, tooWide, type Filter } from './area.js';
import { getJson, lang, locale, localHref, startPage, t } from './common.js';
import type { ToiletMap, View } from './map.js';
import { formatBytes, saveArea, savedArea, savedAreaAnswer } from './offline.js';
import { learnTitles, titleOf } from './titles.js';
import { centreOf, fittedView, overviewTiles } from './view.js';

const form = document.getElementById('search') as HTMLFormElement;
const placeInput = document.getElementById('place') as HTMLInputElement;
const nearMe = document.getElementById('near-me') as HTMLButtonElement;
const message = document.getElementById('find-message')!;
const list = document.getElementById('result-list')!;
const results = document.getElementById('results')!;
const mapWrap = document.getElementById('map-wrap')!;
const mapBox = document.getElementById('map')!;
const mapMessage = document.getElementById('map-message')!;

const mapSize = document.getElementById('map-size') as HTMLButtonElement;
const offlineTools = document.getElementById('offline-tools')!;
const saveButton = document.getElementById('save-area') as HTMLButtonElement;
const saveStatus = document.getElementById('save-status')!;

const LAST_VIEW = 'last-view';
/** The deepest level of the overview (src/overview/clusters.ts MAX_ZOOM). */
const OVERVIEW_MAX_ZOOM = 12;
type Query = { place: string } | { lat: number; lon: number };
/** What the list shows: the nearest to a query, or the toilets of a map view. */
let shown: { kind: 'query'; query: Query } | { kind: 'view'; view: View } | null = null;
let listed: readonly ToiletItem[] = [];
let map: ToiletMap | null = null;
let mapPromise: Promise<ToiletMap | null> | null = null;
/** The overview's tiles asked so far, by `z/x/y`. */
const overviewTileCache = new Map<string, Promise<[number, number, number][]>>();

function filters(): Set<Filter> {
  return new Set(FILTERS.filter((f) => (form.elements.namedItem(f) as HTMLInputElement).checked));
}

/** Why there is no map, said after every message once the map could not load. */
let noMapNote = '';

/**
 * The line under the map. A note for the operator (no basemap yet) keeps to one line on a phone, where
 * the map and that line stay on screen over the list: its whole text is in the title and read out.
 */
function sayOnMap(text: string, to: 'visitor' | 'operator' = 'visitor'): void {
  mapMessage.textContent = text;
  mapMessage.classList.toggle('operator-note', to === 'operator');
  if (to === 'operator') mapMessage.title = text;
  else mapMessage.removeAttribute('title');
}

/** The operator's note when the map has no basemap (the plain map); else an empty line. */
function sayBasemapNote(shownMap: ToiletMap | null | undefined): void {
  if (shownMap?.basemap === 'plain') sayOnMap(t('map.noBasemap'), 'operator');
  else sayOnMap('');
}

function say(text: string): void {
  message.textContent = noMapNote === '' ? text : `${text} ${noMapNote}`.trim();
}

/** Redraws the list, numbered like the markers; focus that was in it stays on the same toilet, or on the results when it is gone (never on <body>). */
function showList(items: readonly ToiletItem[]): void {
  listed = items;
  const active = document.activeElement;
  const hadFocus = active !== null && list.contains(active);
  const focusedId = hadFocus ? active.closest<HTMLElement>('li')?.dataset.id : undefined;
  list.innerHTML = items.map((item, i) => resultItemHtml(lang, item, localHref(`/t/${encodeURIComponent(item.id)}`), titleOf(item.id), i + 1)).join('');
  map?.show(items.map((item, i) => ({ item, number: i + 1, title: titleOf(item.id) })));
  if (hadFocus) {
    const same = rowOf(focusedId ?? '');
    (same?.querySelector('a') ?? results).focus();
  }
  // the titles of unnamed toilets come after the rows: the list never waits for them
  void learnTitles(items).then((learned) => learned && listed === items && showList(items));
}

function rowOf(id: string): HTMLElement | undefined {
  return [...list.querySelectorAll<HTMLElement>('li')].find((li) => li.dataset.id === id);
}

function markRow(id: string | null): void {
  for (const li of list.querySelectorAll<HTMLElement>('li.highlighted')) li.classList.remove('highlighted');
  if (id !== null) rowOf(id)?.classList.add('highlighted');
}

// a row under the pointer or in focus marks its marker
const rowId = (event: Event) => (event.target instanceof Element ? event.target.closest<HTMLElement>('li')?.dataset.id ?? null : null);
list.addEventListener('mouseover', (event) => map?.highlight(rowId(event)));
list.addEventListener('mouseleave', () => map?.highlight(null));
list.addEventListener('focusin', (event) => map?.highlight(rowId(event)));
list.addEventListener('focusout', () => map?.highlight(null));

function dateText(iso: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** Loads the map once, where it is possible; null (and a message beside the list) where not. */
function ensureMap(start: { lat: number; lon: number; zoom: number }): Promise<ToiletMap | null> {
  mapPromise ??= import('./map.js')
    .then(async ({ createMap }) => {
      const created = await createMap(mapBox, start);
      created.onSettled((view) => void listView(view));
      created.onMoved((view) => localStorage.setItem(LAST_VIEW, JSON.stringify(view)));
      created.onHover((id) => markRow(id));
      created.onPick((id) => {
        markRow(id);
        const row = rowOf(id);
        // on the desktop the list scrolls beside the map; on a phone the page scrolls the row up to just below the map
        if (row && getComputedStyle(results).overflowY === 'auto') results.scrollTop = row.offsetTop - results.offsetTop - 8;
        else row?.scrollIntoView({ block: 'nearest' });
      });
      map = created;
      sayBasemapNote(created);
      offlineTools.hidden = false;
      mapSize.hidden = false;
      created.show(listed.map((item, i) => ({ item, number: i + 1, title: titleOf(item.id) })));
      drawOverview();
      document.body.dataset.mapState = 'ready';
      return created;
    })
    .catch((error: unknown) => {
      mapWrap.hidden = true;
      const said = message.textContent ?? '';
      noMapNote = t('find.listOnly', { reason: error instanceof Error && error.name === 'MapUnavailable' ? error.message : t('find.mapFailed') });
      say(said);
      document.body.dataset.mapState = 'unavailable';
      return null;
    });
  return mapPromise;
}

async function runFind(query: Query): Promise<void> {
  shown = { kind: 'query', query };
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
  showList(found.results);
  if (found.status === 'needs_location') say(t('find.needsLocation'));
  else if (found.status === 'place_not_found') say(t('find.placeNotFound', { place: 'place' in query ? query.place : '' }));
  else if (found.results.length === 0) say(t('find.none'));
  else say(found.origin?.source === 'coordinates' ? t('find.nearestYou') : t('find.nearestTo', { label: found.origin?.label ?? '' }));
  markStale(answer.headers);
  if (found.origin) {
    const shownMap = await ensureMap({ lat: found.origin.lat, lon: found.origin.lon, zoom: 15 });
    shownMap?.showOrigin(found.origin);
    shownMap?.showOverview([]);
    sayBasemapNote(shownMap);
    if (found.bbox) shownMap?.fit(found.bbox);
    else shownMap?.centre(found.origin.lat, found.origin.lon, 15);
  }
}

/** An answer the service worker gave from its cache says when it was saved: the data may be stale. */
function markStale(headers: Headers): void {
  const saved = headers.get('X-Saved-At');
  if (saved) say(`${message.textContent ?? ''} ${t('find.offlineData', { date: dateText(saved) })}`);
}

/** The overview's cells in a view: the tiles of its level that the view covers, each asked once per page. */
async function overviewCells(view: View): Promise<[number, number, number][]> {
  const level = Math.max(0, Math.min(OVERVIEW_MAX_ZOOM, Math.floor(view.zoom)));
  const tiles = overviewTiles(view, level);
  const answers = await Promise.all(tiles.map((tile) => {
    let cells = overviewTileCache.get(tile);
    if (cells === undefined) {
      cells = getJson<{ cells: [number, number, number][] }>(`/overview/${tile}.json`).then((answer) => (answer.status === 200 ? answer.body.cells : []), () => []);
      overviewTileCache.set(tile, cells);
    }
    return cells;
  }));
  return answers.flat();
}

/** The overview's counts under a wide view (the list then holds only the nearest to its centre); none otherwise. */
function drawOverview(): void {
  if (map === null) return;
  const view = shown?.kind === 'view' ? shown.view : null;
  if (view === null || !tooWide(view)) {
    map.showOverview([]);
    return;
  }
  void overviewCells(view).then((cells) => shown?.kind === 'view' && shown.view === view && map?.showOverview(cells));
}

/** Lists the toilets of a map view: those in it (a view within the area box), else those nearest its centre over the overview's counts. */
async function listView(view: View): Promise<void> {
  shown = { kind: 'view', view };
  const wide = tooWide(view);
  drawOverview();
  const centre = centreOf(view);
  const url = wide ? `/api/v1/toilets/nearest?lat=${centre.lat.toFixed(5)}&lon=${centre.lon.toFixed(5)}&limit=20${filterQuery(filters())}` : areaUrl(view, filters());
  let answer;
  try {
    answer = await getJson<(AreaResult | FindResult) & { type?: string }>(url);
  } catch {
    await showSavedArea(view);
    return;
  }
  if (shown?.kind !== 'view' || shown.view !== view) return; // a later view or a search took over
  if (answer.status !== 200) {
    sayOnMap(t('find.error', { detail: problemText(lang, answer.body, answer.status) }));
    return;
  }
  showList(answer.body.results);
  say(answer.body.results.length === 0 ? t('find.none') : wide ? t('find.nearestCentre') : t('find.inView'));
  const truncated = 'truncated' in answer.body && answer.body.truncated;
  if (truncated) sayOnMap(t('find.truncated'));
  else sayBasemapNote(map);
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
  url.searchParams.delete('lat');
  url.searchParams.delete('lon');
  history.replaceState(null, '', url);
  void runFind({ place });
});

form.addEventListener('change', (event) => {
  if (!(event.target instanceof HTMLInputElement) || event.target.type !== 'checkbox') return;
  if (shown?.kind === 'view') void listView(map?.view() ?? shown.view);
  else if (shown?.kind === 'query') void runFind(shown.query);
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

// a phone's switch between a strip of map over the list and a map over most of the screen (MapLibre follows its box's size)
mapSize.addEventListener('click', () => {
  const large = mapSize.getAttribute('aria-pressed') !== 'true';
  mapSize.setAttribute('aria-pressed', String(large));
  mapWrap.parentElement!.classList.toggle('map-large', large);
});

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

/** The first view: the last one viewed here, else the data's coverage fitted into the map's box. */
function firstView(): View | null {
  const last = JSON.parse(localStorage.getItem(LAST_VIEW) ?? 'null') as View | null;
  if (last) return last;
  const coverage = mapWrap.dataset.coverage?.split(',').map(Number);
  if (coverage?.length !== 4 || !coverage.every(Number.isFinite)) return null;
  return fittedView(coverage, mapBox.clientWidth || 390, mapBox.clientHeight || 400);
}

function start(): void {
  startPage();
  const params = new URLSearchParams(location.search);
  const place = params.get('place');
  const lat = Number(params.get('lat'));
  const lon = Number(params.get('lon'));
  const saved = savedArea();
  if (saved) saveStatus.textContent = t('offline.saved', { date: dateText(saved.savedAt), size: formatBytes(saved.bytes, locale) });
  if (place && place.trim().length >= 2) void runFind({ place: place.trim() });
  else if (params.has('lat') && params.has('lon') && Number.isFinite(lat) && Number.isFinite(lon)) void runFind({ lat, lon });
  else {
    const view = firstView();
    if (view === null) {
      mapWrap.hidden = true; // no data yet: nothing to show on a map
      return;
    }
    // the list first; the map library after it (the service worker's cache answers offline)
    void listView(view).then(() => ensureMap({ ...centreOf(view), zoom: view.zoom }));
  }
}

start();
