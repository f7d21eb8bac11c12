// Bad input through the command (its main(), run in this process as the script runs it): a clear one-line
// message, the documented exit code, and the live database byte for byte unchanged.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { osmExtract } from '../support/paths.js';
import { importedCopy } from '../support/extracts.js';
import { runImportCommand } from './command.js';
import { tempDir } from './support.js';

const dir = tempDir('bad');
const live = join(dir, 'toilets.db');
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** `npm run import -- ...args --db <live>`; its progress clock stands still, so stderr holds only what went wrong. */
function runImport(...args: string[]): Promise<{ status: number | null; stderr: string }> {
  return runImportCommand([...args, '--db', live], { now: () => 0 });
}

test.before(async () => {
  await importedCopy('monaco', live);
});

function assertRefused(result: { status: number | null; stderr: string }, code: number, message: RegExp, liveSha: string): void {
  assert.equal(result.status, code, result.stderr);
  assert.match(result.stderr, message);
  assert.equal(result.stderr.trim().split('\n').length, 1, `one line: ${result.stderr}`);
  assert.equal(sha(live), liveSha, 'live database unchanged');
  assert.deepEqual(readdirSync(dir).filter((f) => f.includes('.importing') || f.startsWith('.download')), [], 'no temporary files left behind');
}

test('a missing file, an empty file, a text file, gzipped XML and a truncated extract are refused (exit 3)', async () => {
  const liveSha = sha(live);
  assertRefused(await runImport(join(dir, 'nope.osm.pbf')), 3, /does not exist/, liveSha);
  const empty = join(dir, 'empty.osm.pbf');
  writeFileSync(empty, '');
  assertRefused(await runImport(empty), 3, /empty\.osm\.pbf/, liveSha);
  const text = join(dir, 'text.osm.pbf');
  writeFileSync(text, 'this is not a map\n'.repeat(100));
  assertRefused(await runImport(text), 3, /text\.osm\.pbf/, liveSha);
  const xml = join(dir, 'xml.osm.pbf');
  writeFileSync(xml, gzipSync('<?xml version="1.0"?><osm version="0.6"></osm>'));
  assertRefused(await runImport(xml), 3, /xml\.osm\.pbf/, liveSha);
  const truncated = join(dir, 'truncated.osm.pbf');
  copyFileSync(osmExtract('porto'), truncated);
  truncateSync(truncated, Math.floor(statSync(truncated).size / 2));
  assertRefused(await runImport(truncated), 3, /truncated/, liveSha);
});

test('an unreachable URL and a URL answering 404 are refused (exit 4)', async () => {
  const liveSha = sha(live);
  assertRefused(await runImport('http://127.0.0.1:9/region.osm.pbf'), 4, /cannot download http:\/\/127\.0\.0\.1:9\/region\.osm\.pbf/, liveSha);
  const server = createServer((_req, res) => res.writeHead(404).end('no such extract'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  try {
    assertRefused(await runImport(`http://127.0.0.1:${port}/region.osm.pbf`), 4, /answered 404/, liveSha);
  } finally {
    server.close();
  }
});

test('a URL that answers something else than an extract (a login page) is refused by its URL (exit 3)', async () => {
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<html><body>Log in to the Wi-Fi</body></html>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/region.osm.pbf`;
  try {
    const result = await runImport(url);
    assertRefused(result, 3, /^import: http:\/\/127\.0\.0\.1:\d+\/region\.osm\.pbf is not an OSM PBF extract .*\(the server sent it as text\/html; charset=utf-8\)\n$/, sha(live));
    assert.doesNotMatch(result.stderr, /\.download-/);
  } finally {
    server.close();
  }
});

test('a URL is downloaded, imported and the download removed', async () => {
  const data = readFileSync(osmExtract('liechtenstein'));
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Length': data.length }).end(data));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  try {
    const result = await runImport(`http://127.0.0.1:${port}/liechtenstein.osm.pbf`, '--quiet', '--threads', '0'); // decoder threads are not what this is about
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('.download')), []);
  } finally {
    server.close();
  }
});

test('a URL served with Content-Encoding is decoded and imported; cut short, it is refused (exit 4)', async () => {
  const encoded = gzipSync(readFileSync(osmExtract('monaco')));
  const server = createServer((request, res) => {
    res.writeHead(200, { 'Content-Length': encoded.length, 'Content-Encoding': 'gzip' });
    // /short sends half the body, then ends the connection
    if (request.url === '/short.osm.pbf') res.write(encoded.subarray(0, encoded.length >> 1), () => res.destroy());
    else res.end(encoded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    const liveSha = sha(live);
    const short = await runImport(`${url}/short.osm.pbf`, '--quiet');
    assertRefused(short, 4, /download of http:\/\/127\.0\.0\.1:\d+\/short\.osm\.pbf broke off/, liveSha);
    const result = await runImport(`${url}/monaco.osm.pbf`, '--quiet', '--threads', '0');
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('.download')), []);
  } finally {
    server.close();
  }
});

test('wrong arguments are a usage error (exit 2)', async () => {
  const result = await runImportCommand([]);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /usage: npm run import/);
  assert.equal((await runImportCommand(['x.pbf', '--threads', 'many'])).status, 2);
});
