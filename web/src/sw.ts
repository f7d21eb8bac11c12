// The service worker (/sw.js, scope /): makes the site work offline. It precaches the shell (pages' code
// and styles, the finder and proposal pages), keeps hashed assets and basemap tiles once fetched, and
// answers public reads and public pages from the network first, from its cache when the network is gone
// (marked with X-Saved-At so the page can say the data may be stale). It caches only what
// src/web/offline-policy.ts allows: never an answer to a credentialed request or one marked no-store or
// private. A `clear` message (sign-out) deletes every cache.
import { mayStore, offlineKind } from '../../src/web/offline-policy.js';

declare const SHELL: string[];
declare const SHELL_VERSION: string;
declare const self: ServiceWorkerGlobalScope;

const SHELL_CACHE = `shell-${SHELL_VERSION}`;
const RUNTIME_CACHE = 'runtime';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
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

async function store(request: Request, response: Response): Promise<void> {
  const kind = offlineKind(request.method, new URL(request.url).pathname);
  if (!mayStore(kind, request.credentials, response.status, response.headers.get('Cache-Control'), request.headers.has('Authorization'))) return;
  const headers = new Headers(response.headers);
  headers.set('X-Saved-At', new Date().toISOString());
  const body = await response.arrayBuffer();
  const cache = await caches.open(RUNTIME_CACHE);
  await cache.put(request, new Response(body, { status: response.status, statusText: response.statusText, headers }));
}

async function cacheFirst(request: Request): Promise<Response> {
  const cached = await caches.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.status === 200) await store(request, response.clone());
  return response;
}

async function networkFirst(request: Request, fallback: string | null): Promise<Response> {
  try {
    // revalidated: online, the person sees the current data (a 304 keeps it cheap), offline the saved copy
    const response = await fetch(request, { cache: 'no-cache' });
    if (response.status === 200) await store(request, response.clone());
    return response;
  } catch (error) {
    const cached = (await caches.match(request, { ignoreVary: true })) ?? (fallback === null ? undefined : await caches.match(fallback, { ignoreVary: true }));
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
  else event.respondWith(networkFirst(request, kind === 'page' ? '/' : null));
});
