// The counting rules of contributions (spec: "Community corrections", rateToilet, confirmToilet, Limits),
// as pure functions of the stored rows and the date.
import type { Decision } from '../toilets/overlay.js';
import { utcDay, windowStart } from './days.js';

/** Confirmations count for 12 months. */
export const CONFIRMATION_WINDOW_MONTHS = 12;
/** Votes count for 24 months. */
export const VOTE_WINDOW_MONTHS = 24;
/** A voted value needs at least this many votes to replace the shown value. */
export const MIN_DECIDING_VOTES = 2;

/** One person's latest vote on a fact. */
export interface CountedVote {
  value: string;
  /** Epoch ms. */
  at: number;
}

/**
 * How votes settle one fact. `source` is the source value in normal form (it counts as one vote), or
 * undefined when the source has none. Returns null when no vote falls in the 24-month window.
 *
 * A value is shown instead of the source value when it holds more than half of all votes (the source
 * counting as one) and at least two; otherwise, ties included, the source value stays (Decision.value null).
 * `replaceable` false: votes are counted but never replace the source value (existence: only a moderator
 * hides a toilet).
 */
export function decideByVotes(source: string | undefined, votes: readonly CountedVote[], nowMs: number, replaceable = true): Decision | null {
  const since = windowStart(nowMs, VOTE_WINDOW_MONTHS);
  const tally = new Map<string, number>();
  let latest = -1;
  for (const vote of votes) {
    if (vote.at < since) continue;
    tally.set(vote.value, (tally.get(vote.value) ?? 0) + 1);
    latest = Math.max(latest, vote.at);
  }
  if (latest < 0) return null;
  if (source !== undefined) tally.set(source, (tally.get(source) ?? 0) + 1);
  let total = 0;
  let leader: string | null = null;
  let leaderVotes = 0;
  for (const [value, count] of tally) {
    total += count;
    if (count > leaderVotes) [leader, leaderVotes] = [value, count];
  }
  const replaces = replaceable && leader !== source && leaderVotes * 2 > total && leaderVotes >= MIN_DECIDING_VOTES;
  const shown = replaces ? leader : source;
  return {
    value: replaces ? leader : null,
    by: 'votes',
    votes_for: shown === undefined || shown === null ? 0 : tally.get(shown)!,
    votes_total: total,
    as_of: utcDay(latest),
  };
}

/** A moderator's lock: it wins over every vote. */
export function decideByModerator(value: string, lockedAt: number): Decision {
  return { value, by: 'moderator', votes_for: null, votes_total: null, as_of: utcDay(lockedAt) };
}

/** `cleanliness`: the average of each person's latest rating (two decimals), or null when nobody rated. */
export function cleanliness(ratings: readonly number[]): { average: number; count: number } | null {
  if (ratings.length === 0) return null;
  const sum = ratings.reduce((a, b) => a + b, 0);
  return { average: Math.round((sum / ratings.length) * 100) / 100, count: ratings.length };
}
