// The answer a route handler returns, and the one function that writes it to a uWS response.
import { STATUS_CODES } from 'node:http';
import type { Compression } from './encoding.js';
import type { RequestFault, TransportResponse as HttpResponse } from './transport.js';

/**
 * Header name/value pairs flattened into one array: [name0, value0, name1, value1, ...].
 * Flat so a handler can prebuild constant lists and append per-request values without allocating tuples.
 * A value may carry further header lines ("value\r\nName: value"): see compileHeaders.
 */
export type HeaderList = readonly string[];

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[^\r\n\0]*$/;

/**
 * Joins a constant header list into one pair whose value carries the other header lines, so writing
 * it costs one uWS writeHeader call instead of one per header (each call crosses into C++; on the hot
 * path that is a measurable share of a request). Validates every name and value, so the joined lines
 * can never smuggle a line break from a value. For headers fixed at startup (content types, CORS).
 */
export function compileHeaders(headers: HeaderList): HeaderList {
  if (headers.length % 2 !== 0) throw new RangeError('header list must hold name/value pairs');
  for (let i = 0; i < headers.length; i += 2) {
    if (!TOKEN.test(headers[i])) throw new RangeError(`invalid header name ${JSON.stringify(headers[i])}`);
    if (!FIELD_VALUE.test(headers[i + 1])) throw new RangeError(`invalid value for header ${headers[i]}`);
  }
  if (headers.length <= 2) return headers;
  let value = headers[1];
  for (let i = 2; i < headers.length; i += 2) value += `\r\n${headers[i]}: ${headers[i + 1]}`;
  return [headers[0], value];
}

/** Two header lists as one, joined like compileHeaders (both already valid): one uWS call writes them all. */
export function joinHeaders(first: HeaderList, second: HeaderList): HeaderList {
  if (first.length === 0) return second;
  if (second.length === 0) return first;
  let value = first[1];
  for (let i = 2; i < first.length; i += 2) value += `\r\n${first[i]}: ${first[i + 1]}`;
  for (let i = 0; i < second.length; i += 2) value += `\r\n${second[i]}: ${second[i + 1]}`;
  return [first[0], value];
}

/** Lower-case names of every header in a list, including those joined into values by compileHeaders. */
export function headerNames(headers: HeaderList): string[] {
  const names: string[] = [];
  for (let i = 0; i < headers.length; i += 2) {
    names.push(headers[i].toLowerCase());
    for (const line of headers[i + 1].split('\r\n').slice(1)) names.push(line.slice(0, line.indexOf(':')).toLowerCase());
  }
  return names;
}

/** A complete answer: written at once with a Content-Length (uWS computes it from the body). */
export interface HttpReply {
  readonly status: number;
  readonly headers?: HeaderList;
  readonly body?: string | Buffer;
  /**
   * A 200's strong validator (representation.ts): `true` has the server tag the exact body bytes
   * (etag.ts); a string is a tag made beforehand (prepareStatic). A GET or HEAD whose If-None-Match
   * names it is answered 304.
   */
  readonly etag?: true | string;
  /** The body already compressed (prepareStatic): sent by Accept-Encoding instead of compressing per request. */
  readonly encodings?: Readonly<Partial<Record<Compression, Buffer>>>;
}

/** The server's answer to a request its transport refused (problem+json with the security headers); the connection closes after it. */
export type Refusal = (fault: RequestFault) => HttpReply;

// "404 Not Found" etc., built once: writeStatus wants the whole status line text.
const STATUS_LINES: string[] = [];
for (const [code, phrase] of Object.entries(STATUS_CODES)) STATUS_LINES[Number(code)] = `${code} ${phrase}`;

export function statusLine(status: number): string {
  return STATUS_LINES[status] ?? String(status);
}

/** Statuses whose answers carry neither a body nor a Content-Length. */
export function isBodiless(status: number): boolean {
  return status === 204 || status === 304;
}

export function writeHeaders(res: HttpResponse, headers: HeaderList): void {
  for (let i = 0; i < headers.length; i += 2) res.writeHeader(headers[i], headers[i + 1]);
}

/**
 * Ends `res` with the answer after writing `extraHeaders` (e.g. CORS) behind the reply's own.
 * `head`: answer a HEAD request (headers only). `closeConnection`: ask the client to close the
 * keep-alive connection (used while the server drains).
 * Must run corked: directly inside the uWS route callback, or inside res.cork().
 */
export function writeReply(
  res: HttpResponse,
  reply: HttpReply,
  head: boolean,
  extraHeaders: HeaderList | null,
  closeConnection: boolean,
): void {
  const status = reply.status;
  if (status !== 200) res.writeStatus(statusLine(status));
  if (reply.headers !== undefined) writeHeaders(res, reply.headers);
  if (extraHeaders !== null) writeHeaders(res, extraHeaders);
  endResponse(res, reply.body, head || isBodiless(status), closeConnection);
}

/** Ends a response whose status and headers are written. */
export function endResponse(
  res: HttpResponse,
  body: string | ArrayBuffer | Uint8Array | undefined,
  withoutBody: boolean,
  closeConnection: boolean,
): void {
  if (!withoutBody) {
    res.end(body, closeConnection);
    return;
  }
  // endWithoutBody(length, close) would add "Content-Length: 0" (wrong for HEAD and 204), and with a
  // non-zero length this uWS build leaves the response unfinished: so no length, and a plain
  // Connection header when the connection should close.
  if (closeConnection) res.writeHeader('Connection', 'close');
  res.endWithoutBody();
}
