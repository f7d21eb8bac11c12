// The map beside the list (MapLibre GL JS, in its own chunk: only pages that show a map load it). It
// draws the toilets the list shows, clustered when dense, over our self-hosted basemap (/tiles/tiles.json
// with siteStyle), or an operator's external style, and reports settled views so the page can ask for the
// toilets of the area. createMap throws a MapUnavailable with a reason the page shows beside the list.
import { Map as MapLibre, NavigationControl, Popup, Marker, setWorkerUrl, type GeoJSONSource, type LngLatBoundsLike, type StyleSpecification } from 'maplibre-gl';
import type { ToiletItem } from '../../src/web/text/item.js';
import { asset, getJson, loadCss, localHref, t } from './common.js';
import { siteStyle } from './style.js';
import { escapeHtml } from '../../src/web/text/html.js';

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

export interface ToiletMap {
  show(items: readonly ToiletItem[]): void;
  fit(bbox: [number, number, number, number]): void;
  centre(lat: number, lon: number, zoom: number): void;
  view(): View;
  /** Called after a view the person moved to has settled (not after fit/centre). */
  onSettled(listener: (view: View) => void): void;
  /** Called after every move, the page's own included (to remember the last view). */
  onMoved(listener: (view: View) => void): void;
  /** A pin the person drops by clicking or tapping (the proposal page). */
  enablePin(onPin: (lat: number, lon: number) => void, at: { lat: number; lon: number } | null): void;
  /** The highest zoom of our own basemap tiles, null with an external style (then no tiles are saved offline). */
  maxZoom(): number | null;
  ready: Promise<void>;
}

/** The style to use: our tiles when the server has them, else the operator's style, else none. */
async function chooseStyle(): Promise<{ style: StyleSpecification | string; maxzoom: number | null }> {
  const tiles = await getJson<{ maxzoom?: number }>('/tiles/tiles.json').catch(() => null);
  if (tiles?.status === 200) return { style: siteStyle(new URL('/tiles/tiles.json', location.href).href), maxzoom: Math.min(tiles.body?.maxzoom ?? 14, 14) };
  const config = await getJson<{ map_style_url: string | null }>('/app-config.json').catch(() => null);
  // an external style's tiles are the provider's: not ours to save for offline use
  if (config?.status === 200 && config.body.map_style_url) return { style: config.body.map_style_url, maxzoom: null };
  throw new MapUnavailable(t('find.noMapTiles'));
}

function webgl2Available(): boolean {
  try {
    return document.createElement('canvas').getContext('webgl2') !== null;
  } catch {
    return false;
  }
}

export async function createMap(container: HTMLElement, start: { lat: number; lon: number; zoom: number }): Promise<ToiletMap> {
  if (!webgl2Available()) throw new MapUnavailable(t('find.noWebgl'));
  const { style, maxzoom } = await chooseStyle();
  loadCss(asset('mapCss'));
  setWorkerUrl(asset('mapWorker'));
  const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)').matches;
  let map: MapLibre;
  try {
    map = new MapLibre({ container, style, center: [start.lon, start.lat], zoom: start.zoom, maxZoom: 19, fadeDuration: reduceMotion ? 0 : 300, attributionControl: { compact: true }, locale: MAP_TEXTS() });
  } catch (error) {
    throw new MapUnavailable(error instanceof Error && /WebGL/i.test(error.message) ? t('find.noWebgl') : t('find.mapFailed'));
  }
  map.addControl(new NavigationControl({ showCompass: false }));
  (window as unknown as { toiletMap: MapLibre }).toiletMap = map;
  // moves the page makes (fit, centre) carry this in their event data; only the person's moves ask for an area
  const PAGE_MOVE = { pageMove: true };
  const listeners: ((view: View) => void)[] = [];
  const moved: ((view: View) => void)[] = [];
  const view = (): View => {
    const b = map.getBounds();
    return { west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth(), zoom: map.getZoom() };
  };
  let pending: ReturnType<typeof setTimeout> | undefined;
  map.on('moveend', (event) => {
    moved.forEach((listener) => listener(view()));
    if ((event as unknown as { pageMove?: boolean }).pageMove) return;
    // one request per settled view: wait until the person stops moving
    clearTimeout(pending);
    pending = setTimeout(() => listeners.forEach((listener) => listener(view())), 350);
  });

  const ready = new Promise<void>((resolve) => {
    map.on('load', () => {
      map.addSource('toilets', { type: 'geojson', data: { type: 'FeatureCollection', features: [] }, cluster: true, clusterRadius: 40, clusterMaxZoom: 16 });
      map.addLayer({ id: 'clusters', type: 'circle', source: 'toilets', filter: ['has', 'point_count'], paint: { 'circle-color': '#0b5cad', 'circle-opacity': 0.85, 'circle-radius': ['step', ['get', 'point_count'], 14, 10, 18, 50, 24], 'circle-stroke-color': '#fff', 'circle-stroke-width': 2 } });
      map.addLayer({ id: 'cluster-count', type: 'symbol', source: 'toilets', filter: ['has', 'point_count'], layout: { 'text-field': ['get', 'point_count_abbreviated'], 'text-font': ['sans-serif'], 'text-size': 13 }, paint: { 'text-color': '#fff' } });
      map.addLayer({
        id: 'toilet', type: 'circle', source: 'toilets', filter: ['!', ['has', 'point_count']],
        paint: { 'circle-radius': 8, 'circle-color': ['match', ['get', 'open'], 'open', '#16794a', 'closed', '#b3261e', '#6b6b6b'], 'circle-stroke-color': '#fff', 'circle-stroke-width': 2 },
      });
      map.on('click', 'clusters', (event) => {
        const feature = event.features?.[0];
        if (!feature) return;
        void (map.getSource('toilets') as GeoJSONSource).getClusterExpansionZoom(feature.properties.cluster_id as number).then((zoom) => {
          map.easeTo({ center: (feature.geometry as unknown as { coordinates: [number, number] }).coordinates, zoom, animate: !reduceMotion });
        });
      });
      map.on('click', 'toilet', (event) => {
        const feature = event.features?.[0];
        if (!feature) return;
        const p = feature.properties as { id: string; name: string };
        new Popup({ closeButton: true }).setLngLat((feature.geometry as unknown as { coordinates: [number, number] }).coordinates)
          .setHTML(`<a href="${escapeHtml(localHref(`/t/${encodeURIComponent(p.id)}`))}">${escapeHtml(p.name)}</a>`).addTo(map);
      });
      for (const layer of ['clusters', 'toilet']) {
        map.on('mouseenter', layer, () => (map.getCanvas().style.cursor = 'pointer'));
        map.on('mouseleave', layer, () => (map.getCanvas().style.cursor = ''));
      }
      resolve();
    });
  });

  let pin: Marker | null = null;
  return {
    ready,
    show(items) {
      void ready.then(() => {
        void (map.getSource('toilets') as GeoJSONSource).setData({
          type: 'FeatureCollection',
          features: items.map((item) => ({
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [item.lon, item.lat] },
            properties: { id: item.id, name: item.name ?? t('item.unnamed'), open: item.open_now === 'unknown' ? 'unknown' : item.open_now ? 'open' : 'closed' },
          })),
        });
        (window as unknown as { toiletMapShown: number }).toiletMapShown = items.length;
      });
    },
    fit(bbox) {
      const bounds: LngLatBoundsLike = [[bbox[0], bbox[1]], [bbox[2], bbox[3]]];
      map.fitBounds(bounds, { padding: 40, maxZoom: 17, animate: !reduceMotion }, PAGE_MOVE);
    },
    centre(lat, lon, zoom) {
      map.jumpTo({ center: [lon, lat], zoom }, PAGE_MOVE);
    },
    view,
    onSettled(listener) {
      listeners.push(listener);
    },
    onMoved(listener) {
      moved.push(listener);
    },
    enablePin(onPin, at) {
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
    },
    maxZoom: () => maxzoom,
  };
}
