// The HTTP ceiling: a bare uWS server answering a precomputed body of the given size, on the same
// process, port and thread setup as the service (argv: body bytes, threads). Prints its port, then
// serves until killed.
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { createApp } from '../src/http/uws.js';
import { nativeUws } from '../src/http/uws-native.js';
import { claimPort } from '../src/http/port.js';

const size = Number(process.argv[2] ?? 2000);
const threads = Number(process.argv[3] ?? 1);
const body = JSON.stringify({ filler: 'x'.repeat(Math.max(0, size - 14)) });
const uws = nativeUws();
if (uws.module === null) throw new Error(`the uWS ceiling needs a native uWebSockets.js binary: ${uws.failures.join('; ')}`);
const app = createApp(uws.module);
app.any('/*', (res) => {
  res.writeHeader('Content-Type', 'application/json');
  res.end(body);
});
// the service's threads each listen on the port too (see src/threads/)
const port = isMainThread ? await claimPort('127.0.0.1', 0) : (workerData as number);
app.listen('127.0.0.1', port, (socket) => {
  if (!socket) throw new Error('ceiling server could not listen');
  if (!isMainThread) return;
  for (let thread = 1; thread < threads; thread++) new Worker(new URL(import.meta.url), { workerData: port, argv: process.argv.slice(2) });
  console.log(JSON.stringify({ port }));
});
