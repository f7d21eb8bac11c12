import assert from 'node:assert/strict';
import { createConnection } from 'node:net';
import { describe, test } from 'node:test';
import { clientIp, formatIpBytes, forwardedClientIp, ipv6Prefix64, normalizeIp } from '../../src/http/client-ip.js';
import { startServer } from './harness.js';

describe('formatIpBytes', () => {
  test('formats IPv4 and canonical IPv6, unwrapping IPv4-mapped addresses', () => {
    assert.equal(formatIpBytes(Uint8Array.of(192, 0, 2, 33)), '192.0.2.33');
    assert.equal(formatIpBytes(Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1)), '127.0.0.1');
    assert.equal(formatIpBytes(Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)), '::1');
    assert.equal(formatIpBytes(Uint8Array.of(0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1)), '2001:db8::1:0:0:1');
    assert.equal(formatIpBytes(new Uint8Array(16)), '::');
  });
});

describe('normalizeIp', () => {
  test('canonicalises valid addresses (RFC 5952 for IPv6)', () => {
    assert.equal(normalizeIp('203.0.113.9'), '203.0.113.9');
    assert.equal(normalizeIp('2001:0DB8:0000:0000:0000:0000:0000:0001'), '2001:db8::1');
    assert.equal(normalizeIp('2001:db8:0:0:1:0:0:1'), '2001:db8::1:0:0:1');
    assert.equal(normalizeIp('2001:db8:0:1:1:1:1:1'), '2001:db8:0:1:1:1:1:1');
    assert.equal(normalizeIp('::ffff:198.51.100.4'), '198.51.100.4');
    assert.equal(normalizeIp('::ffff:c633:6404'), '198.51.100.4');
    assert.equal(normalizeIp('0:0:0:0:0:0:0:1'), '::1');
    assert.equal(normalizeIp('fe80::'), 'fe80::');
  });

  test('rejects what is not an address', () => {
    for (const text of [
      '', 'unknown', '1.2.3', '1.2.3.4.5', '256.1.1.1', '01.2.3.4', '1.2.3.4:80', '[::1]', '::1%eth0', '1::2::3',
      '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7', '12345::', ':::', 'g::1', '::ffff:1.2.3.999',
    ]) {
      assert.equal(normalizeIp(text), null, text);
    }
  });
});

describe('clientIp', () => {
  const socket = '10.0.0.5';
  test('without trusted proxies the socket peer is the client, whatever X-Forwarded-For says', () => {
    assert.equal(clientIp(socket, '203.0.113.9', 0), socket);
  });

  test('behind N trusted proxies it is exactly the Nth entry from the right', () => {
    const chain = '198.51.100.1, 203.0.113.9,192.0.2.7';
    assert.equal(clientIp(socket, chain, 1), '192.0.2.7');
    assert.equal(clientIp(socket, chain, 2), '203.0.113.9');
    assert.equal(clientIp(socket, chain, 3), '198.51.100.1');
    assert.equal(clientIp(socket, '::FFFF:203.0.113.9', 1), '203.0.113.9');
  });

  test('an entry the proxy wrote with a port is read without it', () => {
    assert.equal(forwardedClientIp('6.6.6.6, 203.0.113.9:51234', 1), '203.0.113.9');
    assert.equal(forwardedClientIp('6.6.6.6, [2001:db8::1]:443', 1), '2001:db8::1');
    assert.equal(forwardedClientIp('[2001:db8::1]', 1), '2001:db8::1');
  });

  test('a client cannot choose its key: entries the proxy could not parse are not skipped over', () => {
    // the client wrote "6.6.6.6"; the trusted proxy appended what it saw, which this parser cannot read
    assert.equal(forwardedClientIp('6.6.6.6, unknown', 1), null);
    assert.equal(forwardedClientIp('6.6.6.6, garbage', 1), null);
    assert.equal(forwardedClientIp('6.6.6.6, 203.0.113.9:x', 1), null);
    assert.equal(forwardedClientIp('spoofed, 203.0.113.9, garbage', 2), '203.0.113.9');
  });

  test('a missing or unreadable Nth entry means the socket peer', () => {
    assert.equal(clientIp(socket, '198.51.100.1, 203.0.113.9', 5), socket, 'fewer entries than trusted proxies');
    assert.equal(clientIp(socket, 'garbage', 1), socket);
    assert.equal(clientIp(socket, '', 1), socket);
    assert.equal(clientIp(socket, ', ,', 2), socket);
  });
});

describe('ipv6Prefix64', () => {
  const prefixOf = (text: string) => {
    const out = new Uint16Array(4);
    return ipv6Prefix64(text, out) ? [...out] : null;
  };

  test('reads the first four groups of every way to write an address', () => {
    assert.deepEqual(prefixOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), [0x2001, 0xdb8, 1, 2]);
    assert.deepEqual(prefixOf('2001:db8:1:2::1'), [0x2001, 0xdb8, 1, 2]);
    assert.deepEqual(prefixOf('2001:DB8::2:0:0:1'), [0x2001, 0xdb8, 0, 0]);
    assert.deepEqual(prefixOf('2001:db8::1:2:3:4'), [0x2001, 0xdb8, 0, 0]);
    assert.deepEqual(prefixOf('::1'), [0, 0, 0, 0]);
    assert.deepEqual(prefixOf('::'), [0, 0, 0, 0]);
    assert.deepEqual(prefixOf('1:2:3::'), [1, 2, 3, 0]);
    assert.deepEqual(prefixOf('::ffff:192.0.2.1'), [0, 0, 0, 0]);
    assert.deepEqual(prefixOf('1:2:3:4:5:6:192.0.2.1'), [1, 2, 3, 4]);
    assert.deepEqual(prefixOf('1::4:5:6:7:8'), [1, 0, 0, 4]);
  });

  test('refuses what is no IPv6 address', () => {
    for (const text of ['', '1:2:3', '1:2:3:4:5:6:7:8:9', '1::2::3', '12345::', 'g::1', '1:2:3:4:5:6:7:8::', ':1:2:3:4:5:6:7', '1:2:3:4:5:6:7:192.0.2.1']) {
      assert.equal(prefixOf(text), null, text);
    }
  });

  test('agrees with the bytes for 10,000 random addresses in canonical form', () => {
    let seed = 7;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) & 255;
    for (let n = 0; n < 10_000; n++) {
      const bytes = Uint8Array.from({ length: 16 }, () => (random() < 128 ? 0 : random()));
      bytes[0] |= 0x20; // not IPv4-mapped, which formats as IPv4
      const text = formatIpBytes(bytes);
      const expected = [0, 2, 4, 6].map((i) => (bytes[i] << 8) | bytes[i + 1]);
      assert.deepEqual(prefixOf(text), expected, text);
    }
  });
});

function ipRoute(server: import('../../src/http/server.js').HttpServer): void {
  server.route({ method: 'GET', pattern: '/ip', handler: (request) => ({ status: 200, body: request.ip }) });
}

describe('client address over real connections', () => {
  test('is the socket peer when no proxy is trusted, ignoring X-Forwarded-For', async () => {
    const t = await startServer(ipRoute);
    try {
      const response = await fetch(`${t.origin}/ip`, { headers: { 'X-Forwarded-For': '203.0.113.9' } });
      assert.equal(await response.text(), '127.0.0.1');
    } finally {
      await t.server.close();
    }
  });

  test('comes from X-Forwarded-For with TRUST_PROXY hops', async () => {
    const t = await startServer(ipRoute, { trustedProxyHops: 2 });
    try {
      const chained = await fetch(`${t.origin}/ip`, { headers: { 'X-Forwarded-For': '198.51.100.1, 203.0.113.9, 192.0.2.7' } });
      assert.equal(await chained.text(), '203.0.113.9');
      const direct = await fetch(`${t.origin}/ip`);
      assert.equal(await direct.text(), '127.0.0.1');
    } finally {
      await t.server.close();
    }
  });

  test('an unreadable X-Forwarded-For entry falls back to the socket peer, told once (for the log)', async () => {
    let told = 0;
    const t = await startServer(ipRoute, { trustedProxyHops: 1, onUnreadableForwardedFor: () => told++ });
    try {
      for (let i = 0; i < 2; i++) {
        const response = await fetch(`${t.origin}/ip`, { headers: { 'X-Forwarded-For': '6.6.6.6, unknown' } });
        assert.equal(await response.text(), '127.0.0.1', 'not the address the client wrote');
      }
      assert.equal(told, 1);
    } finally {
      await t.server.close();
    }
  });

  test('an IPv4 client of a dual-stack listener is reported as plain IPv4', async () => {
    const t = await startServer(ipRoute, { host: '::' });
    try {
      const response = await fetch(`http://127.0.0.1:${t.port}/ip`);
      assert.equal(await response.text(), '127.0.0.1');
    } finally {
      await t.server.close();
    }
  });

  test('an IPv6 loopback client is ::1', async (context) => {
    const reachable = await new Promise<boolean>((resolve) => {
      // Probe whether this machine has IPv6 loopback at all.
      const probe = createConnection({ host: '::1', port: 9 });
      probe.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
      probe.on('connect', () => {
        probe.destroy();
        resolve(true);
      });
    });
    if (!reachable) {
      context.skip('no IPv6 loopback on this machine');
      return;
    }
    const t = await startServer(ipRoute, { host: '::1' });
    try {
      const response = await fetch(`${t.origin}/ip`);
      assert.equal(await response.text(), '::1');
    } finally {
      await t.server.close();
    }
  });
});
