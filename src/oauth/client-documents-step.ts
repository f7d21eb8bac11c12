// The accounts database's step 8, OAuth's third: clients that identify themselves by a client ID metadata
// document (issue 46): such a client's row has its document's URL as its id (so every grant, code and consent
// of it records that URL) and keeps the last valid copy of the document, with `document_expires_at`, until
// when that copy is fresh (from the document's HTTP caching headers, at most 24 hours); NULL marks a
// registered client. Its number is fixed (it shipped); the folder's slice.ts declares it.
import type { Migration } from '../storage/migrations.js';

export const OAUTH_CLIENT_DOCUMENTS_STEP: Migration = {
  version: 8,
  name: 'oauth clients: client ID metadata documents and until when their copy is fresh',
  up: (db) => db.exec('ALTER TABLE oauth_clients ADD COLUMN document_expires_at INTEGER'),
};
