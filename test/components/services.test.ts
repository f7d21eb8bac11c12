// The database servers an operator adds for several replicas, as the tests start them: a PostgreSQL
// cluster and a redis-server of the test's own on loopback (test/support/postgres.ts, redis.ts). This
// checks the harness itself: each starts, answers, and leaves nothing running or on disk once stopped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { once } from 'node:events';
import { noPostgres, startPostgres } from '../support/postgres.js';
import { noRedis, startRedis } from '../support/redis.js';

test('a PostgreSQL cluster of the test\'s own answers SQL on loopback and is gone after stop()', { skip: noPostgres }, async () => {
  const pg = await startPostgres();
  try {
    assert.match(pg.url, /^postgresql:\/\/toilet_test@127\.0\.0\.1:\d+\/postgres$/);
    assert.equal(pg.psql('SELECT 6 * 7').trim(), '42');
    assert.equal(pg.psql("SELECT setting FROM pg_settings WHERE name = 'listen_addresses'").trim(), '127.0.0.1');
  } finally {
    pg.stop();
  }
  assert.equal(existsSync(pg.dir), false, 'the cluster folder is removed');
  await assert.rejects(reachable(pg.port), 'nothing listens on its port any more');
});

test('a redis-server of the test\'s own answers PING on loopback and stops', { skip: noRedis }, async () => {
  const redis = await startRedis();
  try {
    const socket = connect(redis.port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write('PING\r\n');
    const [reply] = (await once(socket, 'data')) as [Buffer];
    assert.equal(reply.toString(), '+PONG\r\n');
    socket.destroy();
  } finally {
    await redis.stop();
  }
  await assert.rejects(reachable(redis.port), 'nothing listens on its port any more');
});

/** Resolves when a TCP connection to the loopback port opens; rejects when it is refused. */
async function reachable(port: number): Promise<void> {
  const socket = connect(port, '127.0.0.1');
  try {
    await once(socket, 'connect');
  } finally {
    socket.destroy();
  }
}
