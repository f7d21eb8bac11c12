// The thread the overview's levels are built on (overview.ts, from OVERVIEW_THREAD_FROM toilets): it
// reads the positions in the table's shared memory, so nothing is copied in, and posts the levels' tiles
// back (a few MB at a million toilets, copied once); the main thread meanwhile goes on answering.
import { parentPort, workerData } from 'node:worker_threads';
import { buildLevels, type OverviewInput } from './clusters.js';

const levels = buildLevels(workerData as OverviewInput);
parentPort!.postMessage(levels.map(({ tiles, offsets, body }) => ({ tiles, offsets, body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) })));
