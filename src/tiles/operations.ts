// The registry entries of the basemap (outside the OpenAPI document), on the main thread only: TileJSON and
// the vector tiles, each rate limited by their own generous budget (RATE_LIMIT_POLICIES.tilesPerIp: a map
// view loads 10–30 tiles, which the API's 60 a minute could not carry). routes.ts serves them; slice.ts names them.
import { RATE_LIMIT_POLICIES, type RouteSpec } from '../schemas/operations.js';

export const TILE_ROUTES = [
  {
    openApi: false,
    method: 'get',
    path: '/tiles/tiles.json',
    summary: "TileJSON 3.0.0 for a map style's vector source.",
    rateLimit: RATE_LIMIT_POLICIES.tilesPerIp,
    refusals: 'problem',
  },
  {
    openApi: false,
    method: 'get',
    path: '/tiles/{z}/{x}/{file}',
    summary: 'A vector tile, /tiles/{z}/{x}/{y}.pbf: gzipped as stored for a client that takes gzip; 204 where there is none.',
    rateLimit: RATE_LIMIT_POLICIES.tilesPerIp,
    refusals: 'problem',
  },
] as const satisfies readonly RouteSpec[];
