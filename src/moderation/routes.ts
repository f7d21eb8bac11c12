// The site's moderator queue as two operations of the registry (listModerationQueue, moderate) behind the
// guard chain: session, the moderator role, for actions a passkey sign-in of the last 5 minutes and the
// site's origin. They call the one moderation module the command line uses (moderation.ts, and
// claim-moderation.ts for business claims: approve with an optional corrected `name`, reject), so a page
// action is exactly one `npm run moderate` action, refused the same way (409 with its message) and recorded
// the same way in the moderation log, with the moderator's account id added; the server log says who acted.
import type { HttpServer, RouteResult } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import type { Config } from '../config.js';
import type { Limits } from '../api/limits.js';
import type { Logger } from '../log.js';
import { GuardChain, invalidBody, type GuardContext, type SessionReader } from '../api/guards.js';
import { operationIn } from '../schemas/operations.js';
import { MODERATION_OPERATIONS } from './operations.js';
import type { InvalidParam } from '../schemas/resources.js';
import { Moderation, ModerationError } from './moderation.js';
import { OwnClaimRefused, type ClaimModeration } from './claim-moderation.js';

/** How many of the latest actions the queue shows (`npm run moderate -- log` shows 20 too). */
const LOG_ENTRIES = 20;

export interface ModerationRouteDeps {
  config: Config;
  limits: Limits;
  problems: Problems;
  sessions: SessionReader;
  moderation: Moderation;
  claims: ClaimModeration;
  log: Logger;
  /** Applies the action to the served data (the change log); resolves once it shows. */
  applied(): Promise<void>;
  now: () => number;
}

interface ActionRequest {
  action: 'approve' | 'reject' | 'lock' | 'unlock' | 'gone';
  target?: string;
  toilet_id?: string;
  fact?: string;
  value?: string;
  /** approve of a claim only: the corrected business name partner.name shows. */
  name?: string;
  reason: string;
}

/** The fields each action needs beside `action` and `reason`, as the command line's words. */
type ActionField = 'target' | 'toilet_id' | 'fact' | 'value' | 'name';
const NEEDS: Record<ActionRequest['action'], readonly ActionField[]> = {
  approve: ['target'],
  reject: ['target'],
  lock: ['toilet_id', 'fact', 'value'],
  unlock: ['toilet_id', 'fact'],
  gone: ['toilet_id'],
};

export function registerModerationRoutes(server: HttpServer, deps: ModerationRouteDeps): void {
  const { moderation, log } = deps;
  const guards = new GuardChain(deps);
  const json = (context: GuardContext<unknown>, body: unknown): RouteResult => ({ status: 200, headers: ['Content-Type', 'application/json', ...context.headers], body: JSON.stringify(body) });

  guards.operation(server, operationIn(MODERATION_OPERATIONS, 'listModerationQueue'), {
    handle: async (_request, context) => {
      const [submissions, reports, locks, log] = await Promise.all([moderation.submissions(), moderation.reports(), moderation.locks(), moderation.history(LOG_ENTRIES)]);
      return json(context, { submissions, reports, gone_votes: moderation.goneVotes(), claims: await deps.claims.pending(), locks, log });
    },
  });

  const spec = operationIn(MODERATION_OPERATIONS, 'moderate');
  guards.operation<typeof spec>(server, spec, {
    refine: (body) => {
      const missing: InvalidParam[] = NEEDS[body.action].filter((field) => body[field] === undefined).map((name) => ({ name, reason: `is required for ${body.action}` }));
      const extra: InvalidParam[] = (['target', 'toilet_id', 'fact', 'value'] as const)
        .filter((field) => body[field] !== undefined && !NEEDS[body.action].includes(field))
        .map((name) => ({ name, reason: `is not taken by ${body.action}; leave it out` }));
      const nameMisplaced = body.name !== undefined && !(body.action === 'approve' && isClaim(body.target));
      const found = [...missing, ...extra, ...(nameMisplaced ? [{ name: 'name', reason: 'goes with approve of a claim (clm_...) only; leave it out' }] : [])];
      return found.length > 0 ? invalidBody(found) : { input: body };
    },
    handle: async (_request, context) => {
      const { action, target, toilet_id: toilet, fact, value, name, reason } = context.input;
      const by = context.session!.account;
      let done: string;
      try {
        switch (action) {
          case 'approve':
            done = isClaim(target) ? await deps.claims.approve(target!, reason, name, by) : await moderation.approve(target!, reason, by);
            break;
          case 'reject':
            done = isClaim(target) ? await deps.claims.reject(target!, reason, by) : await moderation.reject(target!, reason, by);
            break;
          case 'lock':
            done = await moderation.lock(toilet!, fact!, value!, reason, by);
            break;
          case 'unlock':
            done = await moderation.unlock(toilet!, fact!, reason, by);
            break;
          case 'gone':
            done = await moderation.markGone(toilet!, reason, by);
            break;
        }
      } catch (error) {
        if (error instanceof OwnClaimRefused) return guards.refuse({ slug: 'own-claim', detail: `Refused: ${error.message}.` }, context);
        if (!(error instanceof ModerationError)) throw error;
        return guards.refuse({ slug: 'moderation-refused', detail: `Refused: ${error.message}. Reload the queue and act again.` }, context);
      }
      await deps.applied();
      log.info('moderator action', { account: by, action, target: target ?? toilet });
      return json(context, { done });
    },
  });
}

/** A business claim's id (clm_...), as the command line tells claims from submissions and reports. */
function isClaim(target: string | undefined): boolean {
  return target?.startsWith('clm_') === true;
}
