// The registry entry of the open data dump's files under /dumps/ (outside the OpenAPI document): the API's
// per-IP budget; an unknown or not yet written file is a 404 (routes.ts). slice.ts names it.
import { RATE_LIMIT_POLICIES, type RouteSpec } from '../schemas/operations.js';

export const DUMP_ROUTES = [
  {
    openApi: false,
    method: 'get',
    path: '/dumps/{file}',
    summary: 'The latest open data dump (written by `npm run dump`); the licence page links here.',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    refusals: 'problem',
  },
] as const satisfies readonly RouteSpec[];
