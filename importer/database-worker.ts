// Worker-thread entry: owns the SQLite connection of the database being written. Toilet rows arrive from each
// decoder thread on its own port and are inserted as they come, so inserting overlaps decoding; the main
// thread's requests (see database-writer.ts) run one after another, some waiting for the decoders.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { BulkInsert } from './bulk-insert.js';
import { ToiletColumnsBuilder } from './toilet-columns.js';
import { carryIdMoves } from './id-moves.js';
import { writeToiletColumns } from '../src/source/columns.js';
import { fillToiletParams, TOILET_COLUMNS, TOILET_PLACEHOLDERS, type ToiletRows } from './toilet-rows.js';
import { FAILED, IN_FLIGHT, type DecoderMessage, type WriterReply, type WriterRequest, type WriterSetup } from './database-protocol.js';

const port = parentPort;
if (!port) throw new Error('database-worker.js must run as a worker thread');
const setup = workerData as WriterSetup;

/** The first failure; every later request is answered with it. */
let failure: unknown = null;
/** Null when opening failed (then `failure` says why, and no request reaches the database). */
const db = open();
// Prepared on first use: the tables exist once the main thread has sent the schema.
let toilets: BulkInsert | null = null;
/** The same rows again, collected for the column store (writeColumns). */
const columns = new ToiletColumnsBuilder();

function open(): Database.Database | null {
  try {
    const opened = new Database(setup.path);
    // No rollback journal: a failed import deletes the whole file, so there is nothing to roll back to.
    // better-sqlite3 opens connections in SQLite's defensive mode, which refuses journal_mode OFF (it stays
    // DELETE, silently): lifted for this pragma only.
    opened.unsafeMode(true);
    opened.pragma('journal_mode = OFF');
    opened.unsafeMode(false);
    opened.pragma('synchronous = OFF');
    opened.pragma(`cache_size = -${setup.cacheKiB}`);
    return opened;
  } catch (error) {
    failure = error;
    return null;
  }
}
const decoders: { state: Int32Array; marked: boolean; ended: boolean }[] = [];
const requests: WriterRequest[] = [];

function insertToilets(rows: ToiletRows): void {
  toilets ??= new BulkInsert(db!, 'toilets', TOILET_COLUMNS, TOILET_PLACEHOLDERS);
  toilets.run(rows.count, (params, at, row) => fillToiletParams(params, at, rows, row));
  columns.add(rows);
}

function fail(error: unknown): void {
  failure ??= error;
  // Decoders waiting for room must stop rather than wait forever.
  for (const decoder of decoders) {
    Atomics.store(decoder.state, FAILED, 1);
    Atomics.notify(decoder.state, IN_FLIGHT);
  }
}

function connect(decoderPort: MessagePort, state: Int32Array): void {
  const decoder = { state, marked: false, ended: false };
  decoders.push(decoder);
  if (failure !== null) Atomics.store(state, FAILED, 1);
  decoderPort.on('message', (message: DecoderMessage) => {
    if (message.kind === 'rows') {
      try {
        if (failure === null) insertToilets(message.rows);
      } catch (error) {
        fail(error);
      } finally {
        Atomics.sub(state, IN_FLIGHT, 1);
        Atomics.notify(state, IN_FLIGHT);
      }
      return;
    }
    decoder.marked = true;
    if (message.kind === 'end') {
      decoder.ended = true;
      decoderPort.close();
    }
    runRequests();
  });
}

/** What a request answers, or WAIT when it must wait for the decoders. */
const WAIT = Symbol('wait');

/** Runs a request; only 'connect' runs after a failure, so the database is open for the others. */
function answer(request: WriterRequest): unknown {
  const database = db!;
  switch (request.op) {
    case 'connect':
      return connect(request.port, new Int32Array(request.state));
    case 'exec':
      return void database.exec(request.sql);
    case 'runEach': {
      const statement = database.prepare(request.sql);
      for (const params of request.params) statement.run(...params);
      return undefined;
    }
    case 'all':
      return database.prepare(request.sql).all(...request.params);
    case 'insertRows': {
      const { values, columns } = request;
      new BulkInsert(database, request.table, columns).run(values[0]?.length ?? 0, (params, at, row) => {
        for (let c = 0; c < columns.length; c++) params[at + c] = values[c][row];
      });
      return undefined;
    }
    case 'carryIdMoves':
      return carryIdMoves(database, request.livePath, request.movedAt);
    case 'writeColumns':
      return void writeToiletColumns(database, columns.blobs(new Set(request.dropIds)));
    case 'decodersMarked':
      return decoders.every((d) => d.marked) ? undefined : WAIT;
    case 'decodersDone':
      return decoders.every((d) => d.ended) ? undefined : WAIT;
    case 'close':
      database.close();
      return undefined;
  }
}

function reply(id: number, outcome: { value: unknown } | { error: unknown }): void {
  if ('error' in outcome) {
    const error = outcome.error as { message?: string; code?: unknown };
    port!.postMessage({ id, error: { message: error.message ?? String(outcome.error), code: typeof error.code === 'string' ? error.code : undefined } } satisfies WriterReply);
  } else {
    port!.postMessage({ id, value: outcome.value } satisfies WriterReply);
  }
}

/** Runs queued requests in order, stopping at one that waits for the decoders. */
function runRequests(): void {
  while (requests.length > 0) {
    const request = requests[0];
    if (failure !== null && request.op !== 'connect') {
      requests.shift();
      reply(request.id, { error: failure });
      continue;
    }
    let value: unknown;
    try {
      value = answer(request);
    } catch (error) {
      fail(error);
      requests.shift();
      reply(request.id, { error });
      continue;
    }
    if (value === WAIT) return;
    requests.shift();
    reply(request.id, { value });
    if (request.op === 'close') port!.close(); // nothing else keeps the thread alive: it exits
  }
}

port.on('message', (request: WriterRequest) => {
  requests.push(request);
  runRequests();
});
