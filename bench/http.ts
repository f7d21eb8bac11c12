// HTTP throughput with wrk (a C load generator; autocannon tops out near 40k req/s on two cores, below
// what uWS serves): each endpoint's req/s as a ratio to the bare-uWS ceiling answering a body of the
// same size, measured in the same run.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUT_DIR } from './dataset.js';
import { hasCommand } from './measure.js';

export const WRK = '/usr/bin/wrk';

export interface WrkResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

const LUA = `
local requests = {}
for line in io.lines(os.getenv("BENCH_REQUESTS")) do
  local method, path, body = line:match("^(%u+) (%S+) ?(.*)$")
  requests[#requests + 1] = { method = method, path = path, body = body }
end
local headers = {}
for name, value in (os.getenv("BENCH_HEADERS") or ""):gmatch("([^:|]+):([^|]*)") do headers[name] = value end
local i = 0
request = function()
  i = i % #requests + 1
  local r = requests[i]
  if r.method == "GET" then return wrk.format("GET", r.path, headers) end
  return wrk.format(r.method, r.path, headers, r.body)
end
`;

export function wrkAvailable(): boolean {
  return hasCommand(WRK);
}

/** Runs wrk against `port` with the request lines ("GET /path" or "POST /path body"), over 64 connections unless told. */
export async function runWrk(name: string, port: number, requests: string[], seconds: number, headers: Record<string, string> = {}, connections = 64): Promise<WrkResult> {
  const script = join(OUT_DIR, 'requests.lua');
  const list = join(OUT_DIR, `requests-${name}.txt`);
  writeFileSync(script, LUA);
  writeFileSync(list, requests.join('\n') + '\n');
  const env = { ...process.env, BENCH_REQUESTS: list, BENCH_HEADERS: Object.entries(headers).map(([k, v]) => `${k}:${v}`).join('|') };
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(WRK, ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, `http://127.0.0.1:${port}`], { env });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output);
  if (!rps) throw new Error(`wrk gave no result for ${name}:\n${output}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output);
  return {
    requestsPerSecond: Number(rps[1]),
    p50Ms: percentile(output, '50%'),
    p99Ms: percentile(output, '99%'),
    non2xx: non2xx ? Number(non2xx[1]) : 0,
  };
}

export interface MeasuredRun {
  name: string;
  port: number;
  /** The answering process, whose CPU (all its threads) the run counts. */
  pid: number;
  requests: string[];
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

/** One wrk run after an unmeasured warm-up, with the CPU µs the answering process spent per request meanwhile. */
export async function runWrkWithCpu(run: MeasuredRun): Promise<{ wrk: WrkResult; cpuUs: number }> {
  await runWrk(run.name, run.port, run.requests, run.warmupSeconds, run.headers, run.connections);
  const before = processCpuMicros(run.pid);
  const wrk = await runWrk(run.name, run.port, run.requests, run.seconds, run.headers, run.connections);
  const spent = processCpuMicros(run.pid) - before;
  return { wrk, cpuUs: spent / (wrk.requestsPerSecond * run.seconds) };
}

/** User + system CPU of a process, all its threads, in µs (/proc/<pid>/stat, clock ticks of 10 ms). */
export function processCpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * The mean size in bytes of the answers to request lines (as runWrk takes them, with its headers), fetched one
 * by one, as they cross the wire: a compressed answer counts its compressed bytes.
 */
export async function meanAnswerBytes(port: number, requests: string[], headers: Record<string, string> = {}): Promise<number> {
  let total = 0;
  for (const line of requests) {
    const [, method, path, body] = /^([A-Z]+) (\S+) ?(.*)$/.exec(line)!;
    // without Accept-Encoding in `headers`, ask for none: fetch would otherwise ask for gzip itself
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { 'Accept-Encoding': 'identity', ...headers }, ...(method === 'GET' ? {} : { body }) });
    const bytes = (await response.arrayBuffer()).byteLength;
    total += response.headers.has('content-encoding') ? Number(response.headers.get('content-length')) : bytes;
  }
  return Math.round(total / requests.length);
}

function percentile(output: string, label: string): number {
  const match = new RegExp(`^\\s*${label.replace('%', '%')}\\s+([\\d.]+)(us|ms|s)`, 'm').exec(output);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

/** Starts a node script that prints `{"port": N}` (or a 'serving' log line with port) and waits for it. */
export function startProcess(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; port: number; line: Record<string, unknown>; startedMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let buffer = '';
    let errors = '';
    child.stderr!.on('data', (d) => (errors += d));
    child.stdout!.on('data', (d) => {
      buffer += d;
      for (const text of buffer.split('\n')) {
        if (!text.startsWith('{')) continue;
        try {
          const line = JSON.parse(text);
          if (typeof line.port === 'number') {
            // From here on its lines (the access log among them) are read and dropped, not gathered.
            child.stdout!.removeAllListeners('data');
            child.stdout!.resume();
            resolve({ child, port: line.port, line, startedMs: performance.now() - started });
            return;
          }
        } catch {
          // a partial line; wait for more
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} before listening:\n${errors}`)));
  });
}
