// The overlay's store (src/community/store.ts) and moderation's (src/moderation/store.ts), each rule checked
// once against both implementations: the SQLite file and PostgreSQL's overlay schema (a cluster of the
// test's own). What the overlay source reads (`readable`) holds a change once changesSince returned it, on
// PostgreSQL through the copy in memory; a second store on the same PostgreSQL database (another replica)
// sees what the first committed, and concurrent decisions of one item give one success.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SqliteOverlayStore } from '../../src/community/sqlite-store.js';
import { OVERLAY_POSTGRES_SCHEMA, PostgresOverlayStore } from '../../src/community/postgres-store.js';
import type { OverlayStore } from '../../src/community/store.js';
import { moderationStoreOf } from '../../src/moderation/store-choice.js';
import { POSTGRES_SCHEMAS } from '../../src/databases.js';
import { tempDir } from '../support/extracts.js';
import { fileCluster, noPostgres, postgresPlace } from '../support/postgres.js';

const NOW = Date.parse('2028-09-01T12:00:00Z');
const DAY = '2028-09-01';

interface Kind {
  name: string;
  skip: string | false;
  /** Two stores on one database (two replicas; on SQLite two connections to one file), closed by the test. */
  open(name: string): Promise<{ one: OverlayStore; two: OverlayStore; close(): Promise<void> }>;
}

const postgres = fileCluster();
const dir = tempDir();
after(() => dir.remove());

const KINDS: Kind[] = [
  {
    name: 'SQLite',
    skip: false,
    async open(name) {
      const path = join(dir.path, `${name}.db`);
      const [one, two] = [new SqliteOverlayStore(path), new SqliteOverlayStore(path)];
      return { one, two, close: async () => void (await Promise.all([one.close(), two.close()])) };
    },
  },
  {
    name: 'PostgreSQL',
    skip: noPostgres,
    async open(name) {
      const place = postgresPlace(postgres.cluster, name, (database) => PostgresOverlayStore.open(database));
      const [one, two] = await Promise.all([place.open(), place.open()]);
      return {
        one,
        two,
        close: async () => {
          await Promise.all([one.close(), two.close()]);
          await place.close();
        },
      };
    },
  },
];

test('the overlay schema the dump opens alone has the steps the slices declare', () => {
  assert.deepEqual(POSTGRES_SCHEMAS.find((schema) => schema.name === 'overlay'), OVERLAY_POSTGRES_SCHEMA);
});

for (const kind of KINDS) {
  describe(`the overlay store on ${kind.name}`, { skip: kind.skip }, () => {
    let stores: Awaited<ReturnType<Kind['open']>>;
    before(async () => (stores = await kind.open(`store_${kind.name.toLowerCase()}`)));
    after(() => stores.close());

    test('a human-check token is spent once across both stores; a rolled-back transaction spends nothing', async () => {
      const { one, two } = stores;
      assert.equal(await one.transaction((tx) => tx.useToken('token-a', NOW + 60_000)), true);
      assert.equal(await two.transaction((tx) => tx.useToken('token-a', NOW + 60_000)), false, 'spent on the other');
      await assert.rejects(
        one.transaction(async (tx) => {
          await tx.useToken('token-b', NOW + 60_000);
          throw new Error('refused later in the transaction');
        }),
        /refused later/,
      );
      assert.equal(await two.transaction((tx) => tx.useToken('token-b', NOW + 60_000)), true, 'the rolled-back spend left nothing');
    });

    test('an address counts once per rule, toilet and day; the day key is one for both stores', async () => {
      const { one, two } = stores;
      const [keyOne, keyTwo] = [await one.dayKey(DAY), await two.dayKey(DAY)];
      assert.ok(keyOne.equals(keyTwo));
      assert.equal(await one.transaction((tx) => tx.rememberAddress('new_rater', 'n1', DAY, 'hash')), true);
      assert.equal(await two.transaction((tx) => tx.rememberAddress('new_rater', 'n1', DAY, 'hash')), false);
      assert.equal(await two.transaction((tx) => tx.rememberAddress('new_voter', 'n1', DAY, 'hash')), true, 'another rule');
    });

    test('a change committed on one store is in the other\'s readable rows once changesSince returned it', async () => {
      const { one, two } = stores;
      const seq = await two.lastChange();
      await one.transaction(async (tx) => {
        await tx.rate('n2', 'd:aa', 2, NOW);
        await tx.rate('n2', 'd:aa', 5, NOW + 1); // the person's latest rating replaces the first
        await tx.vote('n2', 'wheelchair', 'd:aa', 'yes', NOW);
        await tx.addConfirmation('n2', NOW);
        await tx.logChange('n2', NOW);
      });
      const changes = (await two.changesSince(seq, false))!;
      assert.ok(changes.seq > seq);
      assert.deepEqual([...changes.toiletIds], ['n2']);
      assert.equal(changes.communityToilets, false);
      assert.deepEqual(two.readable.prepare('SELECT person, rating FROM ratings WHERE toilet_id = ?').all('n2'), [{ person: 'd:aa', rating: 5 }]);
      assert.equal(two.readable.prepare('SELECT count(*) FROM votes WHERE toilet_id = ?').pluck().get('n2'), 1);
      assert.equal(await two.transaction((tx) => tx.hasRated(['n0', 'n2'], 'd:aa')), true, 'found under any of its ids');
      assert.equal(await two.transaction((tx) => tx.hasVoted(['n0'], 'd:aa')), false);
      assert.deepEqual([...(await two.changesSince(changes.seq, true))!.toiletIds], [], 'nothing new after it');
    });

    test('a deleted account\'s ratings and votes move to another pseudonym', async () => {
      const { one, two } = stores;
      await one.transaction(async (tx) => {
        await tx.rate('n3', 'a:acc', 4, NOW);
        await tx.vote('n3', 'fee', 'a:acc', 'free', NOW);
      });
      await two.reassignPerson('a:acc', 'd:bb');
      const seq = await one.lastChange();
      await one.transaction((tx) => tx.logChange('n3', NOW));
      await one.changesSince(seq, true);
      assert.deepEqual(one.readable.prepare('SELECT person FROM ratings WHERE toilet_id = ? UNION ALL SELECT person FROM votes WHERE toilet_id = ?').pluck().all('n3', 'n3'), ['d:bb', 'd:bb']);
    });

    test('moderation: a submission approved on one store becomes a community toilet the other reads; deciding it again is refused', async () => {
      const { one, two } = stores;
      const number = await one.transaction((tx) => tx.addSubmission({ lat: 41.1, lon: -8.6, name: 'Kiosk' }, NOW));
      const [modOne, modTwo] = [moderationStoreOf(one), moderationStoreOf(two)];
      assert.deepEqual((await modTwo.pendingSubmissions()).map((s) => [s.id, s.name, s.at]), [[number, 'Kiosk', NOW]]);
      const seq = await two.lastChange();
      const decisions = await Promise.allSettled(
        [modOne, modTwo].map((store) =>
          store.transaction(async (tx) => {
            if (!(await tx.decideSubmission(number, 'approved', NOW))) throw new Error('decided already');
            const toilet = { id: `c_${number}`, lat: 41.1, lon: -8.6, name: 'Kiosk', access: 'yes', access_rule: 'free', fee_required: 0 as const, opening_hours: null, wheelchair: 'unknown', changing_table: 'unknown', time_zone: 'Europe/Lisbon', country: 'PT', approved_at: NOW / 1000 };
            await tx.addToilet(toilet);
            await tx.log(NOW, 'approve', `sub_${number}`, 'seen', '{}');
            await tx.logChange(null, NOW);
          }),
        ),
      );
      assert.deepEqual(decisions.map((d) => d.status).sort(), ['fulfilled', 'rejected'], 'one approval, one refusal');
      assert.deepEqual(await modOne.pendingSubmissions(), []);
      const changes = (await two.changesSince(seq, true))!;
      assert.equal(changes.communityToilets, true);
      assert.deepEqual(two.readable.prepare('SELECT id, name, approved_at FROM community_toilets').all(), [{ id: `c_${number}`, name: 'Kiosk', approved_at: NOW / 1000 }]);
      assert.deepEqual((await modTwo.history(5)).map((e) => [e.action, e.target, e.at]), [['approve', `sub_${number}`, NOW]]);
    });

    test('a report is open until decided, once; the open ones are in readable rows (the copy in memory without their notes)', async () => {
      const { one, two } = stores;
      const seq = await two.lastChange();
      const number = await one.transaction(async (tx) => {
        const id = await tx.addReport('n4', 'gone', 'call 555-0100', NOW);
        await tx.logChange('n4', NOW);
        return id;
      });
      await two.changesSince(seq, true);
      assert.deepEqual(two.readable.prepare('SELECT toilet_id, status FROM reports WHERE id = ?').all(number), [{ toilet_id: 'n4', status: 'open' }]);
      if (two instanceof PostgresOverlayStore) assert.equal(two.readable.prepare('SELECT note FROM reports WHERE id = ?').pluck().get(number), null, 'reads need no note');
      const modTwo = moderationStoreOf(two);
      assert.deepEqual((await modTwo.openReports()).map((r) => [r.id, r.note, r.open_reports]), [[number, 'call 555-0100', 1]]);
      assert.equal(await modTwo.transaction((tx) => tx.decideReport(number, 'rejected', NOW)), true);
      assert.equal(await moderationStoreOf(one).transaction((tx) => tx.decideReport(number, 'approved', NOW)), false, 'decided already');
    });

    test('the OSM note outbox: queued, attempted once though both read it, sent', async () => {
      const { one, two } = stores;
      await moderationStoreOf(one).transaction((tx) => tx.queueNote(7, 41.1, -8.6, 'This toilet is gone.', NOW));
      const [note] = await two.queuedNotes(10, 20);
      assert.deepEqual({ ...note, id: 0 }, { id: 0, lat: 41.1, lon: -8.6, text: 'This toilet is gone.', attempts: 0 });
      const [same] = await one.queuedNotes(10, 20);
      assert.equal(await two.noteAttempted(note.id, note.attempts), true);
      assert.equal(await one.noteAttempted(same.id, same.attempts), false, 'the other round read it before the attempt: it leaves it');
      await two.noteFailed(note.id, 'HTTP 503');
      assert.equal((await one.queuedNotes(1, 20)).length, 0, 'one attempt is the most this call allows');
      await one.noteSent(note.id, NOW, 4201);
      assert.deepEqual(await one.queuedNotes(10, 20), [], 'sent: no longer queued');
    });

    test('the purge deletes the day keys of earlier days and expired tokens', async () => {
      const { one, two } = stores;
      await one.purge(NOW + 2 * 86_400_000);
      assert.equal(await two.transaction((tx) => tx.useToken('token-a', NOW + 10 * 86_400_000)), true, 'the expired token is gone, so it counts as new');
      assert.ok(!(await one.dayKey(DAY)).equals(await two.dayKey('2028-09-03')), 'a new day, a new key');
      await one.probeWrite(NOW);
    });
  });
}
