// Contributions show in every read interface at once: the MCP get_toilet answer carries a rating as soon
// as its 201 is out; overlay rows stored under an id a toilet had before a redraw (source id_moves) count
// for the toilet under its new id.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { after, before, describe, test } from 'node:test';
import { modernRequest } from '../mcp/support.js';
import { assertValid, Clock, deviceId, startService, type Data, type Service, startPortoService, stopPortoService } from './support.js';
import { rebuildColumnStore } from '../support/column-store.js';

const RATED = 'n4791588622'; // Porto: Teleférico de Gaia

describe('effects in every read answer', () => {
  let data: Data;
  let clock: Clock;
  let s: Service;

  before(async () => ({ data, clock, s } = await startPortoService()));
  after(() => stopPortoService({ data, clock, s }));

  test('a rating shows in the MCP get_toilet answer right after its 201', async () => {
    assert.equal((await s.post(`/api/v1/toilets/${RATED}/ratings`, { rating: 4, device_id: deviceId(1) })).status, 201);
    const answer = await modernRequest(new URL(`${s.url}/mcp`), 'tools/call', { name: 'get_toilet', arguments: { id: RATED } });
    assert.equal(answer.status, 200);
    const result = answer.body.result;
    assert.notEqual(result.isError, true);
    assertValid('ToiletAnswer', result.structuredContent);
    assert.deepEqual(result.structuredContent.toilet.cleanliness, { average: 4, count: 1 });
    assert.deepEqual(result.structuredContent.toilet, await s.toilet(RATED));
  });

  test('a redrawn toilet keeps its contributions: rows of the old id count for the new one', async () => {
    await s.post(`/api/v1/toilets/${RATED}/confirmations`, {});
    await s.close();
    // what the importer records when a mapper redraws the node as an outline (new id within 25 m)
    const source = new Database(data.toiletsDb);
    source.prepare("UPDATE toilets SET id = 'w999000111' WHERE id = ?").run(RATED);
    source.prepare("INSERT INTO id_moves (old_id, new_id, moved_at) VALUES (?, 'w999000111', '2026-06-16T03:15:00Z')").run(RATED);
    rebuildColumnStore(source);
    source.close();
    s = await startService(data, clock);

    assert.equal((await s.get(`/api/v1/toilets/${RATED}`)).status, 404);
    const moved = await s.toilet('w999000111');
    assert.deepEqual(moved.cleanliness, { average: 4, count: 1 });
    assert.equal(moved.confirmations, 1);
    const again = await s.post('/api/v1/toilets/w999000111/ratings', { rating: 2, device_id: deviceId(1) }, { ip: '192.0.2.99' });
    assert.deepEqual(again.json.cleanliness, { average: 2, count: 1 }, 'the same person under the new id: their latest rating counts, once');
  });
});
