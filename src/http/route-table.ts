// The server's routes by method and pattern, matched the way the uWS router matches them: a static
// segment before a `:param`, a `:param` before a final `*`, a method's own routes before the '*' (any
// method) ones; a `:param` never matches an empty segment. uWS keeps its own copy of the table (uws.ts
// registers every entry); inject.ts and any transport without a router of its own match here. Patterns
// of static segments only (most routes) are one Map lookup.
import type { TransportHandler, TransportMethod } from './transport.js';

export interface RouteEntry {
  readonly method: TransportMethod;
  readonly pattern: string;
  readonly handler: TransportHandler;
}

interface PatternRoute {
  readonly segments: readonly string[];
  /** Per segment: 0 static, 1 parameter, 2 wildcard; the sort key of the match order. */
  readonly ranks: readonly number[];
  readonly handler: TransportHandler;
}

/** A matched route: its handler and the raw values of its parameters, in pattern order. */
export interface RouteMatch {
  readonly handler: TransportHandler;
  readonly params: readonly string[];
}

const NO_PARAMS: readonly string[] = Object.freeze([]);

export class RouteTable {
  /** Every entry in the order added (a listening transport with its own router registers them all). */
  readonly entries: RouteEntry[] = [];
  private readonly exact = new Map<string, TransportHandler>();
  private readonly patterned = new Map<string, PatternRoute[]>();

  add(method: TransportMethod, pattern: string, handler: TransportHandler): void {
    this.entries.push({ method, pattern, handler });
    const segments = pattern.split('/');
    if (!segments.some(isVariable)) {
      this.exact.set(`${method} ${pattern}`, handler);
      return;
    }
    const ranks = segments.map((s) => (s === '*' ? 2 : s.startsWith(':') ? 1 : 0));
    const list = this.patterned.get(method) ?? [];
    list.push({ segments, ranks, handler });
    list.sort((a, b) => compareRanks(a.ranks, b.ranks));
    this.patterned.set(method, list);
  }

  /** The route for a request, or null (then nothing, not even '*', matches). */
  match(method: string, path: string): RouteMatch | null {
    return this.matchMethod(method, path) ?? this.matchMethod('*', path);
  }

  private matchMethod(method: string, path: string): RouteMatch | null {
    const handler = this.exact.get(`${method} ${path}`);
    if (handler !== undefined) return { handler, params: NO_PARAMS };
    const list = this.patterned.get(method);
    if (list === undefined) return null;
    const parts = path.split('/');
    for (const route of list) {
      if (matchesPattern(route.segments, parts)) return { handler: route.handler, params: paramsOf(route.segments, parts) };
    }
    return null;
  }
}

/** Whether a request path (split on '/') fits a route pattern (split on '/'), the way the uWS router matches it. */
export function matchesPattern(segments: readonly string[], parts: readonly string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (i >= parts.length) return false;
    if (segment === '*') return true;
    if (segment.startsWith(':') ? parts[i] === '' : segment !== parts[i]) return false;
  }
  return parts.length === segments.length;
}

function isVariable(segment: string): boolean {
  return segment === '*' || segment.startsWith(':');
}

function paramsOf(segments: readonly string[], parts: readonly string[]): readonly string[] {
  const params: string[] = [];
  for (let i = 0; i < segments.length && segments[i] !== '*'; i++) if (segments[i].startsWith(':')) params.push(parts[i]);
  return params;
}

/** Static before parameter before wildcard, segment by segment; then the longer pattern first. */
function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return b.length - a.length;
}
