// The accounts database's layout step for clients that identify themselves by a client ID metadata
// document (issue 46): such a client's row has its document's URL as its id (so every grant, code and consent
// of it records that URL) and keeps the last valid copy of the document, with `document_expires_at`, until
// when that copy is fresh (from the document's HTTP caching headers, at most 24 hours); NULL marks a
// registered client. It lives here, beside the list it is appended to (store.ts), because the accounts
// layer may not import src/oauth.
import type { Migration } from '../storage/migrations.js';

export const OAUTH_CLIENT_DOCUMENTS_STEP: Omit<Migration, 'version'> = {
  name: 'oauth clients: client ID metadata documents and until when their copy is fresh',
  up: (db) => db.exec('ALTER TABLE oauth_clients ADD COLUMN document_expires_at INTEGER'),
};
