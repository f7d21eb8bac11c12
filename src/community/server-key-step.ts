// The server key's PostgreSQL step (server-key.ts keeps the key; this is only the SQL text, so the
// contributions' slice can declare it and a read thread may load it with the slices).
import type { PostgresStep } from '../storage/postgres.js';

/** The key's length in bytes. */
export const KEY_BYTES = 32;

/** The accounts schema's step 1 (the contributions' slice declares it): the table that holds the key. */
export const SERVER_KEY_STEP: PostgresStep = {
  version: 1,
  name: 'server key',
  sql: `
-- one row, made by the first replica that starts; never updated
CREATE TABLE server_key (
  id  smallint PRIMARY KEY CHECK (id = 1),
  key bytea NOT NULL CHECK (length(key) = ${KEY_BYTES})
);`,
};
