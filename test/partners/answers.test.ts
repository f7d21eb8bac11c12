// The partner object in every read answer, through the real server over the real Porto extract: a set of
// nearest and area queries (with each filter) answered with and without listings on a fifth of the
// toilets gives the same ids in the same order and the same fields except `partner` and
// `verification_state`, which is `partner_confirmed` exactly while the plan runs unless an open report
// makes it `disputed`; no filter reads the partner (a partner saying "everyone" does not let a
// customers-only toilet through no_purchase_needed). The partner also shows in getToilet, the toilet
// page and the MCP tools; when the plans end, every answer is byte-for-byte as before.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Clock, importedData, readSourceToilets, type Data, type Service } from '../community/support.js';
import { Browser, startAccountsService } from '../accounts/support.js';
import { assertToolGzipAgrees, CLIENT_KINDS } from '../mcp/support.js';
import { assertGzipAgrees } from '../support/gzip.js';

const NOW = Date.parse('2024-06-11T10:00:00Z'); // a Tuesday, 11:00 in Porto
const CENTRES = [
  { lat: 41.1456, lon: -8.611 },
  { lat: 41.1496, lon: -8.6109 },
  { lat: 41.1579, lon: -8.6291 },
];
const FILTERS = [{}, { open_now: true }, { no_purchase_needed: true }, { wheelchair: true }, { free: true }, { changing_table: true }];

function queries(): string[] {
  const list: string[] = [];
  for (const filter of FILTERS) {
    const params = (extra: Record<string, string | number | boolean>) => new URLSearchParams(Object.entries({ ...extra, ...filter }).map(([k, v]): [string, string] => [k, String(v)])).toString();
    for (const c of CENTRES) list.push(`/api/v1/toilets/nearest?${params({ lat: c.lat, lon: c.lon, limit: 20 })}`);
    list.push(`/api/v1/toilets?${params({ bbox: '-8.70,41.10,-8.55,41.25', limit: 200 })}`);
  }
  return list;
}

describe('the partner object in every answer', () => {
  let data: Data;
  let service: Service;
  const clock = new Clock(NOW);
  const baseline = new Map<string, any>();
  const listed = new Set<string>();
  let customersOnly = '';
  let disputed = '';

  const answers = async () => {
    const found = new Map<string, any>();
    for (const path of queries()) {
      const answer = await service.get(path);
      assert.equal(answer.status, 200, path);
      found.set(path, answer.json);
    }
    return found;
  };
  const items = (answer: any): any[] => answer.results;

  before(async () => {
    data = await importedData('porto');
    // on a socket: the gzip check reads the bytes as sent
    service = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' }, undefined, { reach: 'socket' });
    const source = readSourceToilets(data.toiletsDb);
    customersOnly = source.find((t) => t.access === 'customers')!.id;
    // an open report makes a toilet disputed, which a partner listing does not change
    disputed = source.find((t) => t.access === 'public')!.id;
    assert.equal((await service.post(`/api/v1/toilets/${disputed}/reports`, { kind: 'wrong_hours' })).status, 201);

    for (const [path, answer] of await answers()) baseline.set(path, answer);
    const shown = [...new Set([...baseline.values()].flatMap((a) => items(a).map((i) => i.id as string)))].sort();
    assert.ok(shown.length >= 20, `the queries show ${shown.length} toilets`);
    const partnered = [...shown.filter((_, i) => i % 5 === 0), customersOnly, disputed];

    const owner = new Browser(service, '198.51.100.80');
    const account = (await owner.signUp('Porto Partners')).id as string;
    const { claims, plans, profiles } = service.app.partners;
    for (const id of new Set(partnered)) {
      const claim = await claims.claim(account, id, { business_name: `Partner of ${id}`, contact_email: 'partners@example.org' });
      await claims.approve(claim.id, 'test');
      await plans.setManualPlan(claim.listing, listed.size % 2 === 0 ? 'basic' : 'plus');
      // what the business says never changes the toilet's own facts or the filters
      await profiles.update(account, claim.listing, { conditions: 'everyone', opening_hours: '24/7' });
      listed.add(id);
    }
  });
  after(async () => {
    await service.close();
    data.remove();
  });

  test('same ids, same order, same fields except partner and verification_state', async () => {
    let partnersSeen = 0;
    for (const [path, answer] of await answers()) {
      const before = baseline.get(path);
      assert.deepEqual(items(answer).map((i) => i.id), items(before).map((i) => i.id), `${path}: same toilets in the same order`);
      items(answer).forEach((item, i) => {
        const was = items(before)[i];
        const { partner, verification_state, ...rest } = item;
        const { partner: partnerBefore, verification_state: stateBefore, ...restBefore } = was;
        assert.deepEqual(rest, restBefore, `${path} ${item.id}: nothing else changes`);
        assert.equal(partnerBefore, null);
        if (listed.has(item.id)) {
          partnersSeen++;
          assert.equal(partner.name, `Partner of ${item.id}`);
          assert.deepEqual({ conditions: partner.conditions, opening_hours: partner.opening_hours, open_now: partner.open_now, closes_at: partner.closes_at }, { conditions: 'everyone', opening_hours: '24/7', open_now: true, closes_at: null });
          assert.equal(verification_state, item.id === disputed ? 'disputed' : 'partner_confirmed', item.id);
        } else {
          assert.equal(partner, null, item.id);
          assert.equal(verification_state, stateBefore, item.id);
        }
      });
      const rest = { ...answer, results: undefined };
      assert.deepEqual(rest, { ...before, results: undefined }, `${path}: the envelope is unchanged`);
    }
    assert.ok(partnersSeen > 10, `partners shown ${partnersSeen} times`);
  });

  test('no filter reads the partner: a customers-only toilet saying "everyone" stays out of no_purchase_needed', async () => {
    const toilet = await service.toilet(customersOnly);
    assert.equal(toilet.access, 'customers');
    assert.equal(toilet.partner.conditions, 'everyone');
    const box = `${toilet.lon - 0.001},${toilet.lat - 0.001},${toilet.lon + 0.001},${toilet.lat + 0.001}`;
    const all = await service.get(`/api/v1/toilets?bbox=${box}`);
    assert.ok(all.json.results.some((i: { id: string }) => i.id === customersOnly));
    const filtered = await service.get(`/api/v1/toilets?bbox=${box}&no_purchase_needed=true`);
    assert.ok(!filtered.json.results.some((i: { id: string }) => i.id === customersOnly));
  });

  test('getToilet, the toilet page and the MCP tools show the partner', async () => {
    const toilet = await service.toilet(customersOnly);
    assert.equal(toilet.partner.name, `Partner of ${customersOnly}`);
    const page = await fetch(`${service.url}/t/${customersOnly}`);
    assert.match(await page.text(), new RegExp(`Partner of ${customersOnly}`));
    const session = await CLIENT_KINDS[0].connect(new URL(`${service.url}/mcp`));
    try {
      const result = await session.callTool({ name: 'get_toilet', arguments: { id: customersOnly } });
      assert.equal(result.structuredContent.toilet.partner.name, `Partner of ${customersOnly}`);
      assert.equal(result.structuredContent.toilet.verification_state, 'partner_confirmed');
      const near = await session.callTool({ name: 'find_toilets_near', arguments: { lat: toilet.lat, lon: toilet.lon, limit: 1 } });
      assert.equal(near.structuredContent.results[0].partner.name, `Partner of ${customersOnly}`);
    } finally {
      await session.close();
    }
  });

  test('gzip answers with partner objects and overlays decode to the plain answers byte for byte', async () => {
    const port = Number(new URL(service.url).port);
    for (const path of queries()) await assertGzipAgrees(port, path);
    for (const id of listed) await assertGzipAgrees(port, `/api/v1/toilets/${id}`);
    // the MCP read tools, in both revisions (the fast path writes their gzip from the answer's pieces)
    let partners = 0;
    for (const era of ['modern', 'legacy'] as const) {
      for (const filter of FILTERS) {
        for (const c of CENTRES) {
          const { result } = await assertToolGzipAgrees(port, era, 'find_toilets_near', { lat: c.lat, lon: c.lon, limit: 20, ...filter });
          partners += result.structuredContent.results.filter((item: any) => item.partner !== null).length;
        }
      }
      for (const id of listed) assert.notEqual((await assertToolGzipAgrees(port, era, 'get_toilet', { id })).result.structuredContent.toilet.partner, null);
    }
    assert.ok(partners > 0, 'the tools showed partner listings');
  });

  test('when the plans end, every answer is as it was without listings', async () => {
    const db = service.app.accounts.file.db;
    for (const listing of db.prepare('SELECT id FROM partner_listings').pluck().all() as string[]) await service.app.partners.plans.setManualPlan(listing, null);
    for (const [path, answer] of await answers()) assert.deepEqual(answer, baseline.get(path), path);
  });
});
