// Hot reload: the source database replaced under a stream of concurrent requests (renamed over the live
// file, then re-imported in place by the importer), and the SIGHUP reload with the area cache it drops.
// Every answer must come whole from one data set.
import assert from 'node:assert/strict';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../src/log.js';
import { importedCopy, importInto, readSourceToilets, serve, tempDir, type Served } from './support.js';

type DataSet = 'porto' | 'monaco';

/** Between Porto and Monaco, with a search radius that reaches both: either data set fills a limit of 20. */
const FAR_NEAREST = '/api/v1/toilets/nearest?lat=42.5&lon=0&limit=20';
const REACH_BOTH = { NEAREST_MAX_DISTANCE_M: '3000000' };
const WORKERS = 8;
/**
 * Only against a hang (a reload that never lands): no check of how fast it lands, which a loaded machine
 * would fail. It normally lands within a few hundred milliseconds.
 */
const HANG_GUARD = { timeout: 300_000 };

/** Resolves once `done()` holds (the test's timeout ends a wait that never does). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await sleep(5);
}

describe('reload under concurrent requests', () => {
  const dir = tempDir();
  const live = join(dir.path, 'toilets.db');
  const staged = join(dir.path, 'porto.db');
  const idsOf: Record<DataSet, Set<string>> = { porto: new Set(), monaco: new Set() };
  let s: Served;

  // Monaco first, so the importer below writes the smaller extract in place (the subject is the swap).
  before(async () => {
    await importedCopy('monaco', live);
    await importedCopy('porto', staged);
    idsOf.monaco = new Set(readSourceToilets(live).map((t) => t.id));
    idsOf.porto = new Set(readSourceToilets(staged).map((t) => t.id));
    s = await serve({ db: live, watch: true, env: REACH_BOTH });
  });
  after(async () => {
    await s?.close(); // undefined when before() failed; the folder still goes
    dir.remove();
  });

  /**
   * Runs WORKERS loops of requests while `swap` replaces the data: each loop alternates a nearest search
   * (classified by the data set its ids come from) and getToilet of an id from either set. Returns the
   * data sets each loop saw, in order, and every failure.
   */
  async function underLoad(from: DataSet, to: DataSet, swap: () => Promise<void> | void) {
    const seenBy: DataSet[][] = Array.from({ length: WORKERS }, () => []);
    const failures: string[] = [];
    /** Every loop has had at least 10 answers from `set`. */
    const allSaw = (set: DataSet) => seenBy.every((seen) => seen.filter((d) => d === set).length >= 10);
    const sampleIds = [...idsOf.porto].slice(0, 3).concat([...idsOf.monaco].slice(0, 3));
    let stop = false;
    const loop = async (seen: DataSet[]) => {
      for (let i = 0; !stop; i++) {
        try {
          const near = await s.call(FAR_NEAREST);
          assert.equal(near.status, 200);
          const ids: string[] = near.json.results.map((r: { id: string }) => r.id);
          assert.equal(ids.length, 20);
          const set = (['porto', 'monaco'] as const).find((name) => ids.every((id) => idsOf[name].has(id)));
          assert.ok(set, `an answer mixes data sets: ${ids.join(' ')}`);
          seen.push(set);
          const one = await s.call(`/api/v1/toilets/${sampleIds[i % sampleIds.length]}`);
          assert.ok(one.status === 200 || one.status === 404, `getToilet answered ${one.status}`);
        } catch (error) {
          failures.push((error as Error).message);
          stop = true;
        }
      }
    };
    const running = Promise.all(seenBy.map(loop));
    try {
      await until(() => allSaw(from) || failures.length > 0);
      await swap();
      await until(() => allSaw(to) || failures.length > 0);
    } finally {
      stop = true;
      await running;
    }
    return { seenBy, failures };
  }

  function assertSwitchedOnce(seenBy: DataSet[][], from: DataSet, to: DataSet): void {
    for (const seen of seenBy) {
      const first = seen.indexOf(to);
      assert.ok(seen.length > 0 && seen[0] === from, 'each loop started on the old data');
      assert.ok(first > 0 && seen.slice(first).every((d) => d === to), `once a loop saw ${to} it never saw ${from} again`);
    }
  }

  test('a database renamed over the live file is picked up while requests run; no answer fails or mixes data', HANG_GUARD, async () => {
    const { seenBy, failures } = await underLoad('monaco', 'porto', () => renameSync(staged, live));
    assert.deepEqual(failures, []);
    assertSwitchedOnce(seenBy, 'monaco', 'porto');
    const gone = await s.call(`/api/v1/toilets/${[...idsOf.monaco][0]}`);
    assert.equal(gone.status, 404, 'a Monaco toilet is gone with the Monaco data');
    const here = await s.call(`/api/v1/toilets/${[...idsOf.porto][0]}`);
    assert.equal(here.status, 200);
  });

  test('the importer writing the live path in place swaps atomically while requests run', HANG_GUARD, async () => {
    const { seenBy, failures } = await underLoad('porto', 'monaco', () => importInto('monaco', live));
    assert.deepEqual(failures, []);
    assertSwitchedOnce(seenBy, 'porto', 'monaco');
  });
});

describe('SIGHUP reload and the area cache', () => {
  const dir = tempDir();
  const live = join(dir.path, 'toilets.db');
  const staged = join(dir.path, 'monaco.db');
  const PORTO_BOX = '/api/v1/toilets?bbox=-8.63,41.13,-8.58,41.16&limit=200';
  const MONACO_BOX = '/api/v1/toilets?bbox=7.40,43.72,7.44,43.76&limit=200';
  /** 09:58 in Porto (WEST), then 3 minutes later: within the cache lifetime, across an opening time. */
  const BEFORE_OPENING = Date.parse('2024-06-05T08:58:00Z');
  const AFTER_OPENING = Date.parse('2024-06-05T09:01:00Z');
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const log: Logger = {
    info: (message, fields) => lines.push({ level: 'info', message, fields }),
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
  };
  let nowMs = BEFORE_OPENING;
  let s: Served;
  let monacoIds: Set<string>;

  before(async () => {
    await importedCopy('porto', live);
    await importedCopy('monaco', staged);
    monacoIds = new Set(readSourceToilets(staged).map((t) => t.id));
    s = await serve({ db: live, now: () => nowMs, log, env: { ...REACH_BOTH, AREA_CACHE_SECONDS: '300' } });
  });
  after(async () => {
    await s?.close(); // undefined when before() failed; the folder still goes
    dir.remove();
  });

  const openNowById = async (path: string) => {
    const answer = await s.call(path);
    return new Map<string, unknown>(answer.json.results.map((r: { id: string; open_now: unknown }) => [r.id, r.open_now]));
  };

  test('area answers are cached until the catalog reloads, and SIGHUP reloads even an unchanged file', async () => {
    const cachedBefore = await openNowById(PORTO_BOX);
    nowMs = AFTER_OPENING;
    const opened: string[] = [];
    for (const [id, openNow] of cachedBefore) {
      const now = (await s.call(`/api/v1/toilets/${id}`)).json.toilet.open_now;
      if (openNow === false && now === true) opened.push(id);
    }
    assert.ok(opened.length > 0, 'precondition: a toilet opens between the two clock readings');
    assert.deepEqual(await openNowById(PORTO_BOX), cachedBefore, 'within AREA_CACHE_SECONDS the cached answer is served');

    s.app.catalog.reload('SIGHUP');
    assert.deepEqual(lines.at(-1), { level: 'info', message: 'source reloaded', fields: { reason: 'SIGHUP', toilets: cachedBefore.size, loadMs: lines.at(-1)!.fields!.loadMs, dataAsOf: '2020-07-20T10:27:03.000Z' } });
    const fresh = await openNowById(PORTO_BOX);
    for (const id of opened) assert.equal(fresh.get(id), true, `${id} shows open after the reload dropped the cache`);
  });

  test('a replaced file is not served until SIGHUP (nothing watches here); then the new data is', async () => {
    renameSync(staged, live);
    const stale = await s.call(FAR_NEAREST);
    assert.ok(stale.json.results.every((r: { id: string }) => !monacoIds.has(r.id)), 'still the Porto data');
    assert.ok((await openNowById(PORTO_BOX)).size > 0);

    s.app.catalog.reload('SIGHUP');
    assert.equal(lines.at(-1)!.message, 'source reloaded');
    assert.equal(lines.at(-1)!.fields!.toilets, monacoIds.size);
    const near = await s.call(FAR_NEAREST);
    assert.ok(near.json.results.every((r: { id: string }) => monacoIds.has(r.id)), 'the Monaco data');
    assert.equal((await openNowById(PORTO_BOX)).size, 0, 'the cached Porto box was dropped');
    assert.deepEqual(new Set((await openNowById(MONACO_BOX)).keys()), monacoIds);
  });

  test('a broken replacement is refused: the reload logs why and the previous data stays', async () => {
    const broken = join(dir.path, 'broken.db');
    writeFileSync(broken, 'this is not an SQLite database, whatever its name says');
    renameSync(broken, live);
    const logged = lines.length;
    s.app.catalog.reload('SIGHUP');
    assert.equal(lines.length, logged + 1);
    assert.equal(lines.at(-1)!.level, 'error');
    assert.equal(lines.at(-1)!.message, 'source reload failed; still serving the previous data');
    const near = await s.call(FAR_NEAREST);
    assert.equal(near.json.results.length, 20);
    assert.ok(near.json.results.every((r: { id: string }) => monacoIds.has(r.id)), 'still the Monaco data');
  });

  test('a source file that is deleted keeps the data in use, with an error logged, until a new one comes', async () => {
    rmSync(live);
    const logged = lines.length;
    s.app.catalog.reload('SIGHUP');
    assert.deepEqual(lines.slice(logged), [
      { level: 'error', message: 'the source database is gone; still serving the previous data until an import writes a new one', fields: { reason: 'SIGHUP', path: live } },
    ]);
    const near = await s.call(FAR_NEAREST);
    assert.ok(near.json.results.length === 20 && near.json.results.every((r: { id: string }) => monacoIds.has(r.id)), 'still the Monaco data');
    await importedCopy('porto', live);
    s.app.catalog.reload('SIGHUP');
    assert.equal(lines.at(-1)!.message, 'source reloaded');
    const back = await s.call(FAR_NEAREST);
    assert.ok(back.json.results.every((r: { id: string }) => !monacoIds.has(r.id)), 'the new Porto data');
  });
});
