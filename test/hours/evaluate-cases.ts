// Evaluates a list of (value, place, instant) cases; run in-process and in child processes with another TZ.

import { compileHours, type HoursPlace, type HoursState } from '../../src/hours/index.js';

export interface HoursCase {
  value: string;
  place: HoursPlace;
  at: string;
}

export function evaluateCases(cases: readonly HoursCase[]): (HoursState | null)[] {
  return cases.map(({ value, place, at }) => compileHours(value, place)?.stateAt(Date.parse(at)) ?? null);
}
