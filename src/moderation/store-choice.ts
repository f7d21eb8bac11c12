// Moderation's store (store.ts) for the overlay store the server or the command opened: the SQLite file's
// or PostgreSQL's, beside it on the same connection or pool.
import type { OverlayStore } from '../community/store.js';
import { SqliteOverlayStore } from '../community/sqlite-store.js';
import { PostgresOverlayStore } from '../community/postgres-store.js';
import type { ModerationStore } from './store.js';
import { SqliteModerationStore } from './sqlite-store.js';
import { PostgresModerationStore } from './postgres-store.js';

/** Moderation's store over the overlay store it stands on. */
export function moderationStoreOf(overlay: OverlayStore): ModerationStore {
  if (overlay instanceof SqliteOverlayStore) return new SqliteModerationStore(overlay);
  if (overlay instanceof PostgresOverlayStore) return new PostgresModerationStore(overlay);
  throw new Error('moderation has no store for this overlay store');
}
