import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { uwsNative } from '../../src/http/uws.js';

const UWS_MODULE = fileURLToPath(new URL('../../src/http/uws.js', import.meta.url));

/** Imports uws.js in a fresh Node process with extra environment variables. */
function importInChild(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = `import(${JSON.stringify(UWS_MODULE)}).then((m) => console.log('native=' + m.uwsNative))`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr });
    });
  });
}

test('the native uWS binary serves this process', () => {
  assert.equal(uwsNative, true);
});

test('importing refuses the pure-JS fallback with a one-line reason', async () => {
  // UWS_USE_FALLBACK makes the package load its fallback even though the binary would load.
  const child = await importInChild({ UWS_USE_FALLBACK: '1' });
  assert.notEqual(child.code, 0);
  assert.match(child.stderr, /native binary for linux-x64 ABI \d+ did not load .*UWS_ALLOW_FALLBACK=1/);
});

test('UWS_ALLOW_FALLBACK=1 lets the fallback run, and uwsNative says so', async () => {
  const child = await importInChild({ UWS_USE_FALLBACK: '1', UWS_ALLOW_FALLBACK: '1' });
  assert.equal(child.code, 0, child.stderr);
  assert.match(child.stdout, /native=false/);
});
