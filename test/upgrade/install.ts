// An install of the previous release as an operator has one: its systemd units' environment (its
// deploy/systemd/env.example, the data folder /var/lib/toilet-finder moved to a temporary folder), its
// service unit's ExecStart started on it (the first start imports the demo data), then what people and the
// operator did with it: an account with a passkey, contributions (a rating, a confirmation, votes that
// change a fact, a report, a submission), a business claim, an OAuth grant for an agent, and the operator's
// decisions with that release's `moderate` (a moderator, the submission and the claim approved, a plan, a
// lock). It records what the previous release answered, for the new release to answer the same.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RETIRED_SETTINGS } from '../../src/config.js';
import { Browser } from '../accounts/support.js';
import { BASE_URL, deviceId, serviceClient, startMain, TEST_ENV, type Data, type MainProcess } from '../community/support.js';
import { connect, newAgent, type Metadata, type RegisteredClient } from '../oauth/support.js';
import { tempDir } from '../support/extracts.js';
import { commandOf, environmentFile, execStarts, UNIT_DATA_DIR } from '../support/systemd-units.js';

/** The toilets the install's people acted on (the demo data's, README's examples). */
export const TOILETS = { claimed: 'n4316767608', rated: 'n6720523794', reported: 'n3039828758', voted: 'n3775589690', locked: 'n5918146882' } as const;
const SUBMITTED = { lat: 43.7384, lon: 7.4246, name: 'Kiosk du Port', access: 'public', fee: 'free' } as const;
const CASINO = 'lat=43.7394&lon=7.4276&limit=10';

/** The server both releases run behind: the address people use (BASE_URL) stays; the port behind it is the running release's. */
export class Site {
  url = '';
  readonly token = (ip?: string) => serviceClient(this.url).token(ip);
  get client() {
    return serviceClient(this.url);
  }
}

export interface Install {
  /** The data folder (/var/lib/toilet-finder) and the databases in it, as the units name them. */
  data: Data;
  /** The environment every unit gets: EnvironmentFile, this machine's paths and port, the test's cheap proof of work. */
  env: Record<string, string>;
  site: Site;
  account: string;
  /** The business's browser: its session cookie and its passkey. */
  browser: Browser;
  claim: string;
  listing: string;
  /** The toilet the approved submission became. */
  community: string;
  agent: { metadata: Metadata; client: RegisteredClient; fetchFn: (url: string | URL, init?: RequestInit) => Promise<Response> };
  refreshToken: string;
  /** What the previous release answered: the toilets acted on, the nearest toilets to the casino, /status. */
  before: { toilets: Map<string, any>; nearest: string[]; status: any };
}

/** A retired setting's example value in the install's environment: the previous release read it. */
const retiredExamples = () => Object.fromEntries(RETIRED_SETTINGS.map(({ name, example }) => [name, example]));

/** The units' environment on this machine, with the data folder in `dataDir`. */
function installEnvironment(release: string, dataDir: string): Record<string, string> {
  const unitEnv = Object.fromEntries(Object.entries(environmentFile(join(release, 'deploy', 'systemd', 'env.example'))).map(([key, value]) => [key, value.replaceAll(UNIT_DATA_DIR, dataDir)]));
  // no network here: the first start imports the demo data (as with no TOILETS_EXTRACT); the nightly
  // refresh gets the demo extract as its region's
  delete unitEnv.TOILETS_EXTRACT;
  // PORT: any free one; BASE_URL: the test's, which the software authenticator and the agent use
  return { ...TEST_ENV, RATE_LIMIT_PER_MINUTE: '0', ...unitEnv, PORT: '0', BASE_URL, ...retiredExamples() };
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end. Not spawnSync: a test process blocked for seconds would send its next request
 * on a kept-alive connection the server has meanwhile closed as idle.
 */
function run(command: string, args: string[], env: Record<string, string>): Promise<Ran> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const ran = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (ran.stdout += chunk));
  child.stderr.on('data', (chunk) => (ran.stderr += chunk));
  return once(child, 'close').then(([status]) => ({ status: status as number | null, ...ran }));
}

/** A unit's ExecStart run to its end with the install's environment, code from `tree`. */
export function runUnitCommand(tree: string, line: string, env: Record<string, string>): Promise<Ran> {
  const [command, ...args] = commandOf(line, tree, env);
  return run(command, args, env);
}

/** `npm run moderate -- …args` of the release in `tree` (run by `node`), as the operator runs it on the install; asserts exit 0. */
export async function moderate(tree: string, install: Pick<Install, 'env'>, args: string[], node = process.execPath): Promise<string> {
  const done = await run(node, [join(tree, 'dist', 'src', 'community', 'moderate-cli.js'), ...args], install.env);
  assert.equal(done.status, 0, `moderate ${args.join(' ')}: ${done.stderr}${done.stdout}`);
  return done.stdout;
}

/** The release in `tree` started by `node` as its service unit (toilet-finder.service) starts it; resolves once it serves. */
export function startService(tree: string, unitsTree: string, install: Pick<Install, 'data' | 'env'>, node = process.execPath): Promise<MainProcess> {
  const [line] = execStarts(unitsTree, 'toilet-finder.service');
  return startMain(install.data, { env: install.env, main: commandOf(line, tree, install.env, node) });
}

/** SIGTERM, as systemctl stop sends it; asserts a clean exit. */
export async function stopService(main: MainProcess): Promise<void> {
  const closed = once(main.child, 'close');
  main.child.kill('SIGTERM');
  const [code] = (await closed) as [number | null];
  assert.equal(code, 0, `the service exits 0 when stopped: ${main.stderr()}`);
}

/** Waits until `check` holds (a running server applies a command's change within about a second). */
export async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    if (await check()) return;
    await sleep(50);
  }
  assert.fail(`${what}: not within 30 s`);
}

/** The fields of a toilet an upgrade must keep (a new release may add others). */
export function kept(toilet: any): unknown {
  const { id, name, lat, lon, access, fee, wheelchair, verification_state, confirmations, last_confirmed_at, cleanliness, source, partner, provenance } = toilet;
  return { id, name, lat, lon, access, fee, wheelchair, verification_state, confirmations, last_confirmed_at, cleanliness, source, partner: partner && { name: partner.name, tier: partner.tier }, decided: provenance.decided };
}

export async function nearestIds(site: Site): Promise<string[]> {
  const answer = await site.client.get(`/api/v1/toilets/nearest?${CASINO}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  return answer.json.results.map((r: { id: string }) => r.id);
}

/** Installs the release in `tree`, run by `node`, uses it, stops it; the data folder stays for the next release. */
export async function createInstall(tree: string, node: string): Promise<Install> {
  const root = tempDir('toilet-upgrade');
  const dataDir = join(root.path, 'var-lib-toilet-finder');
  mkdirSync(dataDir, { mode: 0o700 }); // systemd's StateDirectory, mode 0700
  const env = installEnvironment(tree, dataDir);
  const data: Data = { dir: dataDir, toiletsDb: env.TOILETS_DB, overlayDb: env.OVERLAY_DB, remove: root.remove };
  const site = new Site();
  const main = await startService(tree, tree, { data, env }, node);
  try {
    site.url = main.url;
    assert.match(main.startLog(), /importing the demo data/, 'the first start imports the demo data');
    const made = await useInstall(tree, node, site, env);
    return { data, env, site, ...made };
  } finally {
    await stopService(main);
  }
}

async function useInstall(tree: string, node: string, site: Site, env: Record<string, string>): Promise<Omit<Install, 'data' | 'env' | 'site'>> {
  const browser = new Browser(site, '198.51.100.30');
  const account = (await browser.signUp('Alice Martin', 'alice@example.org')).id as string;
  const claimed = await browser.request('POST', `/toilets/${TOILETS.claimed}/claims`, { body: { business_name: 'Café du Casino', contact_email: 'alice@example.org' } });
  assert.equal(claimed.status, 201, JSON.stringify(claimed.json));
  const listing = (await browser.request('GET', '/partner/listings')).json.listings.find((l: { claim: { id: string } }) => l.claim.id === claimed.json.id).id as string;

  const { client } = site;
  const created = async (path: string, body: object, ip: string) => {
    const answer = await client.post(path, body, { ip });
    assert.equal(answer.status, 201, `${path}: ${JSON.stringify(answer.json)}`);
    return answer.json;
  };
  await created(`/api/v1/toilets/${TOILETS.rated}/ratings`, { rating: 4, device_id: deviceId(1) }, '198.51.100.31');
  assert.equal((await browser.request('POST', `/toilets/${TOILETS.rated}/ratings`, { body: { rating: 2 } })).status, 201, 'signed in, without the human check');
  await created(`/api/v1/toilets/${TOILETS.rated}/confirmations`, {}, '198.51.100.32');
  for (const n of [1, 2]) await created(`/api/v1/toilets/${TOILETS.voted}/votes`, { votes: [{ attribute: 'wheelchair', value: 'no' }], device_id: deviceId(10 + n) }, `198.51.100.4${n}`);
  await created(`/api/v1/toilets/${TOILETS.reported}/reports`, { kind: 'closed' }, '198.51.100.33');
  const submission = (await created('/api/v1/submissions', SUBMITTED, '198.51.100.34')).id as string;

  const agent = await newAgent(site, 'Upgrade Agent');
  const tokens = await connect(browser, agent);
  assert.ok(tokens.refresh_token);

  await moderate(tree, { env }, ['moderators', 'add', account, '--reason', 'runs the moderation queue'], node);
  await moderate(tree, { env }, ['approve', submission, '--reason', 'seen on site'], node);
  await moderate(tree, { env }, ['approve', claimed.json.id, '--reason', 'checked the trade register'], node);
  await moderate(tree, { env }, ['plan', listing, 'basic', '--reason', 'billed by invoice'], node);
  await moderate(tree, { env }, ['lock', TOILETS.locked, 'wheelchair', 'no', '--reason', 'steps at the door, seen on site'], node);
  const community = `c_${submission.slice('sub_'.length)}`;
  const shown = async () =>
    (await client.get(`/api/v1/toilets/${community}`)).status === 200 &&
    (await client.toilet(TOILETS.claimed)).partner !== null &&
    (await client.toilet(TOILETS.locked)).provenance.decided.wheelchair?.by === 'moderator';
  await until(shown, 'the previous release shows the moderator decisions');

  const toilets = new Map<string, any>();
  for (const id of [...Object.values(TOILETS), community]) toilets.set(id, await client.toilet(id));
  const status = (await client.get('/status')).json;
  return { account, browser, claim: claimed.json.id, listing, community, agent, refreshToken: tokens.refresh_token, before: { toilets, nearest: await nearestIds(site), status } };
}
