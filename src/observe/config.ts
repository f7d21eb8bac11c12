// The settings of metrics and the access log. Read from the environment and checked here, at the start.
import { isIP } from 'node:net';
import { boolean, ConfigError, fraction } from '../config-values.js';

export interface ObserveSettings {
  /** Prometheus metrics at /metrics (METRICS); off, nothing is counted and /metrics is not served. */
  metrics: boolean;
  /**
   * Client addresses (after TRUST_PROXY, as the rate limit sees them) that may read /metrics, as CIDR
   * blocks (METRICS_ALLOW). Default: loopback, or none at all while TRUST_PROXY > 0.
   */
  metricsAllow: string[];
  /** One JSON line per request (ACCESS_LOG). */
  accessLog: boolean;
  /** Share of access lines kept, 0..1; refusals are always kept (ACCESS_LOG_SAMPLE). */
  accessLogSample: number;
  /** Adds the client address as a daily keyed hash (ACCESS_LOG_CLIENT). */
  accessLogClient: boolean;
}

/** `trustProxy`: behind a proxy, loopback is the proxy, so METRICS_ALLOW's default is then nobody. */
export function readObserveSettings(env: NodeJS.ProcessEnv, { trustProxy }: { trustProxy: number }): ObserveSettings {
  return {
    metrics: boolean(env, 'METRICS', true),
    metricsAllow: metricsAllow(env.METRICS_ALLOW, trustProxy),
    accessLog: boolean(env, 'ACCESS_LOG', true),
    accessLogSample: fraction(env, 'ACCESS_LOG_SAMPLE', 1),
    accessLogClient: boolean(env, 'ACCESS_LOG_CLIENT', false),
  };
}

/**
 * METRICS_ALLOW="10.0.0.0/8,192.0.2.7,::1": addresses and CIDR blocks, as `address/prefix`. Unset, loopback
 * only; but behind a proxy (TRUST_PROXY > 0) loopback is the proxy itself, which may pass on anyone's
 * request, so then nothing until the operator names the scrapers' addresses. `none` allows no one.
 */
function metricsAllow(raw: string | undefined, trustProxy: number): string[] {
  if (raw === undefined || raw.trim() === '') return trustProxy > 0 ? [] : ['127.0.0.0/8', '::1/128'];
  if (raw.trim() === 'none') return [];
  return raw.split(',').map((item) => {
    const entry = item.trim();
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const length = prefix === undefined ? bits : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    if (family === 0 || extra !== undefined || !(length >= 0 && length <= bits)) {
      throw new ConfigError(`METRICS_ALLOW item "${entry}" is not valid: use IP addresses or CIDR blocks such as 10.0.0.0/8 or 2001:db8::/32, comma-separated, or none`);
    }
    return `${address}/${length}`;
  });
}
