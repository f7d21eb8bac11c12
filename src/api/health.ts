// GET /healthz: is the process alive? Every thread answers it itself, never passing it on, and every
// thread beats once a second into one table in shared memory. The thread that answers is alive by
// answering; it also reads the others' last beats, so a main thread stuck in a loop (or a read thread)
// shows whichever thread a connection lands on: 503 naming the silent thread, where a probe passed on to a
// stuck main thread would only time out, and one answered without a look at the others would say 200.
// src/threads/README.md explains the choice.
import type { HttpServer } from '../http/server.js';
import type { Problems } from '../http/problem.js';

/** A thread silent this long is stuck: well above the longest legitimate block (a reload at a million toilets: ~2.5 s). */
export const HEALTH_SILENT_MS = 15_000;
const BEAT_EVERY_MS = 1000;
/** Operational answers are about this moment: no cache may keep them. */
export const NO_STORE = ['Content-Type', 'application/json', 'Cache-Control', 'no-store'];

/** One beat (epoch ms) per thread, in shared memory; 0: the thread is not running. Thread 0 is the main thread. */
export class Heartbeats {
  private readonly beats: BigInt64Array;
  private timer: NodeJS.Timeout | null = null;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.beats = new BigInt64Array(buffer);
  }

  static create(threads: number): Heartbeats {
    return new Heartbeats(new SharedArrayBuffer(threads * BigInt64Array.BYTES_PER_ELEMENT));
  }

  /** Beats for `thread` now and every second until stop (the timer keeps no process alive). */
  start(thread: number, now: () => number): void {
    this.beat(thread, now());
    this.timer = setInterval(() => this.beat(thread, now()), BEAT_EVERY_MS);
    this.timer.unref();
  }

  stop(thread: number): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.clear(thread);
  }

  beat(thread: number, nowMs: number): void {
    Atomics.store(this.beats, thread, BigInt(Math.round(nowMs)));
  }

  /** A thread that ended (its replacement beats again once it runs). */
  clear(thread: number): void {
    Atomics.store(this.beats, thread, 0n);
  }

  /** The running threads other than `self` that have not beaten for HEALTH_SILENT_MS, with how long. */
  silent(self: number, nowMs: number): { thread: number; silentMs: number }[] {
    const found: { thread: number; silentMs: number }[] = [];
    for (let thread = 0; thread < this.beats.length; thread++) {
      const last = Number(Atomics.load(this.beats, thread));
      if (thread !== self && last > 0 && nowMs - last > HEALTH_SILENT_MS) found.push({ thread, silentMs: nowMs - last });
    }
    return found;
  }
}

export interface HealthDeps {
  heartbeats: Heartbeats;
  /** This thread's number (0: the main thread). */
  thread: number;
  problems: Problems;
  now: () => number;
}

const ALIVE = JSON.stringify({ status: 'ok' });

/** GET /healthz on this thread's server: 200 while every thread runs, else 503 naming the silent ones. */
export function registerHealthRoute(server: HttpServer, deps: HealthDeps): void {
  const { heartbeats, thread, problems, now } = deps;
  server.route({
    method: 'GET',
    pattern: '/healthz',
    handler: () => {
      const silent = heartbeats.silent(thread, now());
      if (silent.length === 0) return { status: 200, headers: NO_STORE, body: ALIVE };
      const names = silent.map((s) => `${s.thread === 0 ? 'the main thread' : `read thread ${s.thread}`} has not run for ${Math.round(s.silentMs / 1000)} s`);
      return problems.reply('unavailable', `The process is stuck: ${names.join('; ')}. Restart the service if this lasts.`, { retryAfterSeconds: 10, headers: ['Cache-Control', 'no-store'] });
    },
  });
}
