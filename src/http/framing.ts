// Where a request's body ends, read strictly (RFC 9112 §6): uWebSockets.js' parser takes the first of
// several Content-Length headers and reads any Transfer-Encoding as chunked, so a proxy in front that
// reads the same bytes another way would see a different next request (request smuggling). A request
// whose framing could be read two ways is refused and its connection closed, so no second reading of
// its bytes ever happens (uWS closes the connection itself on the other ambiguous cases: Content-Length
// with Transfer-Encoding, a list of codings, a length that is not a plain number). Two header reads
// per request; a scan of the headers only when a body length is announced.
import type { TransportRequest as HttpRequest } from './transport.js';

export interface FramingFault {
  /** 400: ambiguous framing, or chunked not the final coding (RFC 9112 §6.3); 501: chunked after a coding not read here (§6.1). */
  readonly status: 400 | 501;
  /** What is wrong, said so that a client knows what to send instead. */
  readonly reason: string;
}

export function framingFault(req: HttpRequest): FramingFault | null {
  const coding = req.getHeader('transfer-encoding');
  if (coding !== '') {
    // uWS itself closes the connection on Transfer-Encoding with Content-Length
    const codings = coding.toLowerCase().split(',').map((c) => c.trim());
    if (codings.at(-1) !== 'chunked') {
      return { status: 400, reason: `Transfer-Encoding ${coding} does not end with chunked, so where the body ends cannot be known; send the body chunked (chunked last), or with a Content-Length` };
    }
    return codings.length === 1 ? null : { status: 501, reason: `Transfer-Encoding ${coding} is not read here: only chunked is; send the body chunked alone, or with a Content-Length` };
  }
  if (req.getHeader('content-length') === '') return null;
  // uWS closes the connection on a Content-Length that is not a plain number; it reads the first of several
  const lengths = new Set<string>();
  req.forEach((name, value) => {
    if (name === 'content-length') lengths.add(value);
  });
  return lengths.size > 1 ? { status: 400, reason: `the request has several different Content-Length headers (${[...lengths].join(', ')}); send one` } : null;
}
