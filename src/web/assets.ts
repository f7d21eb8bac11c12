// Serves the front end that `npm run build` bundled into dist/web (web/build.mjs): hashed files under
// /assets/ with immutable caching, the service worker at /sw.js (its scope must be the root, so it keeps a
// fixed name and is revalidated), and the web app manifest. Every file is read once at start with its
// precompressed .br and .gz variants (written at build time at the highest levels) and its ETag; the
// server's write path (src/http/representation.ts) sends the coding the request's Accept-Encoding prefers
// and answers If-None-Match with 304. The server only serves these bytes; it never loads front-end code.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpServer, HttpRequestInfo } from '../http/server.js';
import type { HttpReply } from '../http/reply.js';
import type { Problems } from '../http/problem.js';
import { bodyEtag } from '../http/etag.js';
import { APP_ICONS } from './offline-policy.js';
import type { Language } from './text/catalogue.js';

/** Where the build writes the front end: dist/web, beside dist/src. */
export const WEB_DIST_DIR = fileURLToPath(new URL('../../web/', import.meta.url));

/** Logical names of the built files (web/build.mjs writes them to manifest.json) → their public paths. */
export interface AssetManifest {
  'find.js': string;
  'toilet.js': string;
  'propose.js': string;
  'account.js': string;
  'site.css': string;
  'maplibre.css': string;
  'maplibre-worker.js': string;
  'altcha.css': string;
  'altcha-sha.js': string;
  'altcha-pbkdf2.js': string;
  /** Each language's catalogue chunk, which a page preloads beside its script. */
  languages: Record<Language, string>;
  /** Every hashed file, for the service worker's precache of the shell. */
  shell: string[];
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

interface StaticFile {
  type: string;
  identity: Buffer;
  etag: string;
  /** The build's precompressed forms that are smaller than the file. */
  encodings: { br?: Buffer; gzip?: Buffer };
}

export class Assets {
  readonly manifest: AssetManifest;
  private readonly files = new Map<string, StaticFile>();

  /** Loads the build's output; throws with what to run when the front end was never built. */
  constructor(dir: string = WEB_DIST_DIR) {
    const manifestFile = join(dir, 'manifest.json');
    if (!existsSync(manifestFile)) throw new Error(`the site's front end is not built (no ${manifestFile}): run npm run build`);
    this.manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as AssetManifest;
    for (const folder of ['assets', '.']) {
      for (const name of readdirSync(join(dir, folder))) {
        const type = TYPES[extname(name)];
        if (type === undefined || name === 'manifest.json') continue;
        const file = join(dir, folder, name);
        const identity = readFileSync(file);
        const encodings: StaticFile['encodings'] = {};
        for (const [coding, suffix] of [['br', '.br'], ['gzip', '.gz']] as const) {
          const coded = existsSync(file + suffix) ? readFileSync(file + suffix) : null;
          if (coded !== null && coded.length < identity.length) encodings[coding] = coded;
        }
        this.files.set(folder === '.' ? `/${name}` : `/assets/${name}`, { type, identity, etag: bodyEtag(identity), encodings });
      }
    }
  }

  /** The answer for a path, or null when there is no such file. */
  answer(path: string): HttpReply | null {
    const file = this.files.get(path);
    if (file === undefined) return null;
    const hashed = path.startsWith('/assets/');
    const headers = [
      'Content-Type', file.type,
      // hashed names change with their content; the service worker and the manifest keep their name
      'Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    ];
    if (path === '/sw.js') headers.push('Service-Worker-Allowed', '/');
    return { status: 200, headers, body: file.identity, etag: file.etag, ...(Object.keys(file.encodings).length > 0 ? { encodings: file.encodings } : {}) };
  }

  register(server: HttpServer, problems: Problems, csp: string): void {
    const serve = (request: HttpRequestInfo) =>
      this.answer(request.path) ??
      problems.reply('not-found', `There is no file ${request.path} in this version of the site. Reload the page to get the current one.`);
    const headers: string[] = [];
    server.route({ method: 'GET', pattern: '/assets/:file', headers, contentSecurityPolicy: csp, handler: serve });
    server.route({ method: 'GET', pattern: '/sw.js', headers, contentSecurityPolicy: csp, handler: serve });
    server.route({ method: 'GET', pattern: '/manifest.webmanifest', headers, contentSecurityPolicy: csp, handler: serve });
    for (const icon of APP_ICONS) server.route({ method: 'GET', pattern: icon, headers, contentSecurityPolicy: csp, handler: serve });
  }
}
