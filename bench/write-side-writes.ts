// The writes of `npm run bench:write-side` (bench/write-side.ts): ratings as the site's page sends them,
// each from a client address and a device of its own (one address adds one new rater per toilet and day),
// with its human-check token solved beforehand from the replica's challenge, so that only the write is
// timed; one write's time to its 201; C writes in flight until all are answered; and the time from a
// write through one replica until another's getToilet answer counts it.
import { deviceId } from '../test/community/support.js';
import { serviceClient, SITE_ORIGIN } from '../test/support/server.js';

export interface PreparedRating {
  toilet: string;
  ip: string;
  body: string;
}

let raters = 0;

/** `count` ratings of `toilets` in turn, tokens solved on `url`'s challenge; every rater is new. */
export async function prepareRatings(url: string, toilets: readonly string[], count: number): Promise<PreparedRating[]> {
  const client = serviceClient(url);
  const prepared: PreparedRating[] = [];
  for (let i = 0; i < count; i++) {
    const n = ++raters;
    const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    const body = JSON.stringify({ rating: 1 + (n % 5), device_id: deviceId(n), challenge_token: await client.token(ip) });
    prepared.push({ toilet: toilets[i % toilets.length], ip, body });
  }
  return prepared;
}

/** Sends one rating to `url`; resolves with the ms until its 201 was read, throws on any other answer. */
export async function timedRating(url: string, rating: PreparedRating): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/api/v1/toilets/${rating.toilet}/ratings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: SITE_ORIGIN, 'X-Forwarded-For': rating.ip },
    body: rating.body,
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`a rating was answered ${response.status}: ${text.slice(0, 300)}`);
  return performance.now() - started;
}

export interface Burst {
  /** Each write's ms until its 201. */
  ms: number[];
  /** From the first write sent to the last answered. */
  wallMs: number;
}

/** Sends `ratings` to `url` with `concurrency` in flight (each sender sends its next when answered). */
export async function burst(url: string, ratings: readonly PreparedRating[], concurrency: number): Promise<Burst> {
  const ms: number[] = [];
  let next = 0;
  const started = performance.now();
  const sender = async () => {
    while (next < ratings.length) ms.push(await timedRating(url, ratings[next++]));
  };
  await Promise.all(Array.from({ length: concurrency }, sender));
  return { ms, wallMs: performance.now() - started };
}

/** How many ratings `url`'s getToilet answer counts for `toilet`. */
export async function ratingsShown(url: string, toilet: string): Promise<number> {
  const response = await fetch(`${url}/api/v1/toilets/${toilet}`);
  if (response.status !== 200) throw new Error(`getToilet ${toilet} was answered ${response.status}`);
  const answer = (await response.json()) as { toilet: { cleanliness: { count: number } | null } };
  return answer.toilet.cleanliness?.count ?? 0;
}

/** Longer than a write takes to show anywhere: a guard against a hang, not a measure. */
const HANG_GUARD_MS = 60_000;

export interface Visible {
  /** From the send until `reader`'s answer counted the rating. */
  visibleMs: number;
  /** From the send until `writer`'s 201. */
  answeredMs: number;
}

/**
 * Sends `rating` (one more of its toilet's, which `reader` counted `before` of) to `writer`; `reader` is
 * asked one read after another from the moment it is sent until its answer counts it.
 */
export async function writeToVisible(writer: string, reader: string, rating: PreparedRating, before: number): Promise<Visible> {
  const started = performance.now();
  const failure: { error?: Error } = {};
  const written = timedRating(writer, rating).catch((error: Error) => {
    failure.error = error; // seen by the loop below, which stops asking
    return undefined;
  });
  while ((await ratingsShown(reader, rating.toilet)) <= before) {
    if (failure.error) throw failure.error;
    if (performance.now() - started > HANG_GUARD_MS) throw new Error(`the rating through ${writer} never showed on ${reader}`);
  }
  const visibleMs = performance.now() - started;
  const answeredMs = await written;
  if (answeredMs === undefined) throw failure.error ?? new Error(`the rating through ${writer} got no answer`);
  return { visibleMs, answeredMs };
}
