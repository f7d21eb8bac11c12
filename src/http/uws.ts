// The uWS transport (transport.ts): it registers the server's route table on a uWS app, whose request and
// response objects are the interface's first implementation as they are. It takes the native module
// uws-native.ts found (the packages' pure-JS fallback never serves: the throughput targets assume the
// native server); transport-choice.ts decides whether it serves at all.
import type { TemplatedApp, us_listen_socket } from '@trufflesuite/uws-js-unofficial';
import type { RouteTable } from './route-table.js';
import type { ListeningTransport, TransportHandler, TransportMethod } from './transport.js';
import type { UwsModule } from './uws-native.js';

/** The native app also has close() (ends the listen sockets and every open connection); the bundled types omit it. */
export interface UwsApp extends TemplatedApp {
  close(): void;
}

const UWS_METHOD = { GET: 'get', HEAD: 'head', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'del', OPTIONS: 'options', '*': 'any' } as const;

/** A bare uWS app (the bench's ceiling). */
export function createApp(uws: UwsModule): UwsApp {
  return uws.App() as UwsApp;
}

/** A uWS app of `uws` serving every route of `routes`. */
export function uwsTransport(uws: UwsModule, routes: RouteTable): ListeningTransport {
  const app = createApp(uws);
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
