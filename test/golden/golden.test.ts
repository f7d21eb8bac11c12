// The golden test: what clients see (recorder.ts) is what test/golden/*.json recorded. A difference is a
// bug, or a deliberate change of what clients see, recorded in a commit of its own with
// `GOLDEN_UPDATE=1 node --test dist/test/golden/golden.test.js` and its reason in the commit message.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_DIR } from '../support/paths.js';
import { recordGolden, type GoldenRecord } from './recorder.js';

const GOLDEN_DIR = join(REPO_DIR, 'test', 'golden');

test('clients see exactly what the golden files recorded', async () => {
  const recorded = await recordGolden();
  for (const [name, record] of Object.entries(recorded) as [string, GoldenRecord][]) {
    const file = join(GOLDEN_DIR, `${name}.json`);
    if (process.env.GOLDEN_UPDATE === '1') {
      writeFileSync(file, JSON.stringify(record, null, 1) + '\n');
      continue;
    }
    const golden = JSON.parse(readFileSync(file, 'utf8')) as GoldenRecord;
    assert.deepEqual(record.routes, golden.routes, `${name}: the routes differ from ${file}`);
    const requests = (r: GoldenRecord) => r.answers.map((a) => `${a.request.method} ${a.request.path} ${JSON.stringify(a.request.headers ?? {})}`);
    assert.deepEqual(requests(record), requests(golden), `${name}: the set of requests differs from ${file}`);
    record.answers.forEach((answer, i) => {
      assert.deepEqual(answer, golden.answers[i], `${name}: ${answer.request.method} ${answer.request.path} answers differently from ${file}`);
    });
  }
});
