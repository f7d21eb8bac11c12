// How a selected way or relation classifies: as a toilet (mapping/classify.ts) and as a place (places.ts).
// The decoders classify every way (node-transform.ts noteWay) and hand it over as a number, its note, so the
// main thread neither classifies ~400,000 ways at a million toilets nor receives the ~100,000 that are
// nothing (unnamed highways, mostly); relations, a few thousand, are classified where they are read.
import { classify, CLASSIFICATIONS, lookupTags, type Classification } from './mapping/index.js';
import { classifyPlace } from './places.js';
import { PLACE_CLASSES, type PlaceClass } from '../src/rules/place-class.js';
import type { Tags } from './pbf/index.js';

export interface ElementClass {
  kind: Classification;
  place: PlaceClass | null;
}

/** Classifications by number: "not a toilet" is 0, so that a way that is nothing has the note 0. */
const KIND_CODE = new Map(CLASSIFICATIONS.map((kind, code) => [kind, code]));
/** Place codes: 0 for none, 1 + the class's position in PLACE_CLASSES. */
const PLACE_CODES = PLACE_CLASSES.length + 1;
const PLACE_CODE = new Map(PLACE_CLASSES.map((place, i) => [place, i + 1]));

/** Classifies on a copy made with lookupTags (fast to read, but larger: the element keeps its own tags). */
export function classOf(elementTags: Tags, isWay: boolean): ElementClass {
  return classOfTags(lookupTags(elementTags), isWay);
}

/** Classifies `tags` as they are: give a dictionary (lookupTags), or the ~40 reads are megamorphic. */
function classOfTags(tags: Tags, isWay: boolean): ElementClass {
  return { kind: classify(tags), place: classifyPlace(tags, isWay) };
}

/** A way's note (NodeTransform.noteWay): its class as a number, 0 when it is no toilet and no place. */
export function wayNote(tags: Tags): number {
  const { kind, place } = classOfTags(tags, true);
  return KIND_CODE.get(kind)! * PLACE_CODES + (place === null ? 0 : PLACE_CODE.get(place)!);
}

/** The class of each note. */
const NOTE_CLASSES: readonly ElementClass[] = CLASSIFICATIONS.flatMap((kind) => [null, ...PLACE_CLASSES].map((place) => ({ kind, place })));

/** Notes of the ways that are needed only for their middle vertex: streets that are no toilet. */
const MIDDLE_ONLY = NOTE_CLASSES.map(({ kind, place }) => kind.kind === 'skip' && place?.kind === 'street');

/** Whether a way with this note is needed only for its middle vertex (NodeTransform.middleOnly). */
export function middleOnly(note: number): boolean {
  return MIDDLE_ONLY[note] === true;
}

/** The class a way's note stands for. */
export function classOfNote(note: number): ElementClass {
  const found = NOTE_CLASSES[note];
  if (found === undefined) throw new RangeError(`${note} is no way note`);
  return found;
}
