// The thread startSpatialIndexes (spatial.ts) builds the indexes on. It says when it begins, so that the
// loader, blocked waiting, can tell a thread that never started from one still building; any failure is
// posted back rather than thrown, since the loader cannot receive a thread's error event while it waits.
import { workerData, type MessagePort } from 'node:worker_threads';
import { BuildState, buildSpatialIndexes, type BuildReply, type Positions } from './spatial.js';

const { positions, state, replies } = workerData as { positions: Positions; state: Int32Array; replies: MessagePort };

/** Posts the reply before the state says it is there. */
function finish(reply: BuildReply): void {
  replies.postMessage(reply);
  replies.close();
  Atomics.store(state, 0, BuildState.Done);
  Atomics.notify(state, 0);
}

Atomics.store(state, 0, BuildState.Building);
Atomics.notify(state, 0);
try {
  finish({ indexes: buildSpatialIndexes(positions) });
} catch (error) {
  finish({ error: (error as Error).stack ?? String(error) });
}
