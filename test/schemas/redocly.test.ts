// The OpenAPI document lints clean with Redocly CLI (a devDependency) under the repository's redocly.yaml:
// its recommended rules, no error and no warning, with and without deprecated operations (which add
// headers). Run here so that `npm test` stays the one command CI runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { buildOpenApi } from '../../src/schemas/openapi.js';
import { OPERATIONS } from '../../src/operations.js';
import { REPO_DIR } from '../support/paths.js';

const CLI = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

async function lint(document: unknown): Promise<LintReport> {
  const dir = mkdtempSync(join(tmpdir(), 'toilet-redocly-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    // exits 1 when it finds errors: the report on stdout says which
    const run = await promisify(execFile)(process.execPath, [CLI, 'lint', file, '--config', join(REPO_DIR, 'redocly.yaml'), '--format=json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((error: { stdout?: string; message: string }) => {
      if (!error.stdout) throw error;
      return { stdout: error.stdout };
    });
    return JSON.parse(run.stdout) as LintReport;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const deprecated of [[], ['findToiletsNear', 'getToilet']]) {
  test(`the OpenAPI document lints clean with Redocly CLI${deprecated.length > 0 ? ', deprecated operations too' : ''}`, async () => {
    const report = await lint(buildOpenApi({ baseUrl: 'https://toilets.example.org', deprecated, operations: OPERATIONS }));
    const problems = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    assert.deepEqual(problems, []);
    assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
  });
}
