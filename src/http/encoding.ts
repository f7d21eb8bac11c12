// Content codings (RFC 9110 §8.4.1, §12.5.3): which coding an answer goes out in, from the client's
// Accept-Encoding and the codings the server has for it, and compressing a body per request.
//
// The REST reads' and the MCP fast path's answers come with their gzip form made from their pieces
// (src/rules/gzip-bytes.ts, without a compressor); other answers that need compressing per request use gzip at level 1 only. Measured on the service's own answers
// (docs/PERFORMANCE.md, "Compression"): level 1 makes a 5 KB nearest answer 23 % of its size in ~16 µs
// of CPU; level 6 saves 4 % more bytes for a third more CPU; brotli at quality 1 costs as much for a larger
// answer, and at quality 4–5 is 8–15 % smaller for 2.5 times the CPU. Brotli pays where a body is compressed
// once and sent many times: static documents and assets (representation.ts, prepareStatic).
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Coding = 'br' | 'gzip' | 'identity';
export type Compression = Exclude<Coding, 'identity'>;

/** Smaller bodies go out as they are: the gzip frame and a round of CPU are worth less than the bytes saved. */
export const MIN_COMPRESS_BYTES = 1024;

/** The gzip level of answers compressed per request (see the header comment). */
export const PER_REQUEST_GZIP_LEVEL = 1;

/** How acceptable the client finds each coding (q-values 0–1; 0 refuses it). */
interface Acceptance {
  readonly br: number;
  readonly gzip: number;
  readonly identity: number;
}

const IDENTITY_ONLY: Acceptance = { br: 0, gzip: 0, identity: 1 };
// Clients send a handful of distinct Accept-Encoding values; parse each once.
const parsed = new Map<string, Acceptance>();
const MAX_REMEMBERED = 256;

/** Parses an Accept-Encoding value; '' (absent or empty) asks for no coding. */
function acceptance(header: string): Acceptance {
  if (header === '') return IDENTITY_ONLY;
  let known = parsed.get(header);
  if (known !== undefined) return known;
  const q: Record<string, number> = {};
  for (const member of header.split(',')) {
    const [name, ...params] = member.split(';');
    const coding = name.trim().toLowerCase();
    if (coding === '') continue;
    let weight = 1;
    for (const param of params) {
      const [key, value] = param.split('=').map((part) => part.trim());
      if (key.toLowerCase() === 'q') weight = qValue(value);
    }
    q[coding === 'x-gzip' ? 'gzip' : coding] = weight;
  }
  const star = q['*'];
  known = {
    br: q.br ?? star ?? 0,
    gzip: q.gzip ?? star ?? 0,
    // identity is acceptable unless refused by name or by `*;q=0` (RFC 9110 §12.5.3); unnamed, it ranks
    // below every coding the client names
    identity: q.identity ?? star ?? Number.MIN_VALUE,
  };
  if (parsed.size >= MAX_REMEMBERED) parsed.clear();
  parsed.set(header, known);
  return known;
}

/** A q-value (RFC 9110 §12.4.2): 0–1 with up to three decimals; anything else counts as 0. */
function qValue(text: string | undefined): number {
  if (text === undefined || !/^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(text)) return 0;
  return Number(text);
}

/**
 * The coding to send, among `offered` (in the server's order of preference, identity implied last): the
 * one the client weights highest, ties going to the server's order. When the client refuses everything the
 * server has, the body goes out uncoded, which RFC 9110 allows and every client can read.
 */
export function chooseCoding(acceptEncoding: string, offered: readonly Compression[]): Coding {
  const weights = acceptance(acceptEncoding);
  let best: Coding = 'identity';
  let bestWeight = weights.identity;
  for (const coding of offered) {
    const weight = weights[coding];
    if (weight > 0 && weight >= bestWeight && (best === 'identity' || weight > bestWeight)) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

// An event stream is never compressed per answer: a streamed one cannot be. One written whole (the MCP fast
// path's 2025-era answer) goes out in gzip only when its writer prepared that form (HttpReply.encodings).
const COMPRESSIBLE = /^(text\/(?!event-stream)|application\/(json|javascript|xml|wasm)|application\/[\w.-]+\+(json|xml)|image\/svg\+xml)/i;
const typeVerdicts = new Map<string, boolean>();

/** Whether bodies of this Content-Type shrink under compression (text, JSON, XML, SVG; not images or archives). */
export function isCompressible(contentType: string): boolean {
  let verdict = typeVerdicts.get(contentType);
  if (verdict === undefined) {
    verdict = COMPRESSIBLE.test(contentType.trim());
    if (typeVerdicts.size >= MAX_REMEMBERED) typeVerdicts.clear();
    typeVerdicts.set(contentType, verdict);
  }
  return verdict;
}

const GZIP: readonly Compression[] = ['gzip'];

/** Whether an answer to this Accept-Encoding ('' or undefined when absent) goes out in gzip, as representation.ts would choose. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return acceptEncoding !== undefined && acceptEncoding !== '' && chooseCoding(acceptEncoding, GZIP) === 'gzip';
}

/** `body` compressed per request (gzip level 1; see the header comment). */
export function compressNow(body: string | Uint8Array): Buffer {
  return gzipSync(body, { level: PER_REQUEST_GZIP_LEVEL });
}

/** `body` compressed as small as the coding allows: for bodies compressed once and sent many times. */
export function compressOnce(body: string | Uint8Array, coding: Compression): Buffer {
  if (coding === 'gzip') return gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: size } });
}
