// `npm run stripe-stand-in`: runs the Stripe stand-in on loopback so that a self-hoster can walk through
// the whole partner flow (claim, approval, checkout, webhook, portal) before using real keys. It prints
// the settings to start the service with.
import { commandConsole, parseCommand, runAsScript, usageFailure, type CommandIo } from '../../src/cli/command.js';
import { startStandIn, type StandIn } from './stand-in.js';

const SPEC = {
  name: 'stripe-stand-in',
  help: `usage: npm run stripe-stand-in -- [--port N] [--webhook URL]

A local stand-in for Stripe (test mode only, loopback only, nothing is charged). Start the service with
the settings it prints; the checkout and portal pages are served by the stand-in itself.

  --port N        port on 127.0.0.1 (default 12111)
  --webhook URL   the service's webhook (default http://localhost:8080/api/v1/billing/webhook)`,
  options: { port: { type: 'string' }, webhook: { type: 'string' } },
  positionals: { min: 0, max: 0, what: '' },
} as const;

/** Starts the stand-in (returned, for tests to close) or says why not. */
export async function start(argv: string[], io: CommandIo): Promise<{ code: number; standIn?: StandIn }> {
  const console = commandConsole(io);
  const parsed = parseCommand(SPEC, argv, console);
  if (typeof parsed === 'number') return { code: parsed };
  const port = Number(parsed.values.port ?? '12111');
  if (!Number.isInteger(port) || port < 0 || port > 65535) return { code: usageFailure(SPEC, `--port ${parsed.values.port} is not a port: use a whole number from 0 to 65535`, console) };
  const webhookUrl = parsed.values.webhook ?? 'http://localhost:8080/api/v1/billing/webhook';
  if (!/^https?:\/\//.test(webhookUrl)) return { code: usageFailure(SPEC, `--webhook ${webhookUrl} is not an http(s) URL`, console) };
  const standIn = await startStandIn({ port, webhookUrl });
  standIn.webhooks.on('attempt', ({ eventId, status }) => console.log(`webhook ${eventId}: ${status === 0 ? 'not reachable, will retry' : status}`));
  console.log(`Stripe stand-in on ${standIn.url}, events to ${webhookUrl}. Start the service with:\n`);
  console.log(Object.entries(standIn.env).map(([name, value]) => `${name}=${value}`).join(' \\\n') + ' \\\nnpm start');
  return { code: 0, standIn };
}

export async function main(argv: string[], io: CommandIo): Promise<number> {
  return (await start(argv, io)).code;
}

runAsScript(import.meta.url, main);
