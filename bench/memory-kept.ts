// Run by the bench as a child process of its own (a clean heap): loads the source database on one server
// thread, shows every toilet once (getToilet), and prints the RSS after loading and after that as JSON.
// What a thread makes for a toilet it shows (compiled hours, text fragments) stays until the next load,
// so this is the most a thread grows between loads.
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { collectGarbage } from '../src/memory.js';
import { toiletId } from '../src/toilets/table.js';

export interface MemoryKept {
  toilets: number;
  loadedMb: number;
  everyToiletShownMb: number;
}

/**
 * V8 returns the heap pages a burst of work left free only after the process has been idle for a while
 * (its memory reducer), so the RSS is read after full collections spread over 20 s of idle.
 */
async function settledRssMb(): Promise<number> {
  for (const idleMs of [0, 5_000, 15_000]) {
    await sleep(idleMs);
    collectGarbage();
  }
  return Math.round(process.memoryUsage().rss / 2 ** 20);
}

const config = loadConfig({ TOILETS_DB: process.argv[2], PORT: '0', HTTP_THREADS: '1' });
const app = createApp({ config, log: { info() {}, error() {} } });
app.catalog.load();
const loadedMb = await settledRssMb();
const t = app.catalog.snapshot.table;
const now = Date.now();
for (let row = 0; row < t.count; row++) app.reads.toilet(toiletId(t, row), now);
const kept: MemoryKept = { toilets: t.count, loadedMb, everyToiletShownMb: await settledRssMb() };
process.stdout.write(JSON.stringify(kept));
await app.close();
