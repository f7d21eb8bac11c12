// The Content-Security-Policy of the site's pages and static files: only our own scripts, styles and
// workers (no inline code, no eval), no third-party request, except the origin of an operator's external
// map style (MAP_STYLE_URL), which the map must fetch (style, sprites, glyphs, tiles).
// The server sends it on these routes only (RouteDefinition contentSecurityPolicy), with the
// frame-ancestors 'none' every answer carries (src/http/security-headers.ts).
import type { Config } from '../config.js';
import { pageContentSecurityPolicy } from '../http/security-headers.js';

export function contentSecurityPolicy(config: Pick<Config, 'mapStyleUrl'>): string {
  const styleOrigin = config.mapStyleUrl === null ? '' : ` ${new URL(config.mapStyleUrl).origin}`;
  return pageContentSecurityPolicy([
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${styleOrigin}`,
    `connect-src 'self'${styleOrigin}`,
    "font-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ]);
}
