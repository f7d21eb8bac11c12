// The overlay database on a disk that fills up, through the real server (node dist/src/main.js) on a real
// filesystem: a small tmpfs mounted in a private mount namespace (unshare), filled from outside through
// /proc/<pid>/root. A contribution the disk cannot take is answered 503 with Retry-After (the spec's
// "database unavailable", which clients wait out and resend) rather than 500, the operator's log says why,
// what was accepted before stays, reads go on, and contributions are taken again once there is room. The
// operator's commands (moderate, dump) say so in one line and leave what was there as it was.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DUMP_FILES } from '../../src/dumps/dump.js';
import { noMountNamespace, UNSHARE } from '../support/mount-namespace.js';
import { deviceId, importedData, operatorCommand, readSourceToilets, serviceClient, startMain, type Data, type MainProcess } from './support.js';

let data: Data;
let server: MainProcess;
let disk: string;
/** Where the server, and the operator's commands beside it, keep their files: on the small disk. */
let onDisk: Record<string, string>;

before(async () => {
  if (noMountNamespace) return;
  data = await importedData('monaco');
  disk = join(data.dir, 'disk');
  mkdirSync(disk);
  onDisk = { OVERLAY_DB: join(disk, 'overlay.db'), DUMP_DIR: join(disk, 'dumps') };
  // sh mounts the tmpfs in the new namespace, then becomes the server (same pid: /proc/<pid>/root shows the mount)
  const launcher = [...UNSHARE, 'sh', '-c', 'mount -t tmpfs -o size=4m tmpfs "$0" && exec "$@"', disk];
  server = await startMain(data, { env: onDisk, launcher });
  await server.logged(/wrote the first open data dump/); // the server's own, in the background: not mixed with the test's
});

after(async () => {
  if (noMountNamespace) return;
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
  data.remove();
});

test('a full disk: contributions 503 with Retry-After, nothing accepted is lost, and they are taken again once there is room', { skip: noMountNamespace }, async () => {
  const client = serviceClient(server.url);
  const [first, second] = readSourceToilets(data.toiletsDb).map((t) => t.id);
  const rated = await client.post(`/api/v1/toilets/${first}/ratings`, { rating: 4, device_id: deviceId(1) });
  assert.equal(rated.status, 201);
  const proposed = await client.post('/api/v1/submissions', { lat: 43.7384, lon: 7.4246, name: 'Kiosk' });
  assert.equal(proposed.status, 201);
  // the moderation command on the same database file, in the server's namespaces (SQLite resolves the
  // /proc/<pid>/root link, so only plain file operations can go through it)
  const inServerNamespaces = ['nsenter', '--target', String(server.child.pid), '--user', '--mount', '--preserve-credentials'];
  const approve = () => operatorCommand('moderate-cli', data, ['approve', proposed.json.id, '--reason', 'seen it'], onDisk, inServerNamespaces);
  const dump = () => operatorCommand('dump-cli', data, [], onDisk, inServerNamespaces);
  const dumpDir = join(`/proc/${server.child.pid}/root`, disk, 'dumps');
  const dumped = () => Object.fromEntries(readdirSync(dumpDir).sort().map((name) => [name, readFileSync(join(dumpDir, name)).toString('base64')]));
  assert.equal(dump().status, 0);
  const firstDump = dumped();
  assert.deepEqual(Object.keys(firstDump), Object.values(DUMP_FILES).sort());

  // the server's view of the disk, filled until the kernel refuses
  const filler = join(`/proc/${server.child.pid}/root`, disk, 'filler');
  assert.throws(() => {
    for (;;) appendFileSync(filler, Buffer.alloc(64 * 1024));
  }, { code: 'ENOSPC' });

  const refused = [
    await client.post(`/api/v1/toilets/${second}/ratings`, { rating: 2, device_id: deviceId(2) }, { ip: '198.51.100.2' }),
    await client.post(`/api/v1/toilets/${second}/confirmations`, {}, { ip: '198.51.100.3' }),
    await client.post('/api/v1/submissions', { lat: 43.739, lon: 7.425, name: 'Café' }, { ip: '198.51.100.4' }),
  ];
  for (const answer of refused) {
    assert.equal(answer.status, 503, JSON.stringify(answer.json));
    assert.equal(answer.headers.get('content-type'), 'application/problem+json');
    assert.match(answer.json.type, /\/problems\/unavailable$/);
    assert.match(answer.json.detail, /the disk is full\. Send the request again in 60 seconds/);
    assert.equal(answer.headers.get('retry-after'), '60');
    assert.equal(answer.json.retry_after_seconds, 60);
  }
  assert.match(server.stderr(), /"storage unavailable: the disk is full"/);
  assert.doesNotMatch(server.stderr(), /"request failed"/);
  const refusedDump = dump();
  assert.equal(refusedDump.status, 1, refusedDump.stderr);
  assert.match(refusedDump.stderr, /^cannot write the dump to \S+\/dumps: the disk is full \(.*\); the previous dump is unchanged\n$/);
  assert.deepEqual(dumped(), firstDump, 'the previous dump whole, and no partial file left');
  const refusedApproval = approve();
  assert.equal(refusedApproval.status, 1, refusedApproval.stderr);
  assert.match(refusedApproval.stderr, /^the overlay database cannot be changed now: the disk is full \(.*\); nothing was changed, run the command again once that is mended\n$/);

  // reads go on, with what was accepted before
  assert.deepEqual((await client.toilet(first)).cleanliness, { average: 4, count: 1 });
  assert.equal((await client.toilet(second)).cleanliness, null);

  rmSync(filler);
  const again = await client.post(`/api/v1/toilets/${second}/ratings`, { rating: 2, device_id: deviceId(2) }, { ip: '198.51.100.2' });
  assert.equal(again.status, 201, JSON.stringify(again.json));
  assert.deepEqual((await client.toilet(second)).cleanliness, { average: 2, count: 1 });
  assert.deepEqual((await client.toilet(first)).cleanliness, { average: 4, count: 1 });
  const approved = approve();
  assert.equal(approved.status, 0, approved.stderr);
  assert.match(approved.stdout, /it is toilet c_\d+/);
});

test('a server started with its overlay database on a full disk says which file and why, and exits 1', { skip: noMountNamespace }, async () => {
  const fullDisk = join(data.dir, 'full-disk');
  mkdirSync(fullDisk);
  const launcher = [...UNSHARE, 'sh', '-c', 'mount -t tmpfs -o size=256k tmpfs "$0" && { head -c 1000000 /dev/zero > "$0/filler"; exec "$@"; }', fullDisk];
  const overlayDb = join(fullDisk, 'overlay.db');
  await assert.rejects(startMain(data, { env: { OVERLAY_DB: overlayDb }, launcher }), (error: Error) => {
    assert.match(error.message, /^the server exited with code 1 before serving/);
    const line = error.message.split('\n').find((l) => l.includes('start failed'));
    assert.ok(line, error.message);
    const entry = JSON.parse(line);
    assert.match(entry.message, new RegExp(`^start failed: cannot open the overlay database ${overlayDb}: .+ \\(the disk is full\\)$`));
    return true;
  });
});
