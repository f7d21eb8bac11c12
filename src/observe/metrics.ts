// Prometheus metrics of the whole service, made on the main thread when /metrics is scraped (prom-client
// formats them). Requests and their latency come from every thread's metrics block (request-metrics.ts),
// summed by prom-client's AggregatorRegistry as it sums the registries of a cluster's workers; rate-limit
// refusals from the limits' shared counters, MCP tool calls from theirs (mcp-calls.ts); the rest lives on the main thread: the data in use, overlay
// write failures, and prom-client's process metrics (CPU, memory, event loop, GC).
import { AggregatorRegistry, Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { LATENCY_BUCKETS, readRequestSeries, type RequestSeries } from './request-metrics.js';
import type { McpCallCounts } from './mcp-calls.js';

const PREFIX = 'toilet_finder_';

export interface MetricSources {
  /** Every thread's request metrics block. */
  blocks(): SharedArrayBuffer[];
  /** Access-log lines dropped because a thread's ring was full (access-ring.ts), all threads together. */
  accessLogDropped(): number;
  /** Rate-limit refusals per policy, counted by every thread. */
  refusals: { policies: readonly string[]; counts: BigInt64Array };
  /** MCP tool calls, counted by every thread. */
  mcpCalls: McpCallCounts;
  /** The data in use. */
  data(): { toilets: number; dataAsOf: string | null; importedAt: string | null };
  /** The published files this replica fetches (src/source-fetch), by file: toilets, tiles. */
  sourceFetch(): readonly { file: string; counts: FetchCounts }[];
  now: () => number;
}

/** One fetched file's counts since start; times in ms since the epoch, null before the first. */
export interface FetchCounts {
  failures: number;
  fetched: number;
  lastSuccessMs: number | null;
  lastFailureMs: number | null;
}

export class ServiceMetrics {
  private readonly registry = new Registry();
  private readonly overlayWriteFailures: Counter;

  constructor(private readonly sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    this.overlayWriteFailures = new Counter({ name: `${PREFIX}overlay_write_failures_total`, help: 'Writes the overlay database refused (full disk, locked, read-only): each answered 503.', registers });
    new Counter({
      name: `${PREFIX}mcp_calls_total`,
      help: 'MCP tool calls by tool and outcome (error: the tool answered with an error result), every thread together.',
      labelNames: ['tool', 'outcome'],
      registers,
      collect() {
        this.reset();
        for (const { tool, outcome, count } of sources.mcpCalls.read()) if (count > 0) this.inc({ tool, outcome }, count);
      },
    });
    new Gauge({
      name: `${PREFIX}toilets`,
      help: 'Toilets in the data in use.',
      registers,
      collect() {
        this.set(sources.data().toilets);
      },
    });
    new Gauge({
      name: `${PREFIX}snapshot_age_seconds`,
      help: 'Age of the map data in use: seconds since its OpenStreetMap replication time, or since its import when the extract carries none.',
      registers,
      collect() {
        const { dataAsOf, importedAt } = sources.data();
        const since = Date.parse(dataAsOf ?? importedAt ?? '');
        if (Number.isNaN(since)) this.reset();
        else this.set(Math.max(0, (sources.now() - since) / 1000));
      },
    });
    this.fetchMetrics(registers);
    new Counter({
      name: `${PREFIX}access_log_dropped_total`,
      help: 'Access-log lines dropped because a thread wrote faster than the log writer read (its ring was full); never a request held up.',
      registers,
      collect() {
        this.reset();
        this.inc(sources.accessLogDropped());
      },
    });
    const { policies, counts } = sources.refusals;
    new Counter({
      name: `${PREFIX}rate_limit_refusals_total`,
      help: 'Requests refused by a rate limit (429), by policy, REST and MCP together.',
      labelNames: ['policy'],
      registers,
      collect() {
        this.reset();
        policies.forEach((policy, index) => this.inc({ policy }, Number(Atomics.load(counts, index))));
      },
    });
  }

  /** TOILETS_DB_URL, TILES_DB_URL: how the fetches of the published files go, by file. */
  private fetchMetrics(registers: Registry[]): void {
    const { sourceFetch } = this.sources;
    const counter = (name: string, help: string, value: (counts: FetchCounts) => number) =>
      new Counter({
        name: `${PREFIX}${name}`, help, labelNames: ['file'], registers,
        collect() {
          this.reset();
          for (const { file, counts } of sourceFetch()) this.inc({ file }, value(counts));
        },
      });
    const time = (name: string, help: string, value: (counts: FetchCounts) => number | null) =>
      new Gauge({
        name: `${PREFIX}${name}`, help, labelNames: ['file'], registers,
        collect() {
          this.reset();
          for (const { file, counts } of sourceFetch()) {
            const ms = value(counts);
            if (ms !== null) this.set({ file }, ms / 1000);
          }
        },
      });
    counter('source_fetch_failures_total', 'Checks of a published file (TOILETS_DB_URL, TILES_DB_URL) that failed: unreachable, an error answer, a hang, a damaged or refused file.', (c) => c.failures);
    counter('source_fetch_swaps_total', 'Published files fetched, checked and swapped in for the local copy.', (c) => c.fetched);
    time('source_fetch_last_success_timestamp_seconds', 'When a check of the published file last went well (unchanged, or fetched), Unix time.', (c) => c.lastSuccessMs);
    time('source_fetch_last_failure_timestamp_seconds', 'When a check of the published file last failed, Unix time.', (c) => c.lastFailureMs);
  }

  /** One write the overlay database refused. */
  overlayWriteFailed(): void {
    this.overlayWriteFailures.inc();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text: every thread's requests summed, then the main thread's own metrics. */
  async text(): Promise<string> {
    const threads = this.sources.blocks().map((block) => requestMetrics(readRequestSeries(block)));
    return Registry.merge([AggregatorRegistry.aggregate(threads as unknown as Parameters<typeof AggregatorRegistry.aggregate>[0]), this.registry]).metrics();
  }
}

/**
 * prom-client's JSON form of a metric, as Registry.getMetricsAsJSON gives it and AggregatorRegistry sums
 * it (its typings call the type an enum and ask for a collect function; at run time it is the text name).
 */
interface MetricJson {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: { labels: Record<string, string | number>; value: number; metricName?: string }[];
}

/** One thread's series as prom-client's JSON form of a registry, for AggregatorRegistry to sum. */
function requestMetrics(series: RequestSeries[]): MetricJson[] {
  const requests: MetricJson['values'] = [];
  const durations: MetricJson['values'] = [];
  const answers = new Map<string, number>();
  for (const s of series) {
    const labels = { operation: s.operation, status: s.status };
    requests.push({ labels, value: s.count });
    s.buckets.forEach((count, bucket) => durations.push({ labels: { ...labels, le: LATENCY_BUCKETS[bucket] }, value: count, metricName: `${PREFIX}http_request_duration_seconds_bucket` }));
    durations.push({ labels: { ...labels, le: '+Inf' }, value: s.count, metricName: `${PREFIX}http_request_duration_seconds_bucket` });
    durations.push({ labels, value: s.sumSeconds, metricName: `${PREFIX}http_request_duration_seconds_sum` });
    durations.push({ labels, value: s.count, metricName: `${PREFIX}http_request_duration_seconds_count` });
    answers.set(s.interface, (answers.get(s.interface) ?? 0) + s.count);
  }
  return [
    { name: `${PREFIX}http_requests_total`, help: 'Requests answered, by operation (the spec operationId, else method and route) and status; 499: the client went away first.', type: 'counter', values: requests, aggregator: 'sum' },
    { name: `${PREFIX}http_request_duration_seconds`, help: 'Time from a request arriving to its answer written, by operation and status.', type: 'histogram', values: durations, aggregator: 'sum' },
    { name: `${PREFIX}answers_total`, help: 'Requests answered per interface: rest (/api/v1), mcp (/mcp) and web (pages, dumps, documents).', type: 'counter', values: [...answers].map(([where, value]) => ({ labels: { interface: where }, value })), aggregator: 'sum' },
  ];
}
