// Two figures of the machine itself, printed beside its model: the targets' latency, start-up and memory
// bounds are absolute, and two machines of the same model can be far apart in what those bounds meet.
// - Timing jitter: the same fixed arithmetic (no memory, no allocation) timed like every in-process task.
//   On a quiet machine its p99 is close to its p50; where the host interrupts the guest it is not, and
//   every task's p99 carries the same tail.
// - Stalls: how often a loop that only reads the clock finds more than 10 µs gone between two reads (the
//   host or kernel took the CPU, or a scavenge ran), and for how long. A task of T µs meets one in about
//   T × rate / 10^6 of its runs: once that share passes 1%, its p99 is its p50 plus a stall.
// - A fresh page: the first write to memory the process has not touched yet. Loading the data and
//   importing touch hundreds of MB; a first touch costs well under a microsecond on bare metal and much
//   more in some virtual machines.
import { readFileSync } from 'node:fs';
import { latencies, type LatencyStats } from './measure.js';

export interface MachineFigures {
  /** 20,000 square roots, as a tinybench task. */
  fixedWork: LatencyStats;
  /** Clock reads more than STALL_MS apart, per second, and their mean length in µs. */
  stalls: { perSecond: number; meanUs: number };
  /** Mean µs of the first write to a fresh 4 KiB page. */
  freshPageUs: number;
  /** The kernel's transparent huge page mode, when it says. */
  hugePages: string | null;
}

const PAGE = 4096;
const FRESH_BYTES = 256 * 2 ** 20;
let sink = 0;

function fixedWork(): void {
  let x = 0;
  for (let i = 0; i < 20_000; i++) x += Math.sqrt(i);
  sink += x;
}

const STALL_MS = 0.01;

function stalls(ms: number): MachineFigures['stalls'] {
  const end = performance.now() + ms;
  let [last, count, totalMs] = [performance.now(), 0, 0];
  for (let now = last; now < end; last = now) {
    now = performance.now();
    if (now - last > STALL_MS) {
      count++;
      totalMs += now - last;
    }
  }
  return { perSecond: count / (ms / 1000), meanUs: count === 0 ? 0 : (totalMs / count) * 1000 };
}

function freshPageUs(): number {
  const bytes = new Uint8Array(FRESH_BYTES); // zeroed lazily by the kernel: no page is touched yet
  const started = performance.now();
  for (let at = 0; at < FRESH_BYTES; at += PAGE) bytes[at] = 1;
  const us = ((performance.now() - started) * 1000) / (FRESH_BYTES / PAGE);
  sink += bytes[PAGE];
  return us;
}

function hugePageMode(): string | null {
  try {
    return /\[(\w+)\]/.exec(readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

export async function machineFigures(taskMs: number): Promise<MachineFigures> {
  const stats = await latencies({ 'fixed work': fixedWork }, taskMs);
  const figures = { fixedWork: stats['fixed work'], stalls: stalls(taskMs), freshPageUs: freshPageUs(), hugePages: hugePageMode() };
  if (sink === 0) throw new Error('the fixed work was not done');
  return figures;
}

export function machineLine(m: MachineFigures): string {
  const { p50Us, p99Us } = m.fixedWork;
  return (
    `Machine reference: 20,000 square roots timed as an in-process task: p50 ${p50Us.toFixed(1)} µs, p99 ${p99Us.toFixed(1)} µs ` +
    `(${(p99Us / p50Us).toFixed(2)}× the p50; the in-process p99s below carry the same tail); ` +
    `a loop reading the clock stalls over 10 µs ${Math.round(m.stalls.perSecond).toLocaleString('en')} times a second for ${m.stalls.meanUs.toFixed(0)} µs on average ` +
    `(a task of T µs meets a stall in T × ${(m.stalls.perSecond / 1e6).toPrecision(2)} of its runs; past 1%, its p99 is its p50 plus a stall); ` +
    `first write to a fresh 4 KiB page ${m.freshPageUs.toFixed(2)} µs; transparent huge pages: ${m.hugePages ?? 'unknown'}.`
  );
}
