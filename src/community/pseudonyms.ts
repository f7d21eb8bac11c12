// Raw IP addresses and raw device ids are never stored (docs/PRIVACY.md). What the counting rules need
// is stored as keyed hashes (HMAC-SHA-256, 128 bits kept):
// - an address, for per-address-per-day rules, with a key made for that UTC day and deleted with it, so
//   yesterday's hashes can no longer be linked to anything;
// - a device id, for "one rating / one vote per person", with the server key (server-key.ts), which lives in
//   a file beside the overlay database (not in it), or in PostgreSQL's private schema, so a copy of the
//   contributions alone does not link a device to its votes.
import { createHmac, randomBytes } from 'node:crypto';
import type { OverlayStore } from './store.js';
import { addressKey } from '../http/client-ip.js';

export class Pseudonyms {
  /** The key of the last day asked for: it never changes once made, so the store is asked once a day. */
  private today: { day: string; key: Buffer } | null = null;

  constructor(
    private readonly store: OverlayStore,
    private readonly serverKey: Buffer,
  ) {}

  /** Who rates or votes without an account: the keyed hash of a device id. */
  person(deviceId: string): string {
    return `d:${keyedHash(this.serverKey, deviceId)}`;
  }

  /** The keyed hash of an address (an IPv6 one by its /64) on a UTC day (YYYY-MM-DD). */
  async address(ip: string, day: string): Promise<string> {
    if (this.today?.day !== day) this.today = { day, key: await this.store.dayKey(day) };
    return keyedHash(this.today.key, addressKey(ip));
  }
}

/** Who rates or votes signed in: the account, whatever device it uses. */
export function accountPerson(accountId: string): string {
  return `a:${accountId}`;
}

/**
 * What a deleted account's ratings and votes are kept under: a random pseudonym of the device-id form,
 * linked to nothing, so the counts stay right and nobody can tell they were an account's.
 */
export function anonymousPerson(): string {
  return `d:${randomBytes(16).toString('hex')}`;
}

function keyedHash(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex').slice(0, 32);
}

/** A secret for one purpose, derived from the server key, so one file serves every purpose. */
export function derivedSecret(key: Buffer, purpose: string): string {
  return createHmac('sha256', key).update(purpose).digest('hex');
}
