// Doc §1: which OSM objects become toilet records, from tags alone.

import { AccessCode, accessCode, isPrivateAccess } from './access.js';
import { detectScheme } from './scheme.js';
import { isYes, normaliseEnum, UNREADABLE, type Tags } from './tags.js';

export type SkipReason =
  | 'private'
  | 'lifecycle'
  | 'building_only'
  | 'no_toilets'
  | 'host_without_access'
  | 'host_not_public'
  | 'not_a_toilet';

export type Classification = { kind: 'toilet' } | { kind: 'host_toilet' } | { kind: 'skip'; reason: SkipReason };

/** Lifecycle prefixes: the toilet is gone, closed or not built (yet). */
export const LIFECYCLE_PREFIXES = ['disused', 'abandoned', 'was', 'removed', 'demolished', 'razed', 'construction', 'proposed'] as const;

/**
 * Host types where walking in to use the toilet is normal, so `toilets=yes` without `toilets:access`
 * still makes a record (access unknown). Restaurants, cafés and bars are left out on purpose.
 */
export const WALK_IN_HOSTS: Readonly<Record<string, readonly string[]>> = {
  shop: ['mall', 'department_store'],
  highway: ['services', 'rest_area'],
  railway: ['station'],
  amenity: ['library', 'townhall', 'community_centre'],
  tourism: ['museum', 'information'],
};

const WALK_IN: readonly (readonly [string, ReadonlySet<string>])[] = Object.entries(WALK_IN_HOSTS).map(([key, values]) => [key, new Set(values)]);
const LIFECYCLE_AMENITY_KEYS = LIFECYCLE_PREFIXES.map((prefix) => `${prefix}:amenity`);
const LIFECYCLE_TOILETS_KEYS = LIFECYCLE_PREFIXES.map((prefix) => `${prefix}:toilets`);

const TOILET = Object.freeze({ kind: 'toilet' } as const);
const HOST_TOILET = Object.freeze({ kind: 'host_toilet' } as const);
const SKIPS = Object.fromEntries(
  (['private', 'lifecycle', 'building_only', 'no_toilets', 'host_without_access', 'host_not_public', 'not_a_toilet'] as const).map(
    (reason) => [reason, Object.freeze({ kind: 'skip', reason } as const)],
  ),
) as { readonly [R in SkipReason]: Classification };

/** Every classification classify() returns (each a shared object), "not a toilet" first. */
export const CLASSIFICATIONS: readonly Classification[] = [SKIPS.not_a_toilet, TOILET, HOST_TOILET, ...Object.values(SKIPS).filter((skip) => skip !== SKIPS.not_a_toilet)];

/** `amenity=toilets`, the common mistake `amenity=toilet`, or either as an item of a `;` list. */
function isToiletAmenity(value: string | undefined): boolean {
  if (value === undefined) return false;
  const normalised = normaliseEnum(value);
  if (normalised === 'toilets' || normalised === 'toilet') return true;
  if (!normalised.includes(';')) return false;
  return normalised.split(';').some((item) => {
    const trimmed = item.trim();
    return trimmed === 'toilets' || trimmed === 'toilet';
  });
}

function isWalkInHost(tags: Tags): boolean {
  for (const [key, values] of WALK_IN) {
    const value = tags[key];
    if (value !== undefined && values.has(normaliseEnum(value))) return true;
  }
  return false;
}

function wasToilet(tags: Tags): boolean {
  for (const key of LIFECYCLE_AMENITY_KEYS) if (isToiletAmenity(tags[key])) return true;
  for (const key of LIFECYCLE_TOILETS_KEYS) if (isYes(tags[key])) return true;
  return false;
}

/**
 * Doc §1. `amenity=toilets` (or `amenity=toilet`) is a standalone toilet; `toilets=yes` (or `toilet=yes`)
 * on anything else is a host toilet when its toilets are declared usable (any readable `toilets:access`
 * other than private/no, including customers), a scheme is detected, or the host is a walk-in type.
 * Returned objects are shared and frozen.
 */
export function classify(tags: Tags): Classification {
  const toilet = isToiletAmenity(tags.amenity);
  const host = !toilet && (isYes(tags.toilets) || isYes(tags.toilet));
  if (!toilet && !host) {
    if (wasToilet(tags)) return SKIPS.lifecycle;
    if (tags.building !== undefined && normaliseEnum(tags.building) === 'toilets') return SKIPS.building_only;
    if (tags.toilets !== undefined && normaliseEnum(tags.toilets) === 'no') return SKIPS.no_toilets;
    return SKIPS.not_a_toilet;
  }
  if (isYes(tags.disused) || isYes(tags.abandoned)) return SKIPS.lifecycle;
  if (toilet && tags.toilets !== undefined && normaliseEnum(tags.toilets) === 'no') return SKIPS.no_toilets;
  const access = accessCode(tags, host);
  if (access === AccessCode.Private) return SKIPS.private;
  if (!host) return TOILET;
  // A host nobody may enter keeps its toilets to itself unless toilets:access says otherwise.
  if (tags['toilets:access'] === undefined && isPrivateAccess(tags.access)) return SKIPS.private;
  if (access >= 0 || detectScheme(tags) !== null || isWalkInHost(tags)) return HOST_TOILET;
  return access === UNREADABLE ? SKIPS.host_not_public : SKIPS.host_without_access;
}
