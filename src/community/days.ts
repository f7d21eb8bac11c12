// UTC calendar days and month windows: every counting rule of the community module is stated in them
// ("one per address per day", "in the last 12 months"), so they are computed in one place.

const DAY_MS = 86_400_000;

/** The UTC calendar day of an instant, YYYY-MM-DD. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whole seconds (at least 1) from an instant to the start of the next UTC day. */
export function secondsUntilNextUtcDay(ms: number): number {
  return Math.max(1, Math.ceil((DAY_MS - (((ms % DAY_MS) + DAY_MS) % DAY_MS)) / 1000));
}

/**
 * Start of the window "the last `months` months" as of an instant: midnight UTC of the same calendar
 * date `months` months earlier (a date the month lacks rolls over, e.g. 31 May - 3 months = 1 March).
 * An event at or after it counts.
 */
export function windowStart(ms: number, months: number): number {
  const now = new Date(ms);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, now.getUTCDate());
}
