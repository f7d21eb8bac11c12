// MCP get_toilet carries the same `details` as getToilet (test/api/details.test.ts), through the official
// client SDK, and its output schema documents them.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { findInvalid } from '../../src/schemas/validate.js';
import { CASES, RADAR_CHANGING_PLACES, importDetailsExtract } from '../support/details-extract.js';
import { tempDir } from '../support/extracts.js';
import { CLIENT_KINDS, rest, serve, type McpSession, type Served } from './support.js';

const dir = tempDir('toilet-mcp-details');
let served: Served;
let session: McpSession;

before(async () => {
  const db = join(dir.path, 'toilets.db');
  await importDetailsExtract(dir.path, db);
  served = await serve({ db });
  session = await CLIENT_KINDS[0].connect(served.url);
});
after(async () => {
  await session?.close();
  await served?.close();
  dir.remove();
});

test('get_toilet answers what getToilet answers, details included', async () => {
  for (const c of CASES) {
    const result = await session.callTool({ name: 'get_toilet', arguments: { id: c.id } });
    assert.notEqual(result.isError, true);
    assert.deepEqual(findInvalid('ToiletAnswer', result.structuredContent), []);
    assert.deepEqual(result.structuredContent.details, c.details, c.id);
    assert.deepEqual(result.structuredContent, await rest(served, `/api/v1/toilets/${c.id}`));
  }
});

test("get_toilet's output schema documents every detail with its meaning", async () => {
  const { tools } = await session.listTools();
  const tool = tools.find((t) => t.name === 'get_toilet');
  const details = tool.outputSchema.$defs.ToiletDetails;
  assert.deepEqual(Object.keys(details.properties).sort(), Object.keys(RADAR_CHANGING_PLACES.details!).concat('drinking_water', 'shower').sort());
  for (const [name, property] of Object.entries(details.properties) as [string, { description?: string; $ref?: string }][]) {
    assert.ok(property.description || property.$ref, `${name} says what it means`);
  }
  assert.match(details.properties.key_systems.description, /radar.*eurokey.*\/keys\//s);
});
