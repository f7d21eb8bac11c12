// Doc §2.7–2.9: wheelchair, changing_table and gender.

import type { ChangingTable, Gender, Wheelchair } from '../../src/rules/facts.js';
import { ABSENT, NO, YES, YES_NO, codeOf, codeTable, keyPair, normaliseEnum, readCode, readValue, type KeyPair, type Tags } from './tags.js';

const WHEELCHAIR_VALUES = codeTable({ no: 0, limited: 1, yes: 2, designated: 2, only: 2, unknown: ABSENT });
const WHEELCHAIR_OF_CODE: readonly Wheelchair[] = ['no', 'limited', 'yes'];
const WHEELCHAIR = keyPair('wheelchair');

/** Standalone: toilets:wheelchair, wheelchair, legacy disabled. Host: toilets:wheelchair only (its own wheelchair is the host's). */
export function readWheelchair(tags: Tags, host: boolean): Wheelchair {
  let code = readCode(tags, WHEELCHAIR, host, WHEELCHAIR_VALUES);
  if (code < 0 && !host) code = codeOf(tags.disabled, WHEELCHAIR_VALUES);
  return code >= 0 ? WHEELCHAIR_OF_CODE[code] : 'unknown';
}

/** `limited` (a surface not built for changing) reads as unknown, so parents are not sent to a bench. */
const CHANGING_TABLE_VALUES = codeTable({ no: NO, yes: YES, limited: ABSENT, unknown: ABSENT });
const CHANGING_TABLE = keyPair('changing_table');
const NOT_CHANGING_TABLE = keyPair('not:changing_table', 'not:toilets:changing_table');
const CHANGING_TABLE_COUNT = keyPair('changing_table:count');
const DIAPER = keyPair('diaper');
const BABY_CHANGING = keyPair('baby_changing');
const COUNT = /^\d+$/;

/** yes/no, or a count (0 → no, more → yes), as used by `diaper` and `changing_table:count`. */
function countOrYesNo(tags: Tags, key: KeyPair, host: boolean): number {
  const value = readValue(tags, key, host);
  if (value === undefined) return ABSENT;
  const normalised = normaliseEnum(value);
  if (COUNT.test(normalised)) return Number(normalised) > 0 ? YES : NO;
  return codeOf(normalised, YES_NO);
}

/** changing_table, then the negative not:changing_table, the count, legacy diaper, non-standard baby_changing. */
export function readChangingTable(tags: Tags, host: boolean): ChangingTable {
  let code = readCode(tags, CHANGING_TABLE, host, CHANGING_TABLE_VALUES);
  if (code < 0 && readCode(tags, NOT_CHANGING_TABLE, host, YES_NO) === YES) code = NO;
  if (code < 0) code = countOrYesNo(tags, CHANGING_TABLE_COUNT, host);
  if (code < 0) code = countOrYesNo(tags, DIAPER, host);
  if (code < 0) code = readCode(tags, BABY_CHANGING, host, YES_NO);
  return code === YES ? 'yes' : code === NO ? 'no' : 'unknown';
}

const UNISEX = 1;
const FEMALE = 2;
const MALE = 4;
/** Not a gender: "segregated", which means female + male when nothing more is tagged. */
const SEGREGATED = 8;
const GENDER_YES_NO = codeTable({ no: NO, yes: YES, only: YES, unknown: ABSENT });
const GENDER_WORDS: ReadonlyMap<string, number> = new Map([
  ['unisex', UNISEX],
  ['female', FEMALE],
  ['male', MALE],
  ['segregated', SEGREGATED],
]);

/** Index: bit set of UNISEX|FEMALE|MALE → the array in the spec's fixed order. Shared and frozen. */
const GENDER_ARRAYS: readonly Gender[][] = Array.from(
  { length: 8 },
  (_, bits) => Object.freeze((['unisex', 'female', 'male'] as const).filter((_, i) => bits & (1 << i))) as Gender[],
);

const KEYS = {
  unisex: keyPair('unisex'),
  female: keyPair('female'),
  male: keyPair('male'),
  women: keyPair('women'),
  men: keyPair('men'),
  segregated: keyPair('gender_segregated'),
  gender: keyPair('gender'),
};

function genderWordBits(value: string | undefined): number {
  if (value === undefined) return 0;
  let bits = 0;
  for (const item of normaliseEnum(value).split(';')) bits |= GENDER_WORDS.get(item.trim()) ?? 0;
  return bits;
}

/**
 * Doc §2.9: what is tagged, in the order unisex, female, male. `=no` only removes; gender_segregated=yes
 * (or gender=segregated) alone means female + male. The returned arrays are shared and frozen.
 */
export function readGender(tags: Tags, host: boolean): Gender[] {
  const unisex = readCode(tags, KEYS.unisex, host, GENDER_YES_NO);
  const female = readCode(tags, KEYS.female, host, GENDER_YES_NO);
  const male = readCode(tags, KEYS.male, host, GENDER_YES_NO);
  const women = readCode(tags, KEYS.women, host, GENDER_YES_NO);
  const men = readCode(tags, KEYS.men, host, GENDER_YES_NO);
  const segregated = readCode(tags, KEYS.segregated, host, GENDER_YES_NO);
  const gender = genderWordBits(readValue(tags, KEYS.gender, host));
  let bits = gender & (UNISEX | FEMALE | MALE);
  if (unisex === YES || segregated === NO) bits |= UNISEX;
  if (female === YES || women === YES) bits |= FEMALE;
  if (male === YES || men === YES) bits |= MALE;
  if (bits === 0 && (segregated === YES || gender & SEGREGATED)) bits = FEMALE | MALE;
  if (unisex === NO) bits &= ~UNISEX;
  if (female === NO || women === NO) bits &= ~FEMALE;
  if (male === NO || men === NO) bits &= ~MALE;
  return GENDER_ARRAYS[bits];
}

/** True for a segregated block (female or male rooms), where a central key locks only the accessible cubicle. */
export function isSegregated(gender: readonly Gender[]): boolean {
  return gender.includes('female') || gender.includes('male');
}
