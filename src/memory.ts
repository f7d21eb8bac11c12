// A full garbage collection on demand. Loading a million toilets leaves a few hundred MB of garbage at
// once (the column blobs as read from SQLite, and on a reload the whole previous snapshot); V8 would
// free it at some later collection, so the resident size after a load would depend on timing. Collecting
// right after the swap (~0.1 s, once per load) returns it at once.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Exposes V8's gc() to contexts made from now on, on every thread.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export function collectGarbage(): void {
  gc();
}
