// The only module that imports the uWebSockets.js package. The package silently swaps in a slow
// pure-JS fallback when its native binary cannot load; we refuse to start on that fallback unless
// UWS_ALLOW_FALLBACK=1, because the service's throughput targets assume the native server.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import uws from '@trufflesuite/uws-js-unofficial';
import type { TemplatedApp } from '@trufflesuite/uws-js-unofficial';

export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from '@trufflesuite/uws-js-unofficial';

const PACKAGE = '@trufflesuite/uws-js-unofficial';

/** The native app also has close() (ends the listen sockets and every open connection); the bundled types omit it. */
export interface UwsApp extends TemplatedApp {
  close(): void;
}

function nativeBinaryInUse(): boolean {
  const require = createRequire(import.meta.url);
  const binary = join(
    dirname(require.resolve(PACKAGE)),
    '..',
    'binaries',
    `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`,
  );
  // The package's entry returns either the binary's exports or the fallback's: only the binary is cached under the .node path.
  return require.cache[binary]?.exports === uws;
}

/** True only when the package's native binary (not its pure-JS fallback) serves requests. */
export const uwsNative: boolean = nativeBinaryInUse();

if (!uwsNative && process.env.UWS_ALLOW_FALLBACK !== '1') {
  throw new Error(
    `${PACKAGE}: native binary for ${process.platform}-${process.arch} ABI ${process.versions.modules} did not load (slow JS fallback in use); set UWS_ALLOW_FALLBACK=1 to run anyway`,
  );
}

export function createApp(): UwsApp {
  return uws.App() as UwsApp;
}

export const closeListenSocket: typeof uws.us_listen_socket_close = uws.us_listen_socket_close;
export const listenSocketPort: typeof uws.us_socket_local_port = uws.us_socket_local_port;
