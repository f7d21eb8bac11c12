// The listed toilets' markers on the site map, numbered like their rows and spread apart on screen
// (src/web/spread.ts) so that each can be told apart and tapped: toilets of one building, or close
// together with the map zoomed out, would otherwise draw one marker over another. A marker that had to
// move gets a leg back to a dot at its true position. Spread again after each zoom (pixels change).
import type { GeoJSONSource, Map as MapLibre } from 'maplibre-gl';
import type { Feature } from 'geojson';
import { displayName } from '../../src/web/text/item.js';
import { spreadPoints } from '../../src/web/spread.js';
import { lang } from './common.js';
import type { Marked } from './map.js';

/** Marker centres at least this far apart on screen: a marker (22 px), its white rims and a hair between. */
const MARKER_GAP = 28;
/** A marker moved less than this many pixels needs no leg (it is drawn where it was spread to all the same). */
const LEG_FROM = 2;

const openOf = (item: Marked['item']) => (item.open_now === 'unknown' ? 'unknown' : item.open_now ? 'open' : 'closed');

export function markerLayer(map: MapLibre, ready: Promise<void>): (marked: readonly Marked[]) => void {
  let shown: readonly Marked[] = [];
  const setData = (source: string, features: Feature[]) => void (map.getSource(source) as GeoJSONSource).setData({ type: 'FeatureCollection', features });
  const draw = () => {
    const onScreen = shown.map(({ item }) => map.project([item.lon, item.lat]));
    const spread = spreadPoints(onScreen, MARKER_GAP);
    const markers: Feature[] = [];
    const legs: Feature[] = [];
    shown.forEach(({ item, number, title }, i) => {
      const moved = Math.hypot(spread[i].x - onScreen[i].x, spread[i].y - onScreen[i].y) >= LEG_FROM;
      const at = map.unproject([spread[i].x, spread[i].y]);
      const where = [at.lng, at.lat];
      markers.push({ type: 'Feature', geometry: { type: 'Point', coordinates: where }, properties: { id: item.id, number, name: displayName(lang, item, title), open: openOf(item) } });
      if (moved) {
        legs.push({ type: 'Feature', geometry: { type: 'LineString', coordinates: [[item.lon, item.lat], where] }, properties: {} });
        legs.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [item.lon, item.lat] }, properties: {} });
      }
    });
    setData('toilets', markers);
    setData('toilet-legs', legs);
  };
  void ready.then(() => map.on('zoomend', draw));
  return (marked) => {
    shown = marked;
    void ready.then(draw);
  };
}
