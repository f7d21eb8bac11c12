// SIGTERM finishes every request in flight, MCP included: the real main.js serves a really imported extract;
// a tool call through the MCP client SDK and REST reads wait on a place lookup (a geocoder on loopback
// that answers only when the test says), the process gets SIGTERM meanwhile, and every answer must then
// arrive whole and right before the process exits 0. With one thread and with a read thread, whose MCP
// requests the main thread answers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { importMonaco, CASINO, MODERN, type Extract } from './support.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

/** A Nominatim stand-in that holds every search until release(). */
function slowGeocoder() {
  const held: ServerResponse[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((_request: IncomingMessage, response: ServerResponse) => {
    held.push(response);
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    server,
    /** Resolves once `count` searches are held. */
    async holding(count: number): Promise<void> {
      while (held.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    release(): void {
      for (const response of held.splice(0)) {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify([{ lat: String(CASINO.lat), lon: String(CASINO.lon), name: 'Casino Square', address: { city: 'Monaco' } }]));
      }
    },
  };
}

/** The lines main.js logs on stdout, parsed, as they come; resolves `serving` with its port. */
function followLog(child: ChildProcess): { messages: string[]; serving: Promise<number>; said(message: string): Promise<void> } {
  const messages: string[] = [];
  const listeners: (() => void)[] = [];
  let resolvePort!: (port: number) => void;
  const serving = new Promise<number>((resolve) => (resolvePort = resolve));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const entry = JSON.parse(line) as { message: string; port?: number };
    messages.push(entry.message);
    if (entry.message === 'serving') resolvePort(entry.port!);
    for (const listener of listeners) listener();
  });
  const said = async (message: string) => {
    while (!messages.some((m) => m.startsWith(message))) await new Promise<void>((resolve) => listeners.push(resolve));
  };
  return { messages, serving, said };
}

let extract: Extract;
before(async () => {
  extract = await importMonaco();
});
after(() => extract?.remove());

for (const threads of [1, 2]) {
  test(`SIGTERM: a slow MCP tool call and REST reads in flight all get their answers (HTTP_THREADS=${threads})`, async () => {
    const geocoder = slowGeocoder();
    geocoder.server.listen(0, '127.0.0.1');
    await once(geocoder.server, 'listening');
    const geocoderUrl = `http://127.0.0.1:${(geocoder.server.address() as AddressInfo).port}`;
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        HTTP_THREADS: String(threads),
        TOILETS_DB: extract.db,
        OVERLAY_DB: join(extract.db, '..', `overlay-${threads}.db`),
        TOILETS_EXTRACT: '',
        RATE_LIMIT_PER_MINUTE: '0',
        GEOCODER_URL: geocoderUrl,
        GEOCODER_MODE: 'first',
        GEOCODER_TIMEOUT_MS: '60000',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    const log = followLog(child);
    const client = new Client({ name: 'shutdown-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    try {
      const origin = `http://127.0.0.1:${await log.serving}`;
      await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));

      // In flight: one MCP tool call and two REST reads, each waiting on the geocoder.
      const toolCall = client.callTool({ name: 'find_toilets_near', arguments: { place: 'Casino Square', limit: 3 } });
      const restReads = [1, 2].map(() => fetch(`${origin}/api/v1/toilets/nearest?place=Casino%20Square&limit=3`).then(async (response) => ({ status: response.status, body: (await response.json()) as { status: string; results: { id: string }[] } })));
      await geocoder.holding(3);

      child.kill('SIGTERM');
      await log.said('shutting down');
      geocoder.release();

      const result = (await toolCall) as { isError?: boolean; structuredContent: { status: string; results: { id: string }[] } };
      assert.notEqual(result.isError, true, JSON.stringify(result).slice(0, 300));
      assert.equal(result.structuredContent.status, 'ok');
      assert.equal(result.structuredContent.results.length, 3);
      for (const read of await Promise.all(restReads)) {
        assert.equal(read.status, 200);
        assert.equal(read.body.status, 'ok');
        assert.deepEqual(read.body.results.map((r) => r.id), result.structuredContent.results.map((r) => r.id), 'REST and MCP agree');
      }
      const [code] = await exited;
      assert.equal(code, 0, log.messages.join(' | '));
    } finally {
      await client.close().catch(() => {});
      child.kill('SIGKILL');
      geocoder.release();
      geocoder.server.close();
    }
  });
}
