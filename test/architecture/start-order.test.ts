// The features start in the order their needs give and close in its reverse (src/feature.ts), and the
// service's own list (app.ts) is in such an order: each feature started after every feature it names.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { inStartOrder, type Feature } from '../../src/feature.js';
import { importedCopy, tempDir } from '../support/extracts.js';
import { serve } from '../support/server.js';

const feature = (name: string, needs: string[] = []): Feature => ({ name, needs, start() {}, close() {} });
const names = (features: readonly Feature[]) => features.map((f) => f.name);

test('a feature starts after what it needs; otherwise the order given stays', () => {
  assert.deepEqual(names(inStartOrder([feature('billing', ['accounts', 'partners']), feature('accounts'), feature('partners', ['accounts']), feature('tiles')])), ['accounts', 'partners', 'billing', 'tiles']);
  assert.deepEqual(names(inStartOrder([feature('a'), feature('b'), feature('c')])), ['a', 'b', 'c']);
});

test('an unknown need, a circle and a name used twice are refused', () => {
  assert.throws(() => inStartOrder([feature('billing', ['payments'])]), /billing needs payments, which is not in the list/);
  assert.throws(() => inStartOrder([feature('a', ['b']), feature('b', ['a'])]), /in a circle: a -> b -> a/);
  assert.throws(() => inStartOrder([feature('a'), feature('a')]), /two features share a name/);
});

const dir = tempDir('toilet-start-order');
after(() => dir.remove());

test('the service starts and closes its features in the order of their needs', async () => {
  const db = join(dir.path, 'toilets.db');
  await importedCopy('monaco', db);
  const served = await serve({ db });
  const started = served.app.features;
  for (const [index, each] of started.entries()) {
    for (const need of each.needs) assert.ok(names(started).indexOf(need) < index, `${each.name} starts after ${need}`);
  }
  assert.deepEqual(names(started), ['community', 'accounts', 'partners', 'oauth', 'account-events', 'billing', 'tiles']);
  await served.close();
});
