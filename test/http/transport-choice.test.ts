// HTTP_TRANSPORT's choice (src/http/transport-choice.ts, uws-native.ts): auto takes uWS only where a native
// binary loads, else node:http, saying why in one start line; the packages' pure-JS fallback is never
// loaded. A copy of the uWS package without its binaries (in a folder of the test's own) is the case of
// every Node the package has no binary for.
import assert from 'node:assert/strict';
import { cpSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chooseTransport, nodeSharesPort, TransportUnavailable } from '../../src/http/transport-choice.js';
import { binaryName, findNativeUws, type ModuleLoader } from '../../src/http/uws-native.js';
import { importedCopy, tempDir } from '../support/extracts.js';
import { REPO_DIR } from '../support/paths.js';
import { serve, type Served } from '../support/server.js';

const PACKAGE = '@trufflesuite/uws-js-unofficial';
const INSTALLED = join(REPO_DIR, 'node_modules', PACKAGE);
/** Whether the installed package has a binary for this Node and platform (Node 20 on x64 Linux here). */
const BINARY_SHIPPED = existsSync(join(INSTALLED, 'binaries', binaryName()));

/** A loader over a node_modules of `dir`'s, recording what it loaded. */
function loaderIn(dir: string): ModuleLoader & { loaded: string[] } {
  const require = createRequire(join(dir, 'index.js'));
  const loaded: string[] = [];
  return { loaded, resolve: (id) => require.resolve(id), load: (path) => (loaded.push(path), require(path)) };
}

describe('the transport HTTP_TRANSPORT=auto chooses', () => {
  const dir = tempDir('toilet-uws-copy');
  let loader: ReturnType<typeof loaderIn>;
  before(() => {
    // the package as installed, minus every native binary
    cpSync(INSTALLED, join(dir.path, 'node_modules', PACKAGE), { recursive: true, filter: (source) => !source.endsWith('.node') });
    loader = loaderIn(dir.path);
  });
  after(() => dir.remove());

  test('a uWS package whose binary is missing: node:http, saying why; the fallback is never loaded', () => {
    const probe = findNativeUws(loader);
    assert.equal(probe.module, null);
    assert.deepEqual(probe.module === null && probe.failures, ['uWebSockets.js: not installed', `${PACKAGE}: has no ${binaryName()}`]);
    const choice = chooseTransport('auto', () => probe);
    assert.equal(choice.name, 'node');
    assert.match(choice.reason, new RegExp(`^HTTP_TRANSPORT=auto: node:http serves, since no native uWebSockets.js binary loads for Node ${process.versions.node} .*has no ${binaryName()}`));
    const copy = join(dir.path, 'node_modules', PACKAGE);
    const cached = Object.keys(createRequire(import.meta.url).cache).filter((path) => path.startsWith(copy));
    assert.deepEqual(cached, [], 'neither the package entry nor its JS fallback was loaded');
    assert.deepEqual(loader.loaded, [join(copy, 'binaries', binaryName())], 'only the binary was tried');
  });

  test('HTTP_TRANSPORT=uws without a binary fails the start, naming what to set', () => {
    const probe = findNativeUws(loader);
    assert.throws(() => chooseTransport('uws', () => probe), (error: Error) => error instanceof TransportUnavailable && /^HTTP_TRANSPORT=uws, but no native uWebSockets.js binary loads .*; set HTTP_TRANSPORT=auto or node/.test(error.message));
  });

  test('HTTP_TRANSPORT=node never looks for uWS', () => {
    const choice = chooseTransport('node', () => assert.fail('probed'));
    assert.equal(choice.name, 'node');
    assert.match(choice.reason, /^HTTP_TRANSPORT=node: node:http serves; /);
  });

  test(`with the installed packages: ${BINARY_SHIPPED ? 'uWS, from the package\'s binary' : 'node:http (no binary for this Node)'}`, () => {
    const probe = findNativeUws();
    const choice = chooseTransport('auto', () => probe);
    assert.equal(choice.name, BINARY_SHIPPED ? 'uws' : 'node');
    if (BINARY_SHIPPED) assert.match(choice.reason, new RegExp(`^HTTP_TRANSPORT=auto: uWebSockets.js serves \\(${PACKAGE}/binaries/${binaryName()} loads for Node`));
    const fallback = createRequire(import.meta.url).resolve(`${PACKAGE}/dist/index.js`);
    assert.equal(createRequire(import.meta.url).cache[fallback], undefined, 'the JS fallback is never loaded');
  });

  test('node:http shares the port from Node 22.12 and 23.1 on', () => {
    assert.deepEqual(['20.20.2', '22.11.0', '22.12.0', '23.0.0', '23.1.0', '24.11.1', '26.0.0'].map(nodeSharesPort), [false, false, true, false, true, true, true]);
  });
});

describe('a start where the uWS binary is missing', () => {
  const dir = tempDir('toilet-uws-start');
  const lines: string[] = [];
  let served: Served;
  before(async () => {
    cpSync(INSTALLED, join(dir.path, 'node_modules', PACKAGE), { recursive: true, filter: (source) => !source.endsWith('.node') });
    const db = join(dir.path, 'toilets.db');
    await importedCopy('monaco', db);
    const log = { info: (message: string) => lines.push(message), error: (message: string) => lines.push(message) };
    served = await serve({ db, reach: 'socket', log, uwsProbe: () => findNativeUws(loaderIn(dir.path)) });
  });
  after(async () => {
    await served?.close();
    dir.remove();
  });

  test('serves on node:http, says so in one line and in /status', async () => {
    assert.equal(served.app.transport.name, 'node');
    assert.equal(lines.filter((line) => line.includes('HTTP_TRANSPORT')).length, 1, lines.join('\n'));
    const status = await served.call('/status');
    assert.equal(status.status, 200);
    assert.equal(status.json.transport, 'node');
  });
});
