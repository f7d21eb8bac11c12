// Tag mixes, weighted after real extracts and the values listed in docs/osm-toilet-tags.md: mostly plain
// values, with the messy ones (amounts in `fee`, local currency symbols, odd access values, unparseable hours)
// at the rates mappers produce them.
import type { Tags } from '../../importer/pbf/index.js';
import type { CityNames } from './names.js';
import { Weighted, type Random } from './random.js';

const ABSENT = null;
type Value = string | typeof ABSENT;

/** Sets `key` when the drawn value is not ABSENT. */
function set(tags: Tags, key: string, value: Value): void {
  if (value !== ABSENT) tags[key] = value;
}

const ACCESS = new Weighted<Value>([
  [ABSENT, 60], ['yes', 14], ['public', 5], ['customers', 8], ['permissive', 4], ['designated', 1], ['key', 2],
  ['destination', 1], ['permit', 0.5], ['passengers', 0.5], ['fee', 0.3], ['unknown', 1],
]);
const FEE = new Weighted<Value | 'amount'>([[ABSENT, 50], ['no', 30], ['yes', 17], ['donation', 0.5], ['free', 0.3], ['unknown', 1], ['amount', 1.2]]);
const OPENING_HOURS = new Weighted<string>([
  ['24/7', 30], ['Mo-Su 06:00-22:00', 10], ['08:00-20:00', 8], ['Mo-Fr 08:00-20:00; Sa 09:00-14:00; PH off', 6],
  ['sunrise-sunset', 6], ['Mo-Sa 07:00-21:00; Su,PH 09:00-18:00', 6], ['Mo-Fr 06:00-22:00; Sa,Su 08:00-20:00', 6],
  ['Tu-Su 08:30-13:00,14:30-17:30', 4], ['Apr-Oct: 07:00-21:00; Nov-Mar: 08:00-18:00', 4], ['May-Sep 08:00-20:00', 3],
  ['Mo 09:00-24:00; Dec 25 off; Jan 1 off', 2], ['10:00-18:00; Dec 24-26 off', 2], ['Mo-Fr 09:00-17:00 || "on request"', 1],
  ['Mo-Fr 7:30-19:00', 1], ['08:00-20:00 (summer)', 2], ['daylight hours', 1], ['dawn to dusk', 1], ['seg-sex 8h-18h', 1],
  ['off', 1], ['closed', 0.5],
]);
const BUSINESS_HOURS = new Weighted<string>([
  ['Mo-Sa 08:00-20:00', 5], ['Mo-Fr 07:00-19:00; Sa 08:00-13:00', 4], ['Mo-Su 10:00-22:00', 3], ['24/7', 2],
  ['Mo-Fr 09:00-18:00; Sa 09:00-13:00; Su,PH off', 3], ['Tu-Su 10:00-18:00', 2],
]);
const WHEELCHAIR = new Weighted<Value>([[ABSENT, 55], ['yes', 24], ['no', 10], ['limited', 7], ['designated', 1], ['only', 0.2], ['unknown', 1]]);
const CHANGING_TABLE = new Weighted<Value>([[ABSENT, 80], ['yes', 9], ['no', 9], ['limited', 1]]);
const CHANGING_TABLE_LOCATION = ['female_toilet', 'wheelchair_toilet', 'unisex_toilet', 'male_toilet;female_toilet'];
const GENDER = new Weighted<Tags>([
  [{}, 68], [{ unisex: 'yes' }, 12], [{ female: 'yes', male: 'yes' }, 14], [{ unisex: 'yes', female: 'yes', male: 'yes' }, 2],
  [{ gender_segregated: 'yes' }, 1], [{ female: 'yes' }, 1], [{ male: 'yes' }, 1], [{ female: 'only' }, 0.3],
  [{ women: 'yes', men: 'yes' }, 0.3], [{ gender: 'unisex' }, 0.2], [{ male: 'yes', female: 'no' }, 0.2],
]);
const DISPOSAL = new Weighted<Value>([[ABSENT, 55], ['flush', 28], ['pitlatrine', 10], ['chemical', 4], ['bucket', 0.5]]);
const RURAL_DISPOSAL = new Weighted<Value>([[ABSENT, 35], ['flush', 15], ['pitlatrine', 40], ['chemical', 8], ['bucket', 2]]);
const POSITION = new Weighted<Value>([[ABSENT, 85], ['seated', 7], ['seated;urinal', 6], ['squat', 2]]);
const NOTES = ['key available at the counter', 'Closed in winter', 'Closed when I was there in 07/2016', 'Ask at the kiosk', 'Cleaned daily'];

const HOST_TYPES = new Weighted<readonly [string, string]>([
  [['amenity', 'cafe'], 18], [['amenity', 'restaurant'], 14], [['amenity', 'bar'], 4], [['amenity', 'pub'], 4],
  [['amenity', 'fast_food'], 6], [['amenity', 'fuel'], 14], [['shop', 'supermarket'], 6], [['shop', 'mall'], 6],
  [['shop', 'department_store'], 3], [['amenity', 'library'], 3], [['amenity', 'townhall'], 2],
  [['amenity', 'community_centre'], 2], [['tourism', 'museum'], 3], [['tourism', 'information'], 2],
  [['highway', 'services'], 2], [['highway', 'rest_area'], 2], [['tourism', 'camp_site'], 5], [['amenity', 'place_of_worship'], 2],
]);
const HOST_ACCESS = new Weighted<Value>([
  [ABSENT, 45], ['customers', 28], ['yes', 12], ['permissive', 3], ['public', 2], ['private', 4], ['no', 1], ['key', 2], ['unknown', 0.5],
]);
const FUEL_BRANDS = ['Shell', 'BP', 'TotalEnergies', 'Esso', 'Repsol', 'Galp', 'Aral', 'Petrobras', 'Pemex', 'Lukoil', 'ENEOS', 'Sinopec'];
const SUPERMARKET_BRANDS = ['Lidl', 'Aldi', 'Carrefour', 'Tesco', 'Pingo Doce', 'Mercadona', 'Rewe', 'Walmart', 'Auchan', 'Spar', 'Biedronka'];

const LIFECYCLE = new Weighted<Tags>([
  [{ 'disused:amenity': 'toilets' }, 60], [{ 'was:amenity': 'toilets' }, 15], [{ 'abandoned:amenity': 'toilets' }, 10],
  [{ amenity: 'toilets', disused: 'yes' }, 10], [{ 'removed:amenity': 'toilets' }, 3], [{ 'construction:amenity': 'toilets' }, 2],
]);

const BUILDINGS = new Weighted<string>([
  ['yes', 60], ['house', 15], ['residential', 8], ['apartments', 8], ['commercial', 3], ['retail', 2], ['garage', 2],
  ['industrial', 1], ['school', 0.5], ['church', 0.5],
]);
const STREET_CLASSES = new Weighted<string>([
  ['residential', 55], ['tertiary', 15], ['secondary', 10], ['primary', 7], ['living_street', 5], ['pedestrian', 5], ['unclassified', 3],
]);
const PATHS = new Weighted<Tags>([
  [{ highway: 'service' }, 35], [{ highway: 'service', service: 'driveway' }, 15], [{ highway: 'service', service: 'parking_aisle' }, 8],
  [{ highway: 'footway' }, 20], [{ highway: 'footway', footway: 'sidewalk' }, 8], [{ highway: 'path' }, 7], [{ highway: 'track', tracktype: 'grade2' }, 5],
  [{ highway: 'cycleway' }, 2],
]);
const POIS = new Weighted<'address' | 'shop' | 'eatery' | 'bus_stop' | Tags>([
  ['address', 15], ['shop', 15], ['eatery', 10], ['bus_stop', 8], [{ highway: 'crossing' }, 8],
  [{ highway: 'crossing', crossing: 'marked' }, 4], [{ amenity: 'bench' }, 8], [{ natural: 'tree' }, 10], [{ highway: 'street_lamp' }, 6],
  [{ amenity: 'waste_basket' }, 5], [{ amenity: 'atm' }, 2], [{ amenity: 'drinking_water' }, 2], [{ tourism: 'information', information: 'board' }, 3],
  [{ amenity: 'vending_machine', vending: 'parking_tickets' }, 1], [{ barrier: 'gate' }, 3],
]);
const SHOPS = ['bakery', 'clothes', 'hairdresser', 'convenience', 'butcher', 'florist', 'kiosk', 'shoes', 'optician', 'mobile_phone'];
const EATERIES = ['cafe', 'restaurant', 'fast_food', 'bar', 'pub', 'ice_cream'];
const NODE_LANDMARKS = new Weighted<Tags>([
  [{ tourism: 'museum' }, 4], [{ historic: 'monument' }, 3], [{ tourism: 'attraction' }, 3], [{ amenity: 'townhall' }, 2],
  [{ historic: 'memorial' }, 2], [{ tourism: 'viewpoint' }, 1], [{ amenity: 'theatre' }, 1], [{ amenity: 'library' }, 1],
]);

const EUR = ['0,50 €', '0.50 EUR', '1 EUR', '€0.50', '0,70 €', '50 ct', '1.00 EUR', '0.50 EUR/person; 0.20 EUR/child', '1€'];
const CHARGES_BY_CURRENCY: Record<string, readonly string[]> = {
  EUR,
  GBP: ['£0.20', '20p', '0.40 GBP', '£0.50', 'GBP 0.2'],
  CHF: ['1 CHF', 'CHF 2', '1.50 CHF'],
  PLN: ['2 zł', '3 PLN', '2,50 zł'],
  CZK: ['10 Kč', '20 CZK'],
  HUF: ['200 Ft', '300 HUF'],
  RON: ['2 lei', '1 RON'],
  SEK: ['10 kr', '5 SEK'],
  NOK: ['10 kr', '20 NOK'],
  DKK: ['5 kr', '10 DKK'],
  USD: ['$0.25', '$1', '0.25 USD'],
  CAD: ['$1', '1 CAD'],
  AUD: ['$1', '1 AUD'],
  MXN: ['$5', '5 MXN'],
  BRL: ['R$ 2,00', '2 BRL'],
  JPY: ['100 JPY', '¥100'],
  CNY: ['1 CNY', '¥1', '1元'],
  INR: ['₹5', '5 INR', '10'],
  TRY: ['₺5', '5 TRY', '10 TL'],
  RUB: ['30 ₽', '20 RUB', '50 руб.'],
};
/** Amounts mappers put straight into `fee` (seen in London and elsewhere). */
const FEE_AMOUNTS: Record<string, readonly string[]> = { GBP: ['50p', '30p', '£0.20'], EUR: ['0.50 EUR', '1 €'], CHF: ['1 CHF'] };
const BARE_AMOUNTS = ['0.50', '1', '5', '10'];
const CURRENCY_OF_COUNTRY: Record<string, string> = {
  GB: 'GBP', IM: 'GBP', JE: 'GBP', GG: 'GBP', CH: 'CHF', LI: 'CHF', PL: 'PLN', CZ: 'CZK', HU: 'HUF', RO: 'RON', SE: 'SEK', NO: 'NOK',
  DK: 'DKK', US: 'USD', PR: 'USD', CA: 'CAD', AU: 'AUD', MX: 'MXN', BR: 'BRL', JP: 'JPY', CN: 'CNY', IN: 'INR', TR: 'TRY', RU: 'RUB',
};
for (const country of 'AT BE CY DE EE ES FI FR GR IE IT LT LU LV MT NL PT SI SK HR AD MC SM VA ME XK'.split(' ')) CURRENCY_OF_COUNTRY[country] = 'EUR';
const EUROKEY_COUNTRIES = new Set(['DE', 'AT', 'CH', 'IT', 'CZ', 'LI']);
const NETTE_TOILETTE_COUNTRIES = new Set(['DE', 'AT', 'CH']);

const YEAR_MS = 365.25 * 24 * 3600 * 1000;
const OLDEST_CHECK = Date.UTC(2014, 0, 1);

/** Draws tags for the objects of one city. */
export class TagMaker {
  private readonly currency: string | undefined;

  constructor(
    private readonly random: Random,
    private readonly names: CityNames,
    private readonly country: string,
    /** Epoch ms: no check date lies after it. */
    private readonly extractDate: number,
  ) {
    this.currency = CURRENCY_OF_COUNTRY[country];
  }

  /** A standalone toilet the importer must keep: `amenity=toilets` (rarely the `amenity=toilet` typo). */
  toilet(rural: boolean): Tags {
    const r = this.random;
    const tags: Tags = { amenity: r.chance(0.003) ? 'toilet' : 'toilets' };
    set(tags, 'access', ACCESS.pick(r));
    const fee = FEE.pick(r);
    if (fee === 'amount') tags.fee = this.feeAmount();
    else set(tags, 'fee', fee);
    if (fee === 'yes' && r.chance(0.55)) tags.charge = this.charge();
    if (r.chance(0.07)) {
      tags.opening_hours = OPENING_HOURS.pick(r);
      if (r.chance(0.2)) tags['check_date:opening_hours'] = this.checkDate();
    }
    set(tags, 'wheelchair', WHEELCHAIR.pick(r));
    if (r.chance(0.04)) tags['toilets:wheelchair'] = r.pick(['yes', 'no', 'yes', 'limited']);
    if (r.chance(0.005)) tags.disabled = 'designated';
    this.changingTable(tags);
    Object.assign(tags, GENDER.pick(r));
    if (r.chance(0.09)) tags.name = this.names.toilet();
    if (r.chance(0.22)) tags.operator = this.names.operator();
    if (r.chance(0.15)) tags.check_date = this.checkDate();
    if (r.chance(0.04)) tags['survey:date'] = this.checkDate().slice(0, r.chance(0.5) ? 7 : 10);
    set(tags, 'toilets:disposal', (rural ? RURAL_DISPOSAL : DISPOSAL).pick(r));
    set(tags, 'toilets:position', POSITION.pick(r));
    this.centralKey(tags);
    if (r.chance(0.08)) tags['toilets:handwashing'] = r.pick(['yes', 'yes', 'no']);
    if (r.chance(0.04)) tags.drinking_water = 'yes';
    if (r.chance(0.02)) tags.supervised = 'yes';
    if (r.chance(0.015)) tags.note = r.pick(NOTES);
    if (r.chance(0.003)) tags.fixme = 'check if still there';
    if (r.chance(0.002)) tags['opening_hours:covid19'] = 'restricted';
    return tags;
  }

  /** A toilet drawn as a closed way: usually a toilet building. */
  toiletArea(rural: boolean): Tags {
    const tags = this.toilet(rural);
    const building = this.random.next();
    if (building < 0.55) tags.building = 'toilets';
    else if (building < 0.8) tags.building = 'yes';
    return tags;
  }

  toiletMultipolygon(): Tags {
    const tags: Tags = { type: 'multipolygon', ...this.toilet(false) };
    if (this.random.chance(0.5)) tags.building = 'toilets';
    return tags;
  }

  /** Private toilets (staff, residents): the importer must skip them. */
  privateToilet(): Tags {
    const tags: Tags = { amenity: 'toilets', access: this.random.chance(0.8) ? 'private' : 'no' };
    if (this.random.chance(0.3)) tags.operator = this.names.operator();
    return tags;
  }

  /** A toilet that is gone, closed or not built yet: the importer must skip it. */
  formerToilet(): Tags {
    const tags = { ...LIFECYCLE.pick(this.random) };
    if (this.random.chance(0.3)) tags.check_date = this.checkDate();
    return tags;
  }

  /** A toilet block mapped only as a building type (bus-driver or staff blocks): the importer must skip it. */
  toiletBuildingOnly(): Tags {
    return this.random.chance(0.2) ? { building: 'toilets', access: 'private' } : { building: 'toilets' };
  }

  /** A business or public building with (or explicitly without) toilets: `toilets=yes` and the `toilets:` namespace. */
  host(): Tags {
    const r = this.random;
    const [key, value] = HOST_TYPES.pick(r);
    const tags: Tags = { [key]: value };
    if (value === 'fuel' || value === 'supermarket') tags.name = tags.brand = r.pick(value === 'fuel' ? FUEL_BRANDS : SUPERMARKET_BRANDS);
    else if (value === 'mall' || value === 'department_store') tags.name = this.names.mall();
    else if (value === 'museum') tags.name = this.names.museum();
    else if (EATERIES.includes(value)) tags.name = this.names.eatery();
    if (r.chance(0.4)) tags.opening_hours = value === 'fuel' && r.chance(0.5) ? '24/7' : BUSINESS_HOURS.pick(r);
    if (r.chance(0.2)) tags.wheelchair = r.pick(['yes', 'limited', 'no']);
    if (r.chance(0.1)) {
      tags.toilets = 'no';
      return tags;
    }
    tags[r.chance(0.005) ? 'toilet' : 'toilets'] = 'yes';
    set(tags, 'toilets:access', HOST_ACCESS.pick(r));
    if (r.chance(0.35)) tags['toilets:wheelchair'] = r.pick(['yes', 'yes', 'no', 'limited']);
    if (r.chance(0.1)) {
      tags['toilets:fee'] = r.chance(0.7) ? 'no' : 'yes';
      if (tags['toilets:fee'] === 'yes' && r.chance(0.5)) tags['toilets:charge'] = this.charge();
    }
    if (r.chance(0.08)) tags['toilets:unisex'] = 'yes';
    if (r.chance(0.05)) tags['toilets:changing_table'] = r.pick(['yes', 'no']);
    if (r.chance(0.02)) tags['toilets:opening_hours'] = BUSINESS_HOURS.pick(r);
    if (NETTE_TOILETTE_COUNTRIES.has(this.country) && r.chance(0.04)) {
      Object.assign(tags, r.pick([{ 'toilets:scheme': 'nette_toilette' }, { 'toilets:scheme': 'Nette Toilette' }, { nette_toilette: 'yes' }]));
    }
    if (this.country === 'GB' && r.chance(0.03)) tags.network = 'Community Toilet Scheme';
    return tags;
  }

  /** A railway station, sometimes with toilets (a walk-in host). */
  station(name: string): Tags {
    const r = this.random;
    const tags: Tags = { railway: 'station', public_transport: 'station', name };
    if (r.chance(0.35)) {
      tags.toilets = 'yes';
      set(tags, 'toilets:access', r.pick([ABSENT, ABSENT, 'yes', 'customers', 'passengers']));
      if (r.chance(0.4)) tags['toilets:wheelchair'] = r.pick(['yes', 'no']);
      if (r.chance(0.2)) tags['toilets:fee'] = 'yes';
    }
    return tags;
  }

  entrance(): Tags {
    const tags: Tags = { entrance: this.random.pick(['yes', 'yes', 'main', 'service']) };
    if (this.random.chance(0.2)) tags.door = this.random.pick(['hinged', 'sliding']);
    return tags;
  }

  building(street: string): Tags {
    const r = this.random;
    const tags: Tags = { building: BUILDINGS.pick(r) };
    if (r.chance(0.2)) {
      tags['addr:street'] = street;
      tags['addr:housenumber'] = String(r.integer(1, 250));
    }
    if (r.chance(0.2)) tags['building:levels'] = String(r.integer(1, 8));
    return tags;
  }

  street(name: string): Tags {
    const r = this.random;
    const tags: Tags = { highway: STREET_CLASSES.pick(r), name };
    if (r.chance(0.3)) tags.maxspeed = r.pick(['30', '50', '50', '20']);
    if (r.chance(0.3)) tags.surface = r.pick(['asphalt', 'asphalt', 'paving_stones', 'sett', 'concrete']);
    if (r.chance(0.15)) tags.oneway = 'yes';
    if (r.chance(0.1)) tags.lit = 'yes';
    return tags;
  }

  /** An unnamed service road, footway or track. */
  path(): Tags {
    return { ...PATHS.pick(this.random) };
  }

  /** A tagged node that is not a toilet: shops, cafés, benches, named bus stops, addresses. */
  poi(street: string): Tags {
    const r = this.random;
    const kind = POIS.pick(r);
    switch (kind) {
      case 'address':
        return { 'addr:street': street, 'addr:housenumber': String(r.integer(1, 250)) };
      case 'shop':
        return { shop: r.pick(SHOPS), name: this.names.shop() };
      case 'eatery':
        return { amenity: r.pick(EATERIES), name: this.names.eatery() };
      case 'bus_stop':
        return { highway: 'bus_stop', public_transport: 'platform', name: r.chance(0.7) ? street : this.names.station() };
      default:
        return { ...kind };
    }
  }

  /** A named landmark node: museum, monument, town hall … */
  landmark(): Tags {
    return { ...NODE_LANDMARKS.pick(this.random), name: this.names.museum() };
  }

  park(): Tags {
    return { leisure: 'park', name: this.names.park() };
  }

  private changingTable(tags: Tags): void {
    const r = this.random;
    const value = CHANGING_TABLE.pick(r);
    set(tags, 'changing_table', value);
    if (value === 'yes' && r.chance(0.2)) tags['changing_table:location'] = r.pick(CHANGING_TABLE_LOCATION);
    if (value === ABSENT && r.chance(0.01)) tags.diaper = r.pick(['yes', 'no', '1']);
    if (value === ABSENT && r.chance(0.003)) tags.baby_changing = 'yes';
  }

  private centralKey(tags: Tags): void {
    const r = this.random;
    if (EUROKEY_COUNTRIES.has(this.country) && r.chance(0.04)) tags.centralkey = 'eurokey';
    else if (this.country === 'GB' && r.chance(0.05)) {
      if (r.chance(0.8)) tags.centralkey = 'radar';
      else tags.radar_key = 'yes';
    } else if (r.chance(0.003)) tags.centralkey = 'yes';
  }

  private charge(): string {
    return this.random.pick(CHARGES_BY_CURRENCY[this.currency ?? ''] ?? BARE_AMOUNTS);
  }

  private feeAmount(): string {
    return this.random.pick(FEE_AMOUNTS[this.currency ?? ''] ?? CHARGES_BY_CURRENCY[this.currency ?? ''] ?? BARE_AMOUNTS);
  }

  /** A check date in one of the formats mappers use (mostly ISO days). */
  private checkDate(): string {
    const r = this.random;
    const iso = new Date(r.between(Math.min(OLDEST_CHECK, this.extractDate - 2 * YEAR_MS), this.extractDate - YEAR_MS / 52)).toISOString();
    const format = r.next();
    if (format < 0.86) return iso.slice(0, 10);
    if (format < 0.95) return iso.slice(0, 7);
    if (format < 0.98) return `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
    return iso.slice(0, 4);
  }
}
