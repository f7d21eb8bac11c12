// The service worker (/sw.js, scope /): makes the site work offline. It precaches the shell (pages' code
// and styles, the finder, proposal and offline pages), keeps hashed assets and basemap tiles once
// fetched, and answers public reads and public pages from the network first, from its cache when the
// network is gone (marked with X-Saved-At so the page can say the data may be stale). It caches only what
// src/web/offline-policy.ts allows: never an answer to a credentialed request or one marked no-store or
// private. A `clear` message (sign-out) deletes every cache.
// Pages are kept per language (the answer's Content-Language is part of the cache key), and offline a
// page is looked up in the language the person uses now (`?lang=`, the switch's cookie, the last page
// served, the browser's languages): a copy in another language never comes back. With each language
// the worker keeps that language's texts (its catalogue chunk) and its offline page.
import { isLanguagePage, mayStore, offlineKind, pageCacheKey } from '../../src/web/offline-policy.js';
import { acceptedLanguage, isLanguage, languageOf, type Language } from '../../src/web/text/catalogue.js';

declare const SHELL: string[];
declare const SHELL_VERSION: string;
declare const LANGUAGE_CHUNKS: Record<Language, string>;
declare const self: ServiceWorkerGlobalScope & { cookieStore?: { get(name: string): Promise<{ value?: string } | null> } };

const SHELL_CACHE = `shell-${SHELL_VERSION}`;
const RUNTIME_CACHE = 'runtime';
/** Pages kept at install, in the language the server chooses for this browser. */
const SHELL_PAGES = ['/', '/propose', '/offline'];

/** The language of the last page the network answered (the server's choice from cookie and headers). */
let lastServed: Language | null = null;

async function currentLanguage(url: URL): Promise<Language> {
  const asked = url.searchParams.get('lang');
  if (asked !== null && isLanguage(asked)) return asked;
  // the switch's cookie, where the browser lets a worker read it (Cookie Store API)
  const cookie = (await self.cookieStore?.get('lang').catch(() => null))?.value;
  if (cookie !== undefined && isLanguage(cookie)) return cookie;
  return lastServed ?? acceptedLanguage(self.navigator.languages.join(',')) ?? 'en';
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    await cache.addAll(SHELL);
    for (const path of SHELL_PAGES) {
      const response = await fetch(path, { cache: 'no-cache' });
      if (response.ok) await keepPage(cache, new URL(path, self.location.origin).href, response);
    }
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith('shell-') && name !== SHELL_CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'clear') {
    event.waitUntil(caches.keys().then((names) => Promise.all(names.map((name) => caches.delete(name)))));
  }
});

/** A copy of an answer, marked with the time it was saved. */
async function savedCopy(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.set('X-Saved-At', new Date().toISOString());
  return new Response(await response.arrayBuffer(), { status: response.status, statusText: response.statusText, headers });
}

/** Keeps a page under its URL and language, with that language's texts and offline page. */
async function keepPage(cache: Cache, url: string, response: Response): Promise<Language> {
  const lang = languageOf(response.headers.get('Content-Language'));
  await cache.put(pageCacheKey(url, lang), await savedCopy(response));
  const texts = LANGUAGE_CHUNKS[lang];
  if (texts !== undefined && !(await caches.match(texts))) await cache.add(texts);
  const offline = pageCacheKey(new URL('/offline', self.location.origin).href, lang);
  if (!(await caches.match(offline, { ignoreVary: true }))) {
    // without ?lang=, which would set the switch's cookie: the server answers in the same language
    const page = await fetch('/offline', { cache: 'no-cache' });
    if (page.ok && languageOf(page.headers.get('Content-Language')) === lang) await cache.put(offline, await savedCopy(page));
  }
  return lang;
}

async function store(request: Request, response: Response): Promise<void> {
  const url = new URL(request.url);
  const kind = offlineKind(request.method, url.pathname);
  if (!mayStore(kind, request.credentials, response.status, response.headers.get('Cache-Control'), request.headers.has('Authorization'))) return;
  const cache = await caches.open(RUNTIME_CACHE);
  if (kind === 'page' && isLanguagePage(url.pathname)) {
    const lang = await keepPage(cache, request.url, response);
    if (request.mode === 'navigate') lastServed = lang;
  } else {
    await cache.put(request, await savedCopy(response));
  }
}

async function cacheFirst(request: Request): Promise<Response> {
  const cached = await caches.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.status === 200) await store(request, response.clone());
  return response;
}

/** The kept copy for a request: a page in the language in use now (else that language's offline page). */
async function keptCopy(request: Request): Promise<Response | undefined> {
  const url = new URL(request.url);
  if (!isLanguagePage(url.pathname)) return caches.match(request, { ignoreVary: true });
  const lang = await currentLanguage(url);
  return (await caches.match(pageCacheKey(request.url, lang), { ignoreVary: true }))
    ?? (request.mode === 'navigate' ? caches.match(pageCacheKey(new URL('/offline', url.origin).href, lang), { ignoreVary: true }) : undefined);
}

async function networkFirst(request: Request): Promise<Response> {
  try {
    // revalidated: online, the person sees the current data (a 304 keeps it cheap), offline the saved copy
    const response = await fetch(request, { cache: 'no-cache' });
    if (response.status === 200) await store(request, response.clone());
    return response;
  } catch (error) {
    const cached = await keptCopy(request);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const kind = offlineKind(request.method, url.pathname);
  if (kind === null) return;
  if (kind === 'asset' || (kind === 'tile' && url.pathname !== '/tiles/tiles.json')) event.respondWith(cacheFirst(request));
  else event.respondWith(networkFirst(request));
});
