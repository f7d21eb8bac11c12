// The registry entries of the site's overview of the coverage (outside the OpenAPI document), on the main
// thread: its count tiles and its documents (places.json, titles.json?ids=), by the overview's own budget
// (RATE_LIMIT_POLICIES.overviewPerIp: a map move asks up to ~30 of its tiles). routes.ts serves them;
// slice.ts names them.
import { RATE_LIMIT_POLICIES, type RouteSpec } from '../schemas/operations.js';

export const OVERVIEW_ROUTES = [
  {
    openApi: false,
    method: 'get',
    path: '/overview/{z}/{x}/{file}',
    summary: 'The counts in tile x/y of level z, /overview/{z}/{x}/{y}.json: {cells: [[lon, lat, count]]}.',
    rateLimit: RATE_LIMIT_POLICIES.overviewPerIp,
    refusals: 'problem',
  },
  {
    openApi: false,
    method: 'get',
    path: '/overview/{file}',
    summary: "places.json: the coverage and its settlements; titles.json?ids=: the site's titles of unnamed toilets.",
    rateLimit: RATE_LIMIT_POLICIES.overviewPerIp,
    refusals: 'problem',
  },
] as const satisfies readonly RouteSpec[];
