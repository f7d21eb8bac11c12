// A redis-server of the test's own (Debian's `redis-server`): loopback only, on a free port, nothing saved
// to disk, stopped at the end. Without the binary the tests that need it are skipped, except in CI
// (CI=true), where .ci/run installs it and a skip would hide the cluster's shared limits.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { claimPort } from '../../src/http/port.js';

const found = spawnSync('redis-server', ['--version']).error === undefined;
if (!found && process.env.CI === 'true') throw new Error('redis-server is missing: .ci/run installs it (apt-get install redis-server)');

/** A skip reason for node:test, or false when a redis-server can start. */
export const noRedis: string | false = found ? false : 'redis-server is not installed (apt-get install redis-server); CI fails instead of skipping';

export interface TestRedis {
  /** `redis://127.0.0.1:<port>` (with `:<password>@` when it has one) */
  url: string;
  port: number;
  /** Stops the server; resolves once it has exited. */
  stop(): Promise<void>;
  /** SIGSTOP and SIGCONT: a server that hangs with its connections open, and goes on. */
  pause(): void;
  resume(): void;
}

export interface RedisOptions {
  /** The port of one stopped before (Redis back after an outage); default a free one. */
  port?: number;
  /** requirepass: clients must authenticate (the URL carries it). */
  password?: string;
}

/** Starts a fresh redis-server and resolves once it accepts connections; call stop() in an after() hook. */
export async function startRedis(options: RedisOptions = {}): Promise<TestRedis> {
  if (!found) throw new Error(noRedis as string);
  const port = options.port ?? (await claimPort('127.0.0.1', 0));
  const auth = options.password === undefined ? [] : ['--requirepass', options.password];
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...auth], { stdio: ['ignore', 'pipe', 'pipe'] });
  await readyOrExit(child, port);
  const exited = once(child, 'exit');
  return {
    url: `redis://${options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`}127.0.0.1:${port}`,
    port,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGCONT'); // a paused server takes no SIGTERM
        child.kill('SIGTERM');
      }
      await exited;
    },
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
  };
}

/** Resolves when the server logs that it is ready; rejects with its output when it exits first. */
function readyOrExit(child: ChildProcess, port: number): Promise<void> {
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`redis-server on port ${port} exited with ${code} before it was ready:\n${output}`)));
  });
}
