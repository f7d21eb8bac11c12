// The layers of the code base, stated as data and checked over the import graph of the sources
// (docs/ARCHITECTURE.md, "Layers"). A folder imports only the folders listed for it; the shared rules import
// nothing of the project; the importer and the server meet only through src/rules, the importer's entry
// file and the few src folders the import needs; a read thread loads no SQLite, community, account or
// billing code; nothing imports in a circle.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importCycles, importGraph, runtimeClosure, runtimePath } from './import-graph.js';
import { REPO_DIR } from '../support/paths.js';

const graph = importGraph(REPO_DIR, ['src', 'importer']);

/** The command paths of the previous release, kept for one release: they only run the commands' new modules. */
const OLD_ENTRY_POINTS = ['src/community/dump-cli.ts', 'src/community/moderate-cli.ts'];

/** A feature's registry entries, the named schemas they give (`resources.ts`) and its rate-limit policies (`rate-limits.ts`). */
const OPERATIONS_MODULE = /^src\/[a-z-]+\/(([a-z-]+-)?operations|resources|rate-limits)\.ts$/;
/** The features' slices and the one list of them (src/feature.ts): data. */
const SLICE_MODULE = /^src\/(features|[a-z-]+\/slice)\.ts$/;

/**
 * A module's layer: its folder under src/ ('src/api'), a top-level file ('src/config'), or 'importer'. A
 * feature's settings (`src/<feature>/config.ts`) are part of the configuration layer, and its operations
 * (`operations.ts`, `*-operations.ts`: registry entries), their schemas (`resources.ts`) and rate-limit
 * policies (`rate-limits.ts`) part of the
 * registry's (src/schemas): the feature
 * declares them in its folder, and they import nothing of it. Its slice (`slice.ts`) and the list of all
 * (src/features.ts) are the declarations' layer, which names the feature's data modules.
 */
function layerOf(module: string): string {
  const parts = module.split('/');
  if (parts[0] === 'importer') return 'importer';
  if (parts.length === 3 && parts[2] === 'config.ts') return 'src/config';
  if (OPERATIONS_MODULE.test(module)) return 'src/schemas';
  if (SLICE_MODULE.test(module)) return 'declarations';
  if (OLD_ENTRY_POINTS.includes(module)) return 'old entry points';
  return parts.length > 2 ? `src/${parts[1]}` : module.replace(/\.ts$/, '');
}

const BASE = ['src/rules', 'src/geo'];
/** What each layer may import besides itself (type imports included); read top to bottom, lower layers first. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  'src/rules': [],
  'src/geo': ['src/rules'],
  'src/log': [],
  'src/memory': [],
  'src/storage': [],
  // the operator commands' shared argument parsing, exit codes and streams (node: modules only)
  'src/cli': [],
  'src/accounts': ['src/api', 'src/http', 'src/schemas', 'src/config', 'src/log', 'src/storage'],
  'src/hours': [...BASE],
  'src/index': [...BASE],
  'src/schemas': ['src/rules'],
  // the parsers of settings every feature's config.ts uses (node: modules only)
  'src/config-values': [],
  // the service's settings, joined with those the features' slices read (src/features.ts)
  'src/config': ['src/schemas', 'src/operations', 'declarations', 'src/feature', 'src/log', 'src/config-values'],
  'src/places': [...BASE, 'src/config'],
  'src/source': ['src/rules', 'src/places'],
  'src/http': ['src/storage'],
  // metrics and the access log: the server's observer, the main thread's exposition (prom-client)
  'src/observe': ['src/http', 'src/config', 'src/log'],
  'src/toilets': [...BASE, 'src/hours', 'src/index', 'src/source', 'src/log', 'src/memory', 'src/storage'],
  'src/api': [...BASE, 'src/http', 'src/index', 'src/places', 'src/schemas', 'src/toilets', 'src/config', 'src/log', 'src/storage'],
  'src/mcp': [...BASE, 'src/api', 'src/http', 'src/places', 'src/schemas', 'src/config', 'src/log'],
  'src/web': ['src/api', 'src/http', 'src/toilets', 'src/config', 'src/rules'],
  // a read thread serves the public REST reads and the public MCP endpoint
  'src/threads': ['src/api', 'src/http', 'src/mcp', 'src/observe', 'src/places', 'src/schemas', 'src/toilets', 'src/config', 'src/log', 'src/problems', 'src/operations'],
  // the basemap's tiles, from the MBTiles file the import writes: main thread only (SQLite)
  'src/tiles': ['src/rules', 'src/api', 'src/http', 'src/schemas', 'src/storage', 'src/config', 'src/log'],
  // the site's overview of the coverage (counts per zoom level, places, titles of unnamed toilets): main thread only (SQLite)
  'src/overview': ['src/rules', 'src/api', 'src/http', 'src/schemas', 'src/toilets', 'src/config'],
  // business claims and partner listings: tables in the accounts database, the partner object as overlay data
  'src/partners': [...BASE, 'src/hours', 'src/api', 'src/http', 'src/schemas', 'src/toilets', 'src/accounts', 'src/feature', 'src/config', 'src/log', 'src/storage'],
  // partner billing with Stripe: its tables in the accounts database, the listings' plan seam
  'src/billing': ['src/api', 'src/http', 'src/schemas', 'src/accounts', 'src/partners', 'src/feature', 'src/config', 'src/log', 'src/storage'],
  // the moderation command opens the accounts database as well (recovery links, deletions, claims)
  // contributions and the overlay database they, moderation and the dumps share
  'src/community': [...BASE, 'src/hours', 'src/index', 'src/api', 'src/http', 'src/schemas', 'src/toilets', 'src/accounts', 'src/feature', 'src/config', 'src/log', 'src/storage'],
  // the moderation queue and actions, and the operator's command, which opens the accounts database as well (recovery links, deletions, claims)
  // and the frame of that command, which loads the subcommands the features' slices name (src/features.ts)
  'src/moderation': [...BASE, 'src/index', 'src/api', 'src/http', 'src/schemas', 'src/toilets', 'src/community', 'src/accounts', 'src/partners', 'src/databases', 'declarations', 'src/feature', 'src/stores', 'src/config', 'src/log', 'src/storage', 'src/cli'],
  // the open data dumps: written by npm run dump (and once at the first start), served at /dumps/
  'src/dumps': [...BASE, 'src/api', 'src/http', 'src/schemas', 'src/toilets', 'src/community', 'src/config', 'src/log', 'src/storage', 'src/cli'],
  'old entry points': ['src/cli', 'src/dumps', 'src/moderation'],
  // the authorization server of agents acting for an account: its rows in the accounts database, its pages,
  // the client ID metadata documents it fetches (through src/outbound), the pages' language as the site's (src/web)
  'src/oauth': ['src/accounts', 'src/api', 'src/http', 'src/schemas', 'src/outbound', 'src/web', 'src/config', 'src/log', 'src/storage'],
  // the one way out to addresses others chose (webhooks, client documents): SSRF-hardened, node: modules only
  'src/outbound': [],
  // account events: webhook subscriptions of OAuth grants, the relay that delivers the account event log
  'src/account-events': ['src/accounts', 'src/oauth', 'src/outbound', 'src/schemas', 'src/feature', 'src/log', 'src/storage'],
  // the protected MCP endpoint /mcp/account: its tools and account events, behind the OAuth bearer check;
  // a store that cannot answer is said in MCP's own forms (src/storage's errors)
  'src/account-mcp': ['src/oauth', 'src/account-events', 'src/mcp', 'src/partners', 'src/accounts', 'src/api', 'src/http', 'src/schemas', 'src/config', 'src/log', 'src/storage'],
  // npm run backup / restore: copies of the overlay and accounts databases, checked with their layouts
  'src/backup': ['src/community', 'src/accounts', 'src/databases', 'src/storage', 'src/config', 'src/cli'],
  // the operational endpoints of the main thread: what the service serves, and whether each store can take a write
  // a replica's fetch of the files the import job publishes: checked as the source and tiles loads would
  'src/source-fetch': ['src/source', 'src/tiles', 'src/storage', 'src/observe', 'src/config', 'src/log', 'src/cli'],
  // the rate limits shared with the other replicas through Redis (REDIS_URL): main thread only
  'src/cluster': ['src/http', 'src/config', 'src/log', 'src/feature', 'src/storage'],
  'src/status': ['src/api', 'src/http', 'src/toilets', 'src/storage', 'src/source-fetch', 'src/cluster'],
  // the features' slices (registry entries, problem types, layout steps: data; settings readers) and the one list of them
  declarations: ['src/feature', 'src/config', 'src/schemas', 'src/http', 'src/api', 'src/community', 'src/accounts', 'src/partners', 'src/moderation', 'src/billing', 'src/oauth', 'src/account-events', 'src/observe', 'src/mcp', 'src/account-mcp', 'src/tiles', 'src/overview', 'src/dumps', 'src/cluster'],
  // the registry, the catalogues of schemas and problem types and the accounts database's steps: made from the slices
  'src/operations': ['declarations', 'src/feature', 'src/schemas', 'src/resources'],
  'src/resources': ['declarations', 'src/feature', 'src/schemas'],
  'src/problems': ['declarations', 'src/feature', 'src/http'],
  'src/databases': ['declarations', 'src/feature', 'src/accounts', 'src/storage'],
  // where the write side is kept: the SQLite files, or DATABASE_URL's PostgreSQL for the stores that moved
  'src/stores': ['src/community', 'src/databases', 'src/storage', 'src/config', 'src/log'],
  // what a feature is: its slice's shape, and what app.ts knows to run it (name, needs, start, close, deletion)
  'src/feature': ['src/schemas', 'src/http', 'src/storage', 'src/accounts', 'src/cli'],
  'src/app': ['src/feature', 'src/operations', 'src/databases', 'src/stores', 'src/cluster', 'src/problems', 'src/schemas', 'src/status', 'src/source-fetch', 'src/api', 'src/accounts', 'src/partners', 'src/billing', 'src/oauth', 'src/account-events', 'src/account-mcp', 'src/community', 'src/moderation', 'src/dumps', 'src/http', 'src/mcp', 'src/observe', 'src/places', 'src/threads', 'src/tiles', 'src/overview', 'src/toilets', 'src/web', 'src/config', 'src/log'],
  'src/first-import': ['src/source'],
  'src/serve': ['importer', 'src/app', 'src/first-import', 'src/config', 'src/log', 'src/storage', 'src/stores', 'src/toilets'],
  'src/main': ['src/serve', 'src/config', 'src/log'],
  // the import needs the rules, where a point is, hours, the source layout and the place index format
  importer: [...BASE, 'src/hours', 'src/source', 'src/places', 'src/storage', 'src/cli'],
};

/** Place modules that answer lookups at run time: the server's, not the importer's. */
const PLACE_LOOKUP = ['src/places/lookup.ts', 'src/places/service.ts', 'src/places/remote.ts', 'src/places/current.ts'];
/** What a read thread must never load: it answers public reads from shared memory only. */
const NOT_IN_READ_THREADS = [/^better-sqlite3$/, /^pg$/, /^kysely$/, /^ioredis$/, /^src\/storage\/postgres\.ts$/, /^src\/(community|moderation|dumps|accounts|partners|billing|oauth|account-mcp|account-events|tiles|overview|cluster)\/(?!(problems|config|slice|resources|rate-limits|([a-z-]+-)?operations)\.ts$|([a-z-]+-)?tables\.ts$|[a-z-]+-step\.ts$)/];

/** A feature's problem types: data the read threads load with the catalogue (src/problems.ts). */
const PROBLEM_MODULE = /^src\/([a-z-]+\/problems|api\/guard-problems|http\/problem-types)\.ts$/;

/** Words that name a feature; the low layers name none (a feature's own folder declares its slice). */
const FEATURE_WORDS = /\b(billing|stripe|partners?|oauth|contributions?|moderat\w*|passkeys?|claims?|community|dumps?|accounts?)\b/i;
/** The low layers, which every feature stands on. */
const LOW_LAYERS = ['src/http', 'src/schemas', 'src/api'];
/**
 * The low-layer modules that still name features (issue 39, step 2 moves their parts into the features):
 * the list may only shrink.
 */
const STILL_NAMING_FEATURES = [
  'src/api/area-cache.ts', 'src/api/attribution.ts', 'src/api/guard-problems.ts', 'src/api/guards.ts', 'src/api/reads.ts', 'src/api/rest.ts',
  'src/schemas/openapi.ts', 'src/schemas/operations.ts', 'src/schemas/params.ts', 'src/schemas/resources.ts',
];

const projectEdges = () =>
  [...graph].flatMap(([from, edges]) => edges.filter((edge) => graph.has(edge.to)).map((edge) => ({ from, to: edge.to })));

test('every layer imports only the layers listed for it', () => {
  const unlisted = [...new Set([...graph.keys()].map(layerOf))].filter((layer) => !(layer in MAY_IMPORT));
  assert.deepEqual(unlisted, [], 'a new folder needs its line in MAY_IMPORT (and in docs/ARCHITECTURE.md)');
  const wrong = projectEdges()
    .filter(({ from, to }) => layerOf(from) !== layerOf(to) && !MAY_IMPORT[layerOf(from)].includes(layerOf(to)))
    .map(({ from, to }) => `${from} imports ${to}`);
  assert.deepEqual(wrong, []);
});

/** The only modules that reach addresses others chose: webhook delivery, and the OAuth client document fetch. */
const OUTBOUND_CALLERS = [/^src\/account-events\//, /^src\/oauth\/(client-documents|oauth)\.ts$/];

test('only the webhook delivery and the client document fetch use the outbound module', () => {
  const callers = projectEdges()
    .filter(({ from, to }) => to.startsWith('src/outbound/') && !from.startsWith('src/outbound/'))
    .map(({ from }) => from);
  assert.ok(callers.includes('src/oauth/client-documents.ts') && callers.some((c) => c.startsWith('src/account-events/')), 'the check sees the callers');
  assert.deepEqual(callers.filter((from) => !OUTBOUND_CALLERS.some((pattern) => pattern.test(from))), []);
});

test('the shared rules import no package and nothing else of the project', () => {
  const outside = [...graph]
    .filter(([from]) => layerOf(from) === 'src/rules')
    .flatMap(([from, edges]) => edges.filter((edge) => layerOf(edge.to) !== 'src/rules' && !edge.to.startsWith('node:')).map((edge) => `${from} imports ${edge.to}`));
  assert.deepEqual(outside, []);
});

test('the server reaches the importer only through importer/index.ts, and the importer no place lookup', () => {
  const wrong = projectEdges()
    .filter(({ from, to }) => (from.startsWith('src/') && to.startsWith('importer/') && to !== 'importer/index.ts') || (from.startsWith('importer/') && PLACE_LOOKUP.includes(to)))
    .map(({ from, to }) => `${from} imports ${to}`);
  assert.deepEqual(wrong, []);
});

test('a read thread loads no SQLite, community, account, billing, tiles or Redis code', () => {
  const start = 'src/threads/read-thread.ts';
  const loaded = [...runtimeClosure(graph, start)].filter((module) => NOT_IN_READ_THREADS.some((pattern) => pattern.test(module)));
  assert.deepEqual(
    loaded.map((module) => runtimePath(graph, start, module)!.join(' -> ')),
    [],
  );
});

test('the problem types are data: their modules load nothing but other problem types, the catalogue nothing but data', () => {
  const modules = [...graph.keys()].filter((module) => PROBLEM_MODULE.test(module));
  assert.ok(modules.length >= 7, `only ${modules.length} problem modules found`);
  const loaded = modules.flatMap((start) => [...runtimeClosure(graph, start)].filter((module) => module !== start && !PROBLEM_MODULE.test(module)).map((module) => `${start} loads ${module}`));
  assert.deepEqual(loaded, []);
  const catalogue = [...runtimeClosure(graph, 'src/problems.ts')].filter((module) => module !== 'src/problems.ts');
  assert.deepEqual(catalogue.filter((module) => !DATA_MODULE.some((pattern) => pattern.test(module))), []);
});

/**
 * What a slice may load: entries, problem types, layout steps (SQL text), the registry's schemas and the
 * rules, and its settings reader (a pure function of the environment) with the parsers it uses (and the
 * built-ins that join its default paths and check its addresses).
 */
const DATA_MODULE = [SLICE_MODULE, OPERATIONS_MODULE, PROBLEM_MODULE, /^src\/[a-z-]+\/(([a-z-]+-)?tables|[a-z-]+-step|config)\.ts$/, /^src\/config-values\.ts$/, /^node:(path|net)$/, /^src\/(schemas|rules)\//];

test('the slices are data: the list of features loads no code that runs a feature', () => {
  const loaded = [...runtimeClosure(graph, 'src/features.ts')];
  assert.ok(loaded.some((module) => module.endsWith('/slice.ts')) && loaded.some((module) => module.endsWith('/tables.ts')), 'the check sees the slices and their steps');
  assert.deepEqual(loaded.filter((module) => !DATA_MODULE.some((pattern) => pattern.test(module))), []);
});

/** The one module that calls a slice's lazy references: the frame of the operator's subcommands. */
const LAZY_CALLERS = ['src/moderation/moderate-cli.ts'];

test('a slice names its folder\'s code only lazily, and only the command frame loads it', () => {
  const lazy = projectEdges().filter(({ from, to }) => graph.get(from)!.some((edge) => edge.to === to && edge.lazy));
  assert.ok(lazy.some(({ to }) => to === 'src/moderation/commands.ts'), 'the check sees the moderation\'s commands');
  const wrong = lazy.filter(({ from, to }) => !SLICE_MODULE.test(from) || to.split('/')[1] !== from.split('/')[1]).map(({ from, to }) => `${from} refers to ${to}`);
  assert.deepEqual(wrong, [], 'a lazy reference belongs in a slice, to a module of its own folder');
  const callers = [...graph.keys()].filter((module) => /\.commands\(\)/.test(readFileSync(join(REPO_DIR, module), 'utf8')));
  assert.deepEqual(callers, LAZY_CALLERS);
});

test('the low layers name no feature (and the modules that still do are only fewer)', () => {
  const naming = [...graph.keys()]
    .filter((module) => LOW_LAYERS.some((folder) => module.startsWith(`${folder}/`)) && FEATURE_WORDS.test(readFileSync(join(REPO_DIR, module), 'utf8')))
    .sort();
  assert.deepEqual(naming.filter((module) => !STILL_NAMING_FEATURES.includes(module)), [], 'a low-layer module names a feature: move that part into the feature');
  assert.deepEqual(STILL_NAMING_FEATURES.filter((module) => !naming.includes(module)), [], 'this module names no feature any more: take it off STILL_NAMING_FEATURES');
});

test('the open data dump never loads the accounts database', () => {
  for (const start of ['src/dumps/dump-cli.ts', 'src/dumps/dump.ts', 'src/community/dump-cli.ts']) {
    // the accounts' settings (where the file is) and their slice's data (entries, problem types, the SQL of
    // their steps) are configuration and data: no account code
    const loaded = [...runtimeClosure(graph, start)].filter((module) => module.startsWith('src/accounts/') && layerOf(module) === 'src/accounts' && !DATA_MODULE.some((pattern) => pattern.test(module)));
    assert.deepEqual(loaded, [], `${start} loads account code`);
  }
});

test('no module imports itself through others', () => {
  assert.deepEqual(importCycles(graph).map((cycle) => cycle.join(' -> ')), []);
});

test('the checks see real imports (a check over nothing passes anything)', () => {
  assert.ok(graph.size > 150, `only ${graph.size} modules found under src/ and importer/`);
  assert.ok(runtimeClosure(graph, 'src/main.ts').has('better-sqlite3'), 'the main thread loads better-sqlite3');
  assert.ok(runtimePath(graph, 'src/main.ts', 'src/toilets/snapshot.ts'));
  assert.deepEqual(importCycles(new Map([['a.ts', [{ to: 'b.ts', typeOnly: true }]], ['b.ts', [{ to: 'a.ts', typeOnly: false }]]])), [['a.ts', 'b.ts', 'a.ts']]);
});
