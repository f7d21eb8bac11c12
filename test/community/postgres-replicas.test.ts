// Two replicas of the service on one PostgreSQL database (DATABASE_URL, a cluster of the test's own), each
// with its own SQLite files for what has not moved yet: the server key is PostgreSQL's, so a human-check
// token one replica issued is accepted by the other, end to end over HTTP. Without DATABASE_URL each
// replica has a key file of its own and refuses the other's tokens: that is what the shared key mends.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Clock, importedData, serviceClient, TEST_ENV, TEST_START, type Data } from './support.js';
import { serve, type Served } from '../support/server.js';
import { noPostgres, startPostgres, type TestPostgres } from '../support/postgres.js';

const TOILET = 'n5225387845'; // Porto
const CONFIRM = `/api/v1/toilets/${TOILET}/confirmations`;

let cluster: TestPostgres | undefined;
let data: Data;
const clock = new Clock(Date.parse(TEST_START));

before(async () => {
  data = await importedData('porto');
  if (!noPostgres) cluster = await startPostgres();
});
after(() => {
  cluster?.stop();
  data.remove();
});

/** Replica A and B over the same source data, each with SQLite files of its own in its own folder. */
async function replicas(env: Record<string, string>): Promise<[Served, Served]> {
  const start = (name: string) => serve({ db: data.toiletsDb, overlayDb: join(data.dir, name, 'overlay.db'), env: { ...TEST_ENV, ...env }, now: clock.now, openStorage: true });
  return Promise.all([start(`${env.DATABASE_URL ? 'pg' : 'files'}-a`), start(`${env.DATABASE_URL ? 'pg' : 'files'}-b`)]);
}

/** Confirms the toilet through `to` with a human-check token solved on `from`'s challenge. */
async function confirmWithTokenOf(from: Served, to: Served, ip: string): Promise<number> {
  const token = await serviceClient(from.origin).token(ip);
  const answer = await serviceClient(to.origin).post(CONFIRM, {}, { ip, token });
  return answer.status;
}

test('with DATABASE_URL, a human-check token issued by replica A is accepted by replica B', { skip: noPostgres }, async () => {
  const [a, b] = await replicas({ DATABASE_URL: cluster!.database('replicas') });
  try {
    assert.equal(await confirmWithTokenOf(a, b, '198.51.100.7'), 201);
    assert.equal(await confirmWithTokenOf(b, a, '198.51.100.8'), 201);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('without it, each replica keeps a key file of its own and refuses the other\'s tokens', async () => {
  const [a, b] = await replicas({});
  try {
    assert.equal(await confirmWithTokenOf(a, b, '198.51.100.9'), 403);
    assert.equal(await confirmWithTokenOf(a, a, '198.51.100.9'), 201);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
