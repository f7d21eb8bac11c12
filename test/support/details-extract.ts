// A small extract whose toilets carry the details the shared real extracts hardly have (key systems,
// Changing Places, changing-table location, wheelchair details, hand washing, water, showers), tagged as
// mappers in London, Berlin and Zürich tag them, with the details each must give. Written by our own PBF
// writer and imported by the real importer (test/importer/details.test.ts, test/api/details.test.ts, the
// web tests and their screenshots).
import { join } from 'node:path';
import { importExtract } from '../../importer/import.js';
import { writeExtract } from '../importer/support.js';
import type { ToiletDetails } from '../../src/rules/details.js';

export interface DetailsCase {
  id: string;
  lat: number;
  lon: number;
  tags: Record<string, string>;
  /** What getToilet's `details` must be (undefined: no `details` member). */
  details: ToiletDetails | undefined;
}

/** London Bridge station's Changing Places toilet, as mapped (RADAR key, hoist, adult bench). */
export const RADAR_CHANGING_PLACES: DetailsCase = {
  id: 'n1001',
  lat: 51.5049,
  lon: -0.0863,
  tags: {
    amenity: 'toilets', access: 'yes', fee: 'no', wheelchair: 'yes', centralkey: 'radar', changing_places: 'yes',
    changing_table: 'yes', 'changing_table:location': 'wheelchair_toilet;dedicated_room', 'changing_table:adult': 'yes',
    'door:width': '1.0', handrail: 'yes', step_count: '0', 'wheelchair:description': 'Hoist and peninsular toilet; ask staff at the gateline if the door is locked.',
    'toilets:position': 'seated;urinal', 'toilets:disposal': 'flush', 'toilets:handwashing': 'yes', 'toilets:handwashing:soap': 'yes',
    'toilets:paper_supplied': 'yes', 'toilets:hand_drying': 'electric_hand_dryer', level: '0', indoor: 'yes',
    description: 'Inside the station, next to platform 6.', unisex: 'yes',
  },
  details: {
    key_systems: ['radar'],
    changing_places: true,
    changing_table: { locations: ['wheelchair_toilet', 'dedicated_room'], adult: true },
    wheelchair: { door_width_cm: 100, grab_rails: true, step_free: true, description: 'Hoist and peninsular toilet; ask staff at the gateline if the door is locked.' },
    positions: ['seated', 'urinal'],
    disposal: ['flush'],
    handwashing: true,
    soap: true,
    paper: true,
    hand_drying: ['electric_hand_dryer'],
    level: '0',
    indoor: true,
    description: 'Inside the station, next to platform 6.',
  },
};

export const CASES: readonly DetailsCase[] = [
  RADAR_CHANGING_PLACES,
  {
    // A Berlin park toilet: the Eurokey named in the operator's text, a changing table in the women's toilet.
    id: 'n1002',
    lat: 52.5163,
    lon: 13.3777,
    tags: {
      amenity: 'toilets', operator: 'Wall GmbH (Euroschlüssel)', fee: 'yes', charge: '0.50 EUR', 'changing_table': 'yes',
      'changing_table:location': 'female_toilet', 'changing_table:fee': 'no', 'changing_table:count': '2', 'door:width': '90 cm',
      'toilets:position': 'seated', 'toilets:handwashing': 'yes', 'toilets:hands_drying': 'paper_towel', drinking_water: 'no',
      female: 'yes', male: 'yes',
    },
    details: {
      key_systems: ['eurokey'],
      changing_table: { locations: ['female_toilet'], count: 2, fee: false },
      wheelchair: { door_width_cm: 90 },
      positions: ['seated'],
      handwashing: true,
      hand_drying: ['paper_towel'],
      drinking_water: false,
    },
  },
  {
    // A café in Zürich with toilets for guests: only its toilets:* keys speak of the toilet; its own
    // level, description and wheelchair step count are the café's.
    id: 'n1003',
    lat: 47.3717,
    lon: 8.5423,
    tags: {
      amenity: 'cafe', name: 'Café am See', toilets: 'yes', 'toilets:access': 'customers', 'toilets:wheelchair': 'yes', 'toilets:centralkey': 'eurokey',
      'toilets:changing_table': 'yes', 'toilets:changing_table:location': 'unisex_toilet', 'toilets:handwashing': 'yes', 'toilets:paper_supplied': 'no',
      level: '1', description: 'Cosy café with lake view.', step_count: '3', shower: 'yes',
    },
    details: { key_systems: ['eurokey'], changing_table: { locations: ['unisex_toilet'] }, handwashing: true, paper: false },
  },
  {
    // A campsite block: showers, drinking water, squat and seated toilets, below ground level in the hillside.
    id: 'n1004',
    lat: 46.5197,
    lon: 6.6323,
    tags: {
      amenity: 'toilets', access: 'customers', shower: 'hot', drinking_water: 'yes', 'toilets:position': 'squat;seated', 'toilets:disposal': 'flush',
      level: '-1', indoor: 'no', centralkey: 'yes', 'step_count': '2', 'door:width': '85',
    },
    details: { key_systems: ['other'], wheelchair: { step_free: false }, positions: ['seated', 'squat'], disposal: ['flush'], drinking_water: true, shower: true, level: '-1', indoor: false },
  },
  {
    // Nothing beyond the spec's facts: no details member at all.
    id: 'n1005',
    lat: 41.1456,
    lon: -8.611,
    tags: { amenity: 'toilets', fee: 'no', wheelchair: 'no', 'toilets:disposal': 'composting', level: 'ground' },
    details: undefined,
  },
];

/** Writes the extract and imports it into `db` (threads: 0); returns the extract's path. */
export async function importDetailsExtract(dir: string, db: string): Promise<string> {
  const pbf = await writeExtract(join(dir, 'details.osm.pbf'), {
    nodes: CASES.map((c) => ({ id: Number(c.id.slice(1)), lat: c.lat, lon: c.lon, tags: c.tags })),
  });
  await importExtract(pbf, { db, threads: 0 });
  return pbf;
}
