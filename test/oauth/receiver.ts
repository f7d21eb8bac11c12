// A webhook receiver for the account-events tests, on loopback: answers verification POSTs by echoing the
// challenge (unless told not to), records every other POST with its headers and raw body, and answers
// deliveries with the status the test sets.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

export class Receiver {
  readonly received: Received[] = [];
  /** Status answered to deliveries (not verifications). */
  status = 204;
  /** false: verification POSTs get a wrong echo. */
  echo = true;
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const json = JSON.parse(body);
        this.received.push({ headers: req.headers, body, json });
        if (json.type === 'verification') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ challenge: this.echo ? json.challenge : 'wrong' }));
        res.writeHead(this.status).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  /** What arrived other than verification POSTs. */
  deliveries(): Received[] {
    return this.received.filter((r) => r.json.type !== 'verification');
  }

  close(): void {
    this.server?.closeAllConnections();
    this.server?.close();
  }
}
