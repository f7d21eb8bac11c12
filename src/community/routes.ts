// REST routes of the five contribution operations and the human-check challenge. Every contribution
// request passes the guards in this order, so nothing the user typed is lost to a check that could have
// come first: rate limit, origin, contributions switch (503), body size and JSON syntax, validation (400),
// unknown toilet (404), human check (403), then the write (contributions.ts).
import type { HttpRequestInfo, HttpServer } from '../http/server.js';
import type { HttpReply } from '../http/reply.js';
import type { Problems } from '../http/problem.js';
import type { Config } from '../config.js';
import type { Limits } from '../api/limits.js';
import { takeBudget } from '../api/limits.js';
import type { ToiletCatalog } from '../toilets/catalog.js';
import type { FactAttribute } from '../rules/facts.js';
import { API_PREFIX, fullPath, operationById } from '../schemas/operations.js';
import { TOILET_ID, type InvalidParam, type ReportKind } from '../schemas/resources.js';
import { findInvalid } from '../schemas/validate.js';
import type { Contributions, Outcome, Proof, Submission, VoteInput } from './contributions.js';
import type { HumanCheck } from './human-check.js';
import type { Pseudonyms } from './pseudonyms.js';
import { normalizeVote } from './normal-form.js';

/** Retry-After while contributions are switched off. */
const CONTRIBUTIONS_OFF_RETRY_SECONDS = 3600;
const TOILET_ID_PATTERN = new RegExp(TOILET_ID.pattern);
const JSON_CREATED = ['Content-Type', 'application/json'];

export interface ContributionRouteDeps {
  config: Config;
  limits: Limits;
  problems: Problems<string>;
  catalog: ToiletCatalog;
  contributions: Contributions;
  humanCheck: HumanCheck;
  pseudonyms: Pseudonyms;
  now: () => number;
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
  /** Path, body schema and body limit come from the operations registry. */
  operationId: string;
  /** Ratings and votes are one per person: without an account, device_id is required. */
  perPerson: boolean;
  /** Checks beyond the schema and brings the body to its stored form. */
  prepare(body: any): { invalid: InvalidParam[] } | { input: I };
  write(context: WriteContext<I>): Outcome<unknown>;
}

export function registerContributionRoutes(server: HttpServer, deps: ContributionRouteDeps): { tooLarge(request: HttpRequestInfo, maxBytes: number): HttpReply | null } {
  const { config, limits, problems, catalog, contributions, humanCheck, pseudonyms, now } = deps;
  const siteOrigin = new URL(config.baseUrl).origin;

  /** The checks that come before the body is read: the rate-limit headers, and the refusal if one applies. */
  const admit = (request: HttpRequestInfo, nowMs: number): { headers: string[]; refused: HttpReply | null } => {
    const budget = takeBudget(limits.perIp, request, nowMs, problems);
    if (budget.refused) return budget;
    const origin = request.headers.origin;
    const sameOrigin = origin ? origin === siteOrigin : request.headers['sec-fetch-site'] === 'same-origin';
    if (!sameOrigin) {
      return { headers: budget.headers, refused: problems.reply('other-origin', `Send contributions from this site's pages: the Origin header must be ${siteOrigin}.`, { headers: budget.headers }) };
    }
    if (!config.contributionsEnabled) {
      const refused = problems.reply('contributions-off', 'Contributions are switched off for now; reads still work. Try again later.', { retryAfterSeconds: CONTRIBUTIONS_OFF_RETRY_SECONDS, headers: budget.headers });
      return { headers: budget.headers, refused };
    }
    return budget;
  };

  const invalid = (invalidParams: InvalidParam[], headers: string[]): HttpReply =>
    problems.reply('invalid-parameters', `Correct the body and send it again: ${invalidParams.map((p) => `${p.name}: ${p.reason}`).join('; ')}.`, { invalidParams, headers });

  /** Paths of the contribution routes, for the oversized-body hook. */
  const contributionPaths: RegExp[] = [];
  const route = <I>(operation: Operation<I>) => {
    const spec = operationById(operation.operationId);
    const { schema, maxBytes } = spec.requestBody!;
    const toilet = spec.pathParams?.id !== undefined;
    contributionPaths.push(new RegExp(`^${fullPath(spec).replace(/\{\w+\}/g, '[^/]+')}$`));
    server.route({
      method: 'POST',
      pattern: fullPath(spec).replace(/\{(\w+)\}/g, ':$1'),
      headers: ['origin', 'sec-fetch-site'],
      maxBodyBytes: maxBytes,
      handler: async (request) => {
        const nowMs = now();
        const { headers, refused } = admit(request, nowMs);
        if (refused) return refused;
        const body = parseJson(request.body!);
        if (body === NOT_JSON) return invalid([{ name: 'body', reason: 'is not valid JSON; send a JSON object' }], headers);
        const problemsFound = findInvalid(schema, body);
        const account = signedInAccount(request);
        if (problemsFound.length === 0 && operation.perPerson && account === null && body.device_id === undefined) {
          problemsFound.push({ name: 'device_id', reason: 'is required when no account is signed in: send the 32 lowercase hex digits this browser keeps' });
        }
        const prepared = problemsFound.length === 0 ? operation.prepare(body) : { invalid: problemsFound };
        if ('invalid' in prepared) return invalid(prepared.invalid, headers);
        const id = toilet ? request.params.id : '';
        const notFound = () =>
          problems.reply('not-found', `No toilet has the id ${JSON.stringify(id)}, or a moderator marked it gone. Find ids with findToiletsNear or listToiletsInArea.`, { headers });
        const known = () => TOILET_ID_PATTERN.test(id) && catalog.snapshot.rowOf(id) >= 0;
        if (toilet && !known()) return notFound();
        let proof: Proof = null;
        if (account === null) {
          const token = body.challenge_token;
          const verdict = typeof token === 'string' ? await humanCheck.verify(token, nowMs) : { ok: false as const, reason: 'challenge_token is missing: solve a challenge from GET /api/v1/challenge' };
          if (!verdict.ok) return problems.reply('human-check-failed', `The human check failed: ${verdict.reason}.`, { headers });
          proof = verdict;
        }
        if (toilet && !known()) return notFound(); // a moderator may have acted while the token was checked
        const person = account !== null ? `a:${account}` : typeof body.device_id === 'string' ? pseudonyms.person(body.device_id) : null;
        const outcome = operation.write({ id, input: prepared.input, ip: request.ip, person, proof });
        switch (outcome.kind) {
          case 'done':
            return { status: 201, headers: [...JSON_CREATED, ...headers], body: JSON.stringify(outcome.answer) };
          case 'replayed':
            return problems.reply('human-check-failed', 'The human check failed: this challenge_token was used before; solve a new challenge.', { headers });
          case 'daily-limit':
            return problems.reply('daily-limit', `This address already added a new ${outcome.rule === 'new_rater' ? 'rater' : 'voter'} to this toilet today (UTC). Try again in ${outcome.retryAfterSeconds} seconds; people who rated or voted before may change theirs now.`, {
              retryAfterSeconds: outcome.retryAfterSeconds,
              headers,
            });
        }
      },
    });
  };

  route<Submission>({
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

  route<null>({
    operationId: 'confirmToilet',
    perPerson: false,
    prepare: () => ({ input: null }),
    write: ({ id, ip, proof }) => contributions.confirm(id, ip, proof),
  });

  route<number>({
    operationId: 'rateToilet',
    perPerson: true,
    prepare: (body) => ({ input: body.rating }),
    write: ({ id, input, ip, person, proof }) => contributions.rate(id, ip, person!, input, proof),
  });

  route<{ kind: ReportKind; note?: string }>({
    operationId: 'reportToilet',
    perPerson: false,
    prepare: (body) => ({ input: { kind: body.kind, note: body.note } }),
    write: ({ id, input, proof }) => contributions.report(id, input.kind, input.note, proof),
  });

  route<VoteInput[]>({
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

  server.route({
    method: 'GET',
    pattern: `${API_PREFIX}/challenge`,
    handler: async (request) => {
      const nowMs = now();
      const budget = takeBudget(limits.perIp, request, nowMs, problems);
      if (budget.refused) return budget.refused;
      if (!config.contributionsEnabled) {
        return problems.reply('contributions-off', 'Contributions are switched off for now, so no challenge is needed.', { retryAfterSeconds: CONTRIBUTIONS_OFF_RETRY_SECONDS, headers: budget.headers });
      }
      return { status: 200, headers: ['Content-Type', 'application/json', 'Cache-Control', 'no-store', ...budget.headers], body: await humanCheck.challenge(nowMs) };
    },
  });

  return {
    /** A contribution body over the limit: the guards that come first, then 400. Null for other routes. */
    tooLarge: (request, maxBytes) => {
      if (request.method !== 'POST' || !contributionPaths.some((path) => path.test(request.path))) return null;
      const { headers, refused } = admit(request, now());
      return refused ?? invalid([{ name: 'body', reason: `is larger than ${maxBytes} bytes; send a smaller one` }], headers);
    },
  };
}

const NOT_JSON = Symbol('not JSON');

/** The parsed body; an empty body is an empty object (confirmToilet needs no fields). */
function parseJson(body: Buffer): any {
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return NOT_JSON;
  }
}

/**
 * The signed-in account of a request, which skips the human check and rates/votes as itself.
 * Accounts (passkey sessions) come with the partner work; until then nobody is signed in.
 */
function signedInAccount(_request: HttpRequestInfo): string | null {
  return null;
}
