// Settings a release retired (src/config.ts, RETIRED_SETTINGS): a start with one set serves, and logs one
// warning naming it and what to do instead; unset or empty, nothing. The mechanism is checked on a table of
// the test's own (UWS_ALLOW_FALLBACK, which the HTTP transport's change retires for HTTP_TRANSPORT), so it
// holds before any row is in the real table; each real row must be documented: gone from README's
// Configuration table, named in CHANGELOG.md under an "Upgrading" heading of the release that retired it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { retiredSettingWarnings, RETIRED_SETTINGS, type RetiredSetting } from '../../src/config.js';
import { jsonLogger } from '../../src/log.js';
import { serve } from '../../src/serve.js';
import { importedCopy, tempDir } from '../support/extracts.js';
import { REPO_DIR } from '../support/paths.js';
import { keptStream } from '../support/streams.js';
import { releaseSections, sectionOf } from './changelog.js';

const FALLBACK: RetiredSetting = { name: 'UWS_ALLOW_FALLBACK', since: '0.2.0', instead: 'use HTTP_TRANSPORT', example: '1' };
const OTHER: RetiredSetting = { name: 'OLD_CACHE_SIZE', since: '0.2.0', instead: 'the cache sizes itself now', example: '64' };

test('one warning per retired setting that is set, saying what to do; none for unset or empty ones', () => {
  assert.deepEqual(retiredSettingWarnings({}, [FALLBACK, OTHER]), []);
  assert.deepEqual(retiredSettingWarnings({ UWS_ALLOW_FALLBACK: '' }, [FALLBACK, OTHER]), [], 'empty counts as unset');
  const warnings = retiredSettingWarnings({ UWS_ALLOW_FALLBACK: '1', PORT: '8080' }, [FALLBACK, OTHER]);
  assert.deepEqual(warnings, ['UWS_ALLOW_FALLBACK is set but was retired in 0.2.0 and is ignored: use HTTP_TRANSPORT; remove it from the environment (CHANGELOG.md, "Upgrading")']);
  assert.equal(retiredSettingWarnings({ UWS_ALLOW_FALLBACK: '1', OLD_CACHE_SIZE: '64' }, [FALLBACK, OTHER]).length, 2);
});

test('a start with a retired setting serves and logs its warning once, before serving', async () => {
  const dir = tempDir('toilet-retired');
  const [out, err] = [keptStream(), keptStream()];
  try {
    const db = join(dir.path, 'toilets.db');
    await importedCopy('monaco', db);
    const env = { PORT: '0', HOST: '127.0.0.1', HTTP_THREADS: '1', TOILETS_DB: db, UWS_ALLOW_FALLBACK: '1' };
    const serving = await serve(env, (level) => jsonLogger(out, err, level), [FALLBACK]);
    try {
      assert.equal((await fetch(`http://127.0.0.1:${serving.port}/status`)).status, 200);
    } finally {
      await serving.app.close();
    }
    const lines = out.text.trim().split('\n').map((line) => JSON.parse(line) as { level: string; message: string });
    const named = lines.filter((line) => line.message.includes('UWS_ALLOW_FALLBACK'));
    assert.deepEqual(named.map((line) => [line.level, line.message]), [['warn', retiredSettingWarnings(env, [FALLBACK])[0]]]);
    assert.equal(err.text, '', 'no error');
  } finally {
    dir.remove();
  }
});

test("every real retired setting: out of README's settings, in CHANGELOG.md's Upgrading of its release, with a value", () => {
  const readme = readFileSync(join(REPO_DIR, 'README.md'), 'utf8');
  const sections = releaseSections(readFileSync(join(REPO_DIR, 'CHANGELOG.md'), 'utf8'));
  const packageVersion = (JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')) as { version: string }).version;
  for (const { name, since, example } of RETIRED_SETTINGS) {
    assert.ok(!readme.includes(`| \`${name}\` |`), `${name} is retired: take its row out of README's Configuration table`);
    const section = sectionOf(sections, since, packageVersion);
    assert.ok(section, `CHANGELOG.md has a section for ${since}, which retired ${name}`);
    assert.ok(section.upgrading.includes(`\`${name}\``), `CHANGELOG.md ${since}, "Upgrading", names ${name}`);
    assert.notEqual(example, '', `${name}: a value earlier releases accepted`);
  }
});
