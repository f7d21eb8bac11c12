// The open data dump (spec, Limits: bulk copies come from dumps, not the API): every listed toilet with
// community decisions applied, as gzip-compressed GeoJSON and CSV, with the ODbL notice. Items are the
// API's own toilet items (render.ts) minus what changes by the minute (open_now, closes_at), the
// business's own statements (partner) and the map links. Only aggregates of contributions go in
// (counts, averages, decided facts): nothing about who contributed.
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Snapshot } from '../toilets/snapshot.js';
import { ITEM_END, ToiletRenderer } from '../toilets/render.js';
import { JsonBytes } from '../rules/json-bytes.js';
import { Trait } from '../toilets/table.js';

/** The latest dump's files in DUMP_DIR, served under /dumps/. */
export const DUMP_FILES = { geojson: 'toilets.geojson.gz', csv: 'toilets.csv.gz', notice: 'NOTICE.txt' } as const;

const LEFT_OUT = new Set(['lat', 'lon', 'open_now', 'closes_at', 'partner', 'directions', 'geo']);

type Item = Record<string, any>;
/** What a CSV field can show; an object would come out as "[object Object]". */
type CsvValue = string | number | boolean | null | undefined;

/** CSV columns: name and how to read it from an item. */
const CSV_COLUMNS: [string, (item: Item) => CsvValue][] = [
  ['id', (i) => i.id],
  ['lat', (i) => i.lat],
  ['lon', (i) => i.lon],
  ['name', (i) => i.name],
  ['access', (i) => i.access],
  ['access_rule', (i) => i.access_rule],
  ['scheme_name', (i) => i.scheme_name],
  ['fee_required', (i) => i.fee.required],
  ['fee_amount', (i) => i.fee.amount],
  ['fee_currency', (i) => i.fee.currency],
  ['opening_hours', (i) => i.opening_hours],
  ['wheelchair', (i) => i.wheelchair],
  ['changing_table', (i) => i.changing_table],
  ['gender', (i) => i.gender.join(',')],
  ['operator', (i) => i.operator],
  ['last_confirmed_at', (i) => i.last_confirmed_at],
  ['confirmations', (i) => i.confirmations],
  ['cleanliness_average', (i) => i.cleanliness?.average],
  ['cleanliness_count', (i) => i.cleanliness?.count],
  ['verification_state', (i) => i.verification_state],
  ['confidence', (i) => i.confidence],
  ['source', (i) => i.source],
  ['checked', (i) => i.provenance.checked],
  // "wheelchair:votes;name:moderator": which facts the community or a moderator decided, and how
  ['decided', (i) => Object.entries(i.provenance.decided as Record<string, { by: string }>).map(([fact, d]) => `${fact}:${d.by}`).join(';')],
  ['url', (i) => i.url],
];

export interface DumpReport {
  dir: string;
  toilets: number;
}

export function odblNotice(baseUrl: string, nowMs: number): string {
  return `Public toilets from ${baseUrl}, dump of ${new Date(nowMs).toISOString()}.

Contains information from OpenStreetMap (c) OpenStreetMap contributors, available under the Open Database
License (ODbL) 1.0: https://opendatacommons.org/licenses/odbl/1-0/ (see https://www.openstreetmap.org/copyright).
Community confirmations, ratings, corrections and toilets added at ${baseUrl} are part of this database under
the same licence. Any copy or derived database must be shared under the ODbL and credit OpenStreetMap.

Files: ${DUMP_FILES.geojson} (GeoJSON FeatureCollection), ${DUMP_FILES.csv} (CSV, RFC 4180, UTF-8).
In the CSV, a text that begins with =, +, -, @, a tab, CR or NUL has a ' put in front, so a spreadsheet
shows it rather than running it as a formula; the GeoJSON has every text as it is.
Fields are those of the API's toilet items: ${baseUrl}/api/v1/openapi.json
`;
}

/**
 * Writes the dump of a snapshot into `dir`, replacing the previous files only once all the new ones are
 * complete; when one cannot be written, none replaces its predecessor and no partial file is left.
 */
export async function writeDump(snapshot: Snapshot, baseUrl: string, dir: string, nowMs: number): Promise<DumpReport> {
  await mkdir(dir, { recursive: true });
  const renderer = new ToiletRenderer(baseUrl);
  const out = new JsonBytes();
  const notice = odblNotice(baseUrl, nowMs);
  const items = function* (): Generator<Item> {
    const t = snapshot.table;
    for (let row = 0; row < t.count; row++) if (!(t.traits[row] & Trait.Hidden)) {
      out.reset();
      renderer.item(out, snapshot, row, nowMs);
      out.bytes(ITEM_END);
      yield JSON.parse(out.text());
    }
  };
  let toilets = 0;
  const geojson = function* () {
    yield `{"type":"FeatureCollection","license":"ODbL-1.0","attribution":"© OpenStreetMap contributors","notice":${JSON.stringify(notice)},"features":[`;
    for (const item of items()) {
      const properties = Object.fromEntries(Object.entries(item).filter(([key]) => !LEFT_OUT.has(key)));
      yield `${toilets++ === 0 ? '' : ','}\n${JSON.stringify({ type: 'Feature', id: item.id, geometry: { type: 'Point', coordinates: [item.lon, item.lat] }, properties })}`;
    }
    yield '\n]}\n';
  };
  const csv = function* () {
    yield CSV_COLUMNS.map(([name]) => name).join(',') + '\r\n';
    for (const item of items()) yield CSV_COLUMNS.map(([, read]) => csvField(read(item))).join(',') + '\r\n';
  };
  // one writer's own names: the server's first dump and an operator's `npm run dump` may run at once
  const temporary = (name: string) => join(dir, `.${name}.${process.pid}.tmp`);
  try {
    await writeGzip(temporary(DUMP_FILES.geojson), geojson());
    await writeGzip(temporary(DUMP_FILES.csv), csv());
    await writeFile(temporary(DUMP_FILES.notice), notice);
  } catch (error) {
    // the previous dump stays whole, and a full disk gets its space back
    await Promise.all(Object.values(DUMP_FILES).map((name) => rm(temporary(name), { force: true })));
    throw error;
  }
  for (const name of Object.values(DUMP_FILES)) await rename(temporary(name), join(dir, name));
  return { dir, toilets };
}

function writeGzip(path: string, chunks: Iterable<string>): Promise<void> {
  return pipeline(Readable.from(chunks), createGzip(), createWriteStream(path));
}

/**
 * Text a spreadsheet would run as a formula (or a DDE command) when the CSV is opened: a leading =, +, -,
 * @, tab, CR or NUL (OWASP, "CSV Injection").
 */
const FORMULA_START = /^[=+\-@\t\r\0]/;

/**
 * One RFC 4180 field. Text (names, operators, hours: anything from OpenStreetMap or the community) that a
 * spreadsheet would read as a formula gets a leading ' so it shows as the text it is; numbers are written
 * as numbers, so a negative longitude stays a number.
 */
function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
