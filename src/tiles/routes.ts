// The basemap's routes, on the main thread only (SQLite; the read threads pass these requests on):
//   GET /tiles/{z}/{x}/{y}.pbf  a vector tile: gzipped as stored for a client that takes gzip, else
//                               unpacked; 204 where the file has no tile (MapLibre draws nothing there)
//   GET /tiles/tiles.json       TileJSON 3.0.0 for a map style's vector source
// Both are rate limited by their own generous budget (RATE_LIMIT_POLICIES.tilesPerIp: a map view loads
// 10–30 tiles, which the API's 60 a minute could not carry), cached long and revalidated by ETag.
import { gunzipSync } from 'node:zlib';
import type { Config } from '../config.js';
import type { HttpServer } from '../http/server.js';
import type { InvalidParam, Problems } from '../http/problem.js';
import type { HeaderList, HttpReply } from '../http/reply.js';
import type { Limits } from '../api/limits.js';
import { GuardChain, type Refusal } from '../api/guards.js';
import { routeIn, type RegistryEntry } from '../schemas/operations.js';
import { TILE_ROUTES } from './operations.js';
import { contentTag } from './mbtiles.js';
import { acceptsGzip, holdsVersion } from './negotiation.js';
import type { TileSource } from './tile-source.js';

/** The URL template of the tiles under BASE_URL (also TileJSON's `tiles`). */
export const TILE_PATH = '/tiles/{z}/{x}/{y}.pbf';
/** Highest zoom level an XYZ address may name (2^30 columns still fit a whole number). */
const MAX_ZOOM = 30;
/**
 * Tiles change at most once a night (the import): a day fresh, then a week of serving the stale copy while
 * it is revalidated (a 304 when the tile did not change).
 */
const TILE_CACHE = 'public, max-age=86400, stale-while-revalidate=604800';
const TILE_JSON_CACHE = 'public, max-age=3600';

interface TileAddress {
  z: number;
  x: number;
  y: number;
}

const NO_TILES: Refusal = {
  slug: 'not-found',
  detail: 'This server has no basemap tiles. The operator builds them with `npm run import -- --tiles <extract>` (README, "Basemap tiles").',
};

export function registerTileRoutes(server: HttpServer, deps: { config: Config; limits: Limits; problems: Problems; now: () => number; tiles: TileSource }): void {
  const { tiles } = deps;
  const chain = new GuardChain(deps);
  const exists = () => (tiles.current === null ? NO_TILES : null);

  chain.operation(server, routeIn(TILE_ROUTES, 'get', '/tiles/tiles.json'), {
    headers: ['if-none-match'],
    exists,
    handle: (request, { headers }) => {
      const file = tiles.current!;
      const common = ['Cache-Control', TILE_JSON_CACHE, 'ETag', file.tileJsonEtag, ...headers];
      if (holdsVersion(request.headers['if-none-match'], file.tileJsonEtag)) return { status: 304, headers: common };
      return { status: 200, headers: ['Content-Type', 'application/json', ...common], body: file.tileJson };
    },
  });

  // the address is the path's, not a query or body: its own check (a 400 naming each part that is wrong)
  chain.refinedOperation<RegistryEntry, TileAddress>(server, routeIn(TILE_ROUTES, 'get', '/tiles/{z}/{x}/{file}'), {
    headers: ['accept-encoding', 'if-none-match'],
    validate: (request) => tileAddress(request.params),
    exists,
    handle: (request, { input: { z, x, y }, headers }) => tileReply(tiles, z, x, y, request.headers, headers),
  });
}

function tileReply(tiles: TileSource, z: number, x: number, y: number, request: Readonly<Record<string, string>>, limitHeaders: HeaderList): HttpReply {
  const tile = tiles.current!.tile(z, x, y);
  const vary = ['Vary', 'Accept-Encoding', 'Cache-Control', TILE_CACHE];
  if (tile === null) return { status: 204, headers: [...vary, ...limitHeaders] };
  const gzip = tile.gzipped && acceptsGzip(request['accept-encoding']);
  // one tag per representation: the gzipped bytes and the unpacked ones are different answers
  const stored = contentTag(tile.data);
  const etag = !tile.gzipped || gzip ? stored : `${stored.slice(0, -1)}-identity"`;
  const common = [...vary, 'ETag', etag, ...limitHeaders];
  if (holdsVersion(request['if-none-match'], etag)) return { status: 304, headers: common };
  return {
    status: 200,
    headers: ['Content-Type', 'application/x-protobuf', ...(gzip ? ['Content-Encoding', 'gzip'] : []), ...common],
    body: gzip || !tile.gzipped ? tile.data : gunzipSync(tile.data),
  };
}

/** z, x and y from `/tiles/{z}/{x}/{y}.pbf`, or a 400 naming each one that is wrong. */
function tileAddress(params: Readonly<Record<string, string>>): { input: TileAddress } | Refusal {
  const invalid: InvalidParam[] = [];
  const whole = (name: string, raw: string | undefined, max: number | null): number => {
    const value = raw !== undefined && /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
    if (Number.isNaN(value)) invalid.push({ name, reason: `must be a whole number${max === null ? '' : ` from 0 to ${max}`}` });
    else if (max !== null && value > max) invalid.push({ name, reason: `must be from 0 to ${max}${name === 'z' ? '' : ' (2^z - 1) at this zoom level'}` });
    return value;
  };
  const z = whole('z', params.z, MAX_ZOOM);
  const last = Number.isNaN(z) || z > MAX_ZOOM ? null : 2 ** z - 1;
  const x = whole('x', params.x, last);
  const file = /^(.*)\.pbf$/.exec(params.file);
  if (file === null) invalid.push({ name: 'y', reason: 'must be the row number followed by .pbf, e.g. 5974.pbf' });
  const y = file === null ? NaN : whole('y', file[1], last);
  if (invalid.length > 0) {
    return {
      slug: 'invalid-parameters',
      detail: `Ask for a tile as ${TILE_PATH} with whole numbers: z from 0 to ${MAX_ZOOM}, x and y from 0 to 2^z - 1. ${invalid.map((p) => `${p.name} ${p.reason}`).join('; ')}.`,
      invalidParams: invalid,
    };
  }
  return { input: { z, x, y } };
}
