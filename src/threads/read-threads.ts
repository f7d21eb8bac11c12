// The main thread's side of the read threads: starts them, keeps their snapshots in step with the catalog
// (they follow it: every load and overlay change is sent as data over shared memory), answers the
// requests and place lookups they pass on, and stops them. See src/threads/README.md.
import { Worker } from 'node:worker_threads';
import { once } from 'node:events';
import { ForwardedRequests } from '../http/forward.js';
import type { HttpReply } from '../http/reply.js';
import type { HttpRequestInfo, HttpServer } from '../http/server.js';
import { limitTables, type Limits } from '../api/limits.js';
import { PlaceLookupUnavailable, type PlaceLookup, type PlaceQuery } from '../places/lookup.js';
import type { CatalogFollower, ToiletCatalog } from '../toilets/catalog.js';
import type { LoadedToilets } from '../toilets/load.js';
import type { OverlayChange, SourceInfo } from '../toilets/snapshot.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Heartbeats } from '../api/health.js';
import type { FromReadThread, ReadThreadSetup, ThreadCounts, ToReadThread } from './messages.js';
import type { SharedObserving } from '../observe/observer.js';
import type { ListingCounters } from '../toilets/listing-counters.js';
import type { McpCallCounts } from '../observe/mcp-calls.js';

const ENTRY = new URL('./read-thread.js', import.meta.url);
/**
 * A read answers from shared typed arrays and allocates little, so its thread needs only a small young
 * generation: V8's default for a worker kept ~100 MB more resident at a million toilets, for no gain.
 */
const YOUNG_GENERATION_MB = 8;

export interface ReadThreadsDeps {
  config: Config;
  server: HttpServer;
  catalog: ToiletCatalog;
  limits: Limits;
  places: PlaceLookup | null;
  heartbeats: Heartbeats;
  /** The counters of Plus listings' figures, which every read thread counts into. */
  counters: ListingCounters;
  /** MCP tool calls, which every read thread counts into. */
  mcpCalls: McpCallCounts;
  log: Logger;
  /** A thread number's metrics block and access-log ring (the same for its replacement). */
  observing(thread: number): SharedObserving;
  /** The answer to a passed-on request whose answer failed after its handler returned (the serverError hook). */
  failure(error: unknown, request: HttpRequestInfo): HttpReply;
}

interface ReadThread {
  /** 1, 2, …: the main thread is 0. */
  number: number;
  worker: Worker;
  /** Resolves with the exit code when the thread ends. */
  exited: Promise<number>;
  /** Replies to the thread's messages of one kind, in order. */
  waiting: Map<FromReadThread['kind'], ((message: FromReadThread) => void)[]>;
}

/** A read thread that fails is replaced after this long (not at once, in case it fails again at start). */
const REPLACE_AFTER_MS = 1000;

export class ReadThreads implements CatalogFollower {
  private threads: ReadThread[] = [];
  private closing = false;
  /** Whether the catalog sends this its loads (from the first prepare). */
  private following = false;
  private host = '';
  private port = 0;
  /** Replacements under way: closing waits for them. */
  private readonly replacing = new Set<Promise<void>>();

  constructor(private readonly deps: ReadThreadsDeps) {}

  /**
   * Starts `count` read threads' workers, which load their modules meanwhile (~0.3–1 s each) and then wait
   * for the data: called before the main thread loads it, the two overlap, and from then on the threads
   * follow the catalog, so they build their snapshots of a load as soon as it is made, beside the main
   * thread's. start() calls it too.
   */
  prepare(count: number): void {
    const spawned: ReadThread[] = [];
    for (let number = this.threads.length + 1; number <= count; number++) spawned.push(this.spawn(number));
    if (this.following) {
      for (const thread of spawned) this.sendCurrent(thread);
    } else {
      this.following = true;
      this.deps.catalog.follow(this); // the data in use now to every thread, then each load as it is made
    }
  }

  /** Starts `count` read threads (see prepare) listening on `port` beside the main thread; resolves once all listen. */
  async start(count: number, host: string, port: number): Promise<void> {
    [this.host, this.port] = [host, port];
    this.prepare(count);
    const answers = await Promise.all(this.threads.map((thread) => this.listen(thread)));
    const failed = answers.find((answer) => answer !== null);
    if (failed) {
      await this.close();
      throw new Error(`a read thread cannot listen on ${host}:${port}: ${failed}`);
    }
  }

  private spawn(number: number): ReadThread {
    const { config, server, limits, places } = this.deps;
    const setup: ReadThreadSetup = {
      thread: number,
      config,
      routes: server.routeSpecs(),
      limits: limitTables(limits),
      places: places !== null,
      heartbeats: this.deps.heartbeats.buffer,
      listingCounters: this.deps.counters.buffer,
      mcpCalls: this.deps.mcpCalls.buffer,
      observing: this.deps.observing(number),
    };
    const worker = new Worker(ENTRY, { workerData: setup, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    const thread: ReadThread = { number, worker, exited: once(worker, 'exit').then(([code]) => code as number), waiting: new Map() };
    const forwarded = new ForwardedRequests(server, worker, this.deps.failure);
    worker.on('message', (message: FromReadThread) => this.take(thread, forwarded, message));
    worker.on('error', (error) => this.deps.log.error('a read thread failed', { thread: number, error: error.stack ?? String(error) }));
    void thread.exited.then((code) => this.ended(thread, code));
    this.threads.push(thread);
    return thread;
  }

  /** The snapshot in use now, to a thread that has none. */
  private sendCurrent(thread: ReadThread): void {
    const { loaded, info, overlays } = this.deps.catalog.current();
    thread.worker.postMessage({ kind: 'load', loaded, info, overlays } satisfies ToReadThread);
  }

  /** Resolves with null once the thread listens, or with why it cannot. */
  private async listen(thread: ReadThread): Promise<string | null> {
    const answer = await this.ask(thread, { kind: 'listen', host: this.host, port: this.port }, 'listening', 'listen-failed');
    return answer.kind === 'listen-failed' ? answer.message : null;
  }

  /** A thread ended outside close(): another takes its place, with the snapshot in use now. */
  private ended(thread: ReadThread, code: number): void {
    this.threads = this.threads.filter((t) => t !== thread);
    this.deps.heartbeats.clear(thread.number); // not stuck: gone (and replaced below)
    if (this.closing) return;
    this.deps.log.error('a read thread ended; starting another', { thread: thread.number, code, replace_after_ms: REPLACE_AFTER_MS });
    const replaced = new Promise<void>((resolve) => setTimeout(resolve, REPLACE_AFTER_MS)).then(async () => {
      if (this.closing) return;
      const next = this.spawn(thread.number);
      this.sendCurrent(next);
      const failed = await this.listen(next).catch((error: Error) => error.message);
      if (failed !== null) this.deps.log.error('a new read thread cannot listen', { thread: thread.number, error: failed });
    }).catch((error: unknown) => {
      // e.g. the Worker cannot start: serve on with one thread fewer; unhandled, the finally below would end the process
      this.deps.log.error('a new read thread cannot start', { thread: thread.number, error: (error as Error)?.stack ?? String(error) });
    });
    this.replacing.add(replaced);
    void replaced.finally(() => this.replacing.delete(replaced));
  }

  loaded(loaded: LoadedToilets, info: SourceInfo, overlays: OverlayChange): void {
    this.post({ kind: 'load', loaded, info, overlays });
  }

  changed(overlays: OverlayChange): void {
    this.post({ kind: 'overlays', overlays });
  }

  /** What each read thread has received and passed on so far. */
  counts(): Promise<ThreadCounts[]> {
    return Promise.all(this.threads.map(async (thread) => ((await this.ask(thread, { kind: 'count' }, 'counted')) as { counts: ThreadCounts }).counts));
  }

  /** Stops accepting on every read thread, lets their requests finish (passed-on ones are answered meanwhile), then ends them. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.replacing]);
    await Promise.all(
      this.threads.map(async (thread) => {
        await this.ask(thread, { kind: 'close' }, 'closed');
        await thread.worker.terminate();
      }),
    );
  }

  private post(message: ToReadThread): void {
    for (const thread of this.threads) thread.worker.postMessage(message);
  }

  /** Sends `message` and resolves with the thread's next message of one of `answers` kinds. */
  private ask(thread: ReadThread, message: ToReadThread, ...answers: FromReadThread['kind'][]): Promise<FromReadThread> {
    return new Promise((resolve, reject) => {
      const settle = (answer: FromReadThread) => {
        for (const kind of answers) thread.waiting.set(kind, (thread.waiting.get(kind) ?? []).filter((r) => r !== settle));
        resolve(answer);
      };
      for (const kind of answers) thread.waiting.set(kind, [...(thread.waiting.get(kind) ?? []), settle]);
      void thread.exited.then((code) => reject(new Error(`read thread exited (code ${code}) before answering ${message.kind}`)));
      thread.worker.postMessage(message);
    });
  }

  private take(thread: ReadThread, forwarded: ForwardedRequests, message: FromReadThread): void {
    switch (message.kind) {
      case 'request':
      case 'abort':
        forwarded.take(message);
        return;
      case 'find-place':
        this.findPlace(thread.worker, message.id, message.query);
        return;
      case 'log':
        this.deps.log[message.level](message.message, { thread: thread.number, ...message.fields });
        return;
      case 'closed':
      case 'counted':
      case 'listen-failed':
      case 'listening':
        thread.waiting.get(message.kind)?.[0]?.(message);
    }
  }

  private findPlace(worker: Worker, id: number, query: PlaceQuery): void {
    const reply = (message: ToReadThread) => worker.postMessage(message);
    const failed = (error: unknown) =>
      reply({ kind: 'place-failed', id, message: (error as Error)?.message ?? String(error), retryAfterSeconds: error instanceof PlaceLookupUnavailable ? error.retryAfterSeconds : null });
    try {
      void Promise.resolve(this.deps.places!.find(query)).then((match) => reply({ kind: 'place-found', id, match }), failed);
    } catch (error) {
      failed(error);
    }
  }
}
