// The embedded place lookup: typed arrays of token ids, searched synchronously. README.md in this folder
// states the matching rules and the ranking; build.ts lays the arrays out.
import { nameTokens } from './fold.js';
import { mayBeMisspelt, planQuery, type QueryPlan } from './query-plan.js';
import { TokenLexicon } from './token-lexicon.js';
import type { PlaceLookup, PlaceMatch, PlaceQuery } from './lookup.js';

/** Words of a name beyond this are not indexed (coverage is tracked in one 32-bit mask). */
export const MAX_ENTRY_TOKENS = 32;
/** A query with more distinct words than this matches nothing. */
export const MAX_QUERY_WORDS = 32;
/** Steps of toilet nearness kept per place. */
export const NEARNESS_STEPS = 20;
const IMPORTANCE_BANDS = 10;

/**
 * The tier of a place: toilets within reach, then its importance band. It ranks right after the match
 * itself; see README.md.
 */
function tierOf(nearness: number, importance: number): number {
  return (nearness > 0 ? IMPORTANCE_BANDS + 1 : 0) + Math.floor(importance * IMPORTANCE_BANDS);
}
const TIERS = 2 * (IMPORTANCE_BANDS + 1);

/** Orders places independently of any query: tier, then nearness step, then importance (to 0.001). */
export function staticRank(nearness: number, importance: number): number {
  return (tierOf(nearness, importance) * (NEARNESS_STEPS + 1) + nearness) * 1001 + Math.round(importance * 1000);
}

// Match quality, most significant first: fewer misspelt words, the kind a query word asks for, every word
// of the name matched. Each weight exceeds the sum of all below it.
const WHOLE_NAME = 1;
const KIND_AS_ASKED = 2;
const PER_FUZZY_WORD = 4;

/**
 * An entry is one name of a place as token ids. Places are in rank order (staticRank, best first) and
 * entries in place order, so in every ascending list of entries the better places come first.
 */
export interface PlaceIndexData {
  lexicon: TokenLexicon;
  /** Entries having token id t: postings[postingStarts[t]] .. postings[postingStarts[t + 1] - 1], ascending. */
  postingStarts: Uint32Array;
  postings: Uint32Array;
  /** Entries whose place's city name has token id t: contextEntries[contextStarts[t]] .. contextEntries[contextStarts[t + 1] - 1], ascending. */
  contextStarts: Uint32Array;
  contextEntries: Uint32Array;
  /** Tokens of entry e: entryTokens[entryStarts[e]] .. entryTokens[entryStarts[e + 1] - 1]. */
  entryStarts: Uint32Array;
  entryTokens: Uint32Array;
  entryPlace: Uint32Array;
  lat: Float64Array;
  lon: Float64Array;
  importance: Float32Array;
  /** Toilets around the place, 0 (none within reach) to NEARNESS_STEPS. */
  nearness: Uint8Array;
  kind: Uint8Array;
  /** City group of each place: a (country, city) pair. */
  group: Uint32Array;
  /** UTF-8 display name of place p: nameBytes[nameStarts[p]] .. nameBytes[nameStarts[p + 1] - 1]. */
  nameStarts: Uint32Array;
  nameBytes: Buffer;
  groupCountry: Uint16Array;
  groupCity: (string | null)[];
  groupTokenStarts: Uint32Array;
  groupTokens: Uint32Array;
  /** ISO codes by country index; '' holds places outside any country. */
  countryCodes: string[];
  /** Tokens of each country's English name. */
  countryTokens: Uint32Array[];
  countryNameTokens: Set<number>;
}

/** PlaceIndexData as plain arrays: the lexicon as its arrays, the names as bytes. */
export type PlaceIndexParts = Omit<PlaceIndexData, 'lexicon' | 'nameBytes'> & { lexicon: TokenLexicon['parts']; nameBytes: Uint8Array };

export class PlaceIndex implements PlaceLookup {
  private readonly countryIndex: Map<string, number>;
  // State of the search under way; searches run one at a time and synchronously.
  private plan: QueryPlan | null = null;
  private country = -1;
  private near: { lat: number; lon: number } | null = null;
  private nearCosLat = 1;
  /** The quality of an entry of the best match possible for the plan in the lowest tier. */
  private ceiling = 0;
  private bestEntry = -1;
  private bestQuality = -1;
  private bestTiebreak = -Infinity;

  constructor(private readonly data: PlaceIndexData) {
    this.countryIndex = new Map(data.countryCodes.map((code, index) => [code, index]));
  }

  /** The arrays it is made of (to store it, see stored.ts), the lexicon as its arrays too. */
  get parts(): PlaceIndexParts {
    const { lexicon, ...rest } = this.data;
    return { ...rest, lexicon: lexicon.parts };
  }

  static fromParts(parts: PlaceIndexParts): PlaceIndex {
    const { lexicon, nameBytes, ...rest } = parts;
    return new PlaceIndex({ ...rest, nameBytes: Buffer.from(nameBytes.buffer, nameBytes.byteOffset, nameBytes.byteLength), lexicon: new TokenLexicon(...lexicon) });
  }

  /** Number of places. */
  get size(): number {
    return this.data.lat.length;
  }

  /** Bytes held in typed arrays (the bulk of the index). */
  get byteLength(): number {
    const d = this.data;
    let bytes = d.lexicon.byteLength;
    for (const array of [d.postingStarts, d.postings, d.contextStarts, d.contextEntries, d.entryStarts, d.entryTokens, d.entryPlace, d.lat, d.lon, d.importance, d.nearness, d.kind, d.group, d.nameStarts, d.nameBytes, d.groupCountry, d.groupTokenStarts, d.groupTokens]) {
      bytes += array.byteLength;
    }
    return bytes;
  }

  find(query: PlaceQuery): PlaceMatch | null {
    const words = nameTokens(query.text);
    if (words.length === 0 || words.length > MAX_QUERY_WORDS) return null;
    let country = -1;
    if (query.country !== null) {
      country = this.countryIndex.get(query.country.toUpperCase()) ?? -1;
      if (country < 0) return null;
    }
    // Exact words and synonyms first; misspellings only when that finds nothing.
    for (const fuzzy of [false, true]) {
      if (fuzzy && !words.some((word) => mayBeMisspelt(word) && this.data.lexicon.idOf(word) < 0)) break;
      const plan = planQuery(words, this.data.lexicon, fuzzy);
      if (plan === null) continue;
      const entry = this.search(plan, country, query.near);
      if (entry >= 0) return this.matchOf(entry);
    }
    return null;
  }

  private matchOf(entry: number): PlaceMatch {
    const d = this.data;
    const place = d.entryPlace[entry];
    const name = d.nameBytes.toString('utf8', d.nameStarts[place], d.nameStarts[place + 1]);
    const city = d.groupCity[d.group[place]];
    return { lat: d.lat[place], lon: d.lon[place], label: city === null ? name : `${name}, ${city}` };
  }

  /** The best entry for the plan (in the country when >= 0), or -1. */
  private search(plan: QueryPlan, country: number, near: { lat: number; lon: number } | null): number {
    this.plan = plan;
    this.country = country;
    this.near = near;
    if (near !== null) this.nearCosLat = Math.cos((near.lat * Math.PI) / 180);
    this.ceiling = ((MAX_QUERY_WORDS - plan.unavoidableFuzzy) * PER_FUZZY_WORD + KIND_AS_ASKED + WHOLE_NAME) * TIERS;
    this.bestEntry = -1;
    this.bestQuality = -1;
    this.bestTiebreak = -Infinity;
    this.collect();
    this.plan = null;
    return this.bestEntry;
  }

  /**
   * Every valid entry has some word in its name, so it is in the postings of one of the words. A word's
   * postings are scanned whole when short; a long list is intersected with the hits (name and city) of
   * the required word with the fewest. Country-name words are never the narrowing word: their hits are
   * whole countries, which no list holds. Words go rarest first, so a narrowing word's own postings have
   * usually been scanned already and only its city hits are left to intersect.
   */
  private collect(): void {
    const { postings, postingStarts, contextEntries, contextStarts, countryNameTokens } = this.data;
    const plan = this.plan!;
    const hits = plan.required.map((required, i) => {
      if (!required) return Infinity;
      let count = 0;
      for (let a = plan.altStarts[i]; a < plan.altStarts[i + 1]; a++) {
        const id = plan.altIds[a];
        if (countryNameTokens.has(id)) return Infinity;
        count += postingStarts[id + 1] - postingStarts[id] + contextStarts[id + 1] - contextStarts[id];
      }
      return count;
    });
    const scanned = new Uint8Array(plan.count);
    const order = Array.from({ length: plan.count }, (_, i) => i).sort((a, b) => hits[a] - hits[b]);
    for (const t of order) {
      let narrowest = -1;
      for (let u = 0; u < plan.count; u++) {
        if (u !== t && hits[u] < Infinity && (narrowest < 0 || hits[u] < hits[narrowest])) narrowest = u;
      }
      let wholeLists = true;
      for (let a = plan.altStarts[t]; a < plan.altStarts[t + 1]; a++) {
        const id = plan.altIds[a];
        const from = postingStarts[id];
        const to = postingStarts[id + 1];
        if (narrowest < 0 || (to - from <= hits[narrowest] && !scanned[narrowest])) {
          for (let k = from; k < to && !this.settled(postings[k]); k++) this.consider(postings[k]);
          continue;
        }
        wholeLists = false;
        for (let b = plan.altStarts[narrowest]; b < plan.altStarts[narrowest + 1]; b++) {
          const other = plan.altIds[b];
          if (!scanned[narrowest]) this.considerCommon(postings, from, to, postings, postingStarts[other], postingStarts[other + 1]);
          this.considerCommon(postings, from, to, contextEntries, contextStarts[other], contextStarts[other + 1]);
        }
      }
      scanned[t] = wholeLists ? 1 : 0;
    }
  }

  /** Considers the entries two ascending lists share: walks the shorter, gallops through the longer. */
  private considerCommon(a: Uint32Array, aFrom: number, aTo: number, b: Uint32Array, bFrom: number, bTo: number): void {
    if (aTo - aFrom > bTo - bFrom) return this.considerCommon(b, bFrom, bTo, a, aFrom, aTo);
    let low = bFrom;
    for (let i = aFrom; i < aTo && low < bTo; i++) {
      const entry = a[i];
      if (this.settled(entry)) return;
      let step = 1;
      let high = low;
      while (high < bTo && b[high] < entry) {
        low = high + 1;
        high += step;
        step *= 2;
      }
      low = lowerBound(b, low, Math.min(high + 1, bTo), entry);
      if (low < bTo && b[low] === entry) this.consider(entry);
    }
  }

  /**
   * True when no entry from here on in an ascending list can beat the best: the best has the highest
   * match quality possible, and later entries rank no better (within its tier, too, when distance to the
   * caller decides among equals).
   */
  private settled(entry: number): boolean {
    if (this.bestQuality < this.ceiling) return false;
    if (this.near === null) return entry > this.bestEntry;
    return this.tierOfEntry(entry) < this.bestQuality - this.ceiling;
  }

  private tierOfEntry(entry: number): number {
    const place = this.data.entryPlace[entry];
    return tierOf(this.data.nearness[place], this.data.importance[place]);
  }

  /** Scores one entry against the plan and keeps it when it beats the best so far. */
  private consider(entry: number): void {
    const { entryStarts, entryTokens, entryPlace, kind, importance, nearness, group, groupCountry } = this.data;
    const plan = this.plan!;
    const place = entryPlace[entry];
    if (this.country >= 0 && groupCountry[group[place]] !== this.country) return;
    // Once the best has the highest match possible, only a higher tier or a nearer place of its tier beats it.
    if (this.near !== null && this.bestQuality >= this.ceiling) {
      const tierBelowBest = this.tierOfEntry(entry) - (this.bestQuality - this.ceiling);
      if (tierBelowBest < 0 || (tierBelowBest === 0 && this.closeness(place) <= this.bestTiebreak)) return;
    }
    const start = entryStarts[entry];
    const end = entryStarts[entry + 1];
    let covered = 0;
    let named = 0;
    let fuzzy = 0;
    let kindAsAsked = true;
    for (let i = 0; i < plan.count; i++) {
      // 2: the word or a synonym is in the name, 1: a misspelling of it is, 0: neither.
      let hit = 0;
      for (let a = plan.altStarts[i]; a < plan.altStarts[i + 1] && hit < 2; a++) {
        const id = plan.altIds[a];
        for (let j = start; j < end; j++) {
          if (entryTokens[j] === id) {
            covered |= 1 << (j - start);
            hit = Math.max(hit, 2 - plan.altFuzzy[a]);
            break;
          }
        }
      }
      if (hit > 0) {
        named++;
        if (hit === 1) fuzzy++;
      } else if (plan.required[i]) {
        const context = this.contextHit(place, i);
        if (context === 0) return;
        if (context === 1) fuzzy++;
      } else if (plan.kind[i] >= 0 && kind[place] !== plan.kind[i]) {
        kindAsAsked = false;
      }
    }
    if (named === 0) return;
    const match =
      (MAX_QUERY_WORDS - fuzzy) * PER_FUZZY_WORD +
      (kindAsAsked ? KIND_AS_ASKED : 0) +
      (covered >>> 0 === 2 ** (end - start) - 1 ? WHOLE_NAME : 0);
    const quality = match * TIERS + tierOf(nearness[place], importance[place]);
    if (quality < this.bestQuality) return;
    // Among equals: nearest to the caller's position when given, else the static rank.
    const tiebreak = this.near === null ? staticRank(nearness[place], importance[place]) : this.closeness(place);
    if (quality > this.bestQuality || tiebreak > this.bestTiebreak) {
      this.bestEntry = entry;
      this.bestQuality = quality;
      this.bestTiebreak = tiebreak;
    }
  }

  /**
   * Closeness of a place to the caller's position: minus the squared equirectangular distance in degrees,
   * which orders places by distance closely enough to break ties and costs no trigonometry per place.
   */
  private closeness(place: number): number {
    const near = this.near!;
    const dLat = this.data.lat[place] - near.lat;
    let dLon = this.data.lon[place] - near.lon;
    if (dLon > 180) dLon -= 360;
    else if (dLon < -180) dLon += 360;
    const x = dLon * this.nearCosLat;
    return -(dLat * dLat + x * x);
  }

  /** Whether word i is in the name of the place's city or country (2), a misspelling of it is (1), or neither (0). */
  private contextHit(place: number, i: number): number {
    const { group, groupTokenStarts, groupTokens, groupCountry, countryTokens } = this.data;
    const plan = this.plan!;
    const g = group[place];
    const country = countryTokens[groupCountry[g]];
    let hit = 0;
    for (let a = plan.altStarts[i]; a < plan.altStarts[i + 1] && hit < 2; a++) {
      const id = plan.altIds[a];
      let found = country.includes(id);
      for (let j = groupTokenStarts[g]; j < groupTokenStarts[g + 1] && !found; j++) found = groupTokens[j] === id;
      if (found) hit = Math.max(hit, 2 - plan.altFuzzy[a]);
    }
    return hit;
  }
}

/** First index in [from, to) of the ascending array whose value is at least `value`. */
function lowerBound(array: Uint32Array, from: number, to: number, value: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (array[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
