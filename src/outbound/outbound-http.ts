// The one way the service reaches an address someone else chose: a POST for webhook verification and
// deliveries of account events, a GET for the client ID metadata documents of OAuth clients. SSRF-hardened. Only https on port 443; the host name is resolved once per attempt and
// every address it resolves to must be globally routable (no loopback, private, link-local, unique-local,
// shared, documentation or multicast range), then the connection goes to that checked address with the
// original Host and SNI, so a second lookup cannot swap it (DNS rebinding). No redirects are followed; an
// attempt ends after 5 s; at most 64 KiB of the answer is read (a GET names a smaller cap). The operator setting
// OUTBOUND_ALLOW_PRIVATE lifts the address rule (and admits plain http to such addresses) for a closed network
// or tests only. A test may also inject an allowance (never a setting): a certificate authority it made,
// trusted beside the system's, and one loopback port https may go to.
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { rootCertificates } from 'node:tls';

export const OUTBOUND_TIMEOUT_MS = 5_000;
export const OUTBOUND_MAX_ANSWER_BYTES = 64 * 1024;

/** Resolves a host name to its addresses (tests inject one that answers private addresses). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** Why an attempt failed, in the events extension's categories (never raw endpoint output). */
export type OutboundFailure = 'refused_address' | 'connection_refused' | 'timeout' | 'tls_error';

/** `complete` is false when the answer was longer than the cap: its status counts, its body was cut. */
export type OutboundResult = { ok: true; status: number; headers: IncomingHttpHeaders; body: string; complete: boolean } | { ok: false; failure: OutboundFailure; detail: string };

/** Injected by tests only: a stand-in https host on loopback with a certificate of the test's own authority. */
export interface OutboundTestAllowance {
  /** PEM of the test's certificate authority, trusted beside the system's. */
  ca: string;
  /** The one port besides 443 https may go to; on it, loopback addresses (and only they) are allowed. */
  loopbackPort: number;
}

export interface OutboundOptions {
  resolver?: Resolver;
  /** OUTBOUND_ALLOW_PRIVATE: non-global addresses (and plain http to them) are allowed. */
  allowPrivate: boolean;
  /** Default OUTBOUND_TIMEOUT_MS (tests shorten it). */
  timeoutMs?: number;
  testAllowance?: OutboundTestAllowance;
}

type Address = { address: string; family: number };
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Ranges that are not globally routable (IANA special-purpose registries); IPv4-mapped IPv6 is checked as
 * IPv4. 64:ff9b::/96 (NAT64, RFC 6052) is refused whole: through a NAT64 gateway 64:ff9b::7f00:1 is 127.0.0.1.
 */
const NOT_GLOBAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 3],
] as const) NOT_GLOBAL.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 127], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) NOT_GLOBAL.addSubnet(net, prefix, 'ipv6');

export function isGlobalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return !NOT_GLOBAL.check(mapped[1], 'ipv4');
    return !NOT_GLOBAL.check(address, 'ipv6');
  }
  return !NOT_GLOBAL.check(address, 'ipv4');
}

const defaultResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export class OutboundHttp {
  private readonly resolver: Resolver;

  constructor(private readonly options: OutboundOptions) {
    this.resolver = options.resolver ?? defaultResolver;
  }

  /** Why `url` may never be asked (scheme, port, credentials), or null; addresses are checked per attempt. */
  urlFault(url: string): string | null {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'is not an absolute URL';
    }
    if (parsed.username !== '' || parsed.password !== '') return 'carries a user name or password';
    if (parsed.hash !== '') return 'has a fragment';
    if (parsed.protocol === 'https:' && (parsed.port === '' || parsed.port === '443' || this.onTestPort(parsed))) return null;
    if (this.options.allowPrivate && parsed.protocol === 'http:') return null; // checked against the addresses below
    return 'must be https on port 443';
  }

  /** One POST attempt; never throws. */
  post(url: string, headers: Record<string, string>, body: string): Promise<OutboundResult> {
    return this.attempt('POST', url, headers, body, OUTBOUND_MAX_ANSWER_BYTES);
  }

  /** One GET attempt, reading at most `maxBytes` of the answer (Content-Length above it: not read at all); never throws. */
  get(url: string, headers: Record<string, string>, maxBytes = OUTBOUND_MAX_ANSWER_BYTES): Promise<OutboundResult> {
    return this.attempt('GET', url, headers, null, Math.min(maxBytes, OUTBOUND_MAX_ANSWER_BYTES));
  }

  private onTestPort(url: URL): boolean {
    return this.options.testAllowance !== undefined && url.protocol === 'https:' && url.port === String(this.options.testAllowance.loopbackPort);
  }

  private async attempt(method: 'GET' | 'POST', url: string, headers: Record<string, string>, body: string | null, maxBytes: number): Promise<OutboundResult> {
    const fault = this.urlFault(url);
    if (fault !== null) return { ok: false, failure: 'refused_address', detail: `the URL ${fault}` };
    const target = new URL(url);
    const hostname = target.hostname.replace(/^\[|\]$/g, '');
    let addresses: Address[];
    try {
      addresses = isIP(hostname) !== 0 ? [{ address: hostname, family: isIP(hostname) }] : await this.resolver(hostname);
    } catch {
      return { ok: false, failure: 'connection_refused', detail: `the name ${hostname} does not resolve` };
    }
    if (addresses.length === 0) return { ok: false, failure: 'connection_refused', detail: `the name ${hostname} does not resolve` };
    const refused = this.addressFault(target, hostname, addresses);
    if (refused !== null) return { ok: false, failure: 'refused_address', detail: refused };
    return this.send(method, target, addresses[0], headers, body, maxBytes);
  }

  /** Why the addresses a name resolved to may not be connected to, or null. */
  private addressFault(target: URL, hostname: string, addresses: Address[]): string | null {
    if (this.onTestPort(target)) {
      const outside = addresses.find((a) => !LOOPBACK.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4'));
      return outside === undefined ? null : `${hostname} resolves to ${outside.address}: the test port is for loopback only`;
    }
    const nonGlobal = addresses.find((a) => !isGlobalAddress(a.address));
    if (nonGlobal !== undefined && !this.options.allowPrivate) return `${hostname} resolves to ${nonGlobal.address}, which is not a public address`;
    if (target.protocol === 'http:' && nonGlobal === undefined) return 'plain http is allowed to private addresses only';
    return null;
  }

  private send(method: 'GET' | 'POST', target: URL, checked: Address, headers: Record<string, string>, body: string | null, maxBytes: number): Promise<OutboundResult> {
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const trust = this.options.testAllowance === undefined ? {} : { ca: [...rootCertificates, this.options.testAllowance.ca] };
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: OutboundResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        resolve(result);
      };
      const req = request(target, {
        method,
        headers: body === null ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        // the connection goes to the address checked above, whatever a second lookup would say; Host and SNI stay the name
        lookup: (_hostname, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: Address[]) => void)(null, [checked]);
          else callback(null, checked.address, checked.family);
        },
        agent: false,
        ...trust,
      });
      const timeoutMs = this.options.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
      const timer = setTimeout(() => finish({ ok: false, failure: 'timeout', detail: `no answer within ${timeoutMs / 1000} s` }), timeoutMs);
      req.on('response', (res: IncomingMessage) => {
        const cut = () => finish({ ok: true, status: res.statusCode ?? 0, headers: res.headers, body: '', complete: false });
        if (Number(res.headers['content-length'] ?? 0) > maxBytes) return cut();
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return cut();
          chunks.push(chunk);
        });
        res.on('end', () => finish({ ok: true, status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), complete: true }));
        res.on('error', () => finish({ ok: false, failure: 'connection_refused', detail: 'the connection broke' }));
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        const tls = /CERT|SSL|TLS|ERR_TLS/.test(error.code ?? '') || /certificate|tls|ssl/i.test(error.message);
        finish({ ok: false, failure: tls ? 'tls_error' : 'connection_refused', detail: tls ? 'the TLS handshake failed' : `cannot connect (${error.code ?? 'error'})` });
      });
      req.end(body ?? undefined);
    });
  }
}
