// The site's own small map style on the OpenMapTiles-like layers tilemaker writes (its openmaptiles
// example config): land use, water, buildings, roads and rail, street and place names. No glyphs: labels
// are drawn from the device's own sans-serif font (MapLibre >= 5.11), so the map makes no font requests
// and works offline; tilemaker writes names only as `name:latin`.
import type { StyleSpecification } from 'maplibre-gl';

const NAME = ['coalesce', ['get', 'name'], ['get', 'name:latin']] as unknown as string;

export function siteStyle(tileJsonUrl: string): StyleSpecification {
  return {
    version: 8,
    sources: { base: { type: 'vector', url: tileJsonUrl, attribution: '© <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors' } },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#f4f1ea' } },
      { id: 'park', type: 'fill', source: 'base', 'source-layer': 'park', paint: { 'fill-color': '#d8eccb' } },
      { id: 'landcover', type: 'fill', source: 'base', 'source-layer': 'landcover', filter: ['in', ['get', 'class'], ['literal', ['grass', 'wood', 'farmland']]], paint: { 'fill-color': '#dcefd0' } },
      { id: 'landuse', type: 'fill', source: 'base', 'source-layer': 'landuse', filter: ['in', ['get', 'class'], ['literal', ['residential', 'commercial', 'retail']]], paint: { 'fill-color': '#ece7df' } },
      { id: 'water', type: 'fill', source: 'base', 'source-layer': 'water', paint: { 'fill-color': '#a9d3f0' } },
      { id: 'waterway', type: 'line', source: 'base', 'source-layer': 'waterway', paint: { 'line-color': '#a9d3f0', 'line-width': 1.5 } },
      { id: 'building', type: 'fill', source: 'base', 'source-layer': 'building', minzoom: 13, paint: { 'fill-color': '#ddd6cc', 'fill-outline-color': '#c9c0b4' } },
      {
        id: 'road-casing', type: 'line', source: 'base', 'source-layer': 'transportation', filter: ['!=', ['get', 'class'], 'rail'],
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: { 'line-color': '#c8bfb2', 'line-width': ['interpolate', ['exponential', 1.6], ['zoom'], 10, 0.8, 18, 18] },
      },
      {
        id: 'road', type: 'line', source: 'base', 'source-layer': 'transportation', filter: ['!=', ['get', 'class'], 'rail'],
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: {
          'line-color': ['match', ['get', 'class'], ['motorway', 'trunk'], '#f6c57a', ['primary', 'secondary'], '#fbe3a1', '#ffffff'],
          'line-width': ['interpolate', ['exponential', 1.6], ['zoom'], 10, 0.5, 18, 15],
        },
      },
      { id: 'rail', type: 'line', source: 'base', 'source-layer': 'transportation', filter: ['==', ['get', 'class'], 'rail'], paint: { 'line-color': '#9a948c', 'line-width': 1.2, 'line-dasharray': [3, 3] } },
      {
        id: 'street-names', type: 'symbol', source: 'base', 'source-layer': 'transportation_name', minzoom: 15,
        layout: { 'symbol-placement': 'line', 'text-field': NAME, 'text-font': ['sans-serif'], 'text-size': 12 },
        paint: { 'text-color': '#555', 'text-halo-color': '#fff', 'text-halo-width': 1.5 },
      },
      {
        id: 'places', type: 'symbol', source: 'base', 'source-layer': 'place',
        layout: { 'text-field': NAME, 'text-font': ['sans-serif'], 'text-size': ['match', ['get', 'class'], ['city', 'town'], 16, 13] },
        paint: { 'text-color': '#333', 'text-halo-color': '#fff', 'text-halo-width': 2 },
      },
    ],
  } as StyleSpecification;
}
