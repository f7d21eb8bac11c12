// What every partner module works with: the tables (with the account event log their changes append to), the clock, the toilets being
// served (existence, names, places) and the hook that shows a change in the next answer of every thread.
import type { SnapshotHolder } from '../toilets/snapshot.js';
import type { PartnerStore } from './store.js';
import type { ListingFigures } from './figures.js';

export interface PartnerContext {
  readonly store: PartnerStore;
  readonly now: () => number;
  /** The snapshot in use (the server's catalog, or the moderation command's own load). */
  readonly toilets: SnapshotHolder;
  /**
   * Called after a committed change of what these toilets show (partner object, verification_state): the
   * server re-reads their overlays into every thread (partners.ts); the moderation command's process has
   * nothing to refresh (the server notices its commits by the database's data_version).
   */
  readonly changed: (toiletIds: readonly string[]) => void;
  /** The Plus listings' monthly figures (the server's; the moderation command shows none). */
  readonly figures?: ListingFigures;
}
