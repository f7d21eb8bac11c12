// What gzip answers cost over HTTP (issue 42): each read with `Accept-Encoding: gzip` against the same
// requests without it, on the same running server, in rounds that alternate the two in an order that flips
// every round (ABBA), so a shared machine's drift falls on both sides. A round's ratio = gzip req/s ÷ plain
// req/s of that round; reported: the median over the rounds, their spread, and the bytes on the wire; with
// the server's pid, also its CPU µs per request each way (all its threads, which a loaded machine distorts
// less than req/s). The MCP tool calls are measured so too (bench/mcp-paths.ts), with their headers.
import { meanAnswerBytes, processCpuMicros, runWrk } from './http.js';
import { median } from './observability.js';
import { atLeast } from './targets.js';

export interface CompressionRatio {
  name: string;
  plainBytes: number;
  gzipBytes: number;
  plainRps: number[];
  gzipRps: number[];
  /** Per round: gzip req/s ÷ plain req/s. */
  ratios: number[];
  /** Per round, when the server's pid was given: its CPU µs per request, plain and gzip. */
  plainCpuUs: number[];
  gzipCpuUs: number[];
}

export const GZIP = { 'Accept-Encoding': 'gzip' } as const;

export interface CompressionOptions {
  port: number;
  /** The server's process, for its CPU per request (undefined: not measured). */
  pid?: number;
  /** Each read's request lines (runWrk) and the headers they need besides Accept-Encoding. */
  reads: [name: string, requests: string[], headers?: Record<string, string>][];
  rounds: number;
  seconds: number;
  warmupSeconds: number;
}

export async function compressionRatios(options: CompressionOptions): Promise<CompressionRatio[]> {
  const { port, rounds, seconds, warmupSeconds } = options;
  const results: CompressionRatio[] = [];
  const cpu = () => (options.pid === undefined ? 0 : processCpuMicros(options.pid));
  for (const [name, requests, headers = {}] of options.reads) {
    const tag = name.replace(/\W+/g, '-');
    const coded = { ...headers, ...GZIP };
    const result: CompressionRatio = {
      name,
      plainBytes: await meanAnswerBytes(port, requests.slice(0, 100), headers),
      gzipBytes: await meanAnswerBytes(port, requests.slice(0, 100), coded),
      plainRps: [],
      gzipRps: [],
      ratios: [],
      plainCpuUs: [],
      gzipCpuUs: [],
    };
    await runWrk(tag, port, requests, warmupSeconds, headers);
    await runWrk(tag, port, requests, warmupSeconds, coded);
    const measured = async (gzip: boolean) => {
      const before = cpu();
      const wrk = await runWrk(tag, port, requests, seconds, gzip ? coded : headers);
      return { wrk, cpuUs: (cpu() - before) / (wrk.requestsPerSecond * seconds) };
    };
    for (let round = 0; round < rounds; round++) {
      const plainFirst = round % 2 === 0;
      const first = await measured(!plainFirst);
      const second = await measured(plainFirst);
      const [plain, gzip] = plainFirst ? [first, second] : [second, first];
      if (plain.wrk.non2xx + gzip.wrk.non2xx > 0) throw new Error(`${name}: ${plain.wrk.non2xx + gzip.wrk.non2xx} non-2xx answers`);
      result.plainRps.push(plain.wrk.requestsPerSecond);
      result.gzipRps.push(gzip.wrk.requestsPerSecond);
      result.ratios.push(gzip.wrk.requestsPerSecond / plain.wrk.requestsPerSecond);
      if (options.pid !== undefined) {
        result.plainCpuUs.push(plain.cpuUs);
        result.gzipCpuUs.push(gzip.cpuUs);
      }
    }
    results.push(result);
  }
  return results;
}

/** The results as a markdown table with the target ratio; CPU columns when they were measured. */
export function compressionLines(results: readonly CompressionRatio[], minRatio: number): string[] {
  const fmt = (n: number, digits: number) => n.toFixed(digits);
  const rps = (values: number[]) => values.map((v) => Math.round(v)).join(', ');
  const withCpu = results.some((r) => r.plainCpuUs.length > 0);
  const cells = (values: (string | number)[]) => `| ${values.join(' | ')} |`;
  const head = ['read', 'plain bytes', 'gzip bytes', 'plain req/s per round', 'gzip req/s per round', 'median ratio', 'spread', ...(withCpu ? ['CPU µs/request plain', 'gzip'] : []), 'target', 'verdict'];
  const lines = [cells(head), cells(head.map(() => '---'))];
  for (const r of results) {
    const ratio = median(r.ratios);
    const cpu = withCpu ? [fmt(median(r.plainCpuUs), 0), fmt(median(r.gzipCpuUs), 0)] : [];
    lines.push(cells([r.name, r.plainBytes, `${r.gzipBytes} (${fmt((r.gzipBytes / r.plainBytes) * 100, 0)}%)`, rps(r.plainRps), rps(r.gzipRps), fmt(ratio, 2), `${fmt(Math.min(...r.ratios), 2)}..${fmt(Math.max(...r.ratios), 2)}`, ...cpu, `≥ ${minRatio}`, atLeast(ratio, minRatio)]));
  }
  return lines;
}

export { median };
