// The transports' ceilings (bench/transports.ts): a bare server that answers every request with one
// recorded answer (status 200, the service's header lines for that read, a body of its mean size), on
// uWS (argv[2] 'uws') or node:http ('node'), one thread. It reads a request's body before answering, as
// the service does, so a POST costs it what it costs the service's transport. argv[3]: the answer file
// (JSON {headers: [name, value, ...], body}). Prints its port, then serves until killed.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { compileHeaders } from '../src/http/reply.js';
import { createApp } from '../src/http/uws.js';
import { nativeUws } from '../src/http/uws-native.js';

export interface RecordedAnswer {
  headers: string[];
  body: string;
}

const [kind, file] = process.argv.slice(2);
const answer = JSON.parse(readFileSync(file, 'utf8')) as RecordedAnswer;
const body = Buffer.from(answer.body);
const port = kind === 'uws' ? await serveOnUws() : kind === 'node' ? await serveOnNode() : Number.NaN;
if (Number.isNaN(port)) throw new Error(`bare-server: argv[2] is uws or node, not ${kind}`);
console.log(JSON.stringify({ port }));
// an exit of its own on the bench's SIGTERM, so that `node --cpu-prof` writes the profile
process.once('SIGTERM', () => process.exit(0));

function serveOnUws(): Promise<number> {
  const uws = nativeUws();
  if (uws.module === null) throw new Error(`the bare uWS server needs a native uWebSockets.js binary: ${uws.failures.join('; ')}`);
  // the header lines in one writeHeader call, as the service writes its constant ones (reply.ts compileHeaders)
  const [name, value] = compileHeaders(answer.headers);
  const app = createApp(uws.module);
  app.any('/*', (res, req) => {
    const answerNow = () => res.cork(() => res.writeHeader(name, value).end(body));
    if (req.getMethod() === 'get') {
      answerNow();
      return;
    }
    res.onAborted(() => {});
    res.onData((_chunk, isLast) => {
      if (isLast) answerNow();
    });
  });
  return new Promise((resolve) =>
    app.listen('127.0.0.1', 0, (socket) => {
      if (!socket) throw new Error('the bare uWS server could not listen');
      resolve(uws.module!.us_socket_local_port(socket));
    }),
  );
}

function serveOnNode(): Promise<number> {
  const head = [...answer.headers, 'Content-Length', String(body.byteLength)];
  const server = createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, head).end(body);
      return;
    }
    req.on('data', () => {});
    req.on('end', () => res.writeHead(200, head).end(body));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    }),
  );
}
