// Pure OSM tags → toilet facts mapping (docs/osm-toilet-tags.md §0–5). No I/O, no geometry.

export { lookupTags, type Tags } from './tags.js';
export { classify, CLASSIFICATIONS, LIFECYCLE_PREFIXES, WALK_IN_HOSTS, type Classification, type SkipReason } from './classify.js';
export { mapToiletTags, type MappingContext } from './map-toilet.js';
export { parseCharge, type Charge } from './charge.js';
export { checkedMonth } from './check-date.js';
export { detectScheme, SCHEME_PHRASES, type Scheme, type SchemePhrase } from './scheme.js';
export { readDetails, doorWidthCm } from './details.js';
