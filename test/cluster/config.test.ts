// REDIS_URL and WORKER_LEASE_SECONDS are checked at start. A REDIS_URL the replicas could not use stops
// the start with a message saying what to write, never repeating the value (it may carry a password).
// Shown anywhere, the address is its host and port only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { redisHost } from '../../src/cluster/config.js';

const refused = (url: string, message: RegExp) =>
  assert.throws(() => loadConfig({ REDIS_URL: url }), (error) => error instanceof ConfigError && message.test(error.message) && !error.message.includes('s3cret'));

test('a REDIS_URL the replicas cannot use stops the start, saying what to write and not repeating the value', () => {
  refused('s3cret', /^REDIS_URL is not a URL: use the address of the Redis or Valkey server the replicas share, e\.g\. redis:\/\//);
  refused('http://:s3cret@redis.internal:6379', /^REDIS_URL uses http, which is not supported: use redis:\/\/ \(or rediss:\/\/ for TLS\)/);
  refused('redis://:s3cret@redis.internal:6379/?db=s3cret', /^REDIS_URL has a query or a #fragment/);
  refused('redis://:s3cret@redis.internal:6379/s3cret', /^REDIS_URL's path must be a database number \(0 to 99\) or nothing/);
});

test('unset: each replica counts alone; set: the URL as given, shown as host and port only', () => {
  assert.equal(loadConfig({}).redisUrl, null);
  assert.equal(loadConfig({ REDIS_URL: '' }).redisUrl, null);
  assert.equal(loadConfig({ REDIS_URL: 'rediss://default:s3cret@redis.internal:6380/2' }).redisUrl, 'rediss://default:s3cret@redis.internal:6380/2');
  assert.equal(redisHost('rediss://default:s3cret@redis.internal:6380/2'), 'redis.internal:6380');
  assert.equal(redisHost('redis://10.0.0.7'), '10.0.0.7:6379');
});

test('WORKER_LEASE_SECONDS: 30 unless set; a value that is not a whole number of seconds stops the start saying what to write', () => {
  assert.equal(loadConfig({}).workerLeaseMs, 30_000);
  assert.equal(loadConfig({ WORKER_LEASE_SECONDS: '2' }).workerLeaseMs, 2000);
  for (const bad of ['0', '1.5', 'soon', '3601']) {
    assert.throws(() => loadConfig({ WORKER_LEASE_SECONDS: bad }), (error) => error instanceof ConfigError && error.message === `WORKER_LEASE_SECONDS=${bad} is not valid: use a whole number from 1 to 3600 (default 30)`);
  }
});
