// Which transport serves the socket, decided once at start from HTTP_TRANSPORT: `uws` (uWebSockets.js,
// the fastest; a start error when no native binary loads), `node` (node:http, every Node and platform), or
// `auto`, the default: uWS where a native binary loads for this Node and platform (uws-native.ts), node
// otherwise; never the packages' pure-JS fallback. The choice says why, and what it costs, in the one
// start log line; and whether the server's threads can share the port (node:http needs `reusePort`,
// Node ≥ 22.12 or ≥ 23.1; on older Node the node transport serves one thread).
import { nodeTransport } from './node-transport.js';
import { uwsTransport } from './uws.js';
import { nativeUws, type UwsProbe } from './uws-native.js';
import type { ListeningTransport } from './transport.js';
import type { Refusal } from './reply.js';
import type { RouteTable } from './route-table.js';

export type TransportName = 'uws' | 'node';
export type TransportSetting = TransportName | 'auto';

/**
 * A listening transport for a route table (made by listen(): a server only injected into never makes one);
 * `refuse` answers the requests it refuses before routing (uWS leaves those unanswered).
 */
export type TransportFactory = (routes: RouteTable, refuse: Refusal) => ListeningTransport;

export interface TransportChoice {
  readonly name: TransportName;
  readonly factory: TransportFactory;
  /** Whether several threads can listen on one port with it. */
  readonly sharesPort: boolean;
  /** Which transport serves, why, and what it costs: for the start log. */
  readonly reason: string;
}

/** Thrown for HTTP_TRANSPORT=uws when no native binary loads: the start fails with this message. */
export class TransportUnavailable extends Error {}

const RUNTIME = `Node ${process.versions.node} (module ABI ${process.versions.modules}) on ${process.platform}-${process.arch}`;
const UWS_COST = 'the fastest transport; it leaves HTTP/1.0, requests of over 48 header lines and unknown methods unanswered (docs/SECURITY.md: put a proxy such as the nginx example in front on the open internet)';
const NODE_COST = 'every request gets an RFC 9112 answer (HTTP/1.0 too), at a lower throughput than uWS (docs/PERFORMANCE.md, "Transports")';

/** The transport for `setting`; `probe` finds the native uWS module (injectable for tests). */
export function chooseTransport(setting: TransportSetting, probe: () => UwsProbe = nativeUws, nodeVersion = process.versions.node): TransportChoice {
  if (setting === 'node') return nodeChoice(`HTTP_TRANSPORT=node: node:http serves; ${NODE_COST}`, nodeVersion);
  const found = probe();
  if (found.module !== null) {
    const uws = found.module;
    return { name: 'uws', factory: (routes) => uwsTransport(uws, routes), sharesPort: true, reason: `HTTP_TRANSPORT=${setting}: uWebSockets.js serves (${found.binary} loads for ${RUNTIME}); ${UWS_COST}` };
  }
  const why = `no native uWebSockets.js binary loads for ${RUNTIME} (${found.failures.join('; ')})`;
  if (setting === 'uws') throw new TransportUnavailable(`HTTP_TRANSPORT=uws, but ${why}; set HTTP_TRANSPORT=auto or node to serve with node:http`);
  return nodeChoice(`HTTP_TRANSPORT=auto: node:http serves, since ${why}; ${NODE_COST}`, nodeVersion);
}

function nodeChoice(reason: string, nodeVersion: string): TransportChoice {
  const sharesPort = nodeSharesPort(nodeVersion);
  return { name: 'node', factory: (routes, refuse) => nodeTransport(routes, refuse, { reusePort: sharesPort }), sharesPort, reason };
}

/** Whether node:http can listen with `reusePort` (Node 22.12+, 23.1+, 24 and later). */
export function nodeSharesPort(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major > 23 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12);
}

/** The one line saying that the node transport serves one thread where HTTP_THREADS asked for more. */
export function oneThreadNote(threads: number): string {
  return `Node ${process.versions.node} cannot let node:http servers share a port (reusePort needs Node 22.12 or later), so one thread serves, not HTTP_THREADS=${threads}`;
}
