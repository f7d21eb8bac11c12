// The HTTP ceiling: a bare uWS server answering a precomputed body of the given size, on the same
// process and port setup as the service. Prints its port, then serves until killed.
import { createApp, listenSocketPort } from '../src/http/uws.js';

const size = Number(process.argv[2] ?? 2000);
const body = JSON.stringify({ filler: 'x'.repeat(Math.max(0, size - 14)) });
const app = createApp();
app.any('/*', (res) => {
  res.writeHeader('Content-Type', 'application/json');
  res.end(body);
});
app.listen('127.0.0.1', 0, (socket) => {
  if (!socket) throw new Error('ceiling server could not listen');
  console.log(JSON.stringify({ port: listenSocketPort(socket) }));
});
