// Adding a feature is its folder and one line in src/features.ts (docs/ARCHITECTURE.md, "Adding a
// feature"): a small example feature, an operation with a problem type of its own and a table in the
// accounts database, is added to the list and taken off again. With it, the registry, the OpenAPI document,
// the problem catalogue and the accounts database's steps have its parts, and its operation is served
// behind the guard chain; without it, none of them has. A step number or an operation another feature
// already has is refused when the list is made.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { FEATURES } from '../../src/features.js';
import type { FeatureSlice } from '../../src/feature.js';
import { operationsOf } from '../../src/operations.js';
import { problemTypesOf } from '../../src/problems.js';
import { ACCOUNTS_MIGRATIONS, accountsMigrationsOf } from '../../src/databases.js';
import { RATE_LIMIT_POLICIES, RATE_LIMITED, operationIn, type OperationSpec } from '../../src/schemas/operations.js';
import type { ProblemSlug, ProblemTypes } from '../../src/http/problem-types.js';
import type { Migration } from '../../src/storage/migrations.js';
import { userVersion } from '../../src/storage/migrations.js';
import { GuardChain } from '../../src/api/guards.js';
import { importedCopy, tempDir } from '../support/extracts.js';
import { serve, FIXED_NOW, SERVER_ENV, type Served } from '../support/server.js';
import { loadConfig } from '../../src/config.js';

// --- the example feature's folder: its problem type, its table, its operation, its slice ---

const EXAMPLE_PROBLEMS = {
  'no-such-note': { title: 'No such note', status: 404, description: 'No note has this id. Check the id.' },
} as const satisfies ProblemTypes;

/** The next free number of the accounts database, as a new feature's step takes it. */
const NOTES_TABLE_STEP: Migration = {
  version: ACCOUNTS_MIGRATIONS.length + 1,
  name: 'example notes',
  up: (db) => db.exec('CREATE TABLE example_notes (id TEXT PRIMARY KEY, text TEXT NOT NULL) STRICT'),
};

const GET_NOTE: OperationSpec = {
  operationId: 'getExampleNote',
  method: 'get',
  path: '/example-notes/{id}',
  summary: 'Fetch one note',
  description: 'The example feature of test/architecture/example-feature.test.ts.',
  pathParams: { id: { type: 'string', pattern: '^n_[0-9]+$' } },
  rateLimit: RATE_LIMIT_POLICIES.perIp,
  success: { status: 200, description: 'The note.', schema: 'CreatedAnswer' },
  errors: { 404: 'No note has the id.', 429: RATE_LIMITED },
};

const EXAMPLE_SLICE = { name: 'example', operations: [GET_NOTE], problems: EXAMPLE_PROBLEMS, tables: { accounts: [NOTES_TABLE_STEP] } } satisfies FeatureSlice;

/** Its running part: the operation's route, behind the guard chain, over its table. */
function serveNotes(served: Served): void {
  const { app } = served;
  const guards = new GuardChain({ config: loadConfig({ ...SERVER_ENV, TOILETS_DB: db }), limits: app.limits, problems: app.problems, now: () => FIXED_NOW });
  const read = app.accounts.file.db.prepare<[string], { text: string }>('SELECT text FROM example_notes WHERE id = ?');
  guards.operation<null>(app.server, GET_NOTE, {
    exists: (request) => (read.get(request.params.id) ? null : { slug: 'no-such-note' as ProblemSlug, detail: `No note has the id ${request.params.id}; check it.` }),
    handle: (request, context) => ({ status: 200, headers: ['Content-Type', 'application/json', ...context.headers], body: JSON.stringify({ text: read.get(request.params.id)!.text }) }),
  });
}

// --- the service with the example feature on its list, and without ---

const dir = tempDir('toilet-example-feature');
let db = '';
before(async () => {
  db = join(dir.path, 'toilets.db');
  await importedCopy('monaco', db);
});
after(() => dir.remove());

/** A server with its own overlay and accounts databases, over the list of features given. */
async function service(name: string, slices: readonly FeatureSlice[]): Promise<Served> {
  return serve({ db, overlayDb: join(dir.path, `${name}-overlay.db`), env: { ACCOUNTS_DB: join(dir.path, `${name}-accounts.db`) }, slices });
}

test('a feature on the list is in the registry, the OpenAPI document, the problem catalogue and the accounts database, and its operation is served', async () => {
  const slices = [...FEATURES, EXAMPLE_SLICE] as const;
  assert.equal(operationIn(operationsOf(slices), 'getExampleNote'), GET_NOTE);
  assert.equal(problemTypesOf(slices)['no-such-note'].status, 404);
  assert.equal(accountsMigrationsOf(slices).at(-1), NOTES_TABLE_STEP);

  const served = await service('with', slices);
  try {
    serveNotes(served);
    const openApi = (await served.call('/api/v1/openapi.json')).json;
    assert.deepEqual(Object.keys(openApi.paths['/example-notes/{id}'].get.responses).sort(), ['200', '404', '429']);
    assert.equal(openApi.paths['/example-notes/{id}'].get.operationId, 'getExampleNote');
    assert.equal((await served.call('/problems/no-such-note')).status, 200);

    assert.equal(userVersion(served.app.accounts.file.db), NOTES_TABLE_STEP.version);
    served.app.accounts.file.db.prepare("INSERT INTO example_notes VALUES ('n_1', 'hello')").run();
    const found = await served.call('/api/v1/example-notes/n_1');
    assert.deepEqual([found.status, found.json], [200, { text: 'hello' }]);
    assert.ok(found.headers.get('ratelimit-limit'), 'the guard chain counted it');
    const missing = await served.call('/api/v1/example-notes/n_2');
    assert.deepEqual([missing.status, missing.json.type], [404, 'https://toilets.example.test/problems/no-such-note']);
  } finally {
    await served.close();
  }
});

test('taken off the list, the feature is in none of them', async () => {
  assert.ok(!operationsOf(FEATURES).some((operation) => operation.operationId === 'getExampleNote'));
  assert.ok(!Object.keys(problemTypesOf(FEATURES)).includes('no-such-note'));
  const served = await service('without', FEATURES);
  try {
    const openApi = (await served.call('/api/v1/openapi.json')).json;
    assert.equal(openApi.paths['/example-notes/{id}'], undefined);
    assert.ok(openApi.paths['/toilets/{id}'], 'the document is the service’s own');
    assert.equal((await served.call('/problems/no-such-note')).status, 404);
    assert.equal(userVersion(served.app.accounts.file.db), ACCOUNTS_MIGRATIONS.length);
    const table = served.app.accounts.file.db.prepare("SELECT name FROM sqlite_master WHERE name = 'example_notes'").get();
    assert.equal(table, undefined);
    assert.equal((await served.call('/api/v1/example-notes/n_1')).json.type, 'https://toilets.example.test/problems/not-found');
  } finally {
    await served.close();
  }
});

test('a feature that takes a step number or an operation another feature has is refused when the list is made', () => {
  const clash: Migration = { ...NOTES_TABLE_STEP, version: 5 };
  assert.throws(() => accountsMigrationsOf([...FEATURES, { name: 'clash', tables: { accounts: [clash] } }]), /two steps numbered 5/);
  const gap: Migration = { ...NOTES_TABLE_STEP, version: NOTES_TABLE_STEP.version + 1 };
  assert.throws(() => accountsMigrationsOf([...FEATURES, { name: 'gap', tables: { accounts: [gap] } }]), new RegExp(`has no step ${NOTES_TABLE_STEP.version} `));
  const getToilet = operationIn(operationsOf(FEATURES), 'getToilet');
  assert.throws(() => operationsOf([...FEATURES, { name: 'twice', operations: [getToilet] }]), /two operations are getToilet/);
  assert.throws(() => problemTypesOf([...FEATURES, EXAMPLE_SLICE, { name: 'again', problems: EXAMPLE_PROBLEMS }]), /no-such-note is declared twice/);
});
