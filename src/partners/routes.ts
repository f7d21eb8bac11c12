// REST routes of the partner operations (operations registry: claimToilet, updatePartnerProfile,
// listMyPartnerListings, and checkPartnerHours, the dashboard's check of hours as they are typed) behind the guard chain, which runs what the registry declares in its one order:
// rate limit (429), origin (403), session (401), body size and validation (400), existence and ownership
// (404), then here the state (409) and the write. Answers are personal: Cache-Control no-store, no CORS.
import type { HttpServer, RouteResult } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import type { Config } from '../config.js';
import type { Limits } from '../api/limits.js';
import type { SessionReader } from '../api/guards.js';
import { GuardChain, invalidBody, type GuardContext, type Refusal } from '../api/guards.js';
import { operationIn } from '../schemas/operations.js';
import { PARTNER_OPERATIONS } from './operations.js';
import type { PartnerContext } from './context.js';
import { PartnerError } from './errors.js';
import type { PartnerClaims } from './claims.js';
import type { PartnerProfiles } from './profile.js';
import { listMyPartnerListings } from './listings.js';

export interface PartnerRouteDeps {
  config: Config;
  limits: Limits;
  problems: Problems;
  sessions: SessionReader;
  now: () => number;
  context: PartnerContext;
  claims: PartnerClaims;
  profiles: PartnerProfiles;
}

const JSON_TYPE = ['Content-Type', 'application/json'];

/** The problem a refused partner operation answers with. */
export function refusalOf(error: PartnerError): Refusal {
  switch (error.kind) {
    case 'not-found':
      return { slug: 'not-found', detail: error.message };
    case 'invalid':
      return error.param ? invalidBody([error.param]) : { slug: 'invalid-parameters', detail: error.message };
    case 'claim-conflict':
      return { slug: 'claim-conflict', detail: error.message };
    case 'claim-not-approved':
      return { slug: 'claim-not-approved', detail: error.message };
    case 'no-running-plan':
      return { slug: 'no-running-plan', detail: error.message };
    case 'own-claim':
      return { slug: 'own-claim', detail: error.message };
    case 'stripe-subscription':
      throw new Error(`a REST operation met a refusal of the operator's plan command: ${error.message}`);
  }
}

export function registerPartnerRoutes(server: HttpServer, deps: PartnerRouteDeps): void {
  const { context, claims, profiles } = deps;
  const guards = new GuardChain(deps);
  const answer = (status: number, context: GuardContext<unknown>, body: unknown): RouteResult => ({ status, headers: [...JSON_TYPE, ...context.headers], body: JSON.stringify(body) });
  /** Runs a partner action; its PartnerError becomes the problem it names. */
  const attempt = async (guardContext: GuardContext<unknown>, status: number, run: () => Promise<unknown>): Promise<RouteResult> => {
    try {
      return answer(status, guardContext, await run());
    } catch (error) {
      if (error instanceof PartnerError) return guards.refuse(refusalOf(error), guardContext);
      throw error;
    }
  };
  guards.operation(server, operationIn(PARTNER_OPERATIONS, 'claimToilet'), {
    exists: (request) =>
      context.toilets.snapshot.rowOf(request.params.id) >= 0
        ? null
        : { slug: 'not-found', detail: `No toilet has the id ${JSON.stringify(request.params.id)}, or a moderator marked it gone. Find ids with findToiletsNear or listToiletsInArea.` },
    handle: (request, guardContext) =>
      attempt(guardContext, 201, async () => {
        const created = await claims.claim(guardContext.session!.account, request.params.id, guardContext.input);
        return { id: created.id, status: created.status };
      }),
  });

  guards.operation(server, operationIn(PARTNER_OPERATIONS, 'updatePartnerProfile'), {
    exists: async (request, guardContext) => {
      try {
        await profiles.editable(guardContext.session!.account, request.params.id);
        return null;
      } catch (error) {
        if (error instanceof PartnerError) return refusalOf(error);
        throw error;
      }
    },
    handle: (request, guardContext) => attempt(guardContext, 200, () => profiles.update(guardContext.session!.account, request.params.id, guardContext.input)),
  });

  guards.operation(server, operationIn(PARTNER_OPERATIONS, 'checkPartnerHours'), {
    exists: async (request, guardContext) => {
      try {
        await profiles.owned(guardContext.session!.account, request.params.id);
        return null;
      } catch (error) {
        if (error instanceof PartnerError) return refusalOf(error);
        throw error;
      }
    },
    handle: (request, guardContext) => attempt(guardContext, 200, () => profiles.previewHours(guardContext.session!.account, request.params.id, guardContext.input.opening_hours)),
  });

  guards.operation(server, operationIn(PARTNER_OPERATIONS, 'listMyPartnerListings'), {
    handle: async (_request, guardContext) => answer(200, guardContext, await listMyPartnerListings(context, guardContext.session!.account)),
  });
}
