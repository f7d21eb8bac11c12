// The two request headers a tile answer depends on: Accept-Encoding (RFC 9110 §12.5.3: is gzip acceptable?)
// and If-None-Match (§13.1.2: does the client hold this version already?).

/**
 * Whether the client takes gzip: `gzip` (or `x-gzip`, or `*` without a refusal of gzip) with a non-zero
 * quality. A request without the header gets the plain bytes: curl and other simple clients send none and
 * cannot read gzip, while every browser sends one.
 */
export function acceptsGzip(header: string): boolean {
  let star = false;
  for (const item of header.split(',')) {
    const [coding, ...parameters] = item.trim().toLowerCase().split(';');
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') return accepted;
    if (coding === '*') star = accepted;
  }
  return star;
}

/** Whether If-None-Match names `etag` (weak comparison, as §13.1.2 asks) or is `*`. */
export function holdsVersion(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch === '') return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
