// Pipelined MCP requests on one connection: tool calls and pings the fast path answers are written while
// uWS reads them, so every one is answered, in order (docs/SECURITY.md says which requests this covers).
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { CASINO, importMonaco, MODERN, serve, type Extract, type Served } from './support.js';

let extract: Extract;
let served: Served;
before(async () => {
  extract = await importMonaco();
  served = await serve({ db: extract.db, reach: 'socket' }); // the connection is the subject
});
after(async () => {
  await served?.close();
  extract?.remove();
});

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };

/** The i-th request: a 2026-07-28 find_toilets_near, a 2025-11-25 get_toilet or a 2025-11-25 ping, in turn. */
function request(i: number): string {
  const kind = i % 3;
  const body =
    kind === 0
      ? JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'find_toilets_near', arguments: { ...CASINO, limit: 2 }, _meta: ENVELOPE } })
      : kind === 1
        ? JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'get_toilet', arguments: { id: 'n1' } } })
        : JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' });
  const version = kind === 0 ? `MCP-Protocol-Version: ${MODERN}\r\nMcp-Method: tools/call\r\nMcp-Name: find_toilets_near\r\n` : 'MCP-Protocol-Version: 2025-11-25\r\n';
  return `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${version}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

test('ten pipelined tool calls and pings on one connection are each answered, in order', async () => {
  const count = 10;
  const socket = connect(Number(served.url.port), '127.0.0.1');
  try {
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const ids = new Promise<number[]>((resolve, reject) => {
      let text = '';
      socket.on('data', (data: Buffer) => {
        text += data.toString('latin1'); // one character a byte, so Content-Length counts characters
        const found: number[] = [];
        for (let at = 0, end; (end = text.indexOf('\r\n\r\n', at)) >= 0; ) {
          const length = Number(/content-length: (\d+)/i.exec(text.slice(at, end))?.[1]);
          const body = text.substr(end + 4, length);
          if (body.length < length) break;
          found.push(JSON.parse(Buffer.from(body.slice(body.indexOf('{')), 'latin1').toString()).id);
          at = end + 4 + length;
        }
        if (found.length === count) resolve(found);
      });
      socket.on('close', () => reject(new Error(`the connection was closed after ${JSON.stringify(text.slice(0, 300))}`)));
    });
    socket.write(Array.from({ length: count }, (_, i) => request(i)).join(''));
    assert.deepEqual(await ids, Array.from({ length: count }, (_, i) => i));
    assert.equal(served.app.mcp.fastAnswers, count);
  } finally {
    socket.destroy();
  }
});
