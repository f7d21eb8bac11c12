// What the log and /status say about a source database an earlier release wrote: this release serves it
// without the parts that layout lacks (src/source/schema.ts READABLE_OLDER_LAYOUTS) until the next import.
import type { SourcePart } from '../rules/details.js';

const PART_WORDS: Record<SourcePart, string> = {
  details: "the toilets' details (key systems, Changing Places, changing-table location, wheelchair details, hand washing, water, showers, floor)",
};

/** The sentence for the parts a source database lacks, or null when it lacks none. */
export function missingPartsNote(missing: readonly SourcePart[]): string | null {
  if (missing.length === 0) return null;
  const what = missing.map((part) => PART_WORDS[part]).join(' and ');
  return `the source database was written by an earlier release and lacks ${what}: it is served without them; a re-import (\`npm run import -- <extract.osm.pbf or URL>\`, as the nightly refresh runs) adds what is missing`;
}
