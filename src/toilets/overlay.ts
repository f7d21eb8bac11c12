// What overlay data (community contributions, moderation, partner listings) adds to a toilet's source
// facts. The overlay database owns these; the read path only sees this shape, merged in from memory.

import type { FactAttribute } from './facts.js';

/** A fact settled by votes or a moderator; `value` is in the vote table's normal form. */
export interface Decision {
  value: string;
  by: 'votes' | 'moderator';
  votes_for: number | null;
  votes_total: number | null;
  as_of: string;
}

export interface PartnerListing {
  name: string;
  tier: 'basic' | 'plus';
  conditions: 'everyone' | 'customers' | null;
  opening_hours: string | null;
  /** Epoch ms until which the business switched the toilet off; 0 when the switch is on. */
  closed_until: number;
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

/** Overlay data by toilet id, as the read path consumes it. */
export interface OverlaySource {
  /** Every toilet id that has overlay data, with that data (after following id moves). */
  entries(): Iterable<[string, ToiletOverlay]>;
}

/** The overlay of a service with no contributions yet. */
export const NO_OVERLAYS: OverlaySource = { entries: () => [] };
