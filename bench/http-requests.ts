// The HTTP bench's request lines (bench/http.ts runWrk) over the bench database: 10,000 of each read,
// from seeded random rows, so every run and every server in a run asks the same questions.
import Database from 'better-sqlite3';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { httpReadRequests } from './read-queries.js';
import { seededRandom } from './measure.js';
import { toolCallRequestLines } from './mcp.js';

export interface HttpRequestLines {
  /** nearest by coordinates near random toilets. */
  near: string[];
  /** Distinct 0.1999° boxes, limit 20. */
  area: string[];
  /** getToilet by id. */
  byId: string[];
  /** nearest by the names of settlements and stations. */
  byPlace: string[];
  /** MCP tools/call find_toilets_near near random toilets, and the headers those calls need. */
  mcp: { requests: string[]; headers: Record<string, string> };
}

export async function httpRequestLines(db: string): Promise<HttpRequestLines> {
  const config = loadConfig({ TOILETS_DB: db, PORT: '0' });
  const app = createApp({ config, log: { info() {}, error() {} } });
  app.catalog.load();
  const t = app.catalog.snapshot.table;
  const { rows, near, area, byId } = httpReadRequests(t, seededRandom(7));
  const mcp = toolCallRequestLines({ calls: 10_000, argumentsFor: (i) => ({ lat: t.lat[rows[i]] + 0.001, lon: t.lon[rows[i]] - 0.001 }) });
  await app.close();
  const source = new Database(db, { readonly: true });
  const placeNames = source.prepare(`SELECT name FROM places WHERE kind IN ('settlement', 'station') ORDER BY rowid LIMIT 10000`).pluck().all() as string[];
  source.close();
  const byPlace = placeNames.map((name) => `GET /api/v1/toilets/nearest?place=${encodeURIComponent(name)}`);
  return { near, area, byId, byPlace, mcp };
}
