// The MCP benchmark module runs real tool calls and summarises them; its timings are not checked here,
// only that every call was made, answered and counted, and that the summary is consistent.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { benchToolCalls, toolCallRequestLines } from '../../bench/mcp.js';
import { CASINO, importMonaco, serve, type Extract, type Served } from './support.js';

let extract: Extract;
let served: Served;
before(async () => {
  extract = await importMonaco();
  served = await serve({ db: extract.db, env: { RATE_LIMIT_PER_MINUTE: '0' } });
});
after(async () => {
  await served?.close();
  extract?.remove();
});

for (const era of ['modern', 'legacy'] as const) {
  test(`${era} tool calls: all made and answered, percentiles in order`, async () => {
    const result = await benchToolCalls({
      url: served.url,
      calls: 24,
      concurrency: 4,
      era,
      argumentsFor: (i) => ({ lat: CASINO.lat + (i % 6) * 0.001, lon: CASINO.lon, limit: 5 }),
    });
    assert.deepEqual([result.era, result.tool, result.calls, result.errors], [era, 'find_toilets_near', 24, 0]);
    const { p50, p90, p99, max } = result.latencyMs;
    assert.ok(p50 > 0 && p50 <= p90 && p90 <= p99 && p99 <= max, JSON.stringify(result.latencyMs));
    assert.ok(result.elapsedMs >= max && result.callsPerSecond > 0);
  });
}

test('tool errors count as errors', async () => {
  const result = await benchToolCalls({ url: served.url, calls: 3, tool: 'get_toilet', argumentsFor: () => ({ id: 'n1' }) });
  assert.equal(result.errors, 3);
});

test('request lines for wrk carry the same calls', () => {
  const { requests, headers } = toolCallRequestLines({ calls: 2, tool: 'get_toilet', argumentsFor: (i) => ({ id: `n${i}` }) });
  assert.deepEqual(
    requests.map((line) => line.slice(0, line.indexOf('{'))),
    ['POST /mcp ', 'POST /mcp '],
  );
  const body = JSON.parse(requests[1].slice('POST /mcp '.length));
  assert.deepEqual([body.method, body.params.name, body.params.arguments], ['tools/call', 'get_toilet', { id: 'n1' }]);
  assert.equal(body.params._meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
  assert.deepEqual([headers['Mcp-Method'], headers['Mcp-Name'], headers['MCP-Protocol-Version']], ['tools/call', 'get_toilet', '2026-07-28']);
  assert.ok(requests.every((line) => !line.includes('\n')), 'one request per line');
});
