// The client's address, as canonical text (dotted IPv4, RFC 5952 IPv6), for rate limiting and logs.
// uWS's getRemoteAddressAsText() gives IPv6 fully expanded ("0000:...:ffff:7f00:0001"), so we format
// the binary form (getRemoteAddress) ourselves: cheaper, and canonical.

/** Formats a 4- or 16-byte address; an IPv4-mapped IPv6 address (::ffff:a.b.c.d) becomes plain IPv4. */
export function formatIpBytes(bytes: Uint8Array): string {
  if (bytes.length === 4) return `${bytes[0]}.${bytes[1]}.${bytes[2]}.${bytes[3]}`;
  const groups = new Uint16Array(8);
  for (let i = 0; i < 8; i++) groups[i] = (bytes[2 * i] << 8) | bytes[2 * i + 1];
  return formatIPv6(groups);
}

/** The bytes of a textual address as a socket gives it: 4 for IPv4, 16 for IPv6 (what formatIpBytes reads); null if it is none. */
export function ipBytes(text: string): Uint8Array | null {
  if (!text.includes(':')) return parseIPv4(text);
  const groups = parseIPv6(text);
  if (groups === null) return null;
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    bytes[2 * i] = groups[i] >> 8;
    bytes[2 * i + 1] = groups[i] & 0xff;
  }
  return bytes;
}

/** Canonical text of a textual IPv4 or IPv6 address, or null if it is not one (ports, zones, names are rejected). */
export function normalizeIp(text: string): string | null {
  if (text.includes(':')) {
    const groups = parseIPv6(text);
    return groups === null ? null : formatIPv6(groups);
  }
  return parseIPv4(text) === null ? null : text;
}

/**
 * The client's address. With `trustedHops` = 0 it is the socket's peer. Behind N trusted proxies that
 * each append their peer to X-Forwarded-For, it is exactly the Nth entry from the right of that header:
 * the one the outermost trusted proxy wrote. Entries left of it are the client's own words, so nothing is
 * skipped to reach them; when the Nth entry is missing or is no address, it is the socket's peer.
 * `forwardedFor` is the header's value ('' when absent).
 */
export function clientIp(socketIp: string, forwardedFor: string, trustedHops: number): string {
  return forwardedClientIp(forwardedFor, trustedHops) ?? socketIp;
}

/**
 * The X-Forwarded-For part of clientIp: the address the outermost trusted proxy wrote, or null when that
 * entry is missing or unreadable. A proxy may write its peer with the port (`203.0.113.9:51234`,
 * `[2001:db8::1]:443`); the port is dropped.
 */
export function forwardedClientIp(forwardedFor: string, trustedHops: number): string | null {
  if (trustedHops <= 0) return null;
  let end = forwardedFor.length;
  for (let hop = 1; hop < trustedHops; hop++) {
    end = forwardedFor.lastIndexOf(',', end - 1);
    if (end < 0) return null;
  }
  return entryAddress(forwardedFor.slice(forwardedFor.lastIndexOf(',', end - 1) + 1, end).trim());
}

/** One X-Forwarded-For entry as an address: plain, `ipv4:port`, `[ipv6]` or `[ipv6]:port`; else null. */
function entryAddress(entry: string): string | null {
  if (entry.startsWith('[')) {
    const close = entry.indexOf(']');
    const rest = entry.slice(close + 1);
    if (close < 0 || (rest !== '' && !PORT.test(rest))) return null;
    const inner = entry.slice(1, close);
    return inner.includes(':') ? normalizeIp(inner) : null;
  }
  const colon = entry.indexOf(':');
  if (colon >= 0 && colon === entry.lastIndexOf(':') && entry.includes('.')) {
    return PORT.test(entry.slice(colon)) ? normalizeIp(entry.slice(0, colon)) : null;
  }
  return normalizeIp(entry);
}

const PORT = /^:\d{1,5}$/;

/** Scratch for ipv6Prefix64: the groups as read, before "::" is expanded. */
const readGroups = new Uint16Array(8);

/**
 * The /64 of an IPv6 address in text form (the rate-limit key of an IPv6 client, since one host usually
 * holds a whole /64 and could otherwise rotate through addresses to dodge a per-IP limit): its first four
 * groups, written into `out`. False when the text is no IPv6 address. One pass over the characters and
 * no allocation: it runs on every request from an IPv6 client.
 */
export function ipv6Prefix64(text: string, out: Uint16Array): boolean {
  const length = text.length;
  let count = 0;
  let gapAt = -1;
  let i = 0;
  if (text.charCodeAt(0) === COLON && text.charCodeAt(1) === COLON) {
    gapAt = 0;
    i = 2;
  }
  while (i < length) {
    const start = i;
    let value = 0;
    for (let digit: number; i < length && (digit = hexDigit(text.charCodeAt(i))) >= 0 && i - start < 4; i++) value = (value << 4) | digit;
    if (text.charCodeAt(i) === DOT) {
      // a dotted IPv4 tail (::ffff:192.0.2.1) is the last 32 bits: never part of the prefix
      const zeros = gapAt < 0 ? 0 : 6 - count;
      if ((gapAt < 0 ? count !== 6 : zeros < 1) || !DOTTED_TAIL.test(text.slice(start))) return false;
      prefixFrom(gapAt < 0 ? count : gapAt, zeros, out);
      return true;
    }
    if (i === start || count === 8) return false;
    readGroups[count++] = value;
    if (i === length) break;
    if (text.charCodeAt(i++) !== COLON || i === length) return false;
    if (text.charCodeAt(i) === COLON) {
      if (gapAt >= 0) return false;
      gapAt = count;
      i++;
    }
  }
  if (gapAt < 0 ? count !== 8 : count > 7) return false;
  prefixFrom(gapAt < 0 ? count : gapAt, gapAt < 0 ? 0 : 8 - count, out);
  return true;
}

/**
 * The key per-address rules count an address under: an IPv4 address as it is, an IPv6 address by its /64
 * (`2001:db8:1:2::/64`), as the rate limiter counts it. Not for the hot path (it allocates).
 */
export function addressKey(ip: string): string {
  const groups = new Uint16Array(4);
  return ipv6Prefix64(ip, groups) ? `${[...groups].map((g) => g.toString(16)).join(':')}::/64` : ip;
}

const COLON = 58;
const DOT = 46;
const DOTTED_TAIL = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

function hexDigit(c: number): number {
  return c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
}

/** The first four groups when `zeros` zero groups stand after the first `before` groups read. */
function prefixFrom(before: number, zeros: number, out: Uint16Array): void {
  for (let g = 0; g < 4; g++) out[g] = g < before ? readGroups[g] : g < before + zeros ? 0 : readGroups[g - zeros];
}

function parseIPv4(text: string): Uint8Array | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i];
    // Decimal only, no leading zeros: "010" reads as octal to some parsers.
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes[i] = value;
  }
  return bytes;
}

const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

function parseIPv6(text: string): Uint16Array | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] === '' ? [] : halves[0].split(':');
  const tail = halves.length === 1 || halves[1] === '' ? [] : halves[1].split(':');
  const last = halves.length === 1 ? head : tail;
  // A trailing dotted IPv4 part (::ffff:1.2.3.4) fills the last two groups.
  let ipv4: Uint8Array | null = null;
  if (last.length > 0 && last[last.length - 1].includes('.')) {
    ipv4 = parseIPv4(last.pop()!);
    if (ipv4 === null) return null;
  }
  const count = head.length + tail.length + (ipv4 === null ? 0 : 2);
  if (halves.length === 1 ? count !== 8 : count > 7) return null;
  const groups = new Uint16Array(8);
  for (let i = 0; i < head.length; i++) {
    if (!HEX_GROUP.test(head[i])) return null;
    groups[i] = parseInt(head[i], 16);
  }
  const tailStart = 8 - tail.length - (ipv4 === null ? 0 : 2);
  for (let i = 0; i < tail.length; i++) {
    if (!HEX_GROUP.test(tail[i])) return null;
    groups[tailStart + i] = parseInt(tail[i], 16);
  }
  if (ipv4 !== null) {
    groups[6] = (ipv4[0] << 8) | ipv4[1];
    groups[7] = (ipv4[2] << 8) | ipv4[3];
  }
  return groups;
}

/** RFC 5952 text: lower-case hex, no leading zeros, the longest (first on a tie) run of ≥ 2 zero groups as "::". */
function formatIPv6(groups: Uint16Array): string {
  if (groups[0] === 0 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0 && groups[4] === 0 && groups[5] === 0xffff) {
    return `${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`;
  }
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (from: number, to: number): string => Array.from(groups.subarray(from, to), (g) => g.toString(16)).join(':');
  if (bestStart < 0) return hex(0, 8);
  return `${hex(0, bestStart)}::${hex(bestStart + bestLength, 8)}`;
}
