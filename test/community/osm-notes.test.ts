// The OpenStreetMap note outbox when its database refuses writes (a full disk; here a real SQLite
// connection set query_only): nothing is sent that could not be counted first, the timer's round fails
// into the log instead of ending the process, and the note goes out once the database takes writes again.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { mock, test } from 'node:test';
import { OsmNoteSender, SEND_INTERVAL_MS } from '../../src/community/osm-notes.js';
import { SqliteOverlayStore as OverlayStore } from '../../src/community/sqlite-store.js';
import { tempDir } from '../support/extracts.js';

test('a database that refuses writes stops the round before anything is sent; the note goes out once, later', async (t) => {
  const posted: string[] = [];
  const osm = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      posted.push(body);
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ properties: { id: 4201 } }));
    });
  });
  await new Promise<void>((resolve) => osm.listen(0, '127.0.0.1', resolve));
  t.after(() => osm.close());
  const dir = tempDir();
  const store = new OverlayStore(join(dir.path, 'overlay.db'));
  t.after(async () => {
    await store.close();
    dir.remove();
  });
  store.db.prepare('INSERT INTO osm_notes (report_id, lat, lon, text, queued_at) VALUES (1, 41.1, -8.6, ?, 0)').run('This toilet is gone.');
  const logged: { message: string; fields?: Record<string, unknown> }[] = [];
  const log = { info() {}, error: (message: string, fields?: Record<string, unknown>) => logged.push({ message, fields }) };
  const sender = new OsmNoteSender(store, `http://127.0.0.1:${(osm.address() as { port: number }).port}`, 'tests', () => 1_000, log);
  const note = () => store.db.prepare('SELECT attempts, sent_at, note_id FROM osm_notes').get();

  store.db.pragma('query_only = ON');
  await assert.rejects(sender.flush(), { code: 'SQLITE_READONLY' });
  assert.deepEqual(posted, [], 'nothing sent that could not be counted');

  // the start's round and the timer's: each failure is logged, and the process lives on (an unhandled
  // rejection would end it)
  mock.timers.enable({ apis: ['setInterval'] });
  t.after(() => mock.timers.reset());
  sender.start();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(logged.length, 1, 'the round at the start');
  mock.timers.tick(SEND_INTERVAL_MS);
  await new Promise((resolve) => setImmediate(resolve));
  sender.stop();
  assert.equal(logged.length, 2, 'and the timer\'s');
  for (const { message, fields } of logged) {
    assert.match(message, /sending OpenStreetMap notes stopped; the next round retries/);
    assert.match(String(fields?.error), /readonly|read-only/i);
  }
  assert.deepEqual(posted, []);

  store.db.pragma('query_only = OFF');
  assert.deepEqual(note(), { attempts: 0, sent_at: null, note_id: null });
  assert.deepEqual(await sender.flush(), { sent: 1, failed: 0 });
  assert.deepEqual(await sender.flush(), { sent: 0, failed: 0 }, 'sent once');
  assert.equal(posted.length, 1);
  assert.match(posted[0], /gone/);
  assert.deepEqual(note(), { attempts: 1, sent_at: 1_000, note_id: 4201 });
});
