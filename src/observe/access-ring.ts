// One server thread's access-log records: a fixed-size binary record per logged request in a ring in
// shared memory, written by that thread on the request path (a few typed-array stores, no string made)
// and read by the main thread's access-log writer (access-log.ts), which formats the JSON lines off the
// request path. One writer, one reader, so two index words suffice: the writer publishes a record by
// storing the new write count after filling it, the reader frees records by storing its read count.
//
// When the ring is full (the reader is behind by RING_RECORDS lines), the request's record is dropped and
// counted, never waited for: a request is never held up by its log line. The writer says how many were
// dropped in a `warn` line and /metrics counts them (toilet_finder_access_log_dropped_total).
//
// The ring outlives its thread, like the metrics block (request-metrics.ts): a read thread that is replaced
// writes on where its predecessor stopped. Operation and method names are appended once to a text area
// ("name\n" each) published by a length word, as the metrics block keeps its operation names.

/** Records per ring: at 50 ms between reads, room for 160,000 logged requests a second on one thread. */
export const RING_RECORDS = 8192;
const RECORD_BYTES = 80;
/** The client address as text (canonical IPv4, or an IPv6 /64 prefix), at most this long; longer is cut. */
const CLIENT_CHARS = RECORD_BYTES - 26;
const NAMES_BYTES = 8192;
const MAX_NAMES = 256;
// [write count, read count, dropped count, names length] (Int32), names text, records
const HEADER_BYTES = 16;
const RECORDS_OFFSET = HEADER_BYTES + NAMES_BYTES;
const RING_BYTES = RECORDS_OFFSET + RING_RECORDS * RECORD_BYTES;
const WRITE = 0;
const READ = 1;
const DROPPED = 2;
const NAMES_LENGTH = 3;

/** One request's record, as the reader gets it (reused between records: copy what is kept). */
export interface AccessRecord {
  timeMs: number;
  durationMs: number;
  bytes: number;
  status: number;
  /** The operation and method names as JSON strings (quoted once per name). */
  operation: string;
  method: string;
  /** The client address, or null when none was recorded. */
  client: string | null;
}

export class AccessRing {
  private readonly header: Int32Array;
  private readonly names: Uint8Array;
  private readonly f64: Float64Array;
  private readonly u32: Uint32Array;
  private readonly u16: Uint16Array;
  private readonly u8: Uint8Array;
  /** The names this side knows, by slot, also as JSON strings; and (writer) slots by name. */
  private readonly known: string[] = [];
  private readonly quoted: string[] = [];
  private readonly slots = new Map<string, number>();
  /** Bytes of the names area this side has read. */
  private namesRead = -1;
  private readonly record: AccessRecord = { timeMs: 0, durationMs: 0, bytes: 0, status: 0, operation: '', method: '', client: null };

  /** A new ring, or the ring of a thread this one replaces (its names and counts go on). */
  constructor(readonly shared: SharedArrayBuffer = new SharedArrayBuffer(RING_BYTES)) {
    if (shared.byteLength !== RING_BYTES) throw new RangeError('an access-log ring of another layout');
    this.header = new Int32Array(shared, 0, 4);
    this.names = new Uint8Array(shared, HEADER_BYTES, NAMES_BYTES);
    this.f64 = new Float64Array(shared, RECORDS_OFFSET);
    this.u32 = new Uint32Array(shared, RECORDS_OFFSET);
    this.u16 = new Uint16Array(shared, RECORDS_OFFSET);
    this.u8 = new Uint8Array(shared, RECORDS_OFFSET);
    this.readNames();
    this.known.forEach((name, slot) => this.slots.set(name, slot));
  }

  /** The slot of a name (an operation or a method), added on first use. */
  slot(name: string): number {
    const known = this.slots.get(name);
    if (known !== undefined) return known;
    if (this.known.length === MAX_NAMES) throw new RangeError(`more than ${MAX_NAMES} names in the access-log ring`);
    const line = new TextEncoder().encode(`${name}\n`);
    const length = this.header[NAMES_LENGTH];
    if (length + line.byteLength > NAMES_BYTES) throw new RangeError('names overflow the access-log ring');
    this.names.set(line, length);
    Atomics.store(this.header, NAMES_LENGTH, length + line.byteLength); // published once written
    this.slots.set(name, this.known.length);
    this.known.push(name);
    return this.known.length - 1;
  }

  /** Writes one request's record (the request path), or counts it dropped when the ring is full. */
  write(timeMs: number, durationMs: number, bytes: number, status: number, operation: number, method: number, client: string | null): void {
    const header = this.header;
    const written = header[WRITE];
    if (((written - Atomics.load(header, READ)) | 0) >= RING_RECORDS) {
      Atomics.add(header, DROPPED, 1);
      return;
    }
    const at = (written & (RING_RECORDS - 1)) * RECORD_BYTES;
    this.f64[at >> 3] = timeMs;
    this.f64[(at >> 3) + 1] = durationMs;
    this.u32[(at >> 2) + 4] = bytes;
    this.u16[(at >> 1) + 10] = status;
    this.u16[(at >> 1) + 11] = operation;
    const u8 = this.u8;
    u8[at + 24] = method;
    const chars = client === null ? 0 : Math.min(client.length, CLIENT_CHARS);
    u8[at + 25] = chars;
    for (let i = 0; i < chars; i++) u8[at + 26 + i] = client!.charCodeAt(i);
    Atomics.store(header, WRITE, (written + 1) | 0);
  }

  /** Records dropped so far because the ring was full. */
  dropped(): number {
    return Atomics.load(this.header, DROPPED);
  }

  /** Hands every record written since the last read to `visit`, oldest first, then frees them. */
  read(visit: (record: AccessRecord) => void): void {
    const header = this.header;
    const written = Atomics.load(header, WRITE);
    let read = header[READ];
    if (read === written) return;
    this.readNames();
    const r = this.record;
    for (; read !== written; read = (read + 1) | 0) {
      const at = (read & (RING_RECORDS - 1)) * RECORD_BYTES;
      r.timeMs = this.f64[at >> 3];
      r.durationMs = this.f64[(at >> 3) + 1];
      r.bytes = this.u32[(at >> 2) + 4];
      r.status = this.u16[(at >> 1) + 10];
      r.operation = this.quoted[this.u16[(at >> 1) + 11]];
      r.method = this.quoted[this.u8[at + 24]];
      const chars = this.u8[at + 25];
      r.client = chars === 0 ? null : String.fromCharCode(...this.u8.subarray(at + 26, at + 26 + chars));
      visit(r);
    }
    Atomics.store(header, READ, read);
  }

  private readNames(): void {
    const length = Atomics.load(this.header, NAMES_LENGTH);
    if (length === this.namesRead) return;
    const text = new TextDecoder().decode(this.names.slice(0, length));
    const names = text === '' ? [] : text.slice(0, -1).split('\n');
    for (let slot = this.known.length; slot < names.length; slot++) this.known.push(names[slot]);
    for (let slot = this.quoted.length; slot < this.known.length; slot++) this.quoted.push(JSON.stringify(this.known[slot]));
    this.namesRead = length;
  }
}
