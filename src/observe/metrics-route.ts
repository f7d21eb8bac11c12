// GET /metrics for the addresses the operator allows (METRICS_ALLOW), checked against the client address
// the rate limit uses (after TRUST_PROXY); everyone else gets 403. Served by the main thread, which reads
// every thread's counts; a read thread passes the request on (with the client address it determined).
import { BlockList, isIPv6 } from 'node:net';
import type { Problems } from '../http/problem.js';
import type { HttpServer } from '../http/server.js';
import type { ServiceMetrics } from './metrics.js';

export const METRICS_PATH = '/metrics';

/** The allow-list as a BlockList (node:net), from the config's `address/prefix` entries. */
export function allowList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    list.addSubnet(address, Number(prefix), isIPv6(address) ? 'ipv6' : 'ipv4');
  }
  return list;
}

export function registerMetricsRoute(server: HttpServer, deps: { metrics: ServiceMetrics; allow: readonly string[]; problems: Problems }): void {
  const { metrics, problems } = deps;
  const allowed = allowList(deps.allow);
  server.route({
    method: 'GET',
    pattern: METRICS_PATH,
    operation: 'getMetrics',
    handler: async (request) => {
      const ip = request.ip;
      if (!allowed.check(ip, isIPv6(ip) ? 'ipv6' : 'ipv4')) {
        return problems.reply('metrics-forbidden', `The metrics are not served to ${ip}. The operator lists the addresses that may read them in METRICS_ALLOW.`);
      }
      return { status: 200, headers: ['Content-Type', metrics.contentType, 'Cache-Control', 'no-store'], body: await metrics.text() };
    },
  });
}
