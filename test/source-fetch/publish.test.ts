// The job side: `npm run publish-source -- DIR` puts the source database, the tiles and the dump beside
// their checksum files, leaves unchanged ones alone, refuses a file a replica would refuse; and a real
// nginx serving DIR (as docs/SCALING.md sets it up) is all a replica needs: its ETag makes the checks 304s,
// a new import published reaches the replica.
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { keptStream } from '../support/streams.js';
import { freePort, startNginx } from '../support/nginx.js';
import { importedCopy, serve, tempDir, type Served } from '../api/support.js';
import { main } from '../../src/source-fetch/publish-cli.js';
import { sha256Of } from './publisher.js';
import { ManualTimers, variantOf } from './support.js';

const nginxFound = spawnSync('nginx', ['-v']).status === 0;
if (!nginxFound && process.env.CI === 'true') throw new Error('nginx is missing: .ci/run installs it (apt-get install nginx-light)');

async function publishInto(dir: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const [stdout, stderr] = [keptStream(), keptStream()];
  const code = await main([dir], { env, stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('npm run publish-source, served by nginx to a replica', () => {
  const dir = tempDir('publish');
  const job = join(dir.path, 'job');
  const published = join(dir.path, 'published');
  const env = { TOILETS_DB: join(job, 'toilets.db'), DUMP_DIR: join(job, 'dumps') };
  const umask = process.umask(0o077); // as the refresh unit has it
  let imported = '';

  before(async () => {
    mkdirSync(join(job, 'dumps'), { recursive: true });
    imported = join(dir.path, 'imported.db');
    await importedCopy('monaco', imported);
    writeFileSync(join(job, 'toilets.db'), variantOf(imported, dir.path, 'v1.db', { imported_at: '2026-03-01T00:00:00.000Z' }));
    writeFileSync(join(job, 'dumps', 'NOTICE.txt'), 'ODbL\n');
  });
  after(() => {
    process.umask(umask);
    dir.remove();
  });

  test('publishes each file beside its checksum, then leaves unchanged ones alone', async () => {
    const first = await publishInto(published, env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^published dumps\/NOTICE\.txt [0-9a-f]{64}\npublished toilets\.db [0-9a-f]{64}\n$/);
    assert.deepEqual(readdirSync(published).sort(), ['dumps', 'toilets.db', 'toilets.db.sha256']);
    const body = readFileSync(join(published, 'toilets.db'));
    assert.equal(readFileSync(join(published, 'toilets.db.sha256'), 'latin1'), `${sha256Of(body)}  toilets.db\n`, 'sha256sum -c reads it');
    assert.equal(readFileSync(join(published, 'dumps', 'NOTICE.txt.sha256'), 'latin1'), `${sha256Of(Buffer.from('ODbL\n'))}  NOTICE.txt\n`);
    for (const path of ['', 'dumps', 'toilets.db', 'toilets.db.sha256', 'dumps/NOTICE.txt']) {
      assert.equal(statSync(join(published, path)).mode & 0o777, path.includes('.') ? 0o644 : 0o755, `${path} is readable by the web server's user`);
    }
    const stamp = statSync(join(published, 'toilets.db.sha256')).mtimeMs;
    const again = await publishInto(published, env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^unchanged dumps\/NOTICE\.txt [0-9a-f]{64}\nunchanged toilets\.db [0-9a-f]{64}\n$/);
    assert.equal(statSync(join(published, 'toilets.db.sha256')).mtimeMs, stamp, 'the checksum file (its ETag) is untouched');
  });

  test('a source database a replica would refuse is not published, and what DIR held stays', async () => {
    const broken = join(dir.path, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'toilets.db'), 'not a database');
    const before = readFileSync(join(published, 'toilets.db'));
    const run = await publishInto(published, { TOILETS_DB: join(broken, 'toilets.db') });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /toilets\.db is not published: it is not a SQLite database/);
    assert.deepEqual(readFileSync(join(published, 'toilets.db')), before);
    const missing = await publishInto(published, { TOILETS_DB: join(broken, 'none.db') });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /there is no source database at .*none\.db \(TOILETS_DB\): run `npm run import` first/);
  });

  describe('nginx serving DIR', { skip: nginxFound ? false : 'nginx is not installed (apt-get install nginx-light)' }, () => {
    let nginx: ChildProcess;
    let replica: Served;

    before(async () => {
      chmodSync(dir.path, 0o755); // nginx's workers run as another user (nobody, when the tests run as root)
      const port = await freePort();
      const web = join(dir.path, 'nginx');
      mkdirSync(web);
      writeFileSync(join(web, 'site.conf'), `server {\n  listen 127.0.0.1:${port};\n  root ${published};\n}\n`);
      nginx = await startNginx(web, port);
      const home = join(dir.path, 'replica');
      mkdirSync(home);
      replica = await serve({ db: join(home, 'toilets.db'), sourceFetchTimers: new ManualTimers(), env: { TOILETS_DB_URL: `http://127.0.0.1:${port}/toilets.db` } });
    });
    after(async () => {
      nginx?.kill('SIGTERM');
      await replica?.close();
    });

    test('the replica fetches what was published, gets 304s while nothing changes, and the next import', async () => {
      const file = replica.app.sourceFetch.toilets!;
      await replica.app.sourceFetch.checkNow(); // the start's own check, or one after it
      const shown = (await replica.call('/status')).json;
      assert.equal(shown.imported_at, '2026-03-01T00:00:00.000Z', JSON.stringify(shown.source_fetch));
      assert.equal(await file.checkNow(), 'unchanged', 'nginx answered If-None-Match with 304');
      assert.match(file.status().etag ?? '', /^"[0-9a-f]+-[0-9a-f]+"$/, "nginx's ETag");
      // the next nightly import renames a new file over TOILETS_DB; the publish links it into DIR
      const next = join(job, 'next.db');
      writeFileSync(next, variantOf(imported, dir.path, 'v2.db', { imported_at: '2026-03-02T00:00:00.000Z' }));
      renameSync(next, join(job, 'toilets.db'));
      assert.equal((await publishInto(published, env)).code, 0);
      assert.equal(await file.checkNow(), 'fetched');
      assert.equal((await replica.call('/status')).json.imported_at, '2026-03-02T00:00:00.000Z');
    });
  });
});

