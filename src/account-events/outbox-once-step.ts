// The accounts database's step 9: one delivery of a change to a subscription at most in the outbox (a unique
// index on subscription + webhook id), so no relay (another replica's, or one that took over mid-batch) can
// queue it twice; the relay's compare-and-set on its place (store.ts `record`) already kept it so, and this
// step drops any copy an older file holds (keeping the first) before the index is made. Older code inserts
// what the index allows, so it still reads the file (readableBy 8).
import type { Migration } from '../storage/migrations.js';

export const OUTBOX_ONCE_STEP: Migration = {
  version: 9,
  name: 'event outbox: one delivery per subscription and webhook id',
  readableBy: 8,
  up: (db) =>
    db.exec(`
DELETE FROM event_outbox WHERE id NOT IN (SELECT min(id) FROM event_outbox GROUP BY subscription_id, webhook_id);
CREATE UNIQUE INDEX event_outbox_once ON event_outbox (subscription_id, webhook_id);
`),
};
