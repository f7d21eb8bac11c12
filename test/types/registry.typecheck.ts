// Compile-time checks of the registry's types: the line after each `@ts-expect-error` must not compile, and
// `npm run build` (tsc -p tsconfig.json, which takes test/) fails when it does, as an unneeded
// `@ts-expect-error` is an error itself: e.g. when a handler's input stopped being typed from its entry's
// schema, or a slug stopped being checked against the problem catalogue. The lines without one are the
// right forms, which must compile. Types only: nothing here runs (the browser's side of the same check:
// web/src/account-api.typecheck.ts).
import type { GuardChain, Refusal } from '../../src/api/guards.js';
import type { Config } from '../../src/config.js';
import type { FeatureSlice } from '../../src/feature.js';
import type { Problems } from '../../src/http/problem.js';
import type { HttpServer } from '../../src/http/server.js';
import type { OperationSpec, READ_OPERATIONS, RouteSpec } from '../../src/schemas/operations.js';
import type { PARTNER_OPERATIONS } from '../../src/partners/operations.js';
import type { OAUTH_ROUTES } from '../../src/oauth/operations.js';

type FindToiletsNear = Extract<(typeof READ_OPERATIONS)[number], { readonly operationId: 'findToiletsNear' }>;
type ClaimToilet = Extract<(typeof PARTNER_OPERATIONS)[number], { readonly operationId: 'claimToilet' }>;
type OAuthToken = Extract<(typeof OAUTH_ROUTES)[number], { readonly path: '/oauth/token' }>;

/** A handler's input is its entry's query, JSON body or form, as the entry's schema types it. */
export function inputs(chain: GuardChain, server: HttpServer, near: FindToiletsNear, claim: ClaimToilet, token: OAuthToken): void {
  chain.operation(server, near, {
    handle: (_request, context) => {
      const lat: number | undefined = context.input.lat;
      // @ts-expect-error: findToiletsNear's query has no `latitude`
      void context.input.latitude;
      return { status: 200, body: String(lat) };
    },
  });
  chain.operation(server, claim, {
    handle: (_request, context) => {
      const business: string = context.input.business_name;
      // @ts-expect-error: ClaimToiletRequest has no `title`
      void context.input.title;
      // @ts-expect-error: `website` is optional in ClaimToiletRequest
      const website: string = context.input.website;
      return { status: 201, body: business + website };
    },
  });
  chain.operation(server, token, {
    renderRefusal: (refusal, _context, _request, status) => ({ status, body: refusal.detail }),
    handle: (_request, context) => {
      const grant: string | undefined = context.input.grant_type;
      // @ts-expect-error: the token form has no `scope` field (a field not named is ignored)
      void context.input.scope;
      // @ts-expect-error: a form's field may be missing
      const code: string = context.input.code;
      return { status: 200, body: `${grant}${code}` };
    },
  });
  // @ts-expect-error: a route without a handler
  chain.operation(server, near, {});
}

/** What the guards learn is typed as they may not have learnt it: the handler checks before it reads. */
export function guardContext(chain: GuardChain, server: HttpServer, claim: ClaimToilet): void {
  chain.operation(server, claim, {
    handle: (_request, context) => {
      const account: string | undefined = context.session?.account;
      // @ts-expect-error: the session is null on a route whose entry reads none
      void context.session.account;
      // @ts-expect-error: the human check's pass is null when none was needed
      void context.humanCheck.key;
      // @ts-expect-error: the guards learn no `user`
      void context.user;
      return { status: 201, body: account };
    },
  });
}

/** A refusal names a problem type of the catalogue (every slice's problems.ts). */
export function slugs(problems: Problems): Refusal[] {
  problems.reply('not-found', 'Check the path.');
  // @ts-expect-error: no problem type has this slug
  problems.reply('no-such-problem', 'Check the path.');
  // @ts-expect-error: the slugs are the catalogue's, spelled as declared
  const misspelt: Refusal = { slug: 'not_found', detail: 'Check the path.' };
  return [{ slug: 'rate-limited', detail: 'Wait.', retryAfterSeconds: 1 }, misspelt];
}

const ENTRY = {
  operationId: 'getExample',
  method: 'get',
  path: '/example',
  summary: 'An example',
  description: 'An example.',
  rateLimit: null,
  success: { status: 200, description: 'The example.', schema: 'FindResult' },
  errors: { 404: 'None.' },
} as const satisfies OperationSpec;

/** An entry names the registry's schemas, query parameter sets, statuses and guards. */
export const ENTRIES: readonly (OperationSpec | RouteSpec)[] = [
  // @ts-expect-error: no named schema is called so
  { ...ENTRY, success: { ...ENTRY.success, schema: 'NoSuchAnswer' } },
  // @ts-expect-error: a success is 200 or 201
  { ...ENTRY, success: { ...ENTRY.success, status: 204 } },
  // @ts-expect-error: the query is a parameter set of src/schemas/params.ts
  { ...ENTRY, query: 'findToiletsNearby' },
  // @ts-expect-error: an error status the registry does not know
  { ...ENTRY, errors: { 418: 'A teapot.' } },
  // @ts-expect-error: the only role the operator grants is moderator
  { ...ENTRY, guards: { role: 'admin' } },
  // @ts-expect-error: a route outside the spec says how its refusals are answered
  { openApi: false, method: 'get', path: '/example', summary: 'An example', rateLimit: null },
];

/** A slice's parts are of the kinds the assembly makes into the registry, the catalogues and the databases. */
export const SLICES: readonly FeatureSlice[] = [
  { name: 'example', operations: [ENTRY], settings: (env) => ({ exampleSetting: env.EXAMPLE ?? '' }) },
  // @ts-expect-error: features keep tables only in the shared accounts database (the overlay's steps are community's own)
  { name: 'example', tables: { overlay: [] } },
  // @ts-expect-error: the PostgreSQL schemas are overlay, accounts and cluster
  { name: 'example', postgres: { public: [] } },
  // @ts-expect-error: a settings reader returns its part of Config, an object
  { name: 'example', settings: () => 5 },
  // @ts-expect-error: a problem type needs its status
  { name: 'example', problems: { 'no-example': { title: 'No example', description: 'None.' } } },
];

/** Config is typed per feature, from each slice's settings reader. */
export function settings(config: Config): [number, string | null, boolean] {
  // @ts-expect-error: no reader returns such a setting
  void config.exampleSetting;
  // @ts-expect-error: billing is null while Stripe is not configured
  void config.billing.secretKey;
  return [config.sessions.idleMs, config.redisUrl, config.contributionsEnabled];
}
