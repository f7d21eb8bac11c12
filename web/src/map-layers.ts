// The map's own sources and layers over any basemap: the overview's counts (zoomed out, where the list
// cannot hold the region), the listed toilets as numbered markers (the number is the row's in the list;
// feature-state `highlight` marks the row in focus or under the pointer), the origin of a search, and on
// the plain map (no basemap) the coverage outline and the place names of the overview's places document.
import type { FeatureCollection } from 'geojson';
import type { Map as MapLibre } from 'maplibre-gl';

const EMPTY: FeatureCollection = { type: 'FeatureCollection', features: [] };
const NUMBER_FONT = ['sans-serif'];

export function addToiletLayers(map: MapLibre): void {
  map.addSource('overview', { type: 'geojson', data: EMPTY });
  map.addLayer({
    id: 'overview', type: 'circle', source: 'overview',
    // paler than the listed toilets' markers, and a lone toilet a dot without a figure: counts are not rows
    paint: { 'circle-color': '#4a90d9', 'circle-opacity': 0.55, 'circle-radius': ['interpolate', ['linear'], ['get', 'count'], 1, 5, 2, 11, 10, 15, 100, 21, 1000, 28], 'circle-stroke-color': '#fff', 'circle-stroke-width': 1.5 },
  });
  map.addLayer({ id: 'overview-count', type: 'symbol', source: 'overview', filter: ['>', ['get', 'count'], 1], layout: { 'text-field': ['to-string', ['get', 'count']], 'text-font': NUMBER_FONT, 'text-size': 12, 'text-allow-overlap': true }, paint: { 'text-color': '#0b3a6e', 'text-halo-color': '#fff', 'text-halo-width': 1 } });

  // a marker spread away from its true position (map-markers.ts): a leg back to a dot there
  map.addSource('toilet-legs', { type: 'geojson', data: EMPTY });
  map.addLayer({ id: 'toilet-leg', type: 'line', source: 'toilet-legs', filter: ['==', ['geometry-type'], 'LineString'], paint: { 'line-color': '#3a3a3a', 'line-width': 1.5 } });
  map.addLayer({ id: 'toilet-spot', type: 'circle', source: 'toilet-legs', filter: ['==', ['geometry-type'], 'Point'], paint: { 'circle-radius': 3, 'circle-color': '#3a3a3a', 'circle-stroke-color': '#fff', 'circle-stroke-width': 1 } });

  map.addSource('toilets', { type: 'geojson', data: EMPTY, promoteId: 'id' });
  map.addLayer({
    id: 'toilet', type: 'circle', source: 'toilets',
    paint: {
      'circle-radius': ['case', ['boolean', ['feature-state', 'highlight'], false], 15, 11],
      'circle-color': ['match', ['get', 'open'], 'open', '#16794a', 'closed', '#b3261e', '#5c5c5c'],
      'circle-stroke-color': ['case', ['boolean', ['feature-state', 'highlight'], false], '#f5a623', '#fff'],
      'circle-stroke-width': ['case', ['boolean', ['feature-state', 'highlight'], false], 4, 2],
    },
  });
  map.addLayer({
    id: 'toilet-number', type: 'symbol', source: 'toilets',
    layout: { 'text-field': ['to-string', ['get', 'number']], 'text-font': NUMBER_FONT, 'text-size': 12, 'text-allow-overlap': true, 'text-ignore-placement': true, 'symbol-sort-key': ['get', 'number'] },
    paint: { 'text-color': '#fff' },
  });

  // under the markers: the nearest toilet is often at the origin itself, and its marker must show
  map.addSource('origin', { type: 'geojson', data: EMPTY });
  map.addLayer({ id: 'origin-halo', type: 'circle', source: 'origin', paint: { 'circle-radius': 16, 'circle-color': '#0b5cad', 'circle-opacity': 0.2 } }, 'toilet-leg');
  map.addLayer({ id: 'origin', type: 'circle', source: 'origin', paint: { 'circle-radius': 7, 'circle-color': '#0b5cad', 'circle-stroke-color': '#fff', 'circle-stroke-width': 3 } }, 'toilet-leg');
}

interface PlacesDocument {
  coverage: { name: string; bounds: [number, number, number, number] } | null;
  places: [number, number, string][];
}

/** The plain map's outline of the coverage and its place names (below the toilets). */
export function addPlainLayers(map: MapLibre, places: PlacesDocument): void {
  const bounds = places.coverage?.bounds;
  const outline: FeatureCollection = bounds
    ? { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[bounds[0], bounds[1]], [bounds[2], bounds[1]], [bounds[2], bounds[3]], [bounds[0], bounds[3]], [bounds[0], bounds[1]]]] } }] }
    : EMPTY;
  map.addSource('coverage', { type: 'geojson', data: outline });
  map.addLayer({ id: 'coverage', type: 'fill', source: 'coverage', paint: { 'fill-color': '#ffffff', 'fill-opacity': 0.7 } }, 'overview');
  map.addLayer({ id: 'coverage-line', type: 'line', source: 'coverage', paint: { 'line-color': '#0b5cad', 'line-width': 2, 'line-dasharray': [2, 2] } }, 'overview');
  map.addSource('places', {
    type: 'geojson',
    data: { type: 'FeatureCollection', features: places.places.map(([lon, lat, name], rank) => ({ type: 'Feature', properties: { name, rank }, geometry: { type: 'Point', coordinates: [lon, lat] } })) },
  });
  map.addLayer({
    id: 'place-names', type: 'symbol', source: 'places',
    layout: { 'text-field': ['get', 'name'], 'text-font': ['sans-serif'], 'text-size': 13, 'symbol-sort-key': ['get', 'rank'] },
    paint: { 'text-color': '#333', 'text-halo-color': '#fff', 'text-halo-width': 2 },
  }, 'overview');
}

/** A background only: what the plain map draws its layers on. */
export const PLAIN_STYLE = { version: 8 as const, sources: {}, layers: [{ id: 'background', type: 'background' as const, paint: { 'background-color': '#e9efe6' } }] };
