// The Plus tier's monthly figures (src/partners/figures.ts) through the real server: with two HTTP threads
// every request is a connection of its own, so the read thread and the main thread both answer, and each
// answer that showed the Plus listing's partner object (nearest, area, area from the cache) or opened its
// toilet (getToilet, the toilet's page) is counted once, whichever thread answered; shutdown folds the
// counts into the accounts database. With an injected clock: a restart in the next month keeps the earlier
// month, a fold never counts twice, MCP's get_toilet and find_toilets_near count, Basic and no plan get
// `figures: null`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { Clock, importedData, readSourceToilets, serviceClient, TEST_ENV, type Data, type Service } from '../community/support.js';
import { startAccountsService } from '../accounts/support.js';
import { CLIENT_KINDS } from '../mcp/support.js';
import { fresh, serve } from '../support/server.js';
import { runningListing } from './support.js';

interface Figure {
  month: string;
  shown: number;
  opened: number;
}

async function figuresOf(listed: Awaited<ReturnType<typeof runningListing>>): Promise<Figure[] | null> {
  const answer = await listed.browser.request('GET', '/partner/listings');
  assert.equal(answer.status, 200);
  return answer.json.listings.find((l: { id: string }) => l.id === listed.listing).figures;
}

function storedFigures(path: string, listing: string): Figure[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT month, shown, opened FROM partner_listing_figures WHERE listing_id = ? ORDER BY month').all(listing) as Figure[];
  } finally {
    db.close();
  }
}

test('two threads: every answer showing or opening a Plus listing counts once, whichever thread answered', async () => {
  const data = await importedData('liechtenstein');
  try {
    const { app, port, origin, close } = await serve({ db: data.toiletsDb, overlayDb: data.overlayDb, env: { ...TEST_ENV, HTTP_THREADS: '2' }, now: null });
    let closed = false;
    try {
      const service: Service = { app, url: origin, clock: new Clock(0), ...serviceClient(origin), close };
      const [plusToilet, basicToilet] = readSourceToilets(data.toiletsDb);
      const plus = await runningListing(service, plusToilet.id, 'Plus Cafe', '198.51.100.31', 'plus');
      const basic = await runningListing(service, basicToilet.id, 'Basic Bar', '198.51.100.32', 'basic');
      await app.threads!.counts(); // answered after every message sent before it: the read thread has the listings
      const month = new Date().toISOString().slice(0, 7);
      const before = await figuresOf(plus);
      assert.equal(before!.length, 13);
      assert.deepEqual(before![0], { month, shown: 0, opened: 0 });
      assert.equal(await figuresOf(basic), null, 'Basic: no figures');

      const box = `${plusToilet.lon - 0.0005},${plusToilet.lat - 0.0005},${plusToilet.lon + 0.0005},${plusToilet.lat + 0.0005}`;
      const paths = [
        `/api/v1/toilets/nearest?lat=${plusToilet.lat}&lon=${plusToilet.lon}&limit=3`,
        `/api/v1/toilets?bbox=${box}`, // the same query again: from each thread's area cache
        `/api/v1/toilets/${plusToilet.id}`,
        `/t/${plusToilet.id}`,
      ];
      let shown = 0;
      let opened = 0;
      for (let round = 0; round < 12; round++) {
        const answers = await Promise.all(paths.map((path) => fresh(port, path)));
        for (const [i, answer] of answers.entries()) {
          assert.equal(answer.status, 200, paths[i]);
          if (i < 2) shown += JSON.parse(answer.text).results.filter((r: { id: string; partner: unknown }) => r.id === plusToilet.id && r.partner !== null).length;
          else opened += 1;
        }
      }
      assert.equal(shown, 24, 'the Plus toilet is in every nearest and area answer');
      const [reader] = await app.threads!.counts();
      assert.ok(reader.received > 0 && app.server.requestsReceived > 0, `both threads answered (read thread ${reader.received}, main ${app.server.requestsReceived})`);

      const live = await figuresOf(plus);
      assert.deepEqual(live![0], { month, shown, opened }, 'the current month includes what is not folded yet');
      assert.ok(live!.slice(1).every((f) => f.shown === 0 && f.opened === 0));
      const accountsDb = app.accounts.file.path;
      closed = true;
      await close();
      assert.deepEqual(storedFigures(accountsDb, plus.listing), [{ month, shown, opened }], 'shutdown folded the counts');
      assert.deepEqual(storedFigures(accountsDb, basic.listing), [], 'a Basic listing is not counted');
    } finally {
      if (!closed) await close();
    }
  } finally {
    data.remove();
  }
});

test('a fold after a restart keeps the earlier months; folds never count twice; MCP counts; Basic and no plan get null', async () => {
  const data: Data = await importedData('monaco');
  const clock = new Clock(Date.parse('2026-10-20T12:00:00Z'));
  try {
    const [plusToilet, basicToilet, idleToilet] = readSourceToilets(data.toiletsDb);
    let service = await startAccountsService(data, clock);
    const plus = await runningListing(service, plusToilet.id, 'Plus Cafe', '198.51.100.41', 'plus');
    const basic = await runningListing(service, basicToilet.id, 'Basic Bar', '198.51.100.42', 'basic');
    const idle = await runningListing(service, idleToilet.id, 'Idle Inn', '198.51.100.43', 'plus');
    await service.app.partners.plans.setManualPlan(idle.listing, null);
    assert.equal((await service.get(`/api/v1/toilets/${plusToilet.id}`)).status, 200);
    assert.equal((await service.get(`/api/v1/toilets/${plusToilet.id}`)).status, 200);
    const session = await CLIENT_KINDS[0].connect(new URL(`${service.url}/mcp`));
    try {
      const got = await session.callTool({ name: 'get_toilet', arguments: { id: plusToilet.id } });
      assert.equal(got.structuredContent.toilet.partner.tier, 'plus');
      const near = await session.callTool({ name: 'find_toilets_near', arguments: { lat: plusToilet.lat, lon: plusToilet.lon, limit: 1 } });
      assert.equal(near.structuredContent.results[0].id, plusToilet.id);
    } finally {
      await session.close();
    }
    await service.app.partners.figures.fold();
    await service.app.partners.figures.fold(); // nothing new: adds nothing
    assert.deepEqual((await figuresOf(plus))!.slice(0, 2), [
      { month: '2026-10', shown: 1, opened: 3 },
      { month: '2026-09', shown: 0, opened: 0 },
    ]);
    assert.equal(await figuresOf(basic), null, 'Basic: null');
    assert.equal(await figuresOf(idle), null, 'no plan: null');
    await service.close();

    clock.set('2026-11-02T08:00:00Z');
    service = await startAccountsService(data, clock);
    try {
      assert.equal((await service.get(`/api/v1/toilets/${plusToilet.id}`)).status, 200);
      const restarted = { ...plus, browser: Object.assign(plus.browser, { service }) };
      const figures = (await figuresOf(restarted))!;
      assert.equal(figures.length, 13);
      assert.deepEqual(figures.slice(0, 2), [
        { month: '2026-11', shown: 0, opened: 1 },
        { month: '2026-10', shown: 1, opened: 3 },
      ]);
      assert.equal(figures[12].month, '2025-11', 'the current month and the 12 before it');
      await service.app.partners.figures.fold();
      assert.deepEqual((await figuresOf(restarted))!.slice(0, 2), figures.slice(0, 2), 'a fold moves the counts into the database without changing them');
    } finally {
      await service.close();
    }
  } finally {
    data.remove();
  }
});
