// The per-IP rate limiter's cost per request (src/http/rate-limit.ts), as a ratio to the plainest exact
// counter, a Map from address to count (unbounded memory, so not what the service can use): IPv4 and IPv6
// addresses counted exactly, and addresses past the million counted in the sketch. Each task call counts
// 1,024 requests, so the figures are per request and the harness's own overhead is spread out.
import { FixedWindowRateLimiter } from '../src/http/rate-limit.js';
import { latencies } from './measure.js';

const BATCH = 1024;
const ADDRESSES = 100_000;
const T0 = 29_000_000 * 60_000;
const POLICY = { name: 'per-ip', limit: 60, windowSeconds: 60 };

export interface RateLimitBench {
  /** Task name → nanoseconds per request. */
  nsPerRequest: Record<string, number>;
  reference: string;
}

export async function benchRateLimit(taskMs: number): Promise<RateLimitBench> {
  const ipv4 = Array.from({ length: ADDRESSES }, (_, i) => `10.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`);
  const ipv6 = Array.from({ length: ADDRESSES }, (_, i) => `2001:db8:${(i >>> 12).toString(16)}:${(i & 0xfff).toString(16)}:0:0:0:${(i % 7) + 1}`);
  const batches = (addresses: string[], count: (address: string) => unknown) => {
    let at = 0;
    return () => {
      for (let n = 0; n < BATCH; n++) {
        count(addresses[at]);
        at = at + 1 === addresses.length ? 0 : at + 1;
      }
    };
  };
  const counts = new Map<string, number>();
  const exact = new FixedWindowRateLimiter(POLICY);
  const exact6 = new FixedWindowRateLimiter(POLICY);
  const flooded = new FixedWindowRateLimiter(POLICY);
  for (let i = 0; i < 1_000_000; i++) flooded.take(`172.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`, T0);
  const reference = 'Map from address to count (reference)';
  const stats = await latencies(
    {
      [reference]: batches(ipv4, (address) => counts.set(address, (counts.get(address) ?? 0) + 1)),
      'limiter, IPv4, counted exactly': batches(ipv4, (address) => exact.take(address, T0)),
      'limiter, IPv6 by /64, counted exactly': batches(ipv6, (address) => exact6.take(address, T0)),
      'limiter past a million addresses (sketch)': batches(ipv4, (address) => flooded.take(address, T0)),
    },
    taskMs,
  );
  const nsPerRequest = Object.fromEntries(Object.entries(stats).map(([name, s]) => [name, (s.meanUs * 1000) / BATCH]));
  return { nsPerRequest, reference };
}
