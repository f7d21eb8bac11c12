// The site's server side without a browser: pages and assets under the strict CSP (plus an external
// style's origin when MAP_STYLE_URL is set), hashed assets immutable and precompressed by Accept-Encoding,
// the byte budgets of a first load, the service worker's allow-list, the language choice, the week table.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { FIXED_NOW } from '../api/support.js';
import { startSite, type Site } from './browser.js';
import { WEB_DIST_DIR } from '../../src/web/assets.js';
import { contentSecurityPolicy } from '../../src/web/csp.js';
import { mayStore, offlineKind } from '../../src/web/offline-policy.js';
import { weekTable } from '../../src/web/week-table.js';

const STRICT = "default-src 'self'; script-src 'self'; worker-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/** The strict policy with the external style's origin added where the map needs it. */
const strictWith = (styleOrigin: string) => STRICT.replace("data: blob:;", `data: blob: ${styleOrigin};`).replace("connect-src 'self';", `connect-src 'self' ${styleOrigin};`);
const manifest = JSON.parse(readFileSync(join(WEB_DIST_DIR, 'manifest.json'), 'utf8')) as Record<string, string> & { shell: string[]; languages: Record<string, string> };

describe('pages and assets', () => {
  let site: Site;
  let origin: string;
  const json = async (path: string): Promise<any> => (await fetch(origin + path)).json();
  before(async () => {
    site = await startSite('monaco', () => FIXED_NOW);
    origin = site.base;
  });
  after(async () => {
    await site?.close();
  });

  test('every page and asset carries the strict CSP, and no page sets a cookie unless the language switch asked', async () => {
    const id = (await json('/api/v1/toilets/nearest?lat=43.7384&lon=7.4246&limit=1')).results[0].id;
    for (const path of ['/', '/?place=Monte-Carlo', `/t/${id}`, '/t/n0', '/propose', '/licenses', '/offline', manifest['find.js'], manifest['site.css'], '/sw.js', '/manifest.webmanifest']) {
      const answer = await fetch(origin + path);
      assert.equal(answer.headers.get('content-security-policy'), strictWith(new URL((await json('/app-config.json')).map_style_url).origin), path);
      assert.equal(answer.headers.get('set-cookie'), null, path);
    }
  });

  test('a page is in the language of ?lang= (which sets the cookie), else of the cookie, else of Accept-Language; it says so and varies by both', async () => {
    const page = async (path: string, headers: Record<string, string> = {}) => {
      const answer = await fetch(origin + path, { headers });
      const html = await answer.text();
      return { lang: /<html lang="([^"]+)">/.exec(html)?.[1], content: answer.headers.get('content-language'), vary: answer.headers.get('vary'), cookie: answer.headers.get('set-cookie'), html };
    };
    const switched = await page('/t/n0?lang=fr', { 'Accept-Language': 'de' });
    assert.deepEqual([switched.lang, switched.content], ['fr', 'fr']);
    assert.match(switched.vary ?? '', /^Accept-Language, Cookie(,|$)/);
    assert.equal(switched.cookie, 'lang=fr; Path=/; Max-Age=31536000; SameSite=Lax');
    assert.match(switched.html, /<h1>Toilettes introuvables<\/h1>/);
    const remembered = await page('/propose', { 'Accept-Language': 'de', Cookie: 'session=x; lang=pt' });
    assert.deepEqual([remembered.lang, remembered.content, remembered.cookie], ['pt-PT', 'pt-PT', null]);
    const browser = await page('/licenses', { 'Accept-Language': 'sv, nl-BE;q=0.9, en;q=0.5' });
    assert.deepEqual([browser.lang, browser.cookie], ['nl', null]);
    assert.match(browser.html, /<h1>Gegevensbronnen en licenties<\/h1>/);
    // a page with a script preloads its own language's texts only
    const preloads = [...remembered.html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
    assert.deepEqual(preloads, [manifest.languages.pt]);
    const offline = await page('/offline', { 'Accept-Language': 'it' });
    assert.match(offline.html, /<h1>È offline<\/h1>/);
  });

  test('the landing page answers a place search itself, for browsers without JavaScript', async () => {
    const html = await (await fetch(`${origin}/?place=Monte-Carlo&wheelchair=true`)).text();
    assert.match(html, /Nearest to Monte-Carlo, Monaco/);
    const expected = (await json('/api/v1/toilets/nearest?place=Monte-Carlo&wheelchair=true&limit=20')).results.map((r: { id: string }) => r.id);
    assert.deepEqual([...html.matchAll(/<li class="result" data-id="([^"]+)"/g)].map((m) => m[1]), expected);
    assert.match(html, /name="wheelchair" value="true" checked/);
  });

  test('hashed assets are immutable and come precompressed as the client accepts', async () => {
    const path = manifest['find.js'];
    const identity = readFileSync(join(WEB_DIST_DIR, path.replace('/assets/', 'assets/')));
    const plain = await fetch(origin + path, { headers: { 'Accept-Encoding': 'identity' } });
    assert.equal(plain.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.deepEqual(Buffer.from(await plain.arrayBuffer()), identity);
    for (const [accept, coding] of [['gzip', 'gzip'], ['gzip, br', 'br'], ['br;q=0, gzip', 'gzip']] as const) {
      const raw = await rawGet(origin + path, accept);
      assert.equal(raw.encoding, coding, accept);
      assert.deepEqual(raw.decoded, identity, accept);
    }
    const etag = plain.headers.get('etag')!;
    assert.equal((await fetch(origin + path, { headers: { 'If-None-Match': etag, 'Accept-Encoding': 'identity' } })).status, 304);
    const worker = await fetch(origin + '/sw.js');
    assert.equal(worker.headers.get('cache-control'), 'no-cache');
    assert.equal(worker.headers.get('service-worker-allowed'), '/');
    const missing = await fetch(origin + '/assets/find-OLDHASH.js');
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type')!, /^application\/problem\+json/);
  });

  test('app-config tells the page where the tiles and an external style are', async () => {
    const config = await json('/app-config.json');
    assert.match(config.map_style_url, /^http:\/\/localhost:\d+\/style\.json$/);
    assert.equal(config.tiles_url, '/tiles/tiles.json');
  });
});

/** A GET whose body is decoded here (fetch would decode it silently), with the coding the server chose. */
async function rawGet(url: string, acceptEncoding: string): Promise<{ encoding: string | null; decoded: Buffer }> {
  const { request } = await import('node:http');
  const { gunzipSync, brotliDecompressSync } = await import('node:zlib');
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'Accept-Encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        const encoding = response.headers['content-encoding'] ?? null;
        resolve({ encoding, decoded: encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body });
      });
    }).on('error', reject).end();
  });
}

test('an external map style adds its origin to connect-src and img-src only', () => {
  const csp = contentSecurityPolicy({ mapStyleUrl: 'https://tiles.example.org/styles/basic/style.json' });
  assert.match(csp, /connect-src 'self' https:\/\/tiles\.example\.org;/);
  assert.match(csp, /img-src 'self' data: blob: https:\/\/tiles\.example\.org;/);
  assert.match(csp, /script-src 'self';/);
});

/** The files a page loads before any interaction: its module, what that imports statically, and the stylesheet. */
function firstLoad(entry: string): string[] {
  const files = new Set<string>([manifest['site.css']]);
  const visit = (path: string) => {
    if (files.has(path)) return;
    files.add(path);
    const code = readFileSync(join(WEB_DIST_DIR, path.replace('/assets/', 'assets/')), 'utf8');
    // static imports only (`import{…}from"./chunk-X.js"`); `import("./…")` loads later
    for (const match of code.matchAll(/(?:^|[;}\s])import\s*(?:[^"'()]*?from\s*)?["']\.\/([^"']+)["']/g)) visit(`/assets/${match[1]}`);
  };
  visit(manifest[entry]);
  return [...files];
}

test('budgets: a page without a map loads at most 60 KB gzipped of our code, styles and its one language; only map pages load MapLibre', () => {
  const gzipped = (path: string) => gzipSync(readFileSync(join(WEB_DIST_DIR, path.replace('/assets/', 'assets/'))), { level: 9 }).length;
  const languages = Object.entries(manifest.languages);
  assert.equal(languages.length, 7);
  for (const entry of ['find.js', 'toilet.js', 'propose.js']) {
    const files = firstLoad(entry);
    // the catalogues are not in the static imports: each page preloads the one of its language
    for (const path of Object.values(manifest.languages)) assert.ok(!files.includes(path), `${entry} imports a catalogue statically`);
    for (const [lang, path] of languages) {
      const total = [...files, path].reduce((sum, file) => sum + gzipped(file), 0);
      assert.ok(total <= 60 * 1024, `${entry} first load in ${lang} is ${total} bytes gzipped: ${files.join(', ')}, ${path}`);
    }
    for (const path of files) {
      const code = readFileSync(join(WEB_DIST_DIR, path.replace('/assets/', 'assets/')), 'utf8');
      assert.ok(!code.includes('WebGL2 is required'), `${path} (first load of ${entry}) holds MapLibre`);
    }
  }
});

test("the service worker keeps only the public reads, tiles, hashed assets and public pages, never a credentialed or private answer", () => {
  assert.equal(offlineKind('GET', '/api/v1/toilets/nearest'), 'read');
  assert.equal(offlineKind('GET', '/api/v1/toilets'), 'read');
  assert.equal(offlineKind('GET', '/api/v1/toilets/n123'), 'read');
  assert.equal(offlineKind('GET', '/tiles/14/8530/5974.pbf'), 'tile');
  assert.equal(offlineKind('GET', manifest['find.js']), 'asset');
  assert.equal(offlineKind('GET', '/t/n123'), 'page');
  for (const path of ['/api/v1/challenge', '/api/v1/toilets/n1/confirmations', '/status', '/mcp', '/account', '/dashboard', '/moderation', '/dumps/toilets.csv.gz', '/api/v1/openapi.json']) {
    assert.equal(offlineKind('GET', path), null, path);
  }
  assert.equal(offlineKind('POST', '/api/v1/toilets'), null);
  assert.equal(mayStore('read', 'omit', 200, 'public, max-age=60', false), true);
  assert.equal(mayStore('read', 'include', 200, 'public, max-age=60', false), false, 'a credentialed read');
  assert.equal(mayStore('read', 'omit', 200, 'public, max-age=60', true), false, 'a request with Authorization');
  assert.equal(mayStore('page', 'include', 200, 'private, max-age=0', false), false, 'private');
  assert.equal(mayStore('page', 'include', 200, 'no-store', false), false, 'no-store');
  assert.equal(mayStore('read', 'omit', 404, null, false), false);
});

test('the week table reads the common opening_hours shapes and gives up on richer ones', () => {
  assert.deepEqual(weekTable('Mo-Fr 08:00-18:00; Sa 09:00-12:00'), [['08:00–18:00'], ['08:00–18:00'], ['08:00–18:00'], ['08:00–18:00'], ['08:00–18:00'], ['09:00–12:00'], 'closed']);
  assert.deepEqual(weekTable('24/7'), Array(7).fill(['00:00–24:00']));
  assert.deepEqual(weekTable('08:00-20:00; Su off'), [...Array(6).fill(['08:00–20:00']), 'closed']);
  assert.deepEqual(weekTable('Sa-Mo 10:00-12:00,14:00-16:00')?.[0], ['10:00–12:00', '14:00–16:00']);
  for (const rich of ['Mo-Fr 08:00-18:00; PH off', 'sunrise-sunset', 'Mo-Fr 08:00-18:00 "ask"', 'Jan-Mar 10:00-16:00']) assert.equal(weekTable(rich), null, rich);
});
