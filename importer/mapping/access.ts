// Doc §2.2: the effective access value of a toilet (plain `access` or `toilets:access`) as a code.

import type { Access } from '../../src/rules/facts.js';
import { ABSENT, codeOf, codeTable, keyPair, readCode, type Tags } from './tags.js';

/** Access codes, most cautious first, so a `;` list resolves to its most restrictive item. */
export const AccessCode = {
  /** private/no: never a record (doc §1) */
  Private: 0,
  Customers: 1,
  /** access=key: anyone may ask for the key → permissive, access_rule key */
  Key: 2,
  Permissive: 3,
  /** access=fee (London misuse for "pay to enter") → public, fee required */
  Fee: 4,
  Public: 5,
} as const;

const ACCESS_VALUES = codeTable({
  private: AccessCode.Private,
  no: AccessCode.Private,
  customers: AccessCode.Customers,
  destination: AccessCode.Customers,
  permit: AccessCode.Customers,
  passengers: AccessCode.Customers,
  members: AccessCode.Customers,
  students: AccessCode.Customers,
  guests: AccessCode.Customers,
  key: AccessCode.Key,
  permissive: AccessCode.Permissive,
  fee: AccessCode.Fee,
  yes: AccessCode.Public,
  public: AccessCode.Public,
  designated: AccessCode.Public,
  official: AccessCode.Public,
  unknown: ABSENT,
});

/** Index: AccessCode → spec value. Private never reaches a record; it reads as unknown if asked. */
export const ACCESS_OF_CODE: readonly Access[] = ['unknown', 'customers', 'permissive', 'permissive', 'public', 'public'];

const ACCESS = keyPair('access');

/** AccessCode, ABSENT (absent/`unknown`) or UNREADABLE (a value such as `staff` that no row names). */
export function accessCode(tags: Tags, host: boolean): number {
  return readCode(tags, ACCESS, host, ACCESS_VALUES);
}

/** True when a raw access value says private/no (e.g. a host's own `access`: nobody may walk in). */
export function isPrivateAccess(value: string | undefined): boolean {
  return codeOf(value, ACCESS_VALUES) === AccessCode.Private;
}
