// The differential check of compressed answers: the same request with and without Accept-Encoding: gzip,
// over raw HTTP (fetch would decode it), the gzip one decoded with node:zlib and compared byte for byte
// with the plain one. Answers of 1 KB or more must come in gzip, smaller ones as they are. POSTs too
// (MCP tool calls: test/mcp/support.ts assertToolGzipAgrees).
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { gunzipSync } from 'node:zlib';

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request over raw HTTP: GET, or POST of `body`. */
export function raw(port: number, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent, method: body === undefined ? 'GET' : 'POST' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Asserts that the gzip answer to `path` decodes to exactly the plain one; returns both sizes. */
export async function assertGzipAgrees(port: number, path: string, post?: { headers: Record<string, string>; body: string }): Promise<{ plain: number; gzip: number; decoded: Buffer }> {
  const plain = await raw(port, path, { ...post?.headers, 'Accept-Encoding': 'identity' }, post?.body);
  const coded = await raw(port, path, { ...post?.headers, 'Accept-Encoding': 'gzip, deflate, br' }, post?.body);
  assert.equal(coded.status, plain.status, path);
  assert.equal(plain.headers['content-encoding'], undefined, path);
  if (plain.body.length < 1024) {
    assert.equal(coded.headers['content-encoding'], undefined, `${path}: a small answer goes out as it is`);
    assert.deepEqual(coded.body, plain.body, path);
    return { plain: plain.body.length, gzip: plain.body.length, decoded: plain.body };
  }
  assert.equal(coded.headers['content-encoding'], 'gzip', path);
  assert.match(String(coded.headers.vary), /Accept-Encoding/, path);
  // an event stream is not compressed unless its writer prepared the gzip form, so it need not vary uncoded
  if (!String(plain.headers['content-type']).startsWith('text/event-stream')) assert.match(String(plain.headers.vary), /Accept-Encoding/, path);
  const decoded = gunzipSync(coded.body);
  assert.ok(decoded.equals(plain.body), `${path}: the gzip answer decodes to other bytes than the plain one`);
  return { plain: plain.body.length, gzip: coded.body.length, decoded };
}
