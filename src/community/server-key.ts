// The server key: 32 random bytes that sign human-check challenges and key the raters' and voters'
// pseudonyms (pseudonyms.ts, human-check.ts). Every process serving the same contributions must use the same
// key, or a token one issued fails on another and each counts the same voter as new. Without DATABASE_URL it
// is a file beside the overlay database (`$OVERLAY_DB.key`, owner-only); with it, one row in PostgreSQL's
// accounts schema (personal and secret data: the dump's role cannot read it), put there by whichever
// replica starts first: the key file of an install that moves to PostgreSQL (its stored pseudonyms were made
// with it), else new random bytes. Either way it is made once and never replaced: a new key would orphan
// every pseudonym.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { PostgresStep } from '../storage/postgres.js';

const KEY_BYTES = 32;

/** Where the server key is kept; key() reads it, making it first when there is none yet. */
export interface ServerKeyStore {
  key(): Promise<Buffer>;
}

/** `$OVERLAY_DB.key`: the SQLite install's key file. */
export class FileServerKey implements ServerKeyStore {
  constructor(readonly path: string) {}

  async key(): Promise<Buffer> {
    return this.keySync();
  }

  /** The key when the file is there (an install moving to PostgreSQL brings it along), else null; nothing is made. */
  existing(): Buffer | null {
    return existsSync(this.path) ? this.keySync() : null;
  }

  /** The same as key(), for an app assembled without awaiting (tests, src/stores.ts). */
  keySync(): Buffer {
    if (!existsSync(this.path)) writeFileSync(this.path, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
    const key = readFileSync(this.path);
    if (key.length < KEY_BYTES) throw new Error(`${this.path} holds ${key.length} bytes; the server key needs ${KEY_BYTES} (delete the file to make a new one)`);
    return key;
  }
}

/** The accounts schema's step 1 (src/databases.ts lists it): the table that holds the key. */
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

export interface ServerKeyTables {
  server_key: { id: number; key: Buffer };
}

/** The key in PostgreSQL: replicas that start together each offer one, the first committed is everyone's. */
export class PostgresServerKey implements ServerKeyStore {
  /** `adopt`: the key to offer when there is none yet (the install's key file), else random bytes are. */
  constructor(
    private readonly db: Kysely<ServerKeyTables>,
    private readonly adopt: Buffer | null = null,
  ) {}

  async key(): Promise<Buffer> {
    await this.db
      .insertInto('server_key')
      .values({ id: 1, key: this.adopt ?? randomBytes(KEY_BYTES) })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
    const row = await this.db.selectFrom('server_key').select('key').where('id', '=', 1).executeTakeFirstOrThrow();
    return row.key;
  }
}
