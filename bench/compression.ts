// What gzip answers cost over HTTP (issue 42): each read with `Accept-Encoding: gzip` against the same
// requests without it, on the same running server, in rounds that alternate the two in an order that flips
// every round (ABBA), so a shared machine's drift falls on both sides. A round's ratio = gzip req/s ÷ plain
// req/s of that round; reported: the median over the rounds, their spread, and the bytes on the wire.
import { meanAnswerBytes, runWrk } from './http.js';
import { median } from './observability.js';

export interface CompressionRatio {
  name: string;
  plainBytes: number;
  gzipBytes: number;
  plainRps: number[];
  gzipRps: number[];
  /** Per round: gzip req/s ÷ plain req/s. */
  ratios: number[];
}

export const GZIP = { 'Accept-Encoding': 'gzip' } as const;

export interface CompressionOptions {
  port: number;
  reads: [name: string, requests: string[]][];
  rounds: number;
  seconds: number;
  warmupSeconds: number;
}

export async function compressionRatios(options: CompressionOptions): Promise<CompressionRatio[]> {
  const { port, rounds, seconds, warmupSeconds } = options;
  const results: CompressionRatio[] = [];
  for (const [name, requests] of options.reads) {
    const tag = name.replace(/\W+/g, '-');
    const result: CompressionRatio = {
      name,
      plainBytes: await meanAnswerBytes(port, requests.slice(0, 100)),
      gzipBytes: await meanAnswerBytes(port, requests.slice(0, 100), GZIP),
      plainRps: [],
      gzipRps: [],
      ratios: [],
    };
    await runWrk(tag, port, requests, warmupSeconds);
    await runWrk(tag, port, requests, warmupSeconds, GZIP);
    for (let round = 0; round < rounds; round++) {
      const plainFirst = round % 2 === 0;
      const first = await runWrk(tag, port, requests, seconds, plainFirst ? {} : GZIP);
      const second = await runWrk(tag, port, requests, seconds, plainFirst ? GZIP : {});
      const [plain, gzip] = plainFirst ? [first, second] : [second, first];
      if (plain.non2xx + gzip.non2xx > 0) throw new Error(`${name}: ${plain.non2xx + gzip.non2xx} non-2xx answers`);
      result.plainRps.push(plain.requestsPerSecond);
      result.gzipRps.push(gzip.requestsPerSecond);
      result.ratios.push(gzip.requestsPerSecond / plain.requestsPerSecond);
    }
    results.push(result);
  }
  return results;
}

export { median };
