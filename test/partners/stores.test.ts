// The partner store (src/partners/store.ts) in both of its implementations, the same checks for each: the
// ACCOUNTS_DB file and PostgreSQL's accounts schema (a cluster of the test's own). Two processes over one
// place race as two replicas do: one account's two claims of a toilet at once keep one, two approvals of
// rival claims at once approve one, a listing is stopped once, figures folded at once add up; a change and
// its event-log entry commit together or not at all; another process sees the showing listings.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PartnerClaims } from '../../src/partners/claims.js';
import { PartnerError } from '../../src/partners/errors.js';
import type { PartnerContext } from '../../src/partners/context.js';
import type { SnapshotHolder } from '../../src/toilets/snapshot.js';
import { tempDir } from '../support/extracts.js';
import { fileCluster } from '../support/postgres.js';
import { anAccount, engines, type AccountSide, type Place } from '../support/account-stores.js';

const dir = tempDir('toilet-partner-stores');
after(() => dir.remove());
const postgres = fileCluster();
const T0 = Date.parse('2024-06-05T08:00:00Z');
const now = () => T0;

/** Every toilet id is served, under that id alone. */
const TOILETS = { snapshot: { rowOf: () => 0, aliases: (id: string) => [id], currentId: (id: string) => id } } as unknown as SnapshotHolder;

function claimsOf(side: AccountSide): PartnerClaims {
  const context: PartnerContext = { store: side.partners, now, toilets: TOILETS, changed: () => {} };
  return new PartnerClaims(context);
}

const REQUEST = { business_name: 'Café Rosa', contact_email: 'rosa@example.org' };
let toilets = 0;
const aToilet = () => `n${1000 + ++toilets}`;

/** What each promise came to: its value, or the PartnerError's kind. */
async function outcomes<T>(promises: Promise<T>[]): Promise<(T | string)[]> {
  return Promise.all(promises.map((p) => p.catch((error: unknown) => (error instanceof PartnerError ? error.kind : Promise.reject(error)))));
}

for (const engine of engines(dir.path, () => postgres.cluster, now)) {
  describe(engine.name, { skip: engine.skip }, () => {
    let place: Place;
    let a: AccountSide;
    let b: AccountSide;
    before(async () => {
      place = await engine.place();
      a = await place.open();
      b = await place.open();
    });
    after(() => place?.close());

    test("one account's two claims of a toilet through two processes at once: one is kept, the other refused", async () => {
      const owner = await anAccount(a.accounts, T0);
      const toilet = aToilet();
      const results = await outcomes([claimsOf(a).claim(owner, toilet, REQUEST), claimsOf(b).claim(owner, toilet, REQUEST)]);
      assert.equal(results.filter((r) => r === 'claim-conflict').length, 1, `one refused: ${JSON.stringify(results)}`);
      assert.equal((await a.partners.read((t) => t.openClaimsOn([toilet]))).length, 1);
      const events = await a.events.read({ after: 0, account: owner, limit: 100 });
      assert.equal(events.length, 1, 'one status change logged, of the claim kept');
    });

    test('two approvals of rival claims through two processes at once: one approved, the other refused and rejected', async () => {
      const toilet = aToilet();
      const first = await claimsOf(a).claim(await anAccount(a.accounts, T0), toilet, REQUEST);
      const second = await claimsOf(b).claim(await anAccount(b.accounts, T0), toilet, REQUEST);
      const results = await outcomes([claimsOf(a).approve(first.id, 'checked'), claimsOf(b).approve(second.id, 'checked')]);
      assert.equal(results.filter((r) => r === 'claim-conflict').length, 1, `one refused: ${JSON.stringify(results)}`);
      const statuses = await Promise.all([first.id, second.id].map((id) => b.partners.read((t) => t.claim(id))));
      assert.deepEqual(statuses.map((c) => c?.status).sort(), ['approved', 'rejected']);
      const stopped = await Promise.all([first.listing, second.listing].map((id) => a.partners.read((t) => t.listing(id))));
      assert.equal(stopped.filter((l) => l?.stopped_at !== null).length, 1, "the rejected claim's listing stopped");
    });

    test('a change and its event-log entry commit together; a throw leaves neither', async () => {
      const owner = await anAccount(a.accounts, T0);
      const made = await claimsOf(a).claim(owner, aToilet(), REQUEST);
      const before = await a.events.lastSeq();
      await assert.rejects(
        a.partners.transaction(function* (t) {
          yield* t.setName(made.listing, 'Changed', T0 + 1);
          yield* t.appendEvent({ account: owner, type: 'partner.profile.updated', listing: made.listing, toilet: null, data: {} });
          throw new Error('the work failed');
        }),
        /the work failed/,
      );
      assert.equal((await b.partners.read((t) => t.listing(made.listing)))?.name, 'Café Rosa');
      assert.equal(await b.events.lastSeq(), before);
    });

    test('a listing is stopped once, and figures folded by two processes at once add up', async () => {
      const made = await claimsOf(a).claim(await anAccount(a.accounts, T0), aToilet(), REQUEST);
      const stops = await Promise.all([a, b].map((side) => side.partners.transaction((t) => t.stop(made.listing, T0 + 1))));
      assert.deepEqual(stops.sort(), [false, true]);
      await Promise.all([a, b, a, b].map((side, i) => side.partners.transaction((t) => t.addFigures(made.listing, '2024-06', i + 1, 1))));
      assert.deepEqual(await b.partners.read((t) => t.figuresSince(made.listing, '2024-01')), [{ month: '2024-06', shown: 10, opened: 4 }]);
    });

    test("another process sees the showing listings once it looked at the tables' version", async () => {
      const toilet = aToilet();
      const made = await claimsOf(a).claim(await anAccount(a.accounts, T0), toilet, REQUEST);
      await claimsOf(a).approve(made.id, 'checked');
      const version = await b.partners.dataVersion();
      await a.partners.transaction((t) => t.setPlan(made.listing, 'basic', 'manual', T0 + 2));
      assert.equal(a.partners.showing.on([toilet])?.id, made.listing, 'the writer sees its commit at once');
      assert.notEqual(await b.partners.dataVersion(), version, "the other process's commit moves the version");
      assert.equal(b.partners.showing.on([toilet])?.id, made.listing);
      assert.ok(b.partners.showing.all().some((listing) => listing.id === made.listing && listing.claim_status === 'approved'));
    });
  });
}
