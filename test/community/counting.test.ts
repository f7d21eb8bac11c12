// The counting rules as pure functions, at their edges: UTC days, the 12- and 24-month windows, exactly
// two votes, the source value as one vote, ties, and the normal forms that make equal values count as equal.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { secondsUntilNextUtcDay, utcDay, windowStart } from '../../src/community/days.js';
import { cleanliness, decideByModerator, decideByVotes } from '../../src/community/tally.js';
import { normalizeVote, sourceVotesOf } from '../../src/community/normal-form.js';
import { QualityFlag, type ToiletFacts } from '../../src/rules/facts.js';

const at = (iso: string) => Date.parse(iso);
const NOW = at('2026-06-15T12:00:00Z');

describe('UTC days and windows', () => {
  test('a day is the UTC calendar day; the wait until the next one is counted in whole seconds', () => {
    assert.equal(utcDay(at('2026-06-15T23:59:59.999Z')), '2026-06-15');
    assert.equal(utcDay(at('2026-06-16T00:00:00Z')), '2026-06-16');
    assert.equal(secondsUntilNextUtcDay(at('2026-06-15T23:59:59Z')), 1);
    assert.equal(secondsUntilNextUtcDay(at('2026-06-15T23:59:59.500Z')), 1);
    assert.equal(secondsUntilNextUtcDay(at('2026-06-15T00:00:00Z')), 86400);
    assert.equal(secondsUntilNextUtcDay(at('2026-06-15T12:00:00Z')), 43200);
  });

  test('"the last N months" starts at midnight UTC of the same date N months earlier', () => {
    assert.equal(windowStart(NOW, 12), at('2025-06-15T00:00:00Z'));
    assert.equal(windowStart(NOW, 24), at('2024-06-15T00:00:00Z'));
    assert.equal(windowStart(at('2026-03-31T08:00:00Z'), 1), at('2026-03-03T00:00:00Z'), 'a date the month lacks rolls over');
  });
});

describe('decideByVotes', () => {
  const vote = (value: string, iso = '2026-06-10T10:00:00Z') => ({ value, at: at(iso) });

  test('no vote in the window: not decided', () => {
    assert.equal(decideByVotes('yes', [], NOW), null);
    assert.equal(decideByVotes('yes', [vote('no', '2024-06-14T23:59:59Z')], NOW), null, 'one day too old for 24 months');
  });

  test('exactly two votes for a value the source lacks replace it', () => {
    assert.deepEqual(decideByVotes(undefined, [vote('yes'), vote('yes', '2026-06-12T10:00:00Z')], NOW), {
      value: 'yes',
      by: 'votes',
      votes_for: 2,
      votes_total: 2,
      as_of: '2026-06-12',
    });
  });

  test('one vote is never enough, even as the only vote', () => {
    assert.deepEqual(decideByVotes(undefined, [vote('yes')], NOW), { value: null, by: 'votes', votes_for: 0, votes_total: 1, as_of: '2026-06-10' });
  });

  test('the source value counts as one vote: two against it win (2 of 3), one against it ties and the source stays', () => {
    assert.deepEqual(decideByVotes('no', [vote('yes'), vote('yes')], NOW), { value: 'yes', by: 'votes', votes_for: 2, votes_total: 3, as_of: '2026-06-10' });
    assert.deepEqual(decideByVotes('no', [vote('yes')], NOW), { value: null, by: 'votes', votes_for: 1, votes_total: 2, as_of: '2026-06-10' });
  });

  test('a tie keeps the shown value', () => {
    const tie = decideByVotes('no', [vote('yes'), vote('yes'), vote('no')], NOW);
    assert.deepEqual(tie, { value: null, by: 'votes', votes_for: 2, votes_total: 4, as_of: '2026-06-10' });
    const split = decideByVotes(undefined, [vote('a'), vote('a'), vote('b'), vote('b')], NOW);
    assert.deepEqual(split, { value: null, by: 'votes', votes_for: 0, votes_total: 4, as_of: '2026-06-10' });
  });

  test('more than half: 3 of 5 win, 3 of 6 do not', () => {
    const five = [vote('yes'), vote('yes'), vote('yes'), vote('limited')];
    assert.equal(decideByVotes('no', five, NOW)?.value, 'yes');
    assert.equal(decideByVotes('no', [...five, vote('limited')], NOW)?.value, null);
  });

  test('votes for the source value confirm it: listed, source shown', () => {
    assert.deepEqual(decideByVotes('yes', [vote('yes'), vote('no')], NOW), { value: null, by: 'votes', votes_for: 2, votes_total: 3, as_of: '2026-06-10' });
  });

  test('the 24-month window: a vote on the first day of the window counts, the day before does not', () => {
    const edge = [vote('yes', '2024-06-15T00:00:00Z'), vote('yes')];
    assert.equal(decideByVotes('no', edge, NOW)?.value, 'yes');
    const stale = [vote('yes', '2024-06-14T23:59:59Z'), vote('yes')];
    assert.deepEqual(decideByVotes('no', stale, NOW), { value: null, by: 'votes', votes_for: 1, votes_total: 2, as_of: '2026-06-10' });
  });

  test('a moderator lock names no vote counts', () => {
    assert.deepEqual(decideByModerator('gone', at('2026-06-01T09:00:00Z')), { value: 'gone', by: 'moderator', votes_for: null, votes_total: null, as_of: '2026-06-01' });
  });
});

describe('cleanliness', () => {
  test('average of the ratings to two decimals, with the count; null without ratings', () => {
    assert.equal(cleanliness([]), null);
    assert.deepEqual(cleanliness([5]), { average: 5, count: 1 });
    assert.deepEqual(cleanliness([1, 2, 2]), { average: 1.67, count: 3 });
  });
});

describe('normal forms', () => {
  const normal = (attribute: Parameters<typeof normalizeVote>[0], value: string) => {
    const result = normalizeVote(attribute, value);
    assert.ok(result.ok, `${attribute} ${value}: ${JSON.stringify(result)}`);
    return result.value;
  };

  test('fee_amount: amount and currency in the mapping’s canonical form', () => {
    assert.equal(normal('fee_amount', '0.50 EUR'), '0.5 EUR');
    assert.equal(normal('fee_amount', '0.5 EUR'), '0.5 EUR');
    assert.equal(normal('fee_amount', '1 gbp'), '1 GBP');
    assert.equal(normal('fee_amount', '1,20 CHF'), '1.2 CHF');
    assert.equal(normal('fee_amount', '100 JPY'), '100 JPY');
    assert.equal(normalizeVote('fee_amount', '0.50 XYZ').ok, false, 'not an ISO 4217 code');
    assert.equal(normalizeVote('fee_amount', 'EUR 0.50').ok, false);
  });

  test('gender: the fixed order, each once', () => {
    assert.equal(normal('gender', 'male,female'), 'female,male');
    assert.equal(normal('gender', 'Male, unisex,male'), 'unisex,male');
    assert.equal(normalizeVote('gender', 'female,other').ok, false);
  });

  test('enum facts: lower case, and only the allowed values', () => {
    assert.equal(normal('wheelchair', 'Yes'), 'yes');
    assert.equal(normal('existence', ' GONE '), 'gone');
    assert.equal(normalizeVote('wheelchair', 'unknown').ok, false);
    assert.equal(normalizeVote('access', 'private').ok, false);
    assert.equal(normalizeVote('fee', 'yes').ok, false);
  });

  test('opening_hours: spacing only, comments untouched, syntax checked', () => {
    assert.equal(normal('opening_hours', ' Mo - Fr 08:00-18:00 ;Sa 10:00 - 12:00 ; '), 'Mo-Fr 08:00-18:00; Sa 10:00-12:00');
    assert.equal(normal('opening_hours', 'Mo,We  08:00-12:00 , 14:00-18:00'), 'Mo,We 08:00-12:00,14:00-18:00');
    assert.equal(normal('opening_hours', 'Mo-Fr 08:00-18:00 "ask  at ; desk"'), 'Mo-Fr 08:00-18:00 "ask  at ; desk"');
    assert.equal(normal('opening_hours', 'Tu-Su 10:00-17:30;PH off'), 'Tu-Su 10:00-17:30; PH off');
    const bad = normalizeVote('opening_hours', 'whenever');
    assert.equal(bad.ok, false);
  });

  test('name and operator: white space tidied, case kept; empty refused', () => {
    assert.equal(normal('name', '  Praça   da  Ribeira '), 'Praça da Ribeira');
    assert.equal(normal('operator', 'Câmara Municipal'.normalize('NFD')), 'Câmara Municipal');
    assert.equal(normalizeVote('name', '   ').ok, false);
  });

  test('the source value passes through the same normal forms, so equal values count as equal', () => {
    const facts: ToiletFacts = {
      name: 'Ribeira  WC',
      operator: null,
      access: 'public',
      access_rule: 'fee',
      scheme_name: null,
      fee: { required: true, amount: 0.5, currency: 'EUR' },
      opening_hours: 'Mo-Fr 08:00-18:00 ; Sa 10:00-12:00',
      wheelchair: 'yes',
      changing_table: 'unknown',
      gender: ['female', 'male'],
      checked: null,
      quality: 0,
    };
    const source = sourceVotesOf(facts);
    assert.deepEqual(source, {
      access: 'public',
      fee: 'paid',
      fee_amount: '0.5 EUR',
      wheelchair: 'yes',
      gender: 'female,male',
      opening_hours: 'Mo-Fr 08:00-18:00; Sa 10:00-12:00',
      name: 'Ribeira WC',
      existence: 'yes',
    });
    // a user's "0.50 EUR" is the source's amount: with the source that is 2 of 3, and the source value stays shown
    const votes = [{ value: normal('fee_amount', '0.50 EUR'), at: NOW }, { value: normal('fee_amount', '1 EUR'), at: NOW }];
    assert.deepEqual(decideByVotes(source.fee_amount, votes, NOW), { value: null, by: 'votes', votes_for: 2, votes_total: 3, as_of: '2026-06-15' });
    assert.equal(sourceVotesOf({ ...facts, quality: QualityFlag.AccessInferred }).access, undefined, 'inferred access is no source vote');
  });
});

describe('existence', () => {
  test('votes for gone are counted but never replace the source’s "yes"', () => {
    const votes = ['gone', 'gone', 'gone'].map((value) => ({ value, at: NOW }));
    assert.deepEqual(decideByVotes('yes', votes, NOW, false), { value: null, by: 'votes', votes_for: 1, votes_total: 4, as_of: '2026-06-15' });
  });
});
