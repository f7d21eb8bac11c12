// The `details` of a getToilet answer (and MCP get_toilet): what OpenStreetMap says about a toilet beyond
// the spec's result item, each value's meaning here, each tag's source in docs/DETAILS.md. Every member is
// optional and present only when the source says something: an absent member means "not known", never "no".
import {
  CHANGING_TABLE_LOCATIONS, DISPOSALS, HAND_DRYING, KEY_SYSTEMS, TOILET_POSITIONS,
} from '../rules/details.js';
import { closedObject, ref } from './refs.js';

const optionalAll = <P extends Record<string, unknown>>(properties: P) => Object.keys(properties) as (keyof P & string)[];
const flag = (description: string) => ({ type: 'boolean', description }) as const;
const list = <T extends readonly string[]>(values: T, description: string) =>
  ({ type: 'array', items: { type: 'string', enum: values }, minItems: 1, uniqueItems: true, description }) as const;

const CHANGING_TABLE_PROPERTIES = {
  locations: list(
    CHANGING_TABLE_LOCATIONS,
    "Where the changing table is: female_toilet (in the women's toilet), male_toilet (in the men's), unisex_toilet, wheelchair_toilet (in the wheelchair-accessible toilet), dedicated_room (a room of its own), room (a room for other uses too, or the hallway), sales_area (in the shop itself).",
  ),
  count: { type: 'integer', minimum: 1, maximum: 99, description: 'How many changing tables there are.' },
  fee: flag('true: using the changing table costs a fee; false: it is free.'),
  adult: flag('true: the table is big enough for an adult (for carers of disabled people); false: it is not.'),
} as const;

export const ChangingTableDetails = closedObject('ChangingTableDetails', 'The changing table, beyond `changing_table` of the item.', CHANGING_TABLE_PROPERTIES, optionalAll(CHANGING_TABLE_PROPERTIES));

const WHEELCHAIR_PROPERTIES = {
  door_width_cm: { type: 'integer', minimum: 40, maximum: 300, description: 'Clear width of the door in centimetres (about 90 lets a wheelchair through).' },
  grab_rails: flag('true: grab rails beside the toilet; false: none.'),
  step_free: flag('true: no step on the way in (or a wheelchair ramp over it); false: at least one step.'),
  description: { type: 'string', maxLength: 500, description: "The mapper's own words on wheelchair access, in the language they wrote." },
} as const;

export const WheelchairDetails = closedObject('WheelchairDetails', 'Wheelchair access, beyond `wheelchair` of the item.', WHEELCHAIR_PROPERTIES, optionalAll(WHEELCHAIR_PROPERTIES));

const DETAILS_PROPERTIES = {
  key_systems: list(
    KEY_SYSTEMS,
    'The central key that opens it (usually the accessible cubicle): radar (the UK National Key Scheme), eurokey (Euroschlüssel: Germany, Austria, Switzerland and neighbours), other (a central key system the data does not name). The site has a page per named system at /keys/<system> saying who may have a key and where to get one. Whether a key is needed at all is `access_rule` of the item.',
  ),
  changing_places: flag('true: a Changing Places toilet (a hoist, an adult-sized changing bench and room for two carers); false: not one.'),
  changing_table: ref('ChangingTableDetails'),
  wheelchair: ref('WheelchairDetails'),
  positions: list(TOILET_POSITIONS, 'The kinds of toilet: seated (a pedestal), squat (a squat toilet), urinal.'),
  disposal: list(DISPOSALS, 'How waste goes: flush (a flushing toilet), pitlatrine (a pit), chemical (a chemical toilet), bucket (a bucket or compost toilet).'),
  handwashing: flag('true: a place to wash hands; false: none.'),
  soap: flag('true: soap is provided; false: none.'),
  paper: flag('true: toilet paper is provided; false: bring your own.'),
  hand_drying: list(HAND_DRYING, 'How hands are dried: electric_hand_dryer, paper_towel, towel (a cloth towel).'),
  drinking_water: flag('true: drinking water can be had here; false: the water is not for drinking.'),
  shower: flag('true: there is a shower; false: none.'),
  level: { type: 'string', pattern: '^-?[0-9]+(\\.5)?([;-]-?[0-9]+(\\.5)?)*$', description: 'The floor as OpenStreetMap counts it: 0 the ground floor, 1 the next one up, -1 the one below; `0;1` on both floors, `-1-1` from -1 to 1.' },
  indoor: flag('true: inside a building (a station, a shopping centre); false: outdoors.'),
  description: { type: 'string', maxLength: 500, description: "The mapper's own description of the toilet, in the language they wrote." },
} as const;

export const ToiletDetails = closedObject(
  'ToiletDetails',
  "What OpenStreetMap says about the toilet beyond the result item; each member only when it is tagged (absent: not known). Absent altogether when nothing is tagged, and while the server's data was written by a release before details (GET /status says so under `source_layout`; the next import adds them).",
  DETAILS_PROPERTIES,
  optionalAll(DETAILS_PROPERTIES),
);

export const DETAILS_SCHEMAS = { ToiletDetails, ChangingTableDetails, WheelchairDetails } as const;
