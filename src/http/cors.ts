// CORS for public reads, opt-in per route (site-page write routes stay same-origin only).
// Every answer of a CORS route carries `Access-Control-Allow-Origin: *`, whether or not the request had
// an Origin header: the answer is then the same for every requester, so shared caches need no
// `Vary: Origin`, and the server reads no Origin header on the hot path.
import { compileHeaders, type HeaderList, type HttpReply } from './reply.js';

export interface CorsOptions {
  /** Request headers a browser may send beyond the CORS-safelisted ones (answered in preflights). */
  readonly allowHeaders: readonly string[];
  /** Response headers scripts may read beyond the safelisted ones (e.g. RateLimit-*, Retry-After). */
  readonly exposeHeaders: readonly string[];
  /** How long a browser may cache a preflight answer. */
  readonly maxAgeSeconds: number;
}

/** Headers of public read answers that browsers hide from scripts unless exposed. */
export const PUBLIC_READ_EXPOSED_HEADERS: readonly string[] = [
  'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'RateLimit',
  'Retry-After', 'Deprecation', 'Sunset', 'Link',
];

export class CorsPolicy {
  /** Added to every answer of a route that uses this policy. */
  readonly responseHeaders: HeaderList;
  private readonly preflightHeaders: HeaderList;

  constructor(readonly options: CorsOptions) {
    const responseHeaders = ['Access-Control-Allow-Origin', '*'];
    if (options.exposeHeaders.length > 0) responseHeaders.push('Access-Control-Expose-Headers', options.exposeHeaders.join(', '));
    this.responseHeaders = compileHeaders(responseHeaders);
    const preflight = ['Access-Control-Allow-Origin', '*', 'Access-Control-Max-Age', String(options.maxAgeSeconds)];
    if (options.allowHeaders.length > 0) preflight.push('Access-Control-Allow-Headers', options.allowHeaders.join(', '));
    this.preflightHeaders = preflight;
  }

  /** The 204 answer to an OPTIONS preflight on a path whose CORS routes answer `methods`. */
  preflight(methods: readonly string[]): HttpReply {
    return { status: 204, headers: compileHeaders([...this.preflightHeaders, 'Access-Control-Allow-Methods', methods.join(', ')]) };
  }
}
