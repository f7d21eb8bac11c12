// Request counts and latency histograms of one server thread, by operation and status, kept in a
// SharedArrayBuffer that only this thread writes and the main thread reads when /metrics is scraped.
// Counting is a few array increments on the hot path: no labels hashed, no message per request, nothing
// done at all between scrapes (prom-client's own histograms hash their labels on every observation, and
// merging per-thread registries by message would cost every thread a round trip per scrape).
//
// The block outlives its thread: the main thread makes one per thread number and hands it to each thread
// it starts with that number, so a read thread that fails and is replaced counts on where it stopped and
// the totals never go back (a counter that fell would read as a reset to Prometheus).
//
// Layout (Float64: exact whole numbers up to 2^53): for each operation × status slot, [count, seconds
// summed, one count per latency bucket (not cumulative)]. Operation names are appended to a text area
// ("name\tinterface\n" each) and published by a length word once written, so a reader never sees half a
// name. A plain aligned 8-byte store is never torn on the platforms Node runs on, and the single writer
// needs no atomics; a scrape may see one request's count before its bucket, which the next one corrects.

/** Histogram bucket upper bounds in seconds (the +Inf bucket is the count). */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10] as const;

/**
 * Every status the service answers with, plus 499 for a client that went away before its answer (nginx's
 * convention); any other status is counted as `other`.
 */
export const STATUSES = [200, 201, 202, 204, 206, 301, 302, 304, 400, 401, 403, 404, 405, 406, 409, 411, 413, 414, 415, 422, 429, 431, 499, 500, 501, 502, 503, 504] as const;
const OTHER_STATUS = STATUSES.length;
const STATUS_SLOTS = STATUSES.length + 1;
const STATUS_SLOT = new Uint8Array(600).fill(OTHER_STATUS);
STATUSES.forEach((status, slot) => (STATUS_SLOT[status] = slot));

/** Where a request came in: the REST API, the MCP endpoint, or the rest (pages, dumps, documents). */
export type Interface = 'rest' | 'mcp' | 'web';

/** Operations per thread: each route (HEAD counts with GET), plus unrouted and preflight; 41 in use at the time of writing. */
export const MAX_OPERATIONS = 96;
const CELL = 2 + LATENCY_BUCKETS.length;
const NAMES_BYTES = 8192;
// [names length (Int32)] [names text] [cells]
const NAMES_OFFSET = 8;
const CELLS_OFFSET = NAMES_OFFSET + NAMES_BYTES;
const BLOCK_BYTES = CELLS_OFFSET + MAX_OPERATIONS * STATUS_SLOTS * CELL * 8;

/** One operation × status series, as read at a scrape. */
export interface RequestSeries {
  operation: string;
  interface: Interface;
  /** A status code, or 'other'. */
  status: string;
  count: number;
  sumSeconds: number;
  /** Cumulative counts per LATENCY_BUCKETS bound. */
  buckets: number[];
}

export class RequestMetrics {
  private readonly header: Int32Array;
  private readonly names: Uint8Array;
  private readonly cells: Float64Array;
  private readonly operations: string[];

  /** A new block, or the block of a thread this one replaces (its names and counts go on). */
  constructor(readonly block: SharedArrayBuffer = new SharedArrayBuffer(BLOCK_BYTES)) {
    if (block.byteLength !== BLOCK_BYTES) throw new RangeError('a request metrics block of another layout');
    this.header = new Int32Array(block, 0, 2);
    this.names = new Uint8Array(block, NAMES_OFFSET, NAMES_BYTES);
    this.cells = new Float64Array(block, CELLS_OFFSET);
    this.operations = readNames(this.header, this.names).map(([name]) => name);
  }

  /** The slot of an operation, added on first use (at route registration, never per request). */
  operation(name: string, where: Interface): number {
    const known = this.operations.indexOf(name);
    if (known >= 0) return known;
    if (this.operations.length === MAX_OPERATIONS) throw new RangeError(`more than ${MAX_OPERATIONS} operations to count: raise MAX_OPERATIONS`);
    const line = new TextEncoder().encode(`${name}\t${where}\n`);
    const length = this.header[0];
    if (length + line.byteLength > NAMES_BYTES) throw new RangeError('operation names overflow the metrics block');
    this.names.set(line, length);
    Atomics.store(this.header, 0, length + line.byteLength); // published once written
    this.operations.push(name);
    return this.operations.length - 1;
  }

  /** One answered request (the hot path: a handful of array updates). */
  record(operation: number, status: number, seconds: number): void {
    const cell = (operation * STATUS_SLOTS + (status < 600 ? STATUS_SLOT[status] : OTHER_STATUS)) * CELL;
    const cells = this.cells;
    cells[cell]++;
    cells[cell + 1] += seconds;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]) bucket++;
    if (bucket < LATENCY_BUCKETS.length) cells[cell + 2 + bucket]++;
  }
}

/** The series of a block with at least one request (any thread may read any block). */
export function readRequestSeries(block: SharedArrayBuffer): RequestSeries[] {
  const header = new Int32Array(block, 0, 2);
  const cells = new Float64Array(block, CELLS_OFFSET);
  const series: RequestSeries[] = [];
  readNames(header, new Uint8Array(block, NAMES_OFFSET, NAMES_BYTES)).forEach(([operation, where], index) => {
    for (let slot = 0; slot < STATUS_SLOTS; slot++) {
      const cell = (index * STATUS_SLOTS + slot) * CELL;
      const count = cells[cell];
      if (count === 0) continue;
      let cumulative = 0;
      const buckets = LATENCY_BUCKETS.map((_bound, bucket) => (cumulative += cells[cell + 2 + bucket]));
      series.push({ operation, interface: where as Interface, status: slot === OTHER_STATUS ? 'other' : String(STATUSES[slot]), count, sumSeconds: cells[cell + 1], buckets });
    }
  });
  return series;
}

function readNames(header: Int32Array, names: Uint8Array): [string, string][] {
  const text = new TextDecoder().decode(names.subarray(0, Atomics.load(header, 0)));
  return text === '' ? [] : text.slice(0, -1).split('\n').map((line) => line.split('\t') as [string, string]);
}
