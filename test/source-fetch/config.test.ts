// TOILETS_DB_URL, TILES_DB_URL and the fetch's limits are checked at start: a value the fetch could not
// use stops the start with a message saying what to write, and never repeats the value (it may carry a
// password or a token). The address as shown anywhere keeps neither.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { PublishedLocation } from '../../src/source-fetch/location.js';

const refused = (env: Record<string, string>, message: RegExp) => assert.throws(() => loadConfig(env), (error) => error instanceof ConfigError && message.test(error.message) && !error.message.includes('s3cret'));

test('a URL the fetch cannot use stops the start, saying what to write and not repeating the value', () => {
  refused({ TOILETS_DB_URL: 'not a url s3cret' }, /^TOILETS_DB_URL is not a URL: use the address the import job publishes the file at, e\.g\. http:/);
  refused({ TOILETS_DB_URL: 'ftp://user:s3cret@files.internal/toilets.db' }, /^TOILETS_DB_URL uses ftp, which the fetch does not support: use an http:\/\/ or https:\/\/ address/);
  refused({ TILES_DB_URL: 'file:///srv/s3cret/tiles.mbtiles' }, /^TILES_DB_URL uses file, which the fetch does not support/);
  refused({ TOILETS_DB_URL: 'https://files.internal/published/' }, /^TOILETS_DB_URL names a folder, not a file/);
  refused({ TOILETS_DB_URL: 'https://files.internal/toilets.db#s3cret' }, /^TOILETS_DB_URL has a #fragment/);
  refused({ TOILETS_DB_URL: 'https://files.internal/toilets.db', TOILETS_EXTRACT: 'region.osm.pbf' }, /^TOILETS_DB_URL and TOILETS_EXTRACT are both set: a replica fetches/);
  refused({ SOURCE_POLL_SECONDS: '0' }, /^SOURCE_POLL_SECONDS=0 is not valid: use a whole number from 1 to 86400 \(default 60\)$/);
  refused({ SOURCE_FETCH_TIMEOUT_MS: '5' }, /^SOURCE_FETCH_TIMEOUT_MS=5 is not valid/);
  refused({ SOURCE_FETCH_MAX_MB: 'lots' }, /^SOURCE_FETCH_MAX_MB=lots is not valid/);
});

test('defaults: no URLs (a standalone server imports), a check a minute, 30 s stall, 16 GiB', () => {
  assert.deepEqual(loadConfig({}).sourceFetch, { toiletsUrl: null, tilesUrl: null, pollSeconds: 60, timeoutMs: 30_000, maxBytes: 16_384 * 1_048_576 });
});

test('credentials go in an Authorization header, the query stays on both requests, and neither is ever shown', () => {
  const config = loadConfig({ TOILETS_DB_URL: 'https://replica:s3cret@files.internal:8443/pub/toilets.db?token=s3cret' });
  const location = PublishedLocation.of(config.sourceFetch.toiletsUrl!);
  assert.equal(location.fileUrl, 'https://files.internal:8443/pub/toilets.db?token=s3cret');
  assert.equal(location.checksumUrl, 'https://files.internal:8443/pub/toilets.db.sha256?token=s3cret');
  assert.deepEqual(location.headers, { Authorization: `Basic ${Buffer.from('replica:s3cret').toString('base64')}` });
  assert.equal(location.shown, 'https://files.internal:8443/pub/toilets.db');
  assert.equal(location.host, 'files.internal:8443');
  assert.equal(location.fileName, 'toilets.db');
});
