// A real nginx of a test's own: its main configuration in the test's folder (pid, logs and temporary paths
// there, no daemon), including the site the test wrote to `site.conf` beside it, and the waits for a port.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';

/** Runs nginx on `dir/site.conf` (which listens on `port`) until it listens. */
export async function startNginx(dir: string, port: number): Promise<ChildProcess> {
  for (const folder of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, folder), { recursive: true });
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n` +
      ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${dir}/${kind === 'client_body' ? 'body' : kind};\n`).join('') +
      `  include ${dir}/site.conf;\n}\n`,
  );
  const nginx = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  await waitForPort(port, nginx);
  return nginx;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  let stderr = '';
  child.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
  // until it listens or ends (however long a loaded machine takes: no deadline to miss)
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}: ${stderr}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
