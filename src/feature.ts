// A feature in two parts. Its slice (FeatureSlice, the folder's slice.ts) is data: the registry entries,
// problem types, layout steps and settings reader it adds to the service's contract, listed once in
// src/features.ts; the registry, the problem catalogue, the databases' steps and the configuration are
// made from that list, so the read threads and the operator's commands take them without any feature code. Its running part (Feature, its main
// class) is what app.ts knows to run it: its name, the features it stands on, its start and close, and
// what it erases of a deleted account. The start order follows the declared needs (a feature starts after
// what it needs) and the close order is its reverse, so no hand-ordered list has to be kept right when a
// feature is added. Each feature's main class declares its own (structurally).
import type { RateLimitBudget, RegistryEntry } from './schemas/operations.js';
import type { ProblemTypes } from './http/problem-types.js';
import type { NamedSchemas } from './schemas/resources.js';
import type { Migration } from './storage/migrations.js';
import type { PostgresStep } from './storage/postgres.js';
import type { DeletionHook } from './accounts/deletion.js';
import type { CommandPart } from './cli/subcommands.js';

/** The service's own databases that several features keep tables in (src/databases.ts opens them). */
export type SharedDatabase = 'accounts';

/**
 * The PostgreSQL schemas of DATABASE_URL: `overlay` for what the overlay database keeps, `accounts` for
 * personal and secret data (readable by the service's role only), `cluster` for what the replicas
 * coordinate by (the worker lease).
 */
export type PostgresSchemaName = 'overlay' | 'accounts' | 'cluster';

/**
 * The service's own settings that a feature's defaults follow (src/config.ts reads them before any
 * feature's): the feature's files beside its databases, its addresses as the proxy hops make them.
 */
export interface ServiceSettings {
  readonly toiletsDb: string;
  readonly overlayDb: string;
  readonly trustProxy: number;
}

/**
 * A feature's settings, read from the environment and checked in its folder's config.ts: its part of Config
 * (src/config.ts joins every slice's), a ConfigError naming the variable when a value is wrong. A pure
 * function of the environment (and of the service's settings), so a read thread may load it.
 */
export type SettingsReader = (env: NodeJS.ProcessEnv, service: ServiceSettings) => object;

/** What a feature adds to the contract: data only, so that a read thread may load every feature's. */
export interface FeatureSlice {
  /** Its folder's name, e.g. 'billing'. */
  readonly name: string;
  /**
   * Its registry entries: its operations of the spec, in the order the OpenAPI document lists them (fixed
   * paths before templated ones), and its routes outside the spec (`openApi: false`), which it does not.
   */
  readonly operations?: readonly RegistryEntry[];
  /** Its named schemas (a data-only resources.ts, which adds them to SchemaCatalogue), for its operations' bodies and answers. */
  readonly schemas?: NamedSchemas;
  /** Its rate-limit policies with a budget of their own (a data-only rate-limits.ts), counted by the limits of every thread. */
  readonly rateLimits?: readonly RateLimitBudget[];
  /** Its problem types (a data-only problems.ts, which adds its slugs to ProblemCatalogue). */
  readonly problems?: ProblemTypes;
  /** Its layout steps, by the database that keeps its tables, each with its fixed global number. */
  readonly tables?: Readonly<Partial<Record<SharedDatabase, readonly Migration[]>>>;
  /** Its settings (its folder's config.ts), a part of Config with property names no other feature uses. */
  readonly settings?: SettingsReader;
  /** Its PostgreSQL steps by schema, numbered like `tables`, once its store has a PostgreSQL implementation. */
  readonly postgres?: Readonly<Partial<Record<PostgresSchemaName, readonly PostgresStep[]>>>;
  /**
   * Its subcommands of `npm run moderate` (src/cli/subcommands.ts), in its folder's command module: code, so
   * named by a function that loads it (`() => import('./commands.js')`), which only the command calls.
   */
  readonly commands?: () => Promise<{ readonly COMMANDS: CommandPart }>;
}

export interface Feature {
  /** The feature's folder name, e.g. 'billing'. */
  readonly name: string;
  /** The features whose objects this one uses while it runs: started before it, closed after it. */
  readonly needs: readonly string[];
  /** Starts its timers and background work; the server is not listening yet. */
  start(): void;
  /** Stops them and closes its files, after the server stopped answering. */
  close(): void | Promise<void>;
  /** What it keeps for an account and erases when the account is deleted (app.ts registers it). */
  readonly accountDeletion?: DeletionHook;
  /** Its background work that src/cluster/worker.ts starts and stops (read once the feature is served). */
  readonly jobs?: readonly BackgroundJob[];
}

/**
 * Background work beside the requests (timers, outboxes, clean-ups). A job over state every replica shares
 * (DATABASE_URL) declares `cluster-worker`: it runs on the one replica holding the cluster's worker lease and
 * stops when that replica loses it. A job over this replica's own files declares `every-replica`. Without
 * DATABASE_URL every install is its own worker and runs both.
 */
export interface BackgroundJob {
  /** As /status and the log name it, e.g. 'osm-notes'. */
  readonly name: string;
  readonly runsOn: 'cluster-worker' | 'every-replica';
  /** Starts it (again, after a stop: a replica may lose the lease and take it back). */
  start(): void;
  /** Stops its timers; work under way may finish. */
  stop(): void | Promise<void>;
}

/**
 * The features in an order where each comes after every feature it needs; otherwise in the order given.
 * A need that is not in the list, or needs in a circle, are mistakes of the assembly, said at once.
 */
export function inStartOrder<F extends Feature>(features: readonly F[]): F[] {
  const byName = new Map(features.map((feature) => [feature.name, feature]));
  if (byName.size !== features.length) throw new Error(`two features share a name: ${features.map((f) => f.name).join(', ')}`);
  const ordered: F[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (feature: F, path: readonly string[]): void => {
    if (state.get(feature.name) === 'done') return;
    if (state.get(feature.name) === 'visiting') throw new Error(`features need each other in a circle: ${[...path, feature.name].join(' -> ')}`);
    state.set(feature.name, 'visiting');
    for (const need of feature.needs) {
      const needed = byName.get(need);
      if (needed === undefined) throw new Error(`feature ${feature.name} needs ${need}, which is not in the list of features`);
      visit(needed, [...path, feature.name]);
    }
    state.set(feature.name, 'done');
    ordered.push(feature);
  };
  for (const feature of features) visit(feature, []);
  return ordered;
}
