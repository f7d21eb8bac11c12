// Adding a feature is its folder and one line in src/features.ts (docs/ARCHITECTURE.md, "Adding a
// feature"): a small example feature, an operation with a problem type of its own, a table in the accounts
// database, a setting and a subcommand of `npm run moderate`, is added to the list and taken off again.
// With it, the registry, the OpenAPI document, the problem catalogue, the accounts database's steps, the
// configuration and the operator's command have its parts, and its operation is served behind the guard
// chain; without it, none of them has. A step number, an operation or a setting another feature already
// has is refused when the list is made.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { FEATURES } from '../../src/features.js';
import type { FeatureSlice } from '../../src/feature.js';
import { operationsOf, rateLimitsOf } from '../../src/operations.js';
import { problemTypesOf } from '../../src/problems.js';
import { ACCOUNTS_MIGRATIONS, accountsMigrationsOf } from '../../src/databases.js';
import { RATE_LIMITED, operationIn, type OperationSpec } from '../../src/schemas/operations.js';
import type { ProblemSlug, ProblemTypes } from '../../src/http/problem-types.js';
import type { Migration } from '../../src/storage/migrations.js';
import { userVersion } from '../../src/storage/migrations.js';
import { GuardChain } from '../../src/api/guards.js';
import { importedCopy, tempDir } from '../support/extracts.js';
import { serve, FIXED_NOW, SERVER_ENV, type Served } from '../support/server.js';
import { featureSettings, loadConfig } from '../../src/config.js';
import { integer } from '../../src/config-values.js';
import { accountsDatabase } from '../../src/accounts/store.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-store.js';
import type { CommandPart } from '../../src/cli/subcommands.js';
import { commandPartsOf, moderate } from '../../src/moderation/moderate-cli.js';
import { keptStream } from '../support/streams.js';

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

/** Its own rate-limit policy, counted in a table of its own, its quota from a setting. */
const NOTES_POLICY = { name: 'example-per-ip', quota: 60, windowSeconds: 60 } as const;

const GET_NOTE: OperationSpec = {
  operationId: 'getExampleNote',
  method: 'get',
  path: '/example-notes/{id}',
  summary: 'Fetch one note',
  description: 'The example feature of test/architecture/example-feature.test.ts.',
  pathParams: { id: { type: 'string', pattern: '^n_[0-9]+$' } },
  rateLimit: NOTES_POLICY,
  success: { status: 200, description: 'The note.', schema: 'CreatedAnswer' },
  errors: { 404: 'No note has the id.', 429: RATE_LIMITED },
};

/** Its command module (a folder's `commands.ts`): `npm run moderate -- notes add <id> <text> --reason TEXT`. */
const NOTES_COMMANDS: CommandPart = {
  subcommands: [
    {
      name: 'notes',
      words: ['add', '<note id>', '<text>'],
      changes: true,
      help: ['  notes add <note id> <text> --reason TEXT       keep a note (the example feature)'],
      run: (run) => {
        const [verb, id, text] = run.args;
        if (verb !== 'add') return run.usage('write moderate -- notes add <note id> <text> --reason "TEXT"');
        // the accounts database with the steps of the list the example is on, as the server opened it
        const store = new SqliteAccountsStore(loadConfig(run.env).accountsDb, accountsDatabase(accountsMigrationsOf([...FEATURES, EXAMPLE_SLICE])));
        run.defer(() => void store.close());
        store.db.prepare('INSERT INTO example_notes VALUES (?, ?)').run(id, text);
        run.show({ done: `kept ${id}` }, () => `kept ${id}`);
        return 0;
      },
    },
  ],
};

const EXAMPLE_SLICE = {
  name: 'example',
  operations: [GET_NOTE],
  problems: EXAMPLE_PROBLEMS,
  tables: { accounts: [NOTES_TABLE_STEP] },
  rateLimits: [{ policy: NOTES_POLICY, setting: 'rateLimitPerMinute' }],
  // in a folder: its config.ts's reader
  settings: (env) => ({ exampleNotesMax: integer(env, 'EXAMPLE_NOTES_MAX', 100, 1, 1_000_000) }),
  // in a folder: () => import('./commands.js')
  commands: () => Promise.resolve({ COMMANDS: NOTES_COMMANDS }),
} satisfies FeatureSlice;

/** `npm run moderate -- ...argv` with the subcommands of `slices`, on the server's databases. */
async function operator(served: Served, name: string, slices: readonly FeatureSlice[], argv: string[]) {
  const [stdout, stderr] = [keptStream(), keptStream()];
  const env = { ...SERVER_ENV, TOILETS_DB: db, OVERLAY_DB: join(dir.path, `${name}-overlay.db`), ACCOUNTS_DB: served.app.config.accountsDb };
  const status = await moderate(await commandPartsOf(slices), argv, { env, stdout, stderr });
  return { status, stdout: stdout.text, stderr: stderr.text };
}

/** Its running part: the operation's route, behind the guard chain, over its table. */
function serveNotes(served: Served): void {
  const { app } = served;
  const guards = new GuardChain({ config: loadConfig({ ...SERVER_ENV, TOILETS_DB: db }), limits: app.limits, problems: app.problems, now: () => FIXED_NOW });
  const read = app.accounts.file.db.prepare<[string], { text: string }>('SELECT text FROM example_notes WHERE id = ?');
  guards.operation(app.server, GET_NOTE, {
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
    assert.match(found.headers.get('ratelimit') ?? '', /^"example-per-ip";r=/, 'the guard chain counted it under its own policy');
    const missing = await served.call('/api/v1/example-notes/n_2');
    assert.deepEqual([missing.status, missing.json.type], [404, 'https://toilets.example.test/problems/no-such-note']);

    const help = await operator(served, 'with', slices, ['--help']);
    assert.match(help.stdout, /\n {2}notes add <note id> <text> --reason TEXT {7}keep a note/);
    assert.match(help.stdout, /\n {2}log \[--limit N\]/, 'beside the moderation\'s own');
    assert.equal((await operator(served, 'with', slices, ['notes', 'add', 'n_2', 'from the operator'])).status, 2, 'a change needs its reason');
    const added = await operator(served, 'with', slices, ['notes', 'add', 'n_2', 'from the operator', '--reason', 'example']);
    assert.deepEqual([added.status, added.stdout], [0, 'kept n_2\n']);
    assert.deepEqual((await served.call('/api/v1/example-notes/n_2')).json, { text: 'from the operator' });
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
    const notes = await operator(served, 'without', FEATURES, ['notes', 'add', 'n_1', 'x', '--reason', 'x']);
    assert.deepEqual([notes.status, notes.stderr.split('\n')[0]], [2, 'moderate: unknown command "notes": write one of list, approve, reject, plan, lock, unlock, gone, log, moderators, accounts']);
  } finally {
    await served.close();
  }
});

test('a feature that takes a step number or an operation another feature has is refused when the list is made', () => {
  const clash: Migration = { ...NOTES_TABLE_STEP, version: 5 };
  assert.throws(() => accountsMigrationsOf([...FEATURES, { name: 'clash', tables: { accounts: [clash] } }]), /two steps numbered 5/);
  const gap: Migration = { ...NOTES_TABLE_STEP, version: NOTES_TABLE_STEP.version + 1 };
  assert.throws(() => accountsMigrationsOf([...FEATURES, { name: 'gap', tables: { accounts: [gap] } }]), new RegExp(`has no step ${NOTES_TABLE_STEP.version} `));
  assert.throws(() => rateLimitsOf([...FEATURES, EXAMPLE_SLICE, { name: 'again', rateLimits: EXAMPLE_SLICE.rateLimits }]), /two rate-limit policies are named example-per-ip/);
  const getToilet = operationIn(operationsOf(FEATURES), 'getToilet');
  assert.throws(() => operationsOf([...FEATURES, { name: 'twice', operations: [getToilet] }]), /two operations are getToilet/);
  assert.throws(() => problemTypesOf([...FEATURES, EXAMPLE_SLICE, { name: 'again', problems: EXAMPLE_PROBLEMS }]), /no-such-note is declared twice/);
});

test("a feature's settings join the configuration, and a setting another feature or the service has is refused", () => {
  const service = { toiletsDb: db, overlayDb: join(dir.path, 'overlay.db'), trustProxy: 0 };
  const settings = featureSettings([...FEATURES, EXAMPLE_SLICE], { EXAMPLE_NOTES_MAX: '7' }, service);
  assert.deepEqual([settings.exampleNotesMax, settings.metrics], [7, true], "beside the other features' own");
  assert.equal('exampleNotesMax' in featureSettings(FEATURES, {}, service), false);
  assert.throws(() => featureSettings([...FEATURES, { name: 'again', settings: () => ({ metrics: false }) }], {}, service), /the feature observe and the feature again both have a setting named metrics/);
  assert.throws(() => featureSettings([{ name: 'again', settings: () => ({ trustProxy: 1 }) }], {}, service), /the service and the feature again both have a setting named trustProxy/);
});
