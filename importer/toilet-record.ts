// One toilet's row: the mapped facts, the time zone and (where the tags need it) the country at its
// position, the hours validated there, its details (as the answer's JSON) and the raw tags. Runs in the decoder threads for nodes and on the
// main thread for ways and relations.
import type { Tags } from './pbf/index.js';
import { mapToiletTags, readDetails } from './mapping/index.js';
import { asciiJson } from '../src/rules/ascii-json.js';
import { roundCoordinate } from './geometry.js';
import type { ToiletRecord } from './toilet-rows.js';
import { countryAt, timeZoneAt } from '../src/geo/where.js';
import { checkHours } from '../src/hours/index.js';
import { QualityFlag, type ToiletFacts } from '../src/rules/facts.js';

/** Keys whose values depend on the country (currency symbols, bare amounts, holidays in hours). */
const COUNTRY_DEPENDENT_KEYS = ['fee', 'charge', 'toilets:fee', 'toilets:charge', 'opening_hours', 'toilets:opening_hours'];

/**
 * `id`: n/w/r and the OSM id; `timestamp`: epoch ms of the last edit, or null. `tags` as from lookupTags,
 * `json` their JSON text when the caller has it.
 */
export function toiletRecord(
  id: string,
  lat: number,
  lon: number,
  tags: Tags,
  host: boolean,
  timestamp: number | null,
  extractDate: number,
  json: string = JSON.stringify(tags),
): ToiletRecord {
  lat = roundCoordinate(lat);
  lon = roundCoordinate(lon);
  const country = needsCountry(tags) ? countryAt(lat, lon) : null;
  const timeZone = timeZoneAt(lat, lon);
  const facts = mapToiletTags(tags, { country, host, extractDate, tagsJson: json });
  validateHours(facts, lat, lon, country, timeZone);
  const details = readDetails(tags, host);
  return {
    id, host, lat, lon, facts, lastEdited: timestamp === null ? null : Math.floor(timestamp / 1000), timeZone, country, tags: json,
    details: details === null ? null : asciiJson(details),
  };
}

function needsCountry(tags: Tags): boolean {
  for (const key of COUNTRY_DEPENDENT_KEYS) if (tags[key] !== undefined) return true;
  return false;
}

function validateHours(facts: ToiletFacts, lat: number, lon: number, country: string | null, timeZone: string): void {
  if (facts.opening_hours === null) return;
  const check = checkHours(facts.opening_hours, { lat, lon, country, timeZone });
  if (!check.ok) {
    facts.opening_hours = null;
    facts.quality |= QualityFlag.HoursUnparseable;
  } else if (check.holidaysUnresolved) {
    facts.quality |= QualityFlag.HolidaysUnresolved;
  }
}
