// What goes out for one answer, given the request's Accept-Encoding and If-None-Match: the server's write
// path (server.ts, fetch-bridge.ts) calls this for every answer, so compression and conditional requests
// work alike on every route and thread, static files included.
//
// - A body of a compressible type (encoding.ts) of at least MIN_COMPRESS_BYTES goes out in the coding the
//   client prefers among those the server has: gzip made per request, or the codings a static body was
//   prepared in (prepareStatic: brotli and gzip at their best, once). Such answers say `Vary: Accept-Encoding`.
// - A 200 with an `etag` (HttpReply) carries the ETag of what it sends; a GET or HEAD whose If-None-Match
//   names it is answered 304 with the same headers but those describing the body (RFC 9110 §15.4.5), so the
//   rate-limit headers, Cache-Control and ETag are there, and the route has counted the request as usual.
import { bodyEtag, codedEtag, ifNoneMatchHits } from './etag.js';
import { chooseCoding, compressNow, compressOnce, isCompressible, MIN_COMPRESS_BYTES, type Coding, type Compression } from './encoding.js';
import type { HeaderList, HttpReply } from './reply.js';

/** What of a request decides its representation. */
export interface Negotiation {
  readonly method: string;
  /** The Accept-Encoding header; '' when absent. */
  readonly acceptEncoding: string;
  /** The If-None-Match header; '' when absent. */
  readonly ifNoneMatch: string;
}

const PER_REQUEST: readonly Compression[] = ['gzip'];
const VARY = ['Vary', 'Accept-Encoding'];
// Area answers come from a cache as the same Buffer again and again: tag and compress each once.
const tags = new WeakMap<Buffer, string>();
const gzipped = new WeakMap<Buffer, Buffer>();

/** The answer to write for `reply` under `request`'s negotiation headers. */
export function represent(reply: HttpReply, request: Negotiation): HttpReply {
  const { body, etag } = reply;
  if (body === undefined || (etag === undefined && reply.encodings === undefined && body.length < MIN_COMPRESS_BYTES)) return reply;
  const codable = reply.encodings !== undefined || (body.length >= MIN_COMPRESS_BYTES && isCompressible(contentTypeOf(reply.headers)));
  const offered = reply.encodings !== undefined ? preparedCodings(reply.encodings) : PER_REQUEST;
  const coding: Coding = codable ? chooseCoding(request.acceptEncoding, offered) : 'identity';
  const headers: string[] = reply.headers === undefined ? [] : [...reply.headers];
  if (codable) headers.push(...VARY);

  if (etag !== undefined && reply.status === 200) {
    const tag = etag === true ? tagOf(body) : etag;
    const sentTag = codedEtag(tag, coding);
    if ((request.method === 'GET' || request.method === 'HEAD') && ifNoneMatchHits(request.ifNoneMatch, tag)) {
      return { status: 304, headers: [...withoutBodyHeaders(headers), 'ETag', sentTag] };
    }
    headers.push('ETag', sentTag);
  }
  if (coding === 'identity') return { status: reply.status, headers, body };
  headers.push('Content-Encoding', coding);
  return { status: reply.status, headers, body: reply.encodings?.[coding] ?? gzipOf(body) };
}

/** A static body (a document, an asset) prepared once: its tag and its brotli and gzip forms where they are smaller. */
export function prepareStatic(body: string | Buffer): Pick<HttpReply, 'body' | 'etag' | 'encodings'> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const encodings: Partial<Record<Compression, Buffer>> = {};
  if (bytes.length >= MIN_COMPRESS_BYTES) {
    for (const coding of ['br', 'gzip'] as const) {
      const coded = compressOnce(bytes, coding);
      if (coded.length < bytes.length) encodings[coding] = coded;
    }
  }
  return { body: bytes, etag: bodyEtag(bytes), ...(Object.keys(encodings).length > 0 ? { encodings } : {}) };
}

/**
 * For an answer that is a web Response (fetch-bridge.ts), read whole: the body to send and the headers to
 * add (the coding, Vary), or null to send it as it is (too small, not compressible, already coded).
 */
export function compressResponseBody(body: Uint8Array, contentType: string | null, contentEncoding: string | null, acceptEncoding: string): { body: Uint8Array; headers: HeaderList } | null {
  if (body.byteLength < MIN_COMPRESS_BYTES || contentType === null || contentEncoding !== null || !isCompressible(contentType)) return null;
  const coding = chooseCoding(acceptEncoding, PER_REQUEST);
  return coding === 'identity' ? { body, headers: VARY } : { body: compressNow(body), headers: ['Content-Encoding', coding, ...VARY] };
}

function preparedCodings(encodings: NonNullable<HttpReply['encodings']>): Compression[] {
  return (['br', 'gzip'] as const).filter((coding) => encodings[coding] !== undefined);
}

function tagOf(body: string | Buffer): string {
  if (typeof body === 'string') return bodyEtag(body);
  let tag = tags.get(body);
  if (tag === undefined) tags.set(body, (tag = bodyEtag(body)));
  return tag;
}

function gzipOf(body: string | Buffer): Buffer {
  if (typeof body === 'string') return compressNow(body);
  let coded = gzipped.get(body);
  if (coded === undefined) gzipped.set(body, (coded = compressNow(body)));
  return coded;
}

/**
 * The Content-Type of a header list, '' when it has none. Looks at the names a list starts with, including
 * the lines compileHeaders joined into a value.
 */
function contentTypeOf(headers: HeaderList | undefined): string {
  if (headers === undefined) return '';
  for (let i = 0; i < headers.length; i += 2) {
    const value = headers[i + 1];
    if (headers[i].toLowerCase() === 'content-type') {
      const end = value.indexOf('\r');
      return end < 0 ? value : value.slice(0, end);
    }
    const joined = value.toLowerCase().indexOf('\r\ncontent-type:');
    if (joined >= 0) {
      const start = joined + '\r\ncontent-type:'.length;
      const end = value.indexOf('\r', start);
      return value.slice(start, end < 0 ? undefined : end).trim();
    }
  }
  return '';
}

/** Headers that describe a body: a 304 leaves them out (RFC 9110 §15.4.5). */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'content-disposition', 'content-language']);

/** A header list without the headers that describe a body, compiled values split into their lines. */
function withoutBodyHeaders(headers: HeaderList): string[] {
  const kept: string[] = [];
  for (let i = 0; i < headers.length; i += 2) {
    const [first, ...more] = headers[i + 1].split('\r\n');
    if (!BODY_HEADERS.has(headers[i].toLowerCase())) kept.push(headers[i], first);
    for (const line of more) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon);
      if (!BODY_HEADERS.has(name.toLowerCase())) kept.push(name, line.slice(colon + 1).trim());
    }
  }
  return kept;
}
