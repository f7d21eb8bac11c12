// REDIS_URL is checked at start: a value the replicas could not use stops the start with a message
// saying what to write, never repeating the value (it may carry a password). Shown anywhere, the address
// is its host and port only.
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
