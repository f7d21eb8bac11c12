// The overview's routes, on the main thread (the read threads pass these requests on), each answer
// rate limited by the overview's own budget (RATE_LIMIT_POLICIES.overviewPerIp) and revalidated by ETag:
//   GET /overview/{z}/{x}/{y}.json  the counts in tile x/y of level z (0..MAX_ZOOM): {cells: [[lon, lat, count]]}
//   GET /overview/places.json       the coverage and its settlements: {coverage, places: [[lon, lat, name]]}
//   GET /overview/titles.json?ids=  the site's titles of these unnamed toilets (at most MAX_TITLE_IDS ids)
// These serve the site's map, not integrations: a level carries counts, never a toilet's full position.
import type { Config } from '../config.js';
import type { HttpRequestInfo, HttpServer } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import type { HeaderList, HttpReply } from '../http/reply.js';
import { ifNoneMatchHits } from '../http/etag.js';
import type { Limits } from '../api/limits.js';
import { GuardChain, type Refusal } from '../api/guards.js';
import { routeIn, type RegistryEntry } from '../schemas/operations.js';
import { OVERVIEW_ROUTES } from './operations.js';
import { TOILET_ID } from '../schemas/toilet-id.js';
import { MAX_ZOOM } from './clusters.js';
import type { Overview, OverviewDocument } from './overview.js';

/** Ids one titles request may name: a list of the area API's size. */
export const MAX_TITLE_IDS = 200;
const ID = new RegExp(TOILET_ID.pattern);
/** The overview changes with the data and with moderation: five minutes fresh, then revalidated. */
const CACHE = 'public, max-age=300';

type OverviewRequest = { kind: 'places' } | { kind: 'titles'; ids: string[] };
interface TileRequest {
  z: number;
  x: number;
  y: number;
}

export function registerOverviewRoutes(server: HttpServer, deps: { config: Config; limits: Limits; problems: Problems; now: () => number; overview: Overview }): void {
  const { overview } = deps;
  const chain = new GuardChain(deps);
  // the tile's address and the document's name are the path's: their own checks (400, 404)
  chain.refinedOperation<RegistryEntry, TileRequest>(server, routeIn(OVERVIEW_ROUTES, 'get', '/overview/{z}/{x}/{file}'), {
    headers: ['if-none-match'],
    validate: (request) => tileRequest(request.params),
    handle: (request, { input: { z, x, y }, headers }) => {
      const tile = overview.tile(z, x, y);
      return tile instanceof Promise ? tile.then((document) => conditional(request, document, headers)) : conditional(request, tile, headers);
    },
  });
  chain.refinedOperation<RegistryEntry, OverviewRequest>(server, routeIn(OVERVIEW_ROUTES, 'get', '/overview/{file}'), {
    headers: ['if-none-match'],
    validate: (request) => overviewRequest(request),
    handle: (request, { input, headers }) => {
      if (input.kind === 'titles') return json(Buffer.from(JSON.stringify({ titles: overview.titles(input.ids) })), headers);
      return conditional(request, overview.places(), headers);
    },
  });
}

/** z, x and y of `/overview/{z}/{x}/{y}.json`, or a 400 saying what they must be. */
function tileRequest(params: Readonly<Record<string, string>>): { input: TileRequest } | Refusal {
  const number = (raw: string | undefined) => (raw !== undefined && /^\d{1,5}$/.test(raw) ? Number(raw) : NaN);
  const z = number(params.z);
  const x = number(params.x);
  const y = number(/^(\d+)\.json$/.exec(params.file)?.[1]);
  const last = 2 ** z - 1;
  const invalid = [
    ...(Number.isNaN(z) || z > MAX_ZOOM ? [{ name: 'z', reason: `must be a whole number from 0 to ${MAX_ZOOM}` }] : []),
    ...(Number.isNaN(x) || x > last ? [{ name: 'x', reason: 'must be a whole number from 0 to 2^z - 1' }] : []),
    ...(Number.isNaN(y) || y > last ? [{ name: 'y', reason: 'must be a whole number from 0 to 2^z - 1, followed by .json' }] : []),
  ];
  if (invalid.length === 0) return { input: { z, x, y } };
  return { slug: 'invalid-parameters', detail: `Ask for /overview/{z}/{x}/{y}.json: ${invalid.map((p) => `${p.name} ${p.reason}`).join('; ')}.`, invalidParams: invalid };
}

function json(body: Buffer, headers: HeaderList): HttpReply {
  return { status: 200, headers: ['Content-Type', 'application/json', 'Cache-Control', CACHE, ...headers], body };
}

function conditional(request: HttpRequestInfo, document: OverviewDocument, headers: HeaderList): HttpReply {
  const common = ['Cache-Control', CACHE, 'ETag', document.etag, ...headers];
  if (ifNoneMatchHits(request.headers['if-none-match'] ?? '', document.etag)) return { status: 304, headers: common };
  return { status: 200, headers: ['Content-Type', 'application/json', ...common], body: document.body };
}

function overviewRequest(request: HttpRequestInfo): { input: OverviewRequest } | Refusal {
  const file = request.params.file;
  if (file === 'places.json') return { input: { kind: 'places' } };
  if (file === 'titles.json') return titlesRequest(new URLSearchParams(request.query));
  return {
    slug: 'not-found',
    detail: `No overview document is called ${JSON.stringify(file)}. Ask for /overview/{z}/{x}/{y}.json with z from 0 to ${MAX_ZOOM}, /overview/places.json or /overview/titles.json?ids=<ids>.`,
  };
}

function titlesRequest(query: URLSearchParams): { input: OverviewRequest } | Refusal {
  const raw = query.get('ids') ?? '';
  const ids = raw === '' ? [] : raw.split(',');
  const reason =
    ids.length === 0 ? 'is required: the toilet ids, separated by commas'
    : ids.length > MAX_TITLE_IDS ? `names ${ids.length} ids; at most ${MAX_TITLE_IDS} per request`
    : ids.some((id) => !ID.test(id)) ? `must hold toilet ids, each ${TOILET_ID.title} (not ${JSON.stringify(ids.find((id) => !ID.test(id)))})`
    : null;
  if (reason === null) return { input: { kind: 'titles', ids } };
  return { slug: 'invalid-parameters', detail: `ids ${reason}.`, invalidParams: [{ name: 'ids', reason }] };
}
