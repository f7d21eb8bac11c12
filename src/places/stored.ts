// The finished place index, stored in the source database by the importer (table place_index, one BLOB
// per array) so the server reads it in ~0.1 s instead of building it at every start (~2.5 s and ~200 MB
// of build garbage at a million places). Lists of lists are stored as one array plus starts.
import type Database from 'better-sqlite3';
import { PlaceIndex, type PlaceIndexParts } from './place-index.js';

export const PLACE_INDEX_DDL = `
-- The place index as the server loads it (src/places/stored.ts): one BLOB per array, JSON for the few lists.
CREATE TABLE place_index (
  name TEXT PRIMARY KEY,
  data BLOB NOT NULL
);
`;

type TypedArrayType = { new (buffer: ArrayBuffer, byteOffset?: number, length?: number): ArrayBufferView; BYTES_PER_ELEMENT: number };

/** The typed arrays of the index and their types. */
const ARRAYS = {
  postingStarts: Uint32Array, postings: Uint32Array, entryStarts: Uint32Array, entryTokens: Uint32Array, entryPlace: Uint32Array,
  lat: Float64Array, lon: Float64Array, importance: Float32Array, nearness: Uint8Array, kind: Uint8Array, group: Uint32Array,
  nameStarts: Uint32Array, nameBytes: Uint8Array, groupCountry: Uint16Array, groupTokenStarts: Uint32Array, groupTokens: Uint32Array,
} satisfies Partial<Record<keyof PlaceIndexParts, TypedArrayType>>;
type ArrayName = keyof typeof ARRAYS;

/** Blobs by name: the arrays above, the lexicon's three arrays, the flattened lists, and JSON. */
export function placeIndexBlobs(index: PlaceIndex): [name: string, data: Buffer][] {
  const m = index.parts;
  const bytes = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  const blobs: [string, Buffer][] = (Object.keys(ARRAYS) as ArrayName[]).map((name) => [name, bytes(m[name])]);
  const [lexiconBytes, lexiconStarts, lexiconSlots] = m.lexicon;
  blobs.push(['lexicon.bytes', bytes(lexiconBytes)], ['lexicon.starts', bytes(lexiconStarts)], ['lexicon.slots', bytes(lexiconSlots)]);
  const context = listedContext(m.contextStarts);
  blobs.push(['context.tokens', bytes(context.tokens)], ['context.starts', bytes(context.starts)], ['context.entries', bytes(m.contextEntries)]);
  const countries = flatten(m.countryTokens);
  blobs.push(['countryTokens.starts', bytes(countries.starts)], ['countryTokens.values', bytes(countries.values)]);
  blobs.push(['json', Buffer.from(JSON.stringify({ groupCity: m.groupCity, countryCodes: m.countryCodes }))]);
  return blobs;
}

export function readPlaceIndex(db: Database.Database): PlaceIndex {
  const select = db.prepare('SELECT data FROM place_index WHERE name = ?').pluck();
  const read = <T extends ArrayBufferView>(name: string, Type: TypedArrayType): T => {
    const data = select.get(name) as Buffer | undefined;
    if (data === undefined) throw new Error(`the source database is damaged (place index ${name} is missing): run \`npm run import\` again`);
    if (data.byteLength % Type.BYTES_PER_ELEMENT !== 0) throw new Error(`the source database is damaged (place index ${name} has a partial value): run \`npm run import\` again`);
    const copy = new ArrayBuffer(data.byteLength); // aligned for the type
    new Uint8Array(copy).set(data);
    return new Type(copy) as T;
  };
  const arrays = Object.fromEntries((Object.entries(ARRAYS) as [ArrayName, TypedArrayType][]).map(([name, Type]) => [name, read(name, Type)])) as Pick<PlaceIndexParts, ArrayName>;
  const lexicon: PlaceIndexParts['lexicon'] = [read('lexicon.bytes', Uint8Array), read('lexicon.starts', Uint32Array), read('lexicon.slots', Int32Array)];
  const context = contextByToken(lexicon[1].length - 1, read('context.tokens', Uint32Array), read('context.starts', Uint32Array), read('context.entries', Uint32Array));
  const countryTokens = unflatten(read('countryTokens.starts', Uint32Array), read('countryTokens.values', Uint32Array));
  const { groupCity, countryCodes } = JSON.parse(Buffer.from(read<Uint8Array>('json', Uint8Array)).toString()) as Pick<PlaceIndexParts, 'groupCity' | 'countryCodes'>;
  return PlaceIndex.fromParts({
    ...arrays,
    lexicon,
    ...context,
    groupCity,
    countryCodes,
    countryTokens,
    countryNameTokens: new Set(countryTokens.flatMap((tokens) => [...tokens])),
  });
}

/**
 * The city-name postings as stored: only the tokens that have entries, with the starts of their lists in
 * `context.entries` (a city's tokens are a small part of the lexicon).
 */
function listedContext(contextStarts: Uint32Array): { tokens: Uint32Array; starts: Uint32Array } {
  const tokenCount = contextStarts.length - 1;
  let listed = 0;
  for (let token = 0; token < tokenCount; token++) if (contextStarts[token + 1] > contextStarts[token]) listed++;
  const tokens = new Uint32Array(listed);
  const starts = new Uint32Array(listed + 1);
  for (let token = 0, i = 0; token < tokenCount; token++) {
    if (contextStarts[token + 1] === contextStarts[token]) continue;
    tokens[i] = token;
    starts[i++] = contextStarts[token];
  }
  starts[listed] = contextStarts[tokenCount];
  return { tokens, starts };
}

/**
 * The stored city-name postings by token id (PlaceIndexData.contextStarts). Lists stored in token order are
 * used as stored; others (databases written before 2026-11-26, in order of first use) are put in token order.
 */
function contextByToken(tokenCount: number, tokens: Uint32Array, starts: Uint32Array, entries: Uint32Array): Pick<PlaceIndexParts, 'contextStarts' | 'contextEntries'> {
  if (starts.length !== tokens.length + 1 || starts[tokens.length] !== entries.length || tokens.some((token) => token >= tokenCount)) {
    throw new Error('the source database is damaged (place index context lists do not fit): run `npm run import` again');
  }
  const contextStarts = new Uint32Array(tokenCount + 1);
  for (let i = 0; i < tokens.length; i++) contextStarts[tokens[i] + 1] = starts[i + 1] - starts[i];
  for (let token = 0; token < tokenCount; token++) contextStarts[token + 1] += contextStarts[token];
  let inTokenOrder = true;
  for (let i = 1; i < tokens.length && inTokenOrder; i++) inTokenOrder = tokens[i - 1] < tokens[i];
  if (inTokenOrder) return { contextStarts, contextEntries: entries };
  const contextEntries = new Uint32Array(entries.length);
  for (let i = 0; i < tokens.length; i++) contextEntries.set(entries.subarray(starts[i], starts[i + 1]), contextStarts[tokens[i]]);
  return { contextStarts, contextEntries };
}

function flatten(lists: Uint32Array[]): { starts: Uint32Array; values: Uint32Array } {
  const starts = new Uint32Array(lists.length + 1);
  lists.forEach((list, i) => (starts[i + 1] = starts[i] + list.length));
  const values = new Uint32Array(starts[lists.length]);
  lists.forEach((list, i) => values.set(list, starts[i]));
  return { starts, values };
}

/** The lists of flatten(), as views of `values`. */
function unflatten(starts: Uint32Array, values: Uint32Array): Uint32Array[] {
  return Array.from({ length: starts.length - 1 }, (_, i) => values.subarray(starts[i], starts[i + 1]));
}
