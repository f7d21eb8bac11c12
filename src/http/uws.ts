// The uWS transport (transport.ts), and the only module that imports the uWebSockets.js package: it
// registers the server's route table on a uWS app, whose request and response objects are the
// interface's first implementation as they are. The package silently swaps in a slow pure-JS fallback
// when its native binary cannot load; we refuse to start on that fallback unless UWS_ALLOW_FALLBACK=1,
// because the service's throughput targets assume the native server.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import uws from '@trufflesuite/uws-js-unofficial';
import type { TemplatedApp, us_listen_socket } from '@trufflesuite/uws-js-unofficial';
import type { RouteTable } from './route-table.js';
import type { ListeningTransport, TransportHandler, TransportMethod } from './transport.js';

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

const UWS_METHOD = { GET: 'get', HEAD: 'head', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'del', OPTIONS: 'options', '*': 'any' } as const;

/** A bare uWS app (the bench's ceiling). */
export function createApp(): UwsApp {
  return uws.App() as UwsApp;
}

/** A uWS app serving every route of `routes`. */
export function uwsTransport(routes: RouteTable): ListeningTransport {
  const app = createApp();
  let listenSocket: us_listen_socket | null = null;
  const handle = (method: TransportMethod, pattern: string, handler: TransportHandler): void => void app[UWS_METHOD[method]](pattern, handler);
  for (const entry of routes.entries) handle(entry.method, entry.pattern, entry.handler);
  return {
    name: 'uws',
    handle,
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        app.listen(host, port, (socket) => {
          if (socket === false) {
            reject(new Error(`cannot listen on ${host}:${port}`));
            return;
          }
          listenSocket = socket;
          resolve(uws.us_socket_local_port(socket));
        });
      }),
    stopListening: () => {
      if (listenSocket !== null) uws.us_listen_socket_close(listenSocket);
      listenSocket = null;
    },
    close: () => app.close(),
  };
}
