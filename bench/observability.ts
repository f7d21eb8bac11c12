// What metrics and the access log cost on the hot path: nearest over HTTP (wrk, as the throughput
// section) against the server started with both off, metrics only, the access log only, and both (the
// defaults). Each round runs the four one after another, in an order that flips every round, so slow
// drift of a shared machine falls on both sides of every pair; a round's cost of a feature is
// 1 - its req/s / the same round's req/s with both off. Reported: the median over the rounds and their
// spread (lowest and highest round).
import { runWrk, startProcess } from './http.js';

export interface ObservabilityCost {
  name: string;
  env: Record<string, string>;
  /** Per round: 1 - req/s with it on / req/s with everything off. */
  costs: number[];
  /** req/s per round. */
  requestsPerSecond: number[];
}

const CONFIGS: { name: string; env: Record<string, string> }[] = [
  { name: 'everything off', env: { METRICS: 'false', ACCESS_LOG: 'false' } },
  { name: 'metrics', env: { METRICS: 'true', ACCESS_LOG: 'false' } },
  { name: 'access log (every request, to a pipe)', env: { METRICS: 'false', ACCESS_LOG: 'true' } },
  { name: 'both (the defaults)', env: { METRICS: 'true', ACCESS_LOG: 'true' } },
];

export interface CostOptions {
  main: string;
  env: NodeJS.ProcessEnv;
  requests: string[];
  rounds: number;
  seconds: number;
  warmupSeconds: number;
}

/** Runs the rounds; the first result is the baseline (everything off, cost 0). */
export async function observabilityCost(options: CostOptions): Promise<ObservabilityCost[]> {
  const results: ObservabilityCost[] = CONFIGS.map((config) => ({ ...config, costs: [], requestsPerSecond: [] }));
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? [0, 1, 2, 3] : [3, 2, 1, 0];
    const rps: number[] = [];
    for (const index of order) rps[index] = await throughput(options, results[index].env);
    results.forEach((result, index) => {
      result.requestsPerSecond.push(rps[index]);
      result.costs.push(1 - rps[index] / rps[0]);
    });
  }
  return results;
}

async function throughput(options: CostOptions, env: Record<string, string>): Promise<number> {
  const server = await startProcess([options.main], { ...options.env, ...env });
  const exited = new Promise<void>((resolve) => server.child.once('exit', () => resolve()));
  try {
    await runWrk('observability', server.port, options.requests, options.warmupSeconds);
    const result = await runWrk('observability', server.port, options.requests, options.seconds);
    if (result.non2xx > 0) throw new Error(`${result.non2xx} non-2xx answers with ${JSON.stringify(env)}`);
    return result.requestsPerSecond;
  } finally {
    server.child.kill('SIGTERM');
    await exited;
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The median of per-round figures and their lowest and highest round. */
export interface Spread {
  median: number;
  low: number;
  high: number;
}

export function spread(values: number[]): Spread {
  return { median: median(values), low: Math.min(...values), high: Math.max(...values) };
}
