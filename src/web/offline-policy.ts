// What the service worker (web/src/sw.ts) may keep for offline use, as a pure function so the server's
// tests can check it too: only GET answers of the three public reads and the site's overview, tiles, the hashed assets and the
// public pages (each page's copies per language: pageCacheKey); never an answer to a request that carried credentials, never one marked no-store or
// private (account, dashboard and moderator pages must not reappear offline on a shared phone).

export type OfflineKind = 'asset' | 'tile' | 'read' | 'page';

/** The app's icons (web/icons.mjs draws them at build time), served under fixed names the manifest lists. */
export const APP_ICONS: readonly string[] = ['/icon.svg', '/icon-192.png', '/icon-512.png', '/icon-maskable-512.png'];

const READ = /^\/api\/v1\/toilets(\/nearest|\/[A-Za-z0-9_-]{1,64})?$|^\/overview\/[a-z0-9]+\.json$/;
const PAGE = /^\/(t\/[A-Za-z0-9_%-]+|propose|licenses|offline)?$/;

/** The kind of a same-origin GET the worker may cache, or null for everything else. */
export function offlineKind(method: string, path: string): OfflineKind | null {
  if (method !== 'GET') return null;
  if (path.startsWith('/assets/')) return 'asset';
  if (path.startsWith('/tiles/')) return 'tile';
  if (READ.test(path)) return 'read';
  if (PAGE.test(path) || path === '/app-config.json' || path === '/manifest.webmanifest' || APP_ICONS.includes(path)) return 'page';
  return null;
}

/** Whether the answer to `path` is a page in a language (then its copies are kept per language). */
export function isLanguagePage(path: string): boolean {
  return PAGE.test(path);
}

/**
 * The cache key of a page's copy in `lang`: its URL without a `lang` it was asked with, and with the
 * language it was answered in, so that a copy is only ever found again for the same language.
 */
export function pageCacheKey(url: string, lang: string): string {
  const key = new URL(url);
  key.hash = '';
  key.searchParams.delete('lang');
  key.searchParams.append('lang', lang);
  return key.href;
}

/** Whether an answer may be stored: a 200 to a request without credentials, not marked no-store or private. */
export function mayStore(kind: OfflineKind | null, credentials: string, status: number, cacheControl: string | null, hasAuthorization: boolean): boolean {
  if (kind === null || status !== 200 || hasAuthorization) return false;
  // pages are navigations (credentials "include"); a public page sets no cookie and answers no-store when personal
  if (kind !== 'page' && credentials !== 'omit' && kind !== 'asset' && kind !== 'tile') return false;
  return !/(^|[,\s])(no-store|private)([,\s=]|$)/i.test(cacheControl ?? '');
}
