// `npm start` with TOILETS_EXTRACT: the real main.js imports the extract before serving when the source
// database is missing or was written by an older version of the service (whose layout it cannot read),
// and serves an up-to-date one as it is. A log stream whose reader goes away costs log lines, not the service.
// Why a start fails is checked in this process (serve.ts, what main.js runs), its exit code and line once
// in a main.js of its own.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { osmExtract } from '../support/paths.js';
import { importedCopy } from '../support/extracts.js';
import { jsonLogger } from '../../src/log.js';
import { serve, startFailedMessage } from '../../src/serve.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tf-start-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

interface Serving {
  message: 'serving';
  port: number;
  toilets: number;
  modules_ms: number;
  load_ms: number;
  parts: Record<string, number>;
}

/**
 * Environment of every main.js here: loopback, an ephemeral port, and one HTTP thread (read threads are not
 * what these tests are about, and each costs a module load and a snapshot; the shutdown test below keeps the
 * default, as npm start has it).
 */
const MAIN_ENV = { PORT: '0', HOST: '127.0.0.1', HTTP_THREADS: '1' };

interface Launched {
  child: ChildProcess;
  messages: string[];
  toilets: number;
  serving: Serving;
}

/** Runs main.js until it serves and returns it serving, with its log messages up to its "serving" line. */
async function launch(db: string): Promise<Launched> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, ...MAIN_ENV, TOILETS_DB: db, OVERLAY_DB: join(dir, 'overlay.db'), TOILETS_EXTRACT: osmExtract('monaco') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const messages: string[] = [];
  try {
    for await (const line of createInterface({ input: child.stdout! })) {
      const entry = JSON.parse(line) as { message: string } | Serving;
      messages.push(entry.message);
      if (entry.message === 'serving') return { child, messages, toilets: (entry as Serving).toilets, serving: entry as Serving };
    }
    throw new Error(`main.js exited before serving: ${messages.join(' | ')}; stderr: ${stderr}`);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
}

/** Runs main.js until it serves; returns its log messages, the toilets it serves and its "serving" line. */
async function start(db: string): Promise<Omit<Launched, 'child'>> {
  const { child, ...started } = await launch(db);
  child.kill('SIGTERM');
  return started;
}

test('a missing source database is imported from TOILETS_EXTRACT before serving', async () => {
  const { messages, toilets, serving } = await start(join(dir, 'toilets.db'));
  assert.ok(messages.some((m) => m.startsWith('no toilets yet: importing TOILETS_EXTRACT')), messages.join(' | '));
  assert.equal(toilets, 29);
  // the start-up figures the bench reports, each part of it
  assert.ok(Number.isInteger(serving.modules_ms) && serving.modules_ms > 0, 'modules_ms');
  assert.deepEqual(Object.keys(serving.parts), ['toilets_ms', 'places_ms', 'threads_ms']);
  for (const ms of [serving.load_ms, ...Object.values(serving.parts)]) assert.ok(Number.isInteger(ms) && ms >= 0, JSON.stringify(serving));
});

/** The port main.js says it serves on (it fails when the process ends before saying so). */
async function servingPort(child: ChildProcess): Promise<number> {
  for await (const line of createInterface({ input: child.stdout! })) {
    const entry = JSON.parse(line) as { message: string; port?: number };
    if (entry.message === 'serving') return entry.port!;
  }
  throw new Error('main.js ended before serving');
}

/** Runs main.js expecting it to fail: asserts exit code 1 and returns the message of its last log line. */
async function failedStart(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, ...MAIN_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let served = false;
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if ((JSON.parse(line) as { message: string }).message !== 'serving') return;
    served = true;
    child.kill('SIGTERM');
  });
  const [code] = await once(child, 'exit');
  assert.ok(!served, 'it started serving');
  assert.equal(code, 1, stderr);
  return (JSON.parse(stderr.trim().split('\n').at(-1)!) as { message: string }).message;
}

/** Runs serve() here expecting it to fail: returns the message of the start-failed line main.js would log. */
async function failedServe(env: Record<string, string>): Promise<string> {
  let message = '';
  await assert.rejects(
    serve({ ...process.env, ...MAIN_ENV, ...env }, () => jsonLogger(sink(false), sink(false))),
    (error) => ((message = startFailedMessage(error)), true),
  );
  return message;
}

test('a first-start import that fails says why in the start-failed line and leaves nothing behind', async () => {
  const folder = mkdtempSync(join(dir, 'unreachable-'));
  const message = await failedServe({ TOILETS_DB: join(folder, 'toilets.db'), OVERLAY_DB: join(folder, 'overlay.db'), TOILETS_EXTRACT: 'http://127.0.0.1:9/region.osm.pbf' });
  assert.match(message, /^start failed: cannot download http:\/\/127\.0\.0\.1:9\/region\.osm\.pbf: /);
  assert.deepEqual(readdirSync(folder), [], 'no download or database left');
});

test('a source database that is not one (no TOILETS_EXTRACT to import from) is named in the start-failed line, and main.js exits 1', async () => {
  const folder = mkdtempSync(join(dir, 'garbage-'));
  const db = join(folder, 'toilets.db');
  writeFileSync(db, 'copied by hand, not written by the importer\n'.repeat(200));
  const message = await failedStart({ TOILETS_DB: db, OVERLAY_DB: join(folder, 'overlay.db'), TOILETS_EXTRACT: '' });
  assert.equal(message, `start failed: cannot read the source database ${db}: file is not a database; run \`npm run import\` to write it again`);
});

test('a current source database is served as it is; a second server on a port the first listens on refuses to start (they would share its connections)', async () => {
  const db = join(dir, 'toilets.db');
  const first = await launch(db);
  try {
    assert.ok(!first.messages.some((m) => m.includes('importing')), `current: no import: ${first.messages.join(' | ')}`);
    assert.equal(first.toilets, 29);
    const port = first.serving.port;
    const message = await failedServe({ PORT: String(port), TOILETS_DB: db, OVERLAY_DB: join(dir, 'overlay.db') });
    assert.equal(message, `start failed: port ${port} on 127.0.0.1 is in use (another instance of this server?); stop what listens there or set PORT to another port`);
    assert.equal((await fetch(`http://127.0.0.1:${port}/api/v1/toilets/nearest?lat=43.73&lon=7.42`)).status, 200, 'the first one still answers');
  } finally {
    first.child.kill('SIGTERM');
    await once(first.child, 'exit');
  }
});

test('a HOST that is no address of this machine is named in the start-failed line', async () => {
  const message = await failedServe({ HOST: '192.0.2.1', TOILETS_DB: join(dir, 'toilets.db'), OVERLAY_DB: join(dir, 'overlay.db') });
  assert.match(message, /^start failed: cannot listen on HOST=192\.0\.2\.1 PORT=0: listen EADDRNOTAVAIL/);
});

test('a source database of an older layout is imported again', async () => {
  const db = join(dir, 'toilets.db');
  const source = new Database(db);
  source.prepare(`UPDATE meta SET value = '1' WHERE key = 'schema_version'`).run();
  source.close();
  const { messages, toilets } = await start(db);
  assert.ok(messages.some((m) => m.startsWith('the source database has layout version 1, this server reads')), messages.join(' | '));
  assert.equal(toilets, 29);
});

/** A stream that takes what is written to it, or fails every write as a pipe without a reader does. */
function sink(fails: boolean): Writable & { lines: () => { level: string; message: string }[] } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      if (fails) return done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      text += String(chunk);
      done();
    },
  });
  return Object.assign(stream, { lines: () => text.split('\n').filter(Boolean).map((line) => JSON.parse(line)) });
}

test('a log stream that fails is left alone, and its failure said once on the other', async () => {
  const out = sink(true);
  const err = sink(false);
  const log = jsonLogger(out, err);
  log.info('first');
  await new Promise((resolve) => out.on('close', resolve)); // its error has been emitted
  log.info('second');
  log.error('still heard');
  assert.deepEqual(
    err.lines().map(({ level, message }) => ({ level, message })),
    [
      { level: 'error', message: 'writing the log to its stream failed; its further lines are dropped' },
      { level: 'error', message: 'still heard' },
    ],
  );
});

test('the server takes signals once it says it is serving, and keeps serving and shuts down gracefully when its stdout reader goes away', async () => {
  const db = join(dir, 'toilets.db');
  if (!existsSync(db)) await importedCopy('monaco', db); // when this test runs alone
  // HTTP_THREADS as npm start has it by default: the read threads, too, end with SIGTERM
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', TOILETS_DB: db, OVERLAY_DB: join(dir, 'overlay.db') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const exited = once(child, 'exit');
  /** Resolves once stderr matches `pattern` (or the process has ended: the checks below then say what is missing). */
  const said = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      const look = () => pattern.test(stderr) && resolve();
      child.stderr!.on('data', look);
      void exited.then(() => resolve());
      look();
    });
  const port = await servingPort(child);
  child.stdout!.destroy(); // the reader goes away: the server's next line on stdout fails with EPIPE
  child.kill('SIGHUP'); // a reload, logged on stdout; sent at once, as the signal handlers are in place before "serving"
  await said(/writing the log to stdout failed/); // the reload's line met the closed pipe
  const answer = await fetch(`http://127.0.0.1:${port}/api/v1/toilets/nearest?lat=43.73&lon=7.42`);
  assert.equal(answer.status, 200);
  child.kill('SIGTERM');
  const [code, signal] = await exited;
  assert.deepEqual({ code, signal }, { code: 0, signal: null }, stderr);
  assert.match(stderr, /writing the log to stdout failed; its further lines are dropped/);
  assert.doesNotMatch(stderr, /Unhandled|Assertion failed/);
});
