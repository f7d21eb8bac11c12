// The facts about one toilet that come from its source record (OpenStreetMap or an approved community
// submission). Field names and enum values are the spec's ("Toilet result item"); the importer fills them,
// the index serves them, overlays (votes, partners) are applied on top at answer time.

export const ACCESS = ['public', 'permissive', 'customers', 'scheme', 'unknown'] as const;
export type Access = (typeof ACCESS)[number];

export const ACCESS_RULE = ['free', 'fee', 'customers', 'key', 'scheme', 'unknown'] as const;
export type AccessRule = (typeof ACCESS_RULE)[number];

export const WHEELCHAIR = ['yes', 'limited', 'no', 'unknown'] as const;
export type Wheelchair = (typeof WHEELCHAIR)[number];

export const CHANGING_TABLE = ['yes', 'no', 'unknown'] as const;
export type ChangingTable = (typeof CHANGING_TABLE)[number];

/** Emitted in this fixed order. */
export const GENDER = ['unisex', 'female', 'male'] as const;
export type Gender = (typeof GENDER)[number];

export const VERIFICATION_STATE = ['unverified', 'source_claimed', 'community_confirmed', 'partner_confirmed', 'disputed'] as const;
export type VerificationState = (typeof VERIFICATION_STATE)[number];

/** Lowest first: the index is the level that quality rules raise and lower. */
export const CONFIDENCE = ['low', 'medium', 'high'] as const;
export type Confidence = (typeof CONFIDENCE)[number];

/** The facts the community votes on (`correctToilet`) and that `provenance.decided` may list. */
export const FACT_ATTRIBUTES = ['access', 'fee', 'fee_amount', 'wheelchair', 'changing_table', 'gender', 'opening_hours', 'name', 'operator', 'existence'] as const;
export type FactAttribute = (typeof FACT_ATTRIBUTES)[number];

export interface Fee {
  required: boolean | null;
  amount: number | null;
  currency: string | null;
}

/**
 * Reasons the mapping lowers (or caps) confidence. Stored as a bit set so the server can compute
 * `confidence` at load time without re-reading tags.
 */
export const QualityFlag = {
  /** access was inferred (standalone toilet without an access tag), not tagged */
  AccessInferred: 1 << 0,
  /** currency taken from the country for a bare number */
  CurrencyInferred: 1 << 1,
  /** an opening_hours value was present but could not be parsed (opening_hours is then null) */
  HoursUnparseable: 1 << 2,
  /** the object carries a fixme/FIXME tag */
  Fixme: 1 << 3,
  /** hours say only off/closed, or operational_status=closed: likely gone */
  LikelyClosed: 1 << 4,
  /** a scheme toilet (scheme membership churns; older records lose confidence) */
  Scheme: 1 << 5,
  /** a PH rule could not be resolved for the region */
  HolidaysUnresolved: 1 << 6,
} as const;

export interface ToiletFacts {
  name: string | null;
  operator: string | null;
  access: Access;
  access_rule: AccessRule;
  scheme_name: string | null;
  fee: Fee;
  /** Valid opening_hours syntax only; unparseable input becomes null (and sets HoursUnparseable). */
  opening_hours: string | null;
  wheelchair: Wheelchair;
  changing_table: ChangingTable;
  gender: Gender[];
  /** Year-month (YYYY-MM) of the latest check date on the object, or null. */
  checked: string | null;
  /** Bit set of QualityFlag. */
  quality: number;
}
