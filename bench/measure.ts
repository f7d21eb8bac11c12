// Measuring helpers: child processes with wall time and peak RSS, tinybench tasks as µs statistics, and
// percentiles of timed samples.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Bench } from 'tinybench';

export interface Timed {
  wallMs: number;
  /** Peak resident set size in MB, when GNU time is installed (/usr/bin/time); else null. */
  peakRssMb: number | null;
  stdout: string;
  stderr: string;
  code: number | null;
}

const GNU_TIME = '/usr/bin/time';

/** Runs a command to completion, measuring wall time and (with GNU time) peak RSS. */
export function timed(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Timed> {
  const useTime = existsSync(GNU_TIME);
  const started = performance.now();
  const child = useTime ? spawn(GNU_TIME, ['-f', '__peak_rss_kb=%M', command, ...args], { env }) : spawn(command, args, { env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const match = /__peak_rss_kb=(\d+)/.exec(stderr);
      resolve({
        wallMs: performance.now() - started,
        peakRssMb: match ? Math.round(Number(match[1]) / 1024) : null,
        stdout,
        stderr: stderr.replace(/__peak_rss_kb=\d+\n?/, ''),
        code,
      });
    });
  });
}

export function hasCommand(path: string): boolean {
  return existsSync(path);
}

export interface LatencyStats {
  meanUs: number;
  p50Us: number;
  p99Us: number;
  samples: number;
}

/** Runs each task for about `timeMs` and reports latency in microseconds. */
export async function latencies(tasks: Record<string, () => unknown>, timeMs: number): Promise<Record<string, LatencyStats>> {
  const bench = new Bench({ time: timeMs, warmupTime: Math.min(500, timeMs / 4) });
  for (const [name, fn] of Object.entries(tasks)) bench.add(name, fn);
  await bench.run();
  const out: Record<string, LatencyStats> = {};
  for (const task of bench.tasks) {
    const result = task.result as unknown as { latency: { mean: number; p50: number; p99: number; samplesCount?: number; samples?: number[] } } | undefined;
    if (!result?.latency) throw new Error(`bench task ${task.name} failed: ${JSON.stringify((task.result as { error?: unknown })?.error ?? task.result)}`);
    const l = result.latency;
    out[task.name] = { meanUs: l.mean * 1000, p50Us: l.p50 * 1000, p99Us: l.p99 * 1000, samples: l.samplesCount ?? l.samples?.length ?? 0 };
  }
  return out;
}

/** A deterministic PRNG for query points, so runs are comparable. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/**
 * CPU µs (user and system, all of this process's threads) per call of `task`, run for about `timeMs` of
 * CPU after `timeMs / 4` unmeasured. Unlike wall time, what other processes take of a shared machine's
 * cores does not count, so two variants compare while the machine is loaded.
 */
export function cpuMicrosPerCall(task: () => unknown, timeMs: number): number {
  const run = (budgetUs: number) => {
    const start = process.cpuUsage();
    let calls = 0;
    let spentUs = 0;
    while (spentUs < budgetUs) {
      for (let i = 0; i < 64; i++) task();
      calls += 64;
      const used = process.cpuUsage(start);
      spentUs = used.user + used.system;
    }
    return spentUs / calls;
  };
  run(timeMs * 250);
  return run(timeMs * 1000);
}

/** The value at fraction `p` (0.5: the median, 0.99: p99) of ascending `sorted`; NaN when it is empty. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}
