// The accounts database's step 6, partners' second: the monthly figures of partner listings (issue 32, the
// Plus tier): per listing and UTC month, how often its toilet was shown in answers and opened. Aggregates
// with no personal data, folded in by the server from its shared counters (src/partners/figures.ts). Its
// number is fixed (it shipped); the folder's slice.ts declares it. No clock, no configuration.
import type { Migration } from '../storage/migrations.js';

export const FIGURES_TABLES_STEP: Migration = {
  version: 6,
  name: 'partner listing monthly figures',
  up: (db) =>
    db.exec(`
-- month: 'YYYY-MM' in UTC, the month of the fold that added the counts
CREATE TABLE partner_listing_figures (
  listing_id TEXT NOT NULL REFERENCES partner_listings (id) ON DELETE CASCADE,
  month      TEXT NOT NULL CHECK (month GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'),
  shown      INTEGER NOT NULL CHECK (shown >= 0),
  opened     INTEGER NOT NULL CHECK (opened >= 0),
  PRIMARY KEY (listing_id, month)
) STRICT, WITHOUT ROWID;
`),
};
