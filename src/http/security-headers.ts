// The security headers every answer carries, whatever route, status or thread writes it: no MIME sniffing,
// no full URL in the Referer of links that leave the site (a toilet page or a search holds where a person
// is), no framing by other sites, and HSTS when the service is reached over https. The server writes them
// together with each route's CORS headers in one header line (server.ts), so they cost nothing per request.
//
// A page that needs its own Content-Security-Policy gives it to its route (RouteDefinition
// `contentSecurityPolicy`), built with pageContentSecurityPolicy so that it keeps `frame-ancestors 'none'`;
// every other answer (JSON, problems, files) gets the policy FRAME_ANCESTORS_NONE alone.

/** Forbids framing (clickjacking); part of every policy this service sends. */
export const FRAME_ANCESTORS_NONE = "frame-ancestors 'none'";

/** One year: browsers then reach the host over https only; sent only when BASE_URL is https. */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;

export interface SecurityOptions {
  /** BASE_URL is https: add Strict-Transport-Security (a browser ignores it over plain http anyway). */
  readonly https: boolean;
}

/** The options for a service whose absolute URLs start with `baseUrl`. */
export function securityOptionsFor(baseUrl: string): SecurityOptions {
  return { https: new URL(baseUrl).protocol === 'https:' };
}

/**
 * The security headers of one route's answers (name/value pairs, not yet compiled): `contentSecurityPolicy`
 * is that route's policy (default FRAME_ANCESTORS_NONE).
 */
export function securityHeaders(options: SecurityOptions, contentSecurityPolicy: string = FRAME_ANCESTORS_NONE): string[] {
  const headers = [
    'X-Content-Type-Options', 'nosniff',
    'Referrer-Policy', 'strict-origin-when-cross-origin',
    'Content-Security-Policy', contentSecurityPolicy,
  ];
  // No includeSubDomains: an operator's other hosts under the same domain may still be plain http.
  if (options.https) headers.push('Strict-Transport-Security', `max-age=${HSTS_MAX_AGE_SECONDS}`);
  return headers;
}

/**
 * A page's Content-Security-Policy from its own directives (e.g. `default-src 'self'`, `img-src 'self' data:`),
 * with `frame-ancestors 'none'` added unless the page states its own frame-ancestors.
 */
export function pageContentSecurityPolicy(directives: readonly string[]): string {
  const own = directives.map((directive) => directive.trim()).filter((directive) => directive !== '');
  if (own.some((directive) => /[;\r\n]/.test(directive))) throw new RangeError('give each Content-Security-Policy directive as its own string, without ";"');
  if (!own.some((directive) => directive.split(/\s+/)[0].toLowerCase() === 'frame-ancestors')) own.push(FRAME_ANCESTORS_NONE);
  return own.join('; ');
}
