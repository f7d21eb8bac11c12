// The guard chain. Every route is a registry entry (src/schemas/operations.ts: an operation of the spec or
// a route outside it) that says what it needs checked (`rateLimit`, `guards`, `requestBody.maxBytes`) and
// what input it takes (its query's parameters, its body's schema or form), and this module runs those
// checks in one order, the same on every route of every server thread, so two faults in one request
// always get the same answer; the handler gets the input checked and typed from the entry (InputOf). A
// route adds only what is its own: checks beyond the schema (refine), existence, the handler. Every answer
// of a rate-limited route, refusals included, carries the RateLimit headers.
import type { Config } from '../config.js';
import type { HttpMethod, HttpRequestInfo, HttpServer, RouteResult } from '../http/server.js';
import type { CorsPolicy } from '../http/cors.js';
import type { InvalidParam, Problems } from '../http/problem.js';
import type { ProblemSlug } from '../http/problem-types.js';
import type { HeaderList, HttpReply } from '../http/reply.js';
import { entryName, isListed, routePattern, type FormBody, type OperationGuards, type RateLimitPolicy, type RegistryEntry } from '../schemas/operations.js';
import type { InputOf } from '../schemas/answer-types.js';
import type { SchemaName } from '../schemas/resources.js';
import { countRefusal, limiterOf, type Limits } from './limits.js';
import { findInvalid } from '../schemas/validate.js';
import { compileQuery, parseParams, parseQuery } from '../schemas/query.js';
import { formFields } from '../http/form.js';

/**
 * The order of the checks, first to last; a request gets the first refusal. The spec orders nothing, so
 * this is our decision (issue 27; test/community/guard-order.test.ts asserts it pair by pair):
 *
 *   rateLimit      429  first: every answer then carries the RateLimit headers. On a route for the
 *                       site's pages (`origin: 'site'`) the budget is only read here, and spent right
 *                       after the origin passed, so a request refused for its origin spends nothing (issue 38)
 *   featureSwitch  503  an operation switched off refuses everyone alike
 *   origin         403
 *   session        401  a signed-in session where the operation needs one (`security: 'session'`), then
 *                  403  the role it needs (`role`: moderator), then (401) a
 *                       passkey assertion of the last 5 minutes for the sensitive ones (`recentPasskey`);
 *                       read, where the operation takes one, so that a signed-in account needs no human
 *                       check (`session: 'optional'`). (OAuth's bearer token, 401, joins here.)
 *   bodySize       413  where the operation lists 413, else 400; answered before the body is read
 *   signature      400  a payment provider's signature over the raw body (receiveStripeEvent): before
 *                       anything parses the body
 *   validation     400  the route's own
 *   existence      404  the route's own (ownership too, once there are accounts)
 *                       (state, 409: the partner issues add it here)
 *   humanCheck     403  last, so a request refused for anything else keeps its solved challenge usable
 *
 * then the route's handler (the write).
 */
export const GUARD_ORDER = ['rateLimit', 'featureSwitch', 'origin', 'session', 'bodySize', 'signature', 'validation', 'existence', 'humanCheck'] as const;

/** Why a request is not served: a problem type of the catalogue and what to change. */
export interface Refusal {
  readonly slug: ProblemSlug;
  readonly detail: string;
  readonly invalidParams?: readonly InvalidParam[];
  /** Required for 429 and 503 types. */
  readonly retryAfterSeconds?: number;
}

/** What the checks learn about one request, for the later checks and the handler. */
export interface GuardContext<I = unknown> {
  readonly nowMs: number;
  /** Headers every answer carries: the RateLimit headers once the budget is counted (none when the limit is lifted). */
  headers: HeaderList;
  /** The request's input in checked form, set by the validation step. */
  input: I;
  /** The parsed JSON body (routes that take one), set by the route's validation; the human check reads its token there. */
  body: Readonly<Record<string, unknown>> | null;
  /** The signed-in account, which needs no human check: set by the session guard. */
  account: string | null;
  /** The signed-in session (routes whose operation reads one), else null. */
  session: SignedIn | null;
  /** The token the human check passed; the write spends it once. Null when none was needed. */
  humanCheck: HumanCheckPass | null;
}

/** A valid session, as the session guard found it. */
export interface SignedIn {
  readonly account: string;
  readonly moderator: boolean;
  /** SHA-256 of the session's token: its key in the accounts database. */
  readonly tokenHash: Buffer;
  /** When the session last proved a passkey (sign-in or re-authentication). */
  readonly verifiedAtMs: number;
}

/** Reads the session cookie (src/accounts/sessions.ts); only the main thread has one. */
export interface SessionReader {
  /** The session the Cookie header names, if it is valid now (and its idle clock restarted), else null. */
  read(cookieHeader: string, nowMs: number): Promise<SignedIn | null>;
}

/** How recent a passkey assertion the sensitive operations (`recentPasskey`) need. */
export const RECENT_PASSKEY_MS = 5 * 60_000;

/** The refusal of a sensitive operation whose session proved no passkey in the last 5 minutes. */
export const REAUTHENTICATE: Refusal = {
  slug: 'reauthentication-required',
  detail: `Confirm it is you: this operation needs a passkey sign-in from the last ${RECENT_PASSKEY_MS / 60_000} minutes. Sign in again (startSignIn, then signIn), then send the request again.`,
};

/** A verified human-check token: `key` names it for the single-use record until `expiresAtMs`. */
export interface HumanCheckPass {
  ok: true;
  key: string;
  expiresAtMs: number;
}

export interface HumanCheckFailure {
  ok: false;
  /** What went wrong, for the 403 detail. */
  reason: string;
}

/** Checks the human-check token a body carries (the verifier knows where); single use is the write's part. */
export interface HumanCheckVerifier {
  verifyBody(body: GuardContext['body'], nowMs: number): Promise<HumanCheckPass | HumanCheckFailure>;
}

/** Checks a webhook's signature over the raw body (the feature that declares the webhook gives it); only the main thread has one. */
export interface SignatureVerifier {
  /** The parsed event when the header signs these exact bytes recently enough, else what is wrong. */
  verify(rawBody: Buffer, header: string, nowMs: number): { ok: true; event: unknown } | { ok: false; reason: string };
}

type Check<I> = (request: HttpRequestInfo, context: GuardContext<I>) => Refusal | null | Promise<Refusal | null>;

export interface GuardDeps {
  config: Config;
  limits: Limits;
  problems: Problems;
  now: () => number;
  /** Only the main thread verifies human checks. */
  humanCheck?: HumanCheckVerifier;
  /** Only the main thread reads sessions. */
  sessions?: SessionReader;
  /** Only the main thread receives the payment provider's webhook. */
  signatures?: SignatureVerifier;
}

/** What an entry declares for the guards. */
interface GuardNeeds {
  readonly rateLimit: RateLimitPolicy | null;
  readonly guards?: OperationGuards;
  readonly security?: 'session';
}

/**
 * One kind of guard: given what a route declares, its check (with the request headers the check reads),
 * or null when the route needs none. A new kind is one such function, listed in GUARD_ORDER and KINDS.
 */
type GuardKind = (needs: GuardNeeds, deps: GuardDeps) => { check: Check<unknown>; headers?: readonly string[]; afterOrigin?: Check<unknown> } | null;

/** The first name of the pair limiter.headers() appends (the five RateLimit fields in one pair). */
const RATE_LIMIT_HEADER = 'RateLimit-Limit';

/** Retry-After while a feature is switched off: the operator decides when it comes back. */
const SWITCHED_OFF_RETRY_SECONDS = 3600;


const KINDS: Record<Exclude<(typeof GUARD_ORDER)[number], 'bodySize' | 'validation' | 'existence'>, GuardKind> = {
  // A route for the site's pages spends its budget only once the origin passed: a refused cross-origin
  // request (a no-cors POST of any web page) must not lock the visitor's address out. Until then the
  // budget is read (429 when it is spent), so the 403 carries the RateLimit headers as well.
  rateLimit: ({ rateLimit, guards }, { limits }) => {
    if (rateLimit === null) return null;
    const limiter = limiterOf(limits, rateLimit);
    if (!limiter.enabled) return null;
    const count = (request: HttpRequestInfo, context: GuardContext<unknown>, spend: boolean): Refusal | null => {
      const result = spend ? limiter.take(request.ip, context.nowMs) : limiter.peek(request.ip, context.nowMs);
      const rateHeaders = limiter.headers(result);
      const read = context.headers.lastIndexOf(RATE_LIMIT_HEADER);
      const kept = spend && read >= 0 ? context.headers.slice(0, read) : context.headers;
      context.headers = kept.length === 0 ? rateHeaders : [...kept, ...rateHeaders];
      if (result.allowed) return null;
      countRefusal(limits, rateLimit);
      return {
        slug: 'rate-limited',
        detail: `This address sent more than ${result.limit} requests in ${limiter.policy.windowSeconds} seconds. Wait ${result.resetSeconds} seconds, then send the request again.`,
        retryAfterSeconds: result.resetSeconds,
      };
    };
    // only the site's own operations: MCP's listed origins (a hot path) count as they always did
    if (guards?.origin !== 'site') return { check: (request, context) => count(request, context, true) };
    return { check: (request, context) => count(request, context, false), afterOrigin: (request, context) => count(request, context, true) };
  },

  // the switch is the feature's (declared with its operations): a setting of Config, on while truthy
  featureSwitch: ({ guards }, { config }) => {
    const feature = guards?.featureSwitch;
    if (feature === undefined) return null;
    if (!(feature.setting in config)) throw new Error(`the switch of ${feature.name} reads ${feature.setting}, which is no setting of the service: give it one in the feature's config.ts`);
    if ((config as unknown as Readonly<Record<string, unknown>>)[feature.setting]) return null;
    const refusal: Refusal = { slug: feature.slug as ProblemSlug, detail: feature.detail, retryAfterSeconds: SWITCHED_OFF_RETRY_SECONDS };
    return { check: () => refusal };
  },

  origin: ({ guards }, { config }) => {
    if (guards?.origin === 'listed') {
      const listed = config.mcpAllowedOrigins;
      if (listed === null) return null;
      return {
        headers: ['origin'],
        check: ({ headers: { origin } }) => {
          if (!origin || listed.includes(hostnameOf(origin))) return null; // absent: not a browser page (routes reading every header have no '' for it)
          return { slug: 'origin-not-allowed', detail: `Pages from ${origin} may not use this endpoint. Pages from ${listed.join(', ')} may; other clients send no Origin header` };
        },
      };
    }
    if (guards?.origin !== 'site') return null;
    const siteOrigin = new URL(config.baseUrl).origin;
    const refusal: Refusal = { slug: 'other-origin', detail: `Send contributions from this site's pages: the Origin header must be ${siteOrigin}.` };
    return {
      headers: ['origin', 'sec-fetch-site'],
      check: ({ headers: { origin, 'sec-fetch-site': fetchSite } }) => ((origin ? origin === siteOrigin : fetchSite === 'same-origin') ? null : refusal),
    };
  },

  session: ({ security, guards }, { sessions }) => {
    const required = security === 'session';
    if (!required && guards?.session !== 'optional') return null;
    if (sessions === undefined) throw new Error('a route reads the session, but this guard chain has no session reader: give GuardDeps.sessions');
    const recent = guards?.recentPasskey === true;
    const role = guards?.role;
    return {
      headers: ['cookie'],
      check: ({ headers: { cookie } }, context) => {
        const admit = (session: SignedIn | null): Refusal | null => {
          if (session === null) {
            return required ? { slug: 'sign-in-required', detail: 'Sign in first: this operation needs a signed-in account (startSignIn, then signIn with a passkey).' } : null;
          }
          // the role first: a passkey prompt would not help an account without it
          if (role === 'moderator' && !session.moderator) {
            return { slug: 'moderator-required', detail: 'This is for moderators: the signed-in account does not hold the moderator role. The operator grants it (npm run moderate -- moderators add).' };
          }
          if (recent && context.nowMs - session.verifiedAtMs > RECENT_PASSKEY_MS) return REAUTHENTICATE;
          context.session = session;
          context.account = session.account;
          return null;
        };
        // no cookie, no store: a request without one stays synchronous
        return cookie === '' ? admit(null) : sessions.read(cookie, context.nowMs).then(admit);
      },
    };
  },

  // the header is the operation's (its feature declares how its webhook signs), the verifier the feature's
  signature: ({ guards }, { signatures }) => {
    if (guards?.signature === undefined) return null;
    if (signatures === undefined) throw new Error('a route needs a webhook signature, but this guard chain has no verifier: give GuardDeps.signatures');
    const header = guards.signature.header.toLowerCase();
    return {
      headers: [header],
      check: (request, context) => {
        const outcome = signatures.verify(request.body ?? Buffer.alloc(0), request.headers[header], context.nowMs);
        if (!outcome.ok) return { slug: 'invalid-signature', detail: outcome.reason };
        context.body = outcome.event as GuardContext['body'];
        return null;
      },
    };
  },

  humanCheck: ({ guards }, { humanCheck }) => {
    if (guards?.humanCheck !== true) return null;
    if (humanCheck === undefined) throw new Error('a route needs the human check, but this guard chain has no verifier: give GuardDeps.humanCheck');
    return {
      check: async (_request, context) => {
        if (context.account !== null) return null;
        const verdict = await humanCheck.verifyBody(context.body, context.nowMs);
        if (!verdict.ok) return { slug: 'human-check-failed', detail: `The human check failed: ${verdict.reason}.` };
        context.humanCheck = verdict;
        return null;
      },
    };
  },
};

/** A route served behind the chain, as the chain makes it of an entry and its route's own parts. */
interface GuardedRoute<I> {
  readonly method: HttpMethod;
  /** uWS pattern, `:name` for parameters. */
  readonly pattern: string;
  /** The spec's operationId, for metrics and the access log (default: method and pattern). */
  readonly operation?: string;
  readonly needs: GuardNeeds;
  /** Request headers the route's own steps read (the guards add theirs), or 'all' (the MCP SDK reads them). */
  readonly headers?: readonly string[] | 'all';
  readonly cors?: CorsPolicy;
  /** The Content-Security-Policy of a page route (RouteDefinition). */
  readonly contentSecurityPolicy?: string;
  /** Headers every answer of the route carries, refusals included (`Cache-Control: no-store` of private answers). */
  readonly answerHeaders?: HeaderList;
  /** Takes a body of at most `maxBytes`; a larger one is refused at the bodySize step with `tooLargeStatus`. */
  readonly body?: { readonly maxBytes: number; readonly tooLargeStatus: 400 | 413 };
  /** Validation (400): the input in checked form, or the refusal saying what to correct. */
  validate?(request: HttpRequestInfo, context: GuardContext<I>): { input: I } | Refusal;
  /** Existence and ownership (404). */
  exists?(request: HttpRequestInfo, context: GuardContext<I>): Refusal | null | Promise<Refusal | null>;
  /** Answers once every check passed; its answers add `context.headers`. */
  handle(request: HttpRequestInfo, context: GuardContext<I>): RouteResult | Promise<RouteResult>;
  /**
   * How a refusal is answered when not as problem+json (MCP: a JSON-RPC error); with `context.headers`.
   * `status` is the HTTP status of the refusal's problem type.
   */
  renderRefusal?(refusal: Refusal, context: GuardContext<I>, request: HttpRequestInfo, status: number): RouteResult;
}

/**
 * The parts of an entry's route that are the route's own. The chain checks the query (or the body, or
 * the form) against the entry's schema itself and hands the handler its input typed from the entry
 * (`InputOf<E>`), or what `refine` made of it. `validate` replaces that step where the body was checked
 * another way (the webhook's signature).
 */
export type OperationRoute<E extends RegistryEntry, O = InputOf<E>> = Pick<GuardedRoute<NoInfer<O>>, 'headers' | 'cors' | 'contentSecurityPolicy' | 'exists' | 'handle' | 'renderRefusal'> & {
  validate?(request: HttpRequestInfo, context: GuardContext<NoInfer<O>>): { input: NoInfer<O> } | Refusal;
  /**
   * Checks beyond the entry's schema, on the input that passed it: the input the handler gets, or a refusal.
   * The handler's input stays InputOf<E> unless the route is a refinedOperation naming another as `O`.
   */
  refine?(input: InputOf<NoInfer<E>>, request: HttpRequestInfo, context: GuardContext<NoInfer<O>>): { input: NoInfer<O> } | Refusal;
};

/** Answers a refusal of a route's checks. */
type Refuse<I> = (refusal: Refusal, context: GuardContext<I>, request: HttpRequestInfo) => RouteResult;

const NO_HEADERS: HeaderList = [];
/** Answers about one person: no cache keeps them, whatever their status. */
const PRIVATE_ANSWER: HeaderList = ['Cache-Control', 'no-store'];

export class GuardChain {
  constructor(private readonly deps: GuardDeps) {}

  /**
   * Registers an entry's route: method, path, rate limit, guards, body limit and input come from the entry.
   * A route with a refine names its entry's type (`operation<typeof spec>`): inferring it through refine's
   * parameter is more than the compiler does.
   */
  operation<E extends RegistryEntry>(server: HttpServer, spec: E, route: OperationRoute<NoInfer<E>>): void {
    this.refinedOperation(server, spec, route);
  }

  /** As operation, where the route's refine makes the handler's input another type, `O` (a normal form, say). */
  refinedOperation<E extends RegistryEntry, O>(server: HttpServer, spec: E, route: OperationRoute<NoInfer<E>, O>): void {
    const { refine, ...own } = route;
    const rendered = !isListed(spec) && spec.refusals !== 'problem';
    if (rendered !== (own.renderRefusal !== undefined)) {
      throw new Error(`${entryName(spec)} answers its refusals as ${isListed(spec) ? 'problem' : spec.refusals}: give its route renderRefusal exactly when they are not problem+json`);
    }
    this.route(server, {
      method: spec.method.toUpperCase() as HttpMethod,
      pattern: routePattern(spec),
      ...(isListed(spec) || spec.operationId !== undefined ? { operation: entryName(spec) } : {}),
      needs: spec,
      body: bodyLimit(spec),
      ...(spec.cacheControl === 'no-store' ? { answerHeaders: PRIVATE_ANSWER } : {}),
      ...own,
      ...(spec.requestBody !== undefined && 'form' in spec.requestBody ? { headers: withContentType(own.headers) } : {}),
      validate: own.validate ?? (schemaValidation(spec, refine as Refine | undefined) as GuardedRoute<O>['validate']),
    });
  }

  private route<I>(server: HttpServer, route: GuardedRoute<I>): void {
    const checks: Check<I>[] = [];
    const headers = new Set(route.headers === 'all' ? [] : route.headers);
    /** The checks that come before the body size: all a too-large body meets. */
    let beforeBody = 0;
    /** The rate limit's spending, when it waits for the origin check. */
    let afterOrigin: Check<I> | null = null;
    for (const step of GUARD_ORDER) {
      switch (step) {
        case 'bodySize':
          beforeBody = checks.length;
          break;
        case 'validation': {
          const validate = route.validate;
          if (validate === undefined) break;
          checks.push((request, context) => {
            const outcome = validate(request, context);
            if ('slug' in outcome) return outcome;
            context.input = outcome.input;
            return null;
          });
          break;
        }
        case 'existence':
          if (route.exists !== undefined) checks.push(route.exists);
          break;
        default: {
          const guard = KINDS[step](route.needs, this.deps);
          if (guard !== null) {
            checks.push(guard.check);
            for (const name of guard.headers ?? []) headers.add(name);
            if (guard.afterOrigin !== undefined) afterOrigin = guard.afterOrigin;
          }
          if (step === 'origin' && afterOrigin !== null) checks.push(afterOrigin);
        }
      }
    }
    const { body, handle } = route;
    const answerHeaders = route.answerHeaders ?? NO_HEADERS;
    const beforeBodyChecks = checks.slice(0, beforeBody);
    const render = route.renderRefusal;
    const refuse: Refuse<I> = render
      ? (refusal, context, request) => render(refusal, context, request, this.deps.problems.status(refusal.slug))
      : (refusal, context) => this.refuse(refusal, context);
    server.route({
      method: route.method,
      pattern: route.pattern,
      ...(route.operation ? { operation: route.operation } : {}),
      headers: route.headers === 'all' ? 'all' : [...headers],
      ...(route.cors ? { cors: route.cors } : {}),
      ...(route.contentSecurityPolicy ? { contentSecurityPolicy: route.contentSecurityPolicy } : {}),
      handler: (request) => this.serve(checks, request, handle, answerHeaders, refuse),
      ...(body
        ? {
            maxBodyBytes: body.maxBytes,
            tooLarge: (request: HttpRequestInfo, maxBytes: number) =>
              this.serve(beforeBodyChecks, request, (_request, context) => refuse(tooLarge(maxBytes, body.tooLargeStatus), context, request), answerHeaders, refuse),
          }
        : {}),
    });
  }

  /** The problem answer to a refusal, with the context's headers. */
  refuse(refusal: Refusal, context: GuardContext<unknown>): HttpReply {
    const { slug, detail, invalidParams, retryAfterSeconds } = refusal;
    return this.deps.problems.reply(slug, detail, { invalidParams, retryAfterSeconds, headers: context.headers });
  }

  /** Runs the checks in order; synchronous until a check answers with a promise (a session read, the human check). */
  private serve<I>(
    checks: readonly Check<I>[],
    request: HttpRequestInfo,
    then: GuardedRoute<I>['handle'],
    answerHeaders: HeaderList,
    refuse: Refuse<I>,
  ): RouteResult | Promise<RouteResult> {
    // `input` is set by the validation step before any route code reads it
    const context: GuardContext<I> = { nowMs: this.deps.now(), headers: answerHeaders, input: undefined as I, body: null, account: null, session: null, humanCheck: null };
    const refusal = runChecks(checks, 0, request, context);
    if (refusal === null) return then(request, context);
    if (refusal instanceof Promise) return refusal.then((late) => (late === null ? then(request, context) : refuse(late, context, request)));
    return refuse(refusal, context, request);
  }
}

function runChecks<I>(checks: readonly Check<I>[], from: number, request: HttpRequestInfo, context: GuardContext<I>): Refusal | null | Promise<Refusal | null> {
  for (let i = from; i < checks.length; i++) {
    const outcome = checks[i](request, context);
    if (outcome === null) continue;
    if (outcome instanceof Promise) return outcome.then((refusal) => refusal ?? runChecks(checks, i + 1, request, context));
    return outcome;
  }
  return null;
}

/** The hostname of an Origin header's value; '' when it is not a URL (then no listed hostname matches). */
function hostnameOf(origin: string): string {
  try {
    return new URL(origin).hostname;
  } catch {
    return '';
  }
}

export const NOT_JSON = Symbol('not JSON');

/** The parsed body; an empty body is an empty object (confirmToilet needs no fields). */
export function parseJson(body: Buffer): any {
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return NOT_JSON;
  }
}

/** The body an entry takes, and the status of a larger one: 413 where the operation lists it, else 400. */
function bodyLimit(spec: RegistryEntry): GuardedRoute<unknown>['body'] {
  const body = spec.requestBody;
  if (body === undefined) return undefined;
  if (body.maxBytes === undefined) throw new Error(`${entryName(spec)} takes a body: give it requestBody.maxBytes in the registry`);
  if (!isListed(spec)) return { maxBytes: body.maxBytes, tooLargeStatus: spec.requestBody!.tooLargeStatus };
  return { maxBytes: body.maxBytes, tooLargeStatus: spec.errors[413] !== undefined ? 413 : 400 };
}

/** The request headers of a route that reads a form: Content-Type first (it says whether the body is one). */
function withContentType(headers: GuardedRoute<unknown>['headers']): GuardedRoute<unknown>['headers'] {
  if (headers === 'all') return headers;
  return ['content-type', ...(headers ?? []).filter((name) => name !== 'content-type')];
}

type Validation<I> = NonNullable<GuardedRoute<I>['validate']>;

/**
 * The validation step of an entry: its query parsed by its parameter set (the reads' hand-written parser),
 * its JSON body checked against its schema (then in `context.body`, where the human check reads its
 * token), or its form's fields read; then `refine`. None for an entry that takes none of them.
 */
function schemaValidation(spec: RegistryEntry, refine: Refine | undefined): Validation<unknown> | undefined {
  const step = inputStep(spec);
  if (step === undefined) {
    if (refine !== undefined) throw new Error(`${entryName(spec)} takes no body or query to refine`);
    return undefined;
  }
  if (refine === undefined) return step;
  return (request, context) => {
    const outcome = step(request, context);
    return 'slug' in outcome ? outcome : refine(outcome.input, request, context);
  };
}

/** A route's refine, as the chain calls it (the types of its input and output are the route's). */
type Refine = (input: unknown, request: HttpRequestInfo, context: GuardContext<unknown>) => { input: unknown } | Refusal;

/** How the entry's input is read and checked, by what it declares; undefined when it takes none. */
function inputStep(spec: RegistryEntry): Validation<unknown> | undefined {
  const query = spec.query;
  if (typeof query === 'string') {
    return (request) => {
      const parsed = parseQuery(query, request.query);
      return parsed.ok ? { input: parsed.params } : invalidQuery(parsed.invalid);
    };
  }
  if (query !== undefined) {
    const compiled = compileQuery(query, entryName(spec));
    return (request) => {
      const parsed = parseParams(compiled, request.query);
      return parsed.ok ? { input: parsed.params } : invalidQuery(parsed.invalid);
    };
  }
  const body = spec.requestBody;
  if (body === undefined) return undefined;
  if ('schema' in body) {
    const schema = body.schema;
    return (request, context) => {
      const checked = checkedBody(request, schema);
      if ('slug' in checked) return checked;
      context.body = checked.body;
      return { input: checked.body };
    };
  }
  const form = body.form;
  return form === undefined ? undefined : (request) => formInput(request, form);
}

function checkedBody(request: HttpRequestInfo, schema: SchemaName): { body: any } | Refusal {
  const body = parseJson(request.body ?? Buffer.alloc(0));
  if (body === NOT_JSON) return invalidBody([{ name: 'body', reason: 'is not valid JSON; send a JSON object' }]);
  const found = findInvalid(schema, body);
  return found.length > 0 ? invalidBody(found) : { body };
}

/** The declared fields of a form body (the others ignored), or the 400 saying how to send the form. */
function formInput(request: HttpRequestInfo, form: FormBody): { input: Record<string, string> } | Refusal {
  const fields = formFields(request.headers['content-type'], request.body);
  if (fields === null) return { slug: 'invalid-parameters', detail: form.unreadable };
  const input: Record<string, string> = {};
  for (const name of form.fields) {
    const value = fields.get(name);
    if (value !== undefined) input[name] = value;
  }
  return { input };
}

/** A 400 for query parameters the operation does not take as sent, listing each fault. */
export function invalidQuery(invalidParams: readonly InvalidParam[]): Refusal {
  return {
    slug: 'invalid-parameters',
    detail: `Correct ${invalidParams.length === 1 ? 'this parameter' : `these ${invalidParams.length} parameters`} and send the request again: ${invalidParams.map((p) => `${p.name}: ${p.reason}`).join('; ')}.`,
    invalidParams,
  };
}

/** A 400 for a body that is not what the operation takes, listing each fault. */
export function invalidBody(invalidParams: readonly InvalidParam[]): Refusal {
  return { slug: 'invalid-parameters', detail: `Correct the body and send it again: ${invalidParams.map((p) => `${p.name}: ${p.reason}`).join('; ')}.`, invalidParams };
}

function tooLarge(maxBytes: number, status: 400 | 413): Refusal {
  return status === 413
    ? { slug: 'payload-too-large', detail: `The body is larger than ${maxBytes} bytes; send a smaller one.` }
    : invalidBody([{ name: 'body', reason: `is larger than ${maxBytes} bytes; send a smaller one` }]);
}
