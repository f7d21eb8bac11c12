// Doc §2–4: one toilet's tags → ToiletFacts. Pure and allocation-light: the importer calls it per toilet.

import { QualityFlag, type Access, type AccessRule, type ToiletFacts } from '../../src/rules/facts.js';
import { ACCESS_OF_CODE, AccessCode, accessCode } from './access.js';
import { isSegregated, readChangingTable, readGender, readWheelchair } from './attributes.js';
import { checkedMonth } from './check-date.js';
import { readFee } from './fee.js';
import { detectScheme } from './scheme.js';
import { ABSENT, NO, YES, YES_NO, codeOf, firstItem, isYes, keyPair, normaliseEnum, normaliseText, readCode, readValue, type Tags } from './tags.js';

export interface MappingContext {
  /**
   * ISO 3166-1 alpha-2 (upper case) of the toilet's position, or null when unknown; used for currency
   * symbols like $ and kr, bare numbers, and 'c' cents. When null, a two-letter `addr:country` is used.
   */
  country: string | null;
  /** The toilet is a host toilet (toilets=yes on another feature): read only toilets:* keys except name/operator/hours fallbacks. */
  host: boolean;
  /** Extract timestamp (epoch ms): check dates after it are rejected. Absent or null: no upper bound. */
  extractDate?: number | null;
  /** JSON.stringify(tags), when the caller has it: lets checkedMonth skip tags without a check key. */
  tagsJson?: string;
}

const LOCKED = keyPair('locked');
const CENTRAL_KEY = keyPair('centralkey');
const RADAR_KEY = keyPair('radar_key');
/** centralkey values that say there is none. */
const NO_CENTRAL_KEY = new Set(['no', 'none', 'unknown', '']);
const CLOSED_HOURS = new Set(['off', 'closed']);
const FIXME_KEYS = ['fixme', 'FIXME', 'Fixme'];
const COUNTRY_CODE = /^[A-Z]{2}$/;

function hasCentralKey(tags: Tags, host: boolean): boolean {
  const value = readValue(tags, CENTRAL_KEY, host);
  if (value !== undefined && !NO_CENTRAL_KEY.has(normaliseEnum(value))) return true;
  return readCode(tags, RADAR_KEY, host, YES_NO) === YES;
}

function countryOf(tags: Tags, context: MappingContext): string | null {
  if (context.country !== null) return context.country;
  const address = tags['addr:country']?.trim().toUpperCase();
  return address !== undefined && COUNTRY_CODE.test(address) ? address : null;
}

/** `noname=yes` and `name:signed=no` mean the toilet has no name to show. */
function nameOf(tags: Tags): string | null {
  if (isYes(tags.noname) || codeOf(tags['name:signed'], YES_NO) === NO) return null;
  const name = tags.name?.trim();
  return name === undefined || name === '' ? null : name;
}

/**
 * Doc §2–4. `opening_hours` is the selected candidate string (trimmed, normalised whitespace), NOT
 * validated here: the importer validates it with the opening_hours parser and sets it to null (plus
 * QualityFlag.HoursUnparseable) when invalid. Sets QualityFlag AccessInferred, CurrencyInferred, Fixme,
 * LikelyClosed and Scheme.
 */
export function mapToiletTags(tags: Tags, context: MappingContext): ToiletFacts {
  const host = context.host;
  let quality = 0;

  const scheme = detectScheme(tags);
  const code = accessCode(tags, host);
  let access: Access;
  if (scheme !== null) {
    access = 'scheme';
    quality |= QualityFlag.Scheme;
  } else if (code >= 0) access = ACCESS_OF_CODE[code];
  else if (!host && code === ABSENT) {
    // The wiki scopes amenity=toilets to toilets open to the public (doc §2.2).
    access = 'public';
    quality |= QualityFlag.AccessInferred;
  } else access = 'unknown';

  const { fee, currencyInferred } = readFee(tags, host, countryOf(tags, context), code === AccessCode.Fee);
  if (currencyInferred) quality |= QualityFlag.CurrencyInferred;

  const gender = readGender(tags, host);
  let accessRule: AccessRule;
  if (scheme !== null) accessRule = 'scheme';
  else if (code === AccessCode.Key || readCode(tags, LOCKED, host, YES_NO) === YES) accessRule = 'key';
  else if (hasCentralKey(tags, host) && !isSegregated(gender)) accessRule = 'key';
  else if (access === 'customers') accessRule = 'customers';
  else accessRule = fee.required === true ? 'fee' : fee.required === false ? 'free' : 'unknown';

  // Host hours are a sane fallback for its toilets; scheme toilets follow the business's hours.
  const openingHours = normaliseText(tags['toilets:opening_hours']) ?? normaliseText(tags.opening_hours);
  if (
    (openingHours !== null && CLOSED_HOURS.has(openingHours.toLowerCase())) ||
    (tags.operational_status !== undefined && normaliseEnum(tags.operational_status) === 'closed')
  ) {
    quality |= QualityFlag.LikelyClosed;
  }
  for (const key of FIXME_KEYS) if (tags[key] !== undefined) quality |= QualityFlag.Fixme;

  return {
    name: nameOf(tags),
    operator: firstItem(tags.operator) ?? (host ? firstItem(tags.brand) : null),
    access,
    access_rule: accessRule,
    scheme_name: scheme === null ? null : scheme.name,
    fee,
    opening_hours: openingHours,
    wheelchair: readWheelchair(tags, host),
    changing_table: readChangingTable(tags, host),
    gender,
    checked: checkedMonth(tags, context.extractDate ?? null, host ? tags : undefined, context.tagsJson),
    quality,
  };
}
