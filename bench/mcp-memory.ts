// What a server thread adds to the process's memory once the MCP SDK loads on it (docs/PERFORMANCE.md):
// node dist/bench/mcp-memory.js DB. Starts the service on one thread and on two, each afresh; reads its
// RSS after start, after fast-path tool calls (which need no SDK), and after requests the SDK answers on
// fresh connections (so the kernel gives them to every thread, and each loads the SDK); each read after
// 5 s idle. A read thread's share is the two-thread growth less the one-thread growth.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { startProcess } from './http.js';

const db = process.argv[2];
if (!db) throw new Error('usage: node dist/bench/mcp-memory.js <toilets.db>');
const MAIN = join(process.cwd(), 'dist', 'src', 'main.js');
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
  return Math.round(kb / 102.4) / 10;
}

/** One POST to /mcp over a connection of its own. */
function post(port: number, headers: Record<string, string>, body: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent: false, headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const idle = () => new Promise((resolve) => setTimeout(resolve, 5000));

async function measure(threads: number): Promise<{ started: number; fast: number; sdk: number }> {
  const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', TOILETS_DB: db, HTTP_THREADS: String(threads), RATE_LIMIT_PER_MINUTE: '0', ACCESS_LOG: 'false' };
  const { child, port } = await startProcess([MAIN], env);
  try {
    await idle();
    const started = rssMb(child.pid!);
    const call = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'get_toilet' };
    for (let i = 0; i < 200; i++) await post(port, call, { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'get_toilet', arguments: { id: `n${i}` }, _meta: ENVELOPE } });
    await idle();
    const fast = rssMb(child.pid!);
    for (let i = 0; i < 200; i++) {
      await post(port, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' }, { jsonrpc: '2.0', id: i, method: 'tools/list', params: { _meta: ENVELOPE } });
      await post(port, { 'MCP-Protocol-Version': '2025-11-25' }, { jsonrpc: '2.0', id: i, method: 'tools/list' });
    }
    await idle();
    return { started, fast, sdk: rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
  }
}

const one = await measure(1);
const two = await measure(2);
const grows = (m: { fast: number; sdk: number }) => Math.round((m.sdk - m.fast) * 10) / 10;
console.log(JSON.stringify({ oneThread: one, twoThreads: two, sdkOnMainMb: grows(one), sdkOnReadThreadMb: Math.round((grows(two) - grows(one)) * 10) / 10 }));
