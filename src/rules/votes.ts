// Doc §3.3: the source value that counts as one vote per votable attribute.

import { QualityFlag, type ToiletFacts } from './facts.js';
import { minorDigits } from './currency.js';

export type VotableAttribute =
  | 'access'
  | 'fee'
  | 'fee_amount'
  | 'wheelchair'
  | 'changing_table'
  | 'gender'
  | 'opening_hours'
  | 'name'
  | 'operator'
  | 'existence';

const TRAILING_ZEROS = /\.?0+$/;

/**
 * Canonical fee_amount: "<amount> <ISO 4217>", a plain decimal with '.' and no thousands separator, at
 * most the currency's minor-unit digits and no trailing zeros: "0.5 EUR", "1 GBP", "100 JPY", "0.125 KWD".
 */
export function formatFeeAmount(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  const fixed = amount.toFixed(digits);
  return `${digits > 0 ? fixed.replace(TRAILING_ZEROS, '') : fixed} ${currency}`;
}

/**
 * Doc §3.3: source votes in the spec's vote-value forms. Inferred access gives no vote, whether the
 * caller says so (`accessInferred`) or the facts carry QualityFlag.AccessInferred. Attributes without a
 * source vote are omitted.
 */
export function sourceVotes(facts: ToiletFacts, accessInferred: boolean): Partial<Record<VotableAttribute, string>> {
  const votes: Partial<Record<VotableAttribute, string>> = {};
  const inferred = accessInferred || (facts.quality & QualityFlag.AccessInferred) !== 0;
  if (facts.access !== 'unknown' && !inferred) votes.access = facts.access;
  if (facts.fee.required !== null) votes.fee = facts.fee.required ? 'paid' : 'free';
  if (facts.fee.amount !== null && facts.fee.currency !== null) votes.fee_amount = formatFeeAmount(facts.fee.amount, facts.fee.currency);
  if (facts.wheelchair !== 'unknown') votes.wheelchair = facts.wheelchair;
  if (facts.changing_table !== 'unknown') votes.changing_table = facts.changing_table;
  if (facts.gender.length > 0) votes.gender = facts.gender.join(',');
  if (facts.opening_hours !== null) votes.opening_hours = facts.opening_hours;
  if (facts.name !== null) votes.name = facts.name;
  if (facts.operator !== null) votes.operator = facts.operator;
  votes.existence = 'yes';
  return votes;
}
