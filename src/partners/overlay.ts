// Partner listings as overlay data: wraps the community overlay (OverlaySource) and adds to each served
// toilet the partner object of its showing listing (approved claim, running plan, not stopped). The
// catalog merges it like any overlay, so it reaches every read thread as OverlayChange data: the read
// threads never load this module or SQLite; they compile the business hours once per change
// (Snapshot.applyOverlay) and evaluate open_now/closes_at and the live switch per request (render.ts).
// Listings stored under a toilet's old id follow its id moves, as contributions do. A Plus listing's
// partner object carries the counter number its figures are counted at (figures.ts).
import type { OverlaySource, PartnerListing, SourceView, ToiletOverlay } from '../toilets/overlay.js';
import type { ListingWithClaim, ShowingListings } from './store.js';

/** The overlay of a toilet that has a listing and nothing else. */
const NO_COMMUNITY_DATA: Omit<ToiletOverlay, 'partner'> = { confirmations: 0, last_confirmed_at: null, cleanliness: null, disputed: false, decided: {}, gone: false };

export function partnerOf(listing: ListingWithClaim, counter: number): PartnerListing {
  return { name: listing.name, tier: listing.plan_tier!, conditions: listing.conditions, opening_hours: listing.opening_hours, closed_until: listing.closed_until, counter };
}

export class PartnerOverlay implements OverlaySource {
  constructor(
    private readonly community: OverlaySource,
    private readonly showing: ShowingListings,
    /** The counter number of a showing listing's figures (ListingFigures.counterOf), -1 when not counted. */
    private readonly counterOf: (listing: ListingWithClaim) => number,
  ) {}

  communityToilets() {
    return this.community.communityToilets();
  }

  *entries(view: SourceView): Iterable<[string, ToiletOverlay]> {
    const partners = this.showingByToilet(view);
    for (const [id, overlay] of this.community.entries(view)) {
      yield [id, { ...overlay, partner: partners.get(id) ?? null }];
      partners.delete(id);
    }
    for (const [id, partner] of partners) yield [id, { ...NO_COMMUNITY_DATA, partner }];
  }

  entry(id: string, view: SourceView): ToiletOverlay | null {
    const overlay = this.community.entry(id, view);
    const listing = this.showing.on(view.aliases(id));
    if (listing === null) return overlay;
    return { ...(overlay ?? NO_COMMUNITY_DATA), partner: partnerOf(listing, this.counterOf(listing)) };
  }

  /** The partner object of every served toilet with a showing listing, by current id. */
  showingByToilet(view: SourceView): Map<string, PartnerListing> {
    const found = new Map<string, PartnerListing>();
    for (const listing of this.showing.all()) {
      const id = view.currentId(listing.toilet_id);
      if (id !== null) found.set(id, partnerOf(listing, this.counterOf(listing)));
    }
    return found;
  }
}
