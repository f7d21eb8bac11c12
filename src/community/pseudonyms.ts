// Raw IP addresses and raw device ids are never stored (docs/PRIVACY.md). What the counting rules need
// is stored as keyed hashes (HMAC-SHA-256, 128 bits kept):
// - an address, for per-address-per-day rules, with a key made for that UTC day and deleted with it, so
//   yesterday's hashes can no longer be linked to anything;
// - a device id, for "one rating / one vote per person", with the server key, which lives in a file beside
//   the overlay database (not in it), so a copy of the database alone does not link a device to its votes.
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { OverlayStore } from './store.js';

export class Pseudonyms {
  constructor(
    private readonly store: OverlayStore,
    private readonly serverKey: Buffer,
  ) {}

  /** Who rates or votes: the keyed hash of a device id (accounts will use 'a:<account id>'). */
  person(deviceId: string): string {
    return `d:${keyedHash(this.serverKey, deviceId)}`;
  }

  /** The keyed hash of an address on a UTC day (YYYY-MM-DD). */
  address(ip: string, day: string): string {
    return keyedHash(this.store.dayKey(day), ip);
  }
}

function keyedHash(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex').slice(0, 32);
}

/** The server's secret key: 32 random bytes in `path`, made (owner-readable only) at first use. */
export function serverKey(path: string): Buffer {
  if (!existsSync(path)) writeFileSync(path, randomBytes(32), { mode: 0o600, flag: 'wx' });
  const key = readFileSync(path);
  if (key.length < 32) throw new Error(`${path} holds ${key.length} bytes; the server key needs 32 (delete the file to make a new one)`);
  return key;
}

/** A secret for one purpose, derived from the server key, so one file serves every purpose. */
export function derivedSecret(key: Buffer, purpose: string): string {
  return createHmac('sha256', key).update(purpose).digest('hex');
}
