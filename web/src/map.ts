// The map beside the list (MapLibre GL JS, in its own chunk, loaded after the first results): the listed
// toilets as markers numbered like the rows, the overview's counts when zoomed out, the origin of a
// search; over our self-hosted basemap (/tiles/tiles.json with siteStyle), an operator's external style,
// or without either the plain map (the coverage, its place names and the toilets on a plain background).
// It reports settled views so the page can list the toilets in view, and a marker under the pointer or
// tapped so the page can mark its row. createMap throws a MapUnavailable (no WebGL2) the page shows.
import { Map as MapLibre, NavigationControl, Popup, Marker, setWorkerUrl, type GeoJSONSource, type LngLatBoundsLike, type StyleSpecification } from 'maplibre-gl';
import { addPlainLayers, addToiletLayers, PLAIN_STYLE } from './map-layers.js';
import { markerLayer } from './map-markers.js';
import type { ToiletItem } from '../../src/web/text/item.js';
import { asset, getJson, loadCss, localHref, t } from './common.js';
import { siteStyle } from './style.js';
import { escapeHtml } from '../../src/web/text/html.js';
import type { SiteTitle } from '../../src/rules/site-title.js';

/** MapLibre's own control labels in the page's language. */
const MAP_TEXTS = (): Record<string, string> => ({
  'NavigationControl.ZoomIn': t('map.zoomIn'),
  'NavigationControl.ZoomOut': t('map.zoomOut'),
  'NavigationControl.ResetBearing': t('map.resetBearing'),
  'AttributionControl.ToggleAttribution': t('map.attribution'),
  'AttributionControl.MapFeedback': t('map.feedback'),
  'Popup.Close': t('map.close'),
  'Map.Title': t('map.title'),
  'Marker.Title': t('map.marker'),
});

export class MapUnavailable extends Error {
  override name = 'MapUnavailable';
}

export interface View {
  west: number;
  south: number;
  east: number;
  north: number;
  zoom: number;
}

export type Basemap = 'own' | 'external' | 'plain';

/** A toilet as the map draws it: the list's item, its row's number and its site title. */
export interface Marked {
  item: ToiletItem;
  number: number;
  title: SiteTitle | null;
}

export interface ToiletMap {
  /** The listed toilets, numbered like their rows. */
  show(marked: readonly Marked[]): void;
  /** The overview's counts as [lon, lat, count] (zoomed out), or none. */
  showOverview(cells: readonly (readonly [number, number, number])[]): void;
  /** The origin of a search (Near me, a place), or none. */
  showOrigin(origin: { lat: number; lon: number } | null): void;
  /** Marks one toilet's marker (its row has the focus or the pointer), or none. */
  highlight(id: string | null): void;
  /** Called with the toilet whose marker the pointer is over (null when it leaves). */
  onHover(listener: (id: string | null) => void): void;
  /** Called with the toilet whose marker was clicked or tapped. */
  onPick(listener: (id: string) => void): void;
  fit(bbox: [number, number, number, number]): void;
  centre(lat: number, lon: number, zoom: number): void;
  view(): View;
  /** Called after a view the person moved to has settled (not after fit/centre). */
  onSettled(listener: (view: View) => void): void;
  /** Called after every move, the page's own included (to remember the last view). */
  onMoved(listener: (view: View) => void): void;
  /** A pin the person drops by clicking or tapping (the proposal page). */
  enablePin(onPin: (lat: number, lon: number) => void, at: { lat: number; lon: number } | null): void;
  /** The highest zoom of our own basemap tiles, null otherwise (then no tiles are saved offline). */
  maxZoom(): number | null;
  basemap: Basemap;
  ready: Promise<void>;
}

/** The style to use: our tiles when the server has them, else the operator's style, else the plain map. */
async function chooseStyle(): Promise<{ style: StyleSpecification | string; maxzoom: number | null; basemap: Basemap }> {
  const tiles = await getJson<{ maxzoom?: number }>('/tiles/tiles.json').catch(() => null);
  if (tiles?.status === 200) return { style: siteStyle(new URL('/tiles/tiles.json', location.href).href), maxzoom: Math.min(tiles.body?.maxzoom ?? 14, 14), basemap: 'own' };
  const config = await getJson<{ map_style_url: string | null }>('/app-config.json').catch(() => null);
  // an external style's tiles are the provider's: not ours to save for offline use
  if (config?.status === 200 && config.body.map_style_url) return { style: config.body.map_style_url, maxzoom: null, basemap: 'external' };
  return { style: PLAIN_STYLE as StyleSpecification, maxzoom: null, basemap: 'plain' };
}

function webgl2Available(): boolean {
  try {
    return document.createElement('canvas').getContext('webgl2') !== null;
  } catch {
    return false;
  }
}

type Coordinates = [number, number];
const coordinatesOf = (feature: { geometry: unknown }) => (feature.geometry as { coordinates: Coordinates }).coordinates;

export async function createMap(container: HTMLElement, start: { lat: number; lon: number; zoom: number }): Promise<ToiletMap> {
  if (!webgl2Available()) throw new MapUnavailable(t('find.noWebgl'));
  const { style, maxzoom, basemap } = await chooseStyle();
  const places = basemap === 'plain' ? getJson<Parameters<typeof addPlainLayers>[1]>('/overview/places.json').catch(() => null) : null;
  loadCss(asset('mapCss'));
  setWorkerUrl(asset('mapWorker'));
  const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)').matches;
  const map = openMap(container, start, style, reduceMotion);
  const pointer: Pointer = { hovered: [], picked: [] };
  const ready = new Promise<void>((resolve) => map.on('load', () => {
    addToiletLayers(map);
    void places?.then((answer) => answer?.status === 200 && addPlainLayers(map, answer.body));
    answerPointer(map, pointer, reduceMotion);
    resolve();
  }));
  return {
    ready,
    basemap,
    ...drawing(map, ready),
    ...movements(map, reduceMotion),
    onHover: (listener) => void pointer.hovered.push(listener),
    onPick: (listener) => void pointer.picked.push(listener),
    enablePin: pinDropper(map),
    maxZoom: () => maxzoom,
  };
}

/** The MapLibre map in `container`, with its zoom buttons, or MapUnavailable when it cannot draw. */
function openMap(container: HTMLElement, start: { lat: number; lon: number; zoom: number }, style: StyleSpecification | string, reduceMotion: boolean): MapLibre {
  let map: MapLibre;
  try {
    map = new MapLibre({ container, style, center: [start.lon, start.lat], zoom: start.zoom, maxZoom: 19, fadeDuration: reduceMotion ? 0 : 300, attributionControl: { compact: true }, locale: MAP_TEXTS() });
  } catch (error) {
    throw new MapUnavailable(error instanceof Error && /WebGL/i.test(error.message) ? t('find.noWebgl') : t('find.mapFailed'));
  }
  map.addControl(new NavigationControl({ showCompass: false }));
  (window as unknown as { toiletMap: MapLibre }).toiletMap = map;
  return map;
}

/** Who listens to the pointer over the toilets' markers. */
interface Pointer {
  hovered: ((id: string | null) => void)[];
  picked: ((id: string) => void)[];
}

/** Once the style is loaded: a count zooms in, a marker tells its toilet (and shows its link), the cursor says what is clickable. */
function answerPointer(map: MapLibre, pointer: Pointer, reduceMotion: boolean): void {
  map.on('click', 'overview', (event) => {
    const feature = event.features?.[0];
    // a listed toilet's marker over a count is the toilet's: its own handler marks its row
    if (feature && map.queryRenderedFeatures(event.point, { layers: ['toilet'] }).length === 0) map.easeTo({ center: coordinatesOf(feature), zoom: map.getZoom() + 2, animate: !reduceMotion });
  });
  map.on('click', 'toilet', (event) => {
    const feature = event.features?.[0];
    if (!feature) return;
    const p = feature.properties as { id: string; name: string };
    pointer.picked.forEach((listener) => listener(p.id));
    // the focus stays where it was: moving it into the map would scroll a phone's page back up to the map
    new Popup({ closeButton: true, focusAfterOpen: false }).setLngLat(coordinatesOf(feature))
      .setHTML(`<a href="${escapeHtml(localHref(`/t/${encodeURIComponent(p.id)}`))}">${escapeHtml(p.name)}</a>`).addTo(map);
  });
  map.on('mousemove', 'toilet', (event) => {
    const id = (event.features?.[0]?.properties as { id?: string } | undefined)?.id ?? null;
    pointer.hovered.forEach((listener) => listener(id));
  });
  map.on('mouseleave', 'toilet', () => pointer.hovered.forEach((listener) => listener(null)));
  for (const layer of ['overview', 'toilet']) {
    map.on('mouseenter', layer, () => (map.getCanvas().style.cursor = 'pointer'));
    map.on('mouseleave', layer, () => (map.getCanvas().style.cursor = ''));
  }
}

/** What the map draws: the listed toilets (and the one marked), the overview's counts, a search's origin. */
function drawing(map: MapLibre, ready: Promise<void>): Pick<ToiletMap, 'show' | 'showOverview' | 'showOrigin' | 'highlight'> {
  const setData = (source: string, features: GeoJSON.Feature[]) =>
    void ready.then(() => void (map.getSource(source) as GeoJSONSource).setData({ type: 'FeatureCollection', features }));
  const point = (lon: number, lat: number, properties: Record<string, unknown>): GeoJSON.Feature => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties });
  const showMarkers = markerLayer(map, ready);
  let highlighted: string | null = null;
  return {
    show(marked) {
      highlighted = null;
      void ready.then(() => map.removeFeatureState({ source: 'toilets' }));
      showMarkers(marked);
      void ready.then(() => ((window as unknown as { toiletMapShown: number }).toiletMapShown = marked.length));
    },
    showOverview(cells) {
      setData('overview', cells.map(([lon, lat, count]) => point(lon, lat, { count })));
    },
    showOrigin(origin) {
      setData('origin', origin === null ? [] : [point(origin.lon, origin.lat, {})]);
    },
    highlight(id) {
      void ready.then(() => {
        if (highlighted !== null) map.setFeatureState({ source: 'toilets', id: highlighted }, { highlight: false });
        highlighted = id;
        if (id !== null) map.setFeatureState({ source: 'toilets', id }, { highlight: true });
      });
    },
  };
}

/** The views: the page's own moves (fit, centre), and the settled views of the person's, which ask for an area. */
function movements(map: MapLibre, reduceMotion: boolean): Pick<ToiletMap, 'fit' | 'centre' | 'view' | 'onSettled' | 'onMoved'> {
  // moves the page makes (fit, centre) carry this in their event data; only the person's moves ask for an area
  const PAGE_MOVE = { pageMove: true };
  const settled: ((view: View) => void)[] = [];
  const moved: ((view: View) => void)[] = [];
  const view = (): View => {
    const b = map.getBounds();
    return { west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth(), zoom: map.getZoom() };
  };
  let pending: ReturnType<typeof setTimeout> | undefined;
  // one request per settled view: wait until the person stops moving
  const settle = () => {
    clearTimeout(pending);
    pending = setTimeout(() => settled.forEach((listener) => listener(view())), 350);
  };
  map.on('moveend', (event) => {
    moved.forEach((listener) => listener(view()));
    if (!(event as unknown as { pageMove?: boolean }).pageMove) settle();
  });
  // a larger or smaller map (the phone's switch, a turned screen) shows another view
  map.on('resize', settle);
  return {
    fit(bbox) {
      const bounds: LngLatBoundsLike = [[bbox[0], bbox[1]], [bbox[2], bbox[3]]];
      map.fitBounds(bounds, { padding: 40, maxZoom: 17, animate: !reduceMotion }, PAGE_MOVE);
    },
    centre(lat, lon, zoom) {
      map.jumpTo({ center: [lon, lat], zoom }, PAGE_MOVE);
    },
    view,
    onSettled: (listener) => void settled.push(listener),
    onMoved: (listener) => void moved.push(listener),
  };
}

/** The proposal page's pin: dropped by a click or a tap, dragged to move it. */
function pinDropper(map: MapLibre): ToiletMap['enablePin'] {
  let pin: Marker | null = null;
  return (onPin, at) => {
    const place = (lat: number, lon: number) => {
      if (pin === null) pin = new Marker({ color: '#0b5cad', draggable: true }).setLngLat([lon, lat]).addTo(map);
      else pin.setLngLat([lon, lat]);
      pin.on('dragend', () => {
        const where = pin!.getLngLat();
        onPin(where.lat, where.lng);
      });
    };
    if (at) place(at.lat, at.lon);
    map.on('click', (event) => {
      place(event.lngLat.lat, event.lngLat.lng);
      onPin(event.lngLat.lat, event.lngLat.lng);
    });
  };
}
