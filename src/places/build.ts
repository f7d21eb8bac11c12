// Builds the place index from place records. Every name of a place (display name and alternatives) becomes
// an entry of token ids. Places, and so entries, are ordered best first by what ranks them apart from the
// query (toilets in reach, importance, toilet nearness), so a scan can stop once nothing later can win.
// Name postings list the entries having a token; context postings the entries whose city name has it.
import { feature } from '@rapideditor/country-coder';
import { TokenScanner } from './fold.js';
import { TokenInterner } from './token-lexicon.js';
import { GrowableArray, GrowableText } from './growable-array.js';
import type { PlaceRecord } from './record.js';
import { KIND_CODE, PLACE_KINDS } from '../rules/place-class.js';
import { MAX_ENTRY_TOKENS, NEARNESS_STEPS, PlaceIndex, staticRank } from './place-index.js';
import type { Nearness } from './toilet-nearness.js';
import { KnownSettlements } from './known-settlements.js';

export interface PlaceIndexOptions {
  /**
   * Towns from a second source (GeoNames), left out where the records already hold a settlement with the
   * same folded name close by (KnownSettlements).
   */
  towns?: Iterable<PlaceRecord>;
  /** Scores a position 0..1 by the toilets around it (0: none within reach). */
  nearness?: Nearness;
}

export function buildPlaceIndex(records: Iterable<PlaceRecord>, options: PlaceIndexOptions = {}): PlaceIndex {
  const collector = new Collector(options.nearness ?? null);
  const settlements = new KnownSettlements();
  for (const record of records) {
    const names = collector.nameTokenIds(record, true);
    if (collector.add(record, names) && record.kind === 'settlement') settlements.add(record, names.map(nameKey));
  }
  if (options.towns) {
    for (const town of options.towns) {
      // Looked up first, interned only if it goes in: a town left out leaves no tokens in the index.
      if (!settlements.has(town, () => collector.nameTokenIds(town, false).map(nameKey))) collector.add(town, collector.nameTokenIds(town, true));
    }
  }
  return collector.finish();
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A name's token ids as one text, to compare names. */
function nameKey(tokens: readonly number[]): string {
  return tokens.join(',');
}

/** Places and entries in the order they come; put in rank order by finish(). */
class Collector {
  private readonly tokens = new TokenInterner();
  private readonly scanner = new TokenScanner();
  private readonly kind = new GrowableArray((n) => new Uint8Array(n));
  private readonly lat = new GrowableArray((n) => new Float64Array(n));
  private readonly lon = new GrowableArray((n) => new Float64Array(n));
  private readonly importance = new GrowableArray((n) => new Float32Array(n));
  private readonly nearness = new GrowableArray((n) => new Uint8Array(n));
  private readonly name = new GrowableText();
  private readonly group = uint32s();
  /** End of each place's entries. */
  private readonly placeEntryEnds = uint32s();
  /** End of each entry's tokens. */
  private readonly entryTokenEnds = uint32s();
  private readonly entryTokens = uint32s();
  /** Group id by country, then city ('' for none). */
  private readonly groupIds = new Map<string, Map<string, number>>();
  private readonly groupCountry: string[] = [];
  private readonly groupCity: (string | null)[] = [];
  private readonly groupTokens: number[][] = [];

  constructor(private readonly nearnessAt: Nearness | null) {}

  /**
   * The distinct token-id lists of a record's names, display name first, each of at most MAX_ENTRY_TOKENS.
   * `intern` false: a token the index does not have yet is -1 (so the name equals no name added so far).
   */
  nameTokenIds(record: PlaceRecord, intern: boolean): number[][] {
    const names: number[][] = [];
    this.addName(names, record.name, intern);
    if (record.alt_names) for (const name of record.alt_names.split('\n')) this.addName(names, name, intern);
    return names;
  }

  private addName(names: number[][], name: string, intern: boolean): void {
    const tokens = this.tokenIds(name, intern, MAX_ENTRY_TOKENS);
    if (tokens.length === 0) return;
    for (const other of names) if (sameIds(other, tokens)) return;
    names.push(tokens);
  }

  /** Adds a place with the token ids of its names (nameTokenIds); false when no name has a letter or digit to match. */
  add(record: PlaceRecord, names: readonly (readonly number[])[]): boolean {
    if (names.length === 0) return false;
    const kind = (KIND_CODE as Record<string, number | undefined>)[record.kind];
    if (kind === undefined) throw new Error(`unknown place kind ${JSON.stringify(record.kind)}: expected one of ${PLACE_KINDS.join(', ')}`);
    for (const tokens of names) {
      for (const token of tokens) this.entryTokens.push(token);
      this.entryTokenEnds.push(this.entryTokens.length);
    }
    this.placeEntryEnds.push(this.entryTokenEnds.length);
    this.kind.push(kind);
    this.lat.push(record.lat);
    this.lon.push(record.lon);
    this.importance.push(record.importance);
    this.nearness.push(this.nearnessAt === null ? 0 : Math.ceil(this.nearnessAt(record.lat, record.lon) * NEARNESS_STEPS));
    this.name.push(record.name);
    this.group.push(this.groupOf(record.country ?? '', record.city));
    return true;
  }

  /** The ids of a text's tokens (the first `limit`), interned or looked up. */
  private tokenIds(text: string, intern: boolean, limit = Infinity): number[] {
    const { scanner } = this;
    const ids = new Array<number>(Math.min(scanner.scan(text), limit));
    const { bytes, starts, ends } = scanner;
    for (let i = 0; i < ids.length; i++) {
      ids[i] = intern ? this.tokens.internBytes(bytes, starts[i], ends[i]) : this.tokens.idOfBytes(bytes, starts[i], ends[i]);
    }
    return ids;
  }

  private groupOf(country: string, city: string | null): number {
    let cities = this.groupIds.get(country);
    if (cities === undefined) this.groupIds.set(country, (cities = new Map()));
    let id = cities.get(city ?? '');
    if (id === undefined) {
      id = this.groupCountry.length;
      cities.set(city ?? '', id);
      this.groupCountry.push(country);
      this.groupCity.push(city);
      this.groupTokens.push(city === null ? [] : this.tokenIds(city, true));
    }
    return id;
  }

  finish(): PlaceIndex {
    const placeCount = this.kind.length;
    const places = {
      lat: new Float64Array(placeCount),
      lon: new Float64Array(placeCount),
      importance: new Float32Array(placeCount),
      nearness: new Uint8Array(placeCount),
      kind: new Uint8Array(placeCount),
      group: new Uint32Array(placeCount),
    };
    const groupCount = this.groupCountry.length;
    const countryCodes = [...new Set(this.groupCountry)].sort();
    const countryOf = new Map(countryCodes.map((code, index) => [code, index]));
    const countryTokens = countryCodes.map((code) => {
      const nameEn = code === '' ? undefined : feature(code)?.properties.nameEn;
      return Uint32Array.from(nameEn ? this.tokenIds(nameEn, true) : []);
    });
    const placeAt = this.rankOrder();
    const names = this.name.reordered(placeAt);

    const entryCount = this.entryTokenEnds.length;
    const entryPlace = new Uint32Array(entryCount);
    const entryStarts = new Uint32Array(entryCount + 1);
    const entryTokens = new Uint32Array(this.entryTokens.length);
    let entry = 0;
    let tokenAt = 0;
    for (let position = 0; position < placeCount; position++) {
      const p = placeAt[position];
      places.lat[position] = this.lat.get(p);
      places.lon[position] = this.lon.get(p);
      places.importance[position] = this.importance.get(p);
      places.nearness[position] = this.nearness.get(p);
      places.kind[position] = this.kind.get(p);
      places.group[position] = this.group.get(p);
      const firstEntry = p === 0 ? 0 : this.placeEntryEnds.get(p - 1);
      for (let e = firstEntry; e < this.placeEntryEnds.get(p); e++) {
        const from = e === 0 ? 0 : this.entryTokenEnds.get(e - 1);
        for (let t = from; t < this.entryTokenEnds.get(e); t++) entryTokens[tokenAt++] = this.entryTokens.get(t);
        entryPlace[entry] = position;
        entryStarts[++entry] = tokenAt;
      }
    }

    const lexicon = this.tokens.toLexicon();
    const postingStarts = new Uint32Array(lexicon.size + 1);
    for (let t = 0; t < entryTokens.length; t++) postingStarts[entryTokens[t] + 1]++;
    for (let id = 0; id < lexicon.size; id++) postingStarts[id + 1] += postingStarts[id];
    const postings = new Uint32Array(entryTokens.length);
    const fill = postingStarts.slice(0, lexicon.size);
    for (let e = 0; e < entryCount; e++) {
      for (let t = entryStarts[e]; t < entryStarts[e + 1]; t++) postings[fill[entryTokens[t]]++] = e;
    }

    const groupTokenStarts = new Uint32Array(groupCount + 1);
    for (let g = 0; g < groupCount; g++) groupTokenStarts[g + 1] = groupTokenStarts[g] + this.groupTokens[g].length;
    const groupTokens = Uint32Array.from(this.groupTokens.flat());

    return new PlaceIndex({
      lexicon,
      postingStarts,
      postings,
      ...contextPostings(lexicon.size, entryPlace, places.group, this.groupTokens),
      entryStarts,
      entryTokens,
      entryPlace,
      ...places,
      nameStarts: names.starts,
      nameBytes: names.bytes,
      groupCountry: Uint16Array.from(this.groupCountry, (code) => countryOf.get(code)!),
      groupCity: this.groupCity,
      groupTokenStarts,
      groupTokens,
      countryCodes,
      countryTokens,
      countryNameTokens: new Set(countryTokens.flatMap((tokens) => [...tokens])),
    });
  }

  /** Positions in rank order: the place at each position, best first, in arrival order among equals. */
  private rankOrder(): Uint32Array {
    const count = this.kind.length;
    // Rank (below 2^20) and arrival (below 2^32) packed into one exact double, so a numeric sort does it.
    const last = 2 ** 32 - 1;
    const keys = new Float64Array(count);
    for (let p = 0; p < count; p++) keys[p] = staticRank(this.nearness.get(p), this.importance.get(p)) * 2 ** 32 + (last - p);
    keys.sort().reverse();
    return Uint32Array.from(keys, (key) => last - (key % 2 ** 32));
  }
}

/** Entries by the tokens of their place's city, ascending, in the form of the name postings: counted, then filled. */
function contextPostings(
  tokenCount: number,
  entryPlace: Uint32Array,
  placeGroup: Uint32Array,
  groupTokens: number[][],
): { contextStarts: Uint32Array; contextEntries: Uint32Array } {
  const contextStarts = new Uint32Array(tokenCount + 1);
  for (let e = 0; e < entryPlace.length; e++) for (const token of groupTokens[placeGroup[entryPlace[e]]]) contextStarts[token + 1]++;
  for (let token = 0; token < tokenCount; token++) contextStarts[token + 1] += contextStarts[token];
  const contextEntries = new Uint32Array(contextStarts[tokenCount]);
  const next = contextStarts.slice(0, tokenCount);
  for (let e = 0; e < entryPlace.length; e++) for (const token of groupTokens[placeGroup[entryPlace[e]]]) contextEntries[next[token]++] = e;
  return { contextStarts, contextEntries };
}

function uint32s(): GrowableArray<Uint32Array> {
  return new GrowableArray((n) => new Uint32Array(n));
}
