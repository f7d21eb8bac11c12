import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileHeaders, headerNames } from '../../src/http/reply.js';
import { rawRequest, startServer } from './harness.js';

test('compileHeaders joins a constant list into one pair that goes out as separate headers', async () => {
  const compiled = compileHeaders(['Content-Type', 'application/json', 'Cache-Control', 'public, max-age=300', 'X-Three', '3']);
  assert.equal(compiled.length, 2);
  assert.deepEqual(headerNames(compiled), ['content-type', 'cache-control', 'x-three']);
  const t = await startServer((server) => {
    server.route({ method: 'GET', pattern: '/c', handler: () => ({ status: 200, headers: compiled, body: '{}' }) });
  });
  try {
    const answer = await rawRequest(`${t.origin}/c`);
    assert.equal(answer.headers['content-type'], 'application/json');
    assert.equal(answer.headers['cache-control'], 'public, max-age=300');
    assert.equal(answer.headers['x-three'], '3');
  } finally {
    await t.server.close();
  }
});

test('compileHeaders refuses line breaks and bad names, so nothing can be smuggled in', () => {
  assert.throws(() => compileHeaders(['X-A', 'ok\r\nSet-Cookie: evil=1']), /invalid value/);
  assert.throws(() => compileHeaders(['X-A', 'ok\n']), /invalid value/);
  assert.throws(() => compileHeaders(['Bad Name', 'x']), /invalid header name/);
  assert.throws(() => compileHeaders(['X-A']), /pairs/);
});
