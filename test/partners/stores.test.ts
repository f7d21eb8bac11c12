// The partner store (src/partners/store.ts) in both of its implementations, the same checks for each: the
// ACCOUNTS_DB file and PostgreSQL's accounts schema (a cluster of the test's own). Two processes over one
// place race as two replicas do: one account's two claims of a toilet at once keep one, two approvals of
// rival claims at once approve one, a listing is stopped once, figures folded at once add up; a change and
// its event-log entry commit together or not at all; another process sees the showing listings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PartnerError } from '../../src/partners/errors.js';
import { anAccount, claimsOf as claimsAt, onEachEngine, type AccountSide } from '../support/account-stores.js';

const T0 = Date.parse('2024-06-05T08:00:00Z');
const now = () => T0;
const claimsOf = (side: AccountSide) => claimsAt(side, now);

const REQUEST = { business_name: 'Café Rosa', contact_email: 'rosa@example.org' };
let toilets = 0;
const aToilet = () => `n${1000 + ++toilets}`;

/** What each promise came to: its value, or the PartnerError's kind. */
async function outcomes<T>(promises: Promise<T>[]): Promise<(T | string)[]> {
  return Promise.all(
    promises.map(async (promise) => {
      try {
        return await promise;
      } catch (error) {
        if (error instanceof PartnerError) return error.kind;
        throw error;
      }
    }),
  );
}

const byText = (x: unknown, y: unknown) => String(x).localeCompare(String(y));

onEachEngine('toilet-partner-stores', now, (sides, engine) => {

  test("one account's two claims of a toilet through two processes at once: one is kept, the other refused", async () => {
    const owner = await anAccount(sides.a.accounts, T0);
    const toilet = aToilet();
    const results = await outcomes([claimsOf(sides.a).claim(owner, toilet, REQUEST), claimsOf(sides.b).claim(owner, toilet, REQUEST)]);
    assert.equal(results.filter((r) => r === 'claim-conflict').length, 1, `one refused: ${JSON.stringify(results)}`);
    assert.equal((await sides.a.partners.read((t) => t.openClaimsOn([toilet]))).length, 1);
    const events = await sides.a.events.read({ after: 0, account: owner, limit: 100 });
    assert.equal(events.length, 1, 'one status change logged, of the claim kept');
  });

  test('two approvals of rival claims through two processes at once: one approved, the other refused and rejected', async () => {
    const toilet = aToilet();
    const first = await claimsOf(sides.a).claim(await anAccount(sides.a.accounts, T0), toilet, REQUEST);
    const second = await claimsOf(sides.b).claim(await anAccount(sides.b.accounts, T0), toilet, REQUEST);
    const results = await outcomes([claimsOf(sides.a).approve(first.id, 'checked'), claimsOf(sides.b).approve(second.id, 'checked')]);
    assert.equal(results.filter((r) => r === 'claim-conflict').length, 1, `one refused: ${JSON.stringify(results)}`);
    const statuses = await Promise.all([first.id, second.id].map((id) => sides.b.partners.read((t) => t.claim(id))));
    assert.deepEqual(statuses.map((c) => c?.status).sort(byText), ['approved', 'rejected']);
    const stopped = await Promise.all([first.listing, second.listing].map((id) => sides.a.partners.read((t) => t.listing(id))));
    assert.equal(stopped.filter((l) => l?.stopped_at !== null).length, 1, "the rejected claim's listing stopped");
  });

  test('a change and its event-log entry commit together; a throw leaves neither', async () => {
    const owner = await anAccount(sides.a.accounts, T0);
    const made = await claimsOf(sides.a).claim(owner, aToilet(), REQUEST);
    const before = await sides.a.events.lastSeq();
    await assert.rejects(
      sides.a.partners.transaction(function* (t) {
        yield* t.setName(made.listing, 'Changed', T0 + 1);
        yield* t.appendEvent({ account: owner, type: 'partner.profile.updated', listing: made.listing, toilet: null, data: {} });
        throw new Error('the work failed');
      }),
      /the work failed/,
    );
    assert.equal((await sides.b.partners.read((t) => t.listing(made.listing)))?.name, 'Café Rosa');
    assert.equal(await sides.b.events.lastSeq(), before);
  });

  test('a listing is stopped once, and figures folded by two processes at once add up', async () => {
    const made = await claimsOf(sides.a).claim(await anAccount(sides.a.accounts, T0), aToilet(), REQUEST);
    const stops = await Promise.all([sides.a, sides.b].map((side) => side.partners.transaction((t) => t.stop(made.listing, T0 + 1))));
    assert.deepEqual(stops.sort(byText), [false, true]);
    await Promise.all([sides.a, sides.b, sides.a, sides.b].map((side, i) => side.partners.transaction((t) => t.addFigures(made.listing, '2024-06', i + 1, 1))));
    assert.deepEqual(await sides.b.partners.read((t) => t.figuresSince(made.listing, '2024-01')), [{ month: '2024-06', shown: 10, opened: 4 }]);
  });

  test("another process sees the showing listings once it looked at the tables' version", async () => {
    const toilet = aToilet();
    const made = await claimsOf(sides.a).claim(await anAccount(sides.a.accounts, T0), toilet, REQUEST);
    await claimsOf(sides.a).approve(made.id, 'checked');
    const version = await sides.b.partners.dataVersion();
    await sides.a.partners.transaction((t) => t.setPlan(made.listing, 'basic', 'manual', T0 + 2));
    assert.equal(sides.a.partners.showing.on([toilet])?.id, made.listing, 'the writer sees its commit at once');
    assert.notEqual(await sides.b.partners.dataVersion(), version, "the other process's commit moves the version");
    assert.equal(sides.b.partners.showing.on([toilet])?.id, made.listing);
    assert.ok(sides.b.partners.showing.all().some((listing) => listing.id === made.listing && listing.claim_status === 'approved'));
  });

  // a SQLite transaction cannot wait inside (its work must not yield): the file's writers exclude each other
  test('event-log entries commit in seq order: a later append waits for the earlier one to commit', { skip: engine.name.startsWith('PostgreSQL') ? false : 'PostgreSQL only' }, async () => {
    const { a, b } = sides;
    const owner = await anAccount(a.accounts, T0);
    const made = await claimsOf(a).claim(owner, aToilet(), REQUEST);
    const start = await a.events.lastSeq();
    const event = { account: owner, type: 'partner.profile.updated' as const, listing: made.listing, toilet: null, data: {} };
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let appended = () => {};
    const first = a.partners.transaction(function* (t) {
      yield* t.appendEvent(event);
      appended();
      yield held;
    });
    await new Promise<void>((resolve) => (appended = resolve));
    let secondDone = false;
    const second = b.partners.transaction((t) => t.appendEvent(event)).then(() => (secondDone = true));
    // time for the later append to commit if it did not wait (with the lock it waits whatever the time: the
    // test cannot fail on a slow machine, only pass without the lock there)
    await Promise.race([second, new Promise((resolve) => setTimeout(resolve, 300))]);
    const seen = await b.events.read({ after: start, account: owner, limit: 10 }).finally(() => setImmediate(release));
    const done = secondDone;
    await Promise.all([first, second]);
    assert.deepEqual([seen.length, done], [0, false], 'nothing after the open append shows, and the later one waits');
    const entries = await b.events.read({ after: start, account: owner, limit: 10 });
    assert.equal(entries.length, 2);
    assert.ok(entries[0].seq < entries[1].seq);
  });
});
