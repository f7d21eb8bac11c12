// The HTTP bench's request lines (bench/http.ts runWrk) over the bench database: 10,000 of each read,
// from seeded random rows, so every run and every server in a run asks the same questions.
import Database from 'better-sqlite3';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { toiletId } from '../src/toilets/table.js';
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
  const random = seededRandom(7);
  const rows = Array.from({ length: 10_000 }, () => Math.floor(random() * t.count));
  const near = rows.map((r) => `GET /api/v1/toilets/nearest?lat=${(t.lat[r] + (random() - 0.5) * 0.01).toFixed(5)}&lon=${(t.lon[r] + (random() - 0.5) * 0.01).toFixed(5)}`);
  // Sides of 0.1999° from a rounded corner, so rounding to 5 decimals cannot push a side past the 0.2° limit.
  const area = rows.map((r) => {
    const [west, south] = [(t.lon[r] - 0.1).toFixed(5), (t.lat[r] - 0.1).toFixed(5)];
    return `GET /api/v1/toilets?bbox=${west},${south},${(Number(west) + 0.1999).toFixed(5)},${(Number(south) + 0.1999).toFixed(5)}&limit=20`;
  });
  const byId = rows.map((r) => `GET /api/v1/toilets/${toiletId(t, r)}`);
  const mcp = toolCallRequestLines({ calls: 10_000, argumentsFor: (i) => ({ lat: t.lat[rows[i]] + 0.001, lon: t.lon[rows[i]] - 0.001 }) });
  await app.close();
  const source = new Database(db, { readonly: true });
  const placeNames = source.prepare(`SELECT name FROM places WHERE kind IN ('settlement', 'station') ORDER BY rowid LIMIT 10000`).pluck().all() as string[];
  source.close();
  const byPlace = placeNames.map((name) => `GET /api/v1/toilets/nearest?place=${encodeURIComponent(name)}`);
  return { near, area, byId, byPlace, mcp };
}
