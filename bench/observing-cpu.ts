// What the defaults (metrics and the access log, issue 42) cost a nearest request in CPU, in-process:
// nearest k=5 read alone against the same read followed by what the server does for its observer (the
// metrics increments and the access-log record on the request path) plus the access log's writer turning
// the records into lines (its share per request, off the request path but on the same cores), in
// alternating pairs whose order flips every pair. A pair's cost = CPU µs per request with / without - 1.
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { ObservingBlocks, createObserver } from '../src/observe/observer.js';
import type { FindParams } from '../src/schemas/params.js';
import { cpuMicrosPerCall, seededRandom } from './measure.js';
import { NO_FILTERS, pointsNearToilets } from './read-queries.js';

export interface ObservingCpu {
  withoutUs: number[];
  withUs: number[];
  costs: number[];
}

const NOW = Date.UTC(2026, 10, 22, 12);

export async function observingCpu(db: string, taskMs: number, pairs: number): Promise<ObservingCpu> {
  const config = loadConfig({ TOILETS_DB: db, PORT: '0', AREA_CACHE_SECONDS: '0', HTTP_THREADS: '1' });
  const app = createApp({ config, log: { info() {}, error() {} }, now: () => NOW });
  const blocks = new ObservingBlocks(config); // the defaults: METRICS and ACCESS_LOG on
  const observer = createObserver({ config, shared: blocks.forThread(0), now: () => NOW })!;
  let written = 0;
  const writer = blocks.accessLogWriter((lines) => (written += lines.length), () => NOW)!;
  try {
    app.catalog.load();
    const points = pointsNearToilets(app.catalog.snapshot.table, seededRandom(11), 4096);
    const operation = observer.operation('findToiletsNear', '/api/v1/toilets/nearest');
    let i = 0;
    const read = () => {
      const p = points[(i = (i + 1) & 4095)];
      return app.reads.findNear({ lat: p.lat, lon: p.lon, limit: 5, ...NO_FILTERS } as FindParams, NOW);
    };
    const observed = () => {
      const started = performance.now();
      const body = read() as Buffer;
      observer.observed(operation, 'GET', 200, body.length, started, null);
      if ((i & 255) === 0) writer.flush(); // the writer's work, as often as 256 requests (it runs every 50 ms)
    };
    const result: ObservingCpu = { withoutUs: [], withUs: [], costs: [] };
    for (const task of [read, observed]) cpuMicrosPerCall(task, taskMs); // the first pass warms caches and the JIT
    for (let pair = 0; pair < pairs; pair++) {
      const order = pair % 2 === 0 ? [read, observed] : [observed, read];
      const [a, b] = order.map((task) => cpuMicrosPerCall(task, taskMs));
      const [without, withObserving] = pair % 2 === 0 ? [a, b] : [b, a];
      result.withoutUs.push(without);
      result.withUs.push(withObserving);
      result.costs.push(withObserving / without - 1);
    }
    if (written === 0) throw new Error('the access log wrote nothing: the measurement would be of nothing');
    return result;
  } finally {
    writer.close();
    await app.close();
  }
}
