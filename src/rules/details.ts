// The details of a toilet beyond the spec's result item (issue 44): key systems, Changing Places, where the
// changing table is, wheelchair details, what the washroom has, where in a building it is. The importer
// maps them from OSM tags (importer/mapping/details.ts, docs/DETAILS.md); getToilet and MCP get_toilet carry
// them as `details` beside `toilet`; the toilet page says them in words. Every member is optional: a member
// is there only when the source says something about it.

/** Central key systems (OSM `centralkey`); `other` is one the data does not name, or names otherwise. */
export const KEY_SYSTEMS = ['radar', 'eurokey', 'other'] as const;
export type KeySystem = (typeof KEY_SYSTEMS)[number];
/** The key systems with a page of their own on the site (/keys/<system>). */
export const NAMED_KEY_SYSTEMS = ['radar', 'eurokey'] as const satisfies readonly KeySystem[];

/** OSM `changing_table:location`. */
export const CHANGING_TABLE_LOCATIONS = ['female_toilet', 'male_toilet', 'unisex_toilet', 'wheelchair_toilet', 'dedicated_room', 'room', 'sales_area'] as const;
export type ChangingTableLocation = (typeof CHANGING_TABLE_LOCATIONS)[number];

/** OSM `toilets:position`. */
export const TOILET_POSITIONS = ['seated', 'squat', 'urinal'] as const;
export type ToiletPosition = (typeof TOILET_POSITIONS)[number];

/** OSM `toilets:disposal`. */
export const DISPOSALS = ['flush', 'pitlatrine', 'chemical', 'bucket'] as const;
export type Disposal = (typeof DISPOSALS)[number];

/** OSM `toilets:hand_drying` (also written `toilets:hands_drying`). */
export const HAND_DRYING = ['electric_hand_dryer', 'paper_towel', 'towel'] as const;
export type HandDrying = (typeof HAND_DRYING)[number];

export interface ChangingTableDetails {
  locations?: ChangingTableLocation[];
  count?: number;
  fee?: boolean;
  /** A table big enough for an adult (`changing_table:adult`). */
  adult?: boolean;
}

export interface WheelchairDetails {
  /** Clear width of the door in centimetres (`door:width`, metres in OSM). */
  door_width_cm?: number;
  /** Grab rails beside the toilet (`handrail`, `toilets:handrail`). */
  grab_rails?: boolean;
  /** No step on the way in (`step_count=0`, or a wheelchair ramp). */
  step_free?: boolean;
  /** The mapper's own words (`wheelchair:description`). */
  description?: string;
}

export interface ToiletDetails {
  key_systems?: KeySystem[];
  /** A Changing Places toilet: hoist, adult changing bench, room for two carers (`changing_places=yes`). */
  changing_places?: boolean;
  changing_table?: ChangingTableDetails;
  wheelchair?: WheelchairDetails;
  positions?: ToiletPosition[];
  disposal?: Disposal[];
  handwashing?: boolean;
  soap?: boolean;
  paper?: boolean;
  hand_drying?: HandDrying[];
  drinking_water?: boolean;
  shower?: boolean;
  /** The floor, as OSM counts it (`level`: 0 ground floor, -1 below, `0;1` on both). */
  level?: string;
  indoor?: boolean;
  description?: string;
}

/** Parts of the source database a release added after a layout it still reads; a re-import writes them. */
export const SOURCE_PARTS = ['details'] as const;
export type SourcePart = (typeof SOURCE_PARTS)[number];
