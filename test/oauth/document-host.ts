// A stand-in for the hosts of OAuth clients' metadata documents: an https server on a loopback port with a
// certificate of a certificate authority made with openssl for this run (for *.example.test), and what the
// service needs to reach it (the authority, the port, a resolver of *.example.test to loopback, and of
// intranet.example.test to a private address). Each document is an answer the test sets per host and path;
// every request is counted, so a test sees what was fetched and what was not.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { DocumentFetchForTests } from '../../src/oauth/oauth.js';
import { startAccountsService } from '../accounts/support.js';
import { importedData, type Clock, type Data, type Service } from '../community/support.js';
import { tempDir } from '../support/extracts.js';
import type { Reach } from '../support/server.js';

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  /** A JSON value (sent as JSON) or raw text; omitted: an empty body. */
  body?: unknown;
  /** Never answers (a host too slow for the fetch's time limit). */
  hang?: boolean;
}

export interface DocumentHost {
  port: number;
  /** The URL of `path` on `host` (a name under example.test) at the stand-in's port. */
  url(host: string, path?: string): string;
  set(url: string, answer: Answer): void;
  /** How many requests reached `url` so far. */
  requests(url: string): number;
  fetch: DocumentFetchForTests;
  close(): Promise<void>;
}

/** A certificate authority and a server certificate for *.example.test signed by it, made now with openssl. */
function testCertificates(dir: string): { ca: string; key: string; cert: string } {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Toilet Finder test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign');
  openssl('req', ...ec, '-keyout', 'host.key', '-out', 'host.csr', '-subj', '/CN=example.test');
  writeFileSync(join(dir, 'host.ext'), 'subjectAltName=DNS:*.example.test\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl('x509', '-req', '-in', 'host.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'host.pem', '-days', '2', '-extfile', 'host.ext');
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  return { ca: read('ca.pem'), key: read('host.key'), cert: read('host.pem') };
}

export async function startDocumentHost(): Promise<DocumentHost> {
  const dir = tempDir('toilet-document-host');
  const { ca, key, cert } = testCertificates(dir.path);
  const answers = new Map<string, Answer>();
  const counts = new Map<string, number>();
  const server: Server = createServer({ key, cert }, (req, res) => {
    const url = `https://${req.headers.host}${req.url}`;
    counts.set(url, (counts.get(url) ?? 0) + 1);
    req.resume();
    const answer = answers.get(url) ?? { status: 404, body: { error: 'no such document' } };
    if (answer.hang) return;
    const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json', ...answer.headers }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (host, path = '/oauth/client.json') => `https://${host}:${port}${path}`,
    set: (url, answer) => void answers.set(url, answer),
    requests: (url) => counts.get(url) ?? 0,
    fetch: {
      ca,
      loopbackPort: port,
      timeoutMs: 2000,
      resolver: (hostname) => {
        assert.ok(hostname.endsWith('.example.test'), `only names under example.test are resolved in tests, not ${hostname}`);
        return Promise.resolve([{ address: hostname === 'intranet.example.test' ? '10.0.0.7' : '127.0.0.1', family: 4 }]);
      },
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      dir.remove();
    },
  };
}

/**
 * The service of a suite whose agents identify themselves by documents on the stand-in host: started before
 * the suite's first test (the host, a fresh copy of Monaco, the sign-in budget lifted), closed after its last.
 */
export function documentSuite(clock: Clock, reach?: Reach): { readonly service: Service; readonly host: DocumentHost } {
  const started: { data?: Data; service?: Service; host?: DocumentHost } = {};
  before(async () => {
    started.host = await startDocumentHost();
    started.data = await importedData();
    started.service = await startAccountsService(started.data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' }, undefined, { clientDocumentFetchForTests: started.host.fetch, reach });
  });
  after(async () => {
    await started.service?.close();
    started.data?.remove();
    await started.host?.close();
  });
  return {
    get service() {
      return started.service ?? assert.fail('the suite has not started');
    },
    get host() {
      return started.host ?? assert.fail('the suite has not started');
    },
  };
}
