// The accounts database's step 7, OAuth's second: it bounds what open client registration keeps (issue 38):
// `authorized_at` records when a person first approved the client. Registration is open to anyone, so a
// client nobody authorized within an hour of registering is deleted, and the stored never-authorized ones
// are bounded in number (oldest evicted first). Clients registered before this step are taken as
// authorized at their registration, so they keep working under the old rule (deleted 30 days after
// registering only when they hold no grant). Its number is fixed (it shipped); the folder's slice.ts declares it.
import type { Migration } from '../storage/migrations.js';

export const OAUTH_CLIENT_BOUNDS_STEP: Migration = {
  version: 7,
  name: 'oauth clients: when first authorized, for the bounds of open registration',
  up: (db) =>
    db.exec(`
ALTER TABLE oauth_clients ADD COLUMN authorized_at INTEGER;
UPDATE oauth_clients SET authorized_at = created_at;
CREATE INDEX oauth_clients_unauthorized ON oauth_clients (created_at) WHERE authorized_at IS NULL;
`),
};
