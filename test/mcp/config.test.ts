// MCP_ALLOWED_ORIGINS: which browser origins may call /mcp.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

const allowed = (value?: string) => loadConfig(value === undefined ? {} : { MCP_ALLOWED_ORIGINS: value }).mcpAllowedOrigins;

test('unset, empty or * admits any origin', () => {
  assert.equal(allowed(), null);
  assert.equal(allowed(''), null);
  assert.equal(allowed(' * '), null);
});

test('hostnames and origins become the hostnames the Origin header is checked against', () => {
  assert.deepEqual(allowed('chatgpt.com, https://claude.ai ,http://localhost:6274,[::1]'), ['chatgpt.com', 'claude.ai', 'localhost', '[::1]']);
});

test('anything else stops the start with a message naming the variable', () => {
  for (const value of ['localhost:3000', 'https://', 'two words', 'chatgpt.com,']) {
    assert.throws(() => allowed(value), (error: unknown) => error instanceof ConfigError && /MCP_ALLOWED_ORIGINS item/.test(error.message), value);
  }
});
