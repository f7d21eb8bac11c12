// Fragment keys: one small number per combination of a row's enum values and quality, given out in
// order of first use on this thread. The snapshot keeps one per row; the renderer indexes its fragments by it.
import { ACCESS_RULE, CHANGING_TABLE, GENDER, WHEELCHAIR } from '../rules/facts.js';
import type { ToiletTable } from './table.js';

export const QUALITY_BITS = 4;

/**
 * Which enum and quality fragments a row's item uses (`quality`: its qualityCode), as one number the
 * snapshot keeps per row (set when the row's facts or quality change): one read per item instead of one
 * per enum column. Numbers are given out in order of first use, per thread, so the renderer indexes a
 * short array: of the ~1.2M combinations of values an answer meets a few hundred.
 */
export function fragmentKey(t: ToiletTable, row: number, quality: number): number {
  const enums = (((t.access[row] * ACCESS_RULE.length + t.accessRule[row]) * WHEELCHAIR.length + t.wheelchair[row]) * CHANGING_TABLE.length + t.changingTable[row]) * (1 << GENDER.length) + t.gender[row];
  const combination = (enums << QUALITY_BITS) | quality;
  let key = keyOfCombination.get(combination);
  if (key === undefined) keyOfCombination.set(combination, (key = combinationOfKey.push(combination) - 1));
  return key;
}

/** The fragment keys given out on this thread, both ways. */
const keyOfCombination = new Map<number, number>();
const combinationOfKey: number[] = [];

/** The enum-and-quality combination a fragment key stands for. */
export function combinationOf(key: number): number {
  return combinationOfKey[key];
}
