// What overlay data (community contributions, moderation, partner listings) adds to a toilet's source
// facts. The overlay database owns these; the read path only sees this shape, merged in from memory.

import type { Access, AccessRule, ChangingTable, FactAttribute, ToiletFacts, Wheelchair } from '../rules/facts.js';

/** A fact settled by votes or a moderator, as `provenance.decided` shows it. */
export interface Decision {
  /**
   * The value to show, in the vote table's normal form; null when the source value stays shown (it
   * holds the most votes, or no value has a majority).
   */
  value: string | null;
  by: 'votes' | 'moderator';
  votes_for: number | null;
  votes_total: number | null;
  /** UTC date (YYYY-MM-DD) of the latest vote counted, or of the moderator's lock. */
  as_of: string;
}

export interface PartnerListing {
  name: string;
  tier: 'basic' | 'plus';
  conditions: 'everyone' | 'customers' | null;
  opening_hours: string | null;
  /** Epoch ms until which the business switched the toilet off; 0 when the switch is on. */
  closed_until: number;
  /** Where reads count the listing's figures (ListingCounters), given by the main thread; -1: not counted (not Plus). */
  counter: number;
}

export interface ToiletOverlay {
  confirmations: number;
  last_confirmed_at: string | null;
  cleanliness: { average: number; count: number } | null;
  /** An open report says the toilet is gone, closed or in the wrong place or hours. */
  disputed: boolean;
  decided: Partial<Record<FactAttribute, Decision>>;
  /** A running paid listing, or null. */
  partner: PartnerListing | null;
  /** A moderator marked the toilet gone: it leaves every answer. */
  gone: boolean;
}

/** A toilet approved from a community submission: a record the source database does not have. */
export interface CommunityToilet {
  /** `c_<number>` (see ID_TYPES). */
  id: string;
  lat: number;
  lon: number;
  name: string | null;
  access: Access;
  access_rule: AccessRule;
  /** 1 paid, 0 free, null unknown. */
  fee_required: 0 | 1 | null;
  opening_hours: string | null;
  wheelchair: Wheelchair;
  changing_table: ChangingTable;
  time_zone: string;
  country: string | null;
  /** Epoch seconds of the moderator's approval (its "last edit"). */
  approved_at: number;
}

/** What an overlay source may ask about the loaded toilets while it computes their overlays. */
export interface SourceView {
  /** The id a stored id stands for now (following the source's id moves), or null when no loaded toilet has it. */
  currentId(id: string): string | null;
  /** A loaded toilet's id and every id it moved from: the keys its overlay rows may be stored under. */
  aliases(id: string): string[];
  /** The facts the source gives a loaded toilet, before any decision is applied; null when not loaded. */
  sourceFacts(id: string): ToiletFacts | null;
}

/** Overlay data by toilet id, as the read path consumes it. */
export interface OverlaySource {
  /** Toilets approved from community submissions, served beside the source's. */
  communityToilets(): CommunityToilet[];
  /** Every loaded toilet that has overlay data, by current id, with that data. */
  entries(view: SourceView): Iterable<[string, ToiletOverlay]>;
  /** The overlay data of one loaded toilet (by current id), or null when it has none. */
  entry(id: string, view: SourceView): ToiletOverlay | null;
}
