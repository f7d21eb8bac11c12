// REST routes of the five contribution operations and the human-check challenge. The guard chain
// (src/api/guards.ts) runs what the registry declares for them in its one order: rate limit, contributions
// switch (503), origin (403), body size, validation (400: JSON and schema by the chain; device_id and the
// normal forms here, as refine), unknown toilet (404, here), human check (403); then the write
// (contributions.ts).
import type { HttpServer, RouteResult } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import type { Config } from '../config.js';
import type { Limits } from '../api/limits.js';
import { GuardChain, invalidBody, type GuardContext, type Refusal, type SessionReader } from '../api/guards.js';
import type { ToiletCatalog } from '../toilets/catalog.js';
import type { FactAttribute } from '../rules/facts.js';
import { operationIn, type OperationSpec, type RegistryEntry } from '../schemas/operations.js';
import { CHALLENGE_ROUTES, CONTRIBUTION_OPERATIONS } from './contribution-operations.js';
import { TOILET_ID, type InvalidParam } from '../schemas/resources.js';
import type { ReportKind } from './resources.js';
import type { Contributions, Outcome, Proof, Submission, VoteInput } from './contributions.js';
import type { HumanCheck } from './human-check.js';
import { accountPerson, type Pseudonyms } from './pseudonyms.js';
import { normalizeVote } from './normal-form.js';

const TOILET_ID_PATTERN = new RegExp(TOILET_ID.pattern);
const JSON_CREATED = ['Content-Type', 'application/json'];

export interface ContributionRouteDeps {
  config: Config;
  limits: Limits;
  problems: Problems;
  catalog: ToiletCatalog;
  contributions: Contributions;
  humanCheck: HumanCheck;
  pseudonyms: Pseudonyms;
  sessions: SessionReader;
  now: () => number;
}

/** A contribution body in its stored form, and who sends it. */
interface Checked<I> {
  input: I;
  /** The body's device_id: who rates or votes, without an account. */
  deviceId: string | undefined;
}

/** What the handler knows when the write runs. */
interface WriteContext<I> {
  /** The toilet id (toilet operations), else ''. */
  id: string;
  input: I;
  ip: string;
  /** Who rates or votes (from device_id or the account). */
  person: string | null;
  proof: Proof;
}

interface Operation<I> {
  /** Path, body schema, body limit and guards come from the operations registry. */
  operationId: string;
  /** Ratings and votes are one per person: without an account, device_id is required. */
  perPerson: boolean;
  /** Checks beyond the schema and brings the body to its stored form. */
  prepare(body: any): { invalid: InvalidParam[] } | { input: I };
  write(context: WriteContext<I>): Promise<Outcome<unknown>>;
}

export function registerContributionRoutes(server: HttpServer, deps: ContributionRouteDeps): void {
  const guards = new GuardChain(deps);
  const { contributions } = deps;
  registerContribution(server, guards, deps, submitToilet(contributions));
  registerContribution(server, guards, deps, confirmToilet(contributions));
  registerContribution(server, guards, deps, rateToilet(contributions));
  registerContribution(server, guards, deps, reportToilet(contributions));
  registerContribution(server, guards, deps, correctToilet(contributions));
  registerChallenge(server, guards, deps.humanCheck);
}

/** One contribution operation behind the guard chain: its body checked, the toilet known, then its write. */
function registerContribution<I>(server: HttpServer, guards: GuardChain, deps: ContributionRouteDeps, operation: Operation<I>): void {
  const { catalog, pseudonyms } = deps;
  const spec: OperationSpec = operationIn(CONTRIBUTION_OPERATIONS, operation.operationId);
  const toilet = spec.pathParams?.id !== undefined;
  const known = (id: string) => TOILET_ID_PATTERN.test(id) && catalog.snapshot.rowOf(id) >= 0;
  guards.refinedOperation<RegistryEntry, Checked<I>>(server, spec, {
    // the chain checked the body against the entry's schema; what it hands on is still the body as sent
    refine: (checked, _request, context) => {
      const body = checked as unknown as { device_id?: string };
      if (operation.perPerson && context.account === null && body.device_id === undefined) {
        return invalidBody([{ name: 'device_id', reason: 'is required when no account is signed in: send the 32 lowercase hex digits this browser keeps' }]);
      }
      const prepared = operation.prepare(body);
      return 'invalid' in prepared ? invalidBody(prepared.invalid) : { input: { input: prepared.input, deviceId: body.device_id } };
    },
    exists: toilet ? (request) => (known(request.params.id) ? null : notFound(request.params.id)) : undefined,
    handle: async (request, context) => {
      const id = toilet ? request.params.id : '';
      if (toilet && !known(id)) return guards.refuse(notFound(id), context); // a moderator may have acted while the token was checked
      const { account, input } = context;
      const person = account !== null ? accountPerson(account) : typeof input.deviceId === 'string' ? pseudonyms.person(input.deviceId) : null;
      return answerOutcome(await operation.write({ id, input: input.input, ip: request.ip, person, proof: context.humanCheck }), context, guards);
    },
  });
}

function notFound(id: string): Refusal {
  return { slug: 'not-found', detail: `No toilet has the id ${JSON.stringify(id)}, or a moderator marked it gone. Find ids with findToiletsNear or listToiletsInArea.` };
}

/** 201 with the answer, or the refusal the write came to (a replayed token, the day's limit). */
function answerOutcome(outcome: Outcome<unknown>, context: GuardContext<unknown>, guards: GuardChain): RouteResult {
  switch (outcome.kind) {
    case 'done':
      return { status: 201, headers: [...JSON_CREATED, ...context.headers], body: JSON.stringify(outcome.answer) };
    case 'replayed':
      return guards.refuse({ slug: 'human-check-failed', detail: 'The human check failed: this challenge_token was used before; solve a new challenge.' }, context);
    case 'daily-limit':
      return guards.refuse(
        {
          slug: 'daily-limit',
          detail: `This address already added a new ${outcome.rule === 'new_rater' ? 'rater' : 'voter'} to this toilet today (UTC). Try again in ${outcome.retryAfterSeconds} seconds; people who rated or voted before may change theirs now.`,
          retryAfterSeconds: outcome.retryAfterSeconds,
        },
        context,
      );
  }
}

const submitToilet = (contributions: Contributions): Operation<Submission> => ({
  operationId: 'submitToilet',
  perPerson: false,
  prepare: (body) => {
    const found: InvalidParam[] = [];
    const { challenge_token: _token, ...input } = body as Submission & { challenge_token?: string };
    for (const field of ['name', 'opening_hours'] as const) {
      if (body[field] === undefined) continue;
      const normal = normalizeVote(field, body[field]);
      if (normal.ok) input[field] = normal.value;
      else found.push({ name: field, reason: normal.reason });
    }
    return found.length > 0 ? { invalid: found } : { input };
  },
  write: ({ input, proof }) => contributions.submit(input, proof),
});

const confirmToilet = (contributions: Contributions): Operation<null> => ({
  operationId: 'confirmToilet',
  perPerson: false,
  prepare: () => ({ input: null }),
  write: ({ id, ip, proof }) => contributions.confirm(id, ip, proof),
});

const rateToilet = (contributions: Contributions): Operation<number> => ({
  operationId: 'rateToilet',
  perPerson: true,
  prepare: (body) => ({ input: body.rating }),
  write: ({ id, input, ip, person, proof }) => contributions.rate(id, ip, person!, input, proof),
});

const reportToilet = (contributions: Contributions): Operation<{ kind: ReportKind; note?: string }> => ({
  operationId: 'reportToilet',
  perPerson: false,
  prepare: (body) => ({ input: { kind: body.kind, note: body.note } }),
  write: ({ id, input, proof }) => contributions.report(id, input.kind, input.note, proof),
});

const correctToilet = (contributions: Contributions): Operation<VoteInput[]> => ({
  operationId: 'correctToilet',
  perPerson: true,
  prepare: (body) => {
    const found: InvalidParam[] = [];
    const input: VoteInput[] = [];
    const seen = new Set<string>();
    (body.votes as { attribute: FactAttribute; value: string }[]).forEach(({ attribute, value }, i) => {
      if (seen.has(attribute)) found.push({ name: `votes[${i}].attribute`, reason: `${attribute} appears more than once; send one vote per fact` });
      seen.add(attribute);
      const normal = normalizeVote(attribute, value);
      if (normal.ok) input.push({ attribute, value: normal.value });
      else found.push({ name: `votes[${i}].value`, reason: normal.reason });
    });
    return found.length > 0 ? { invalid: found } : { input };
  },
  write: ({ id, input, ip, person, proof }) => contributions.vote(id, ip, person!, input, proof),
});

/** Not an operation of the spec (contribution-operations.ts): the site's widget fetches it before a contribution. */
function registerChallenge(server: HttpServer, guards: GuardChain, humanCheck: HumanCheck): void {
  guards.operation(server, CHALLENGE_ROUTES[0], {
    handle: async (_request, context) => ({ status: 200, headers: ['Content-Type', 'application/json', 'Cache-Control', 'no-store', ...context.headers], body: await humanCheck.challenge(context.nowMs) }),
  });
}
