// The upgrade an operator makes: the previous release (previous-release.ts, built from git) installed and
// used (install.ts), stopped, and this tree started by the previous release's own systemd units on the
// same data folder and environment. Everything the install held is there and works: the answers, sign-in
// with the same passkey, the agent's refresh token, the partner label; every script the installed units
// run is in this build; a retired setting in the environment is one warning, not a failed start; the
// operator's commands, the backup and the nightly refresh run. Without git or the release's commit the file
// is skipped, except with CI=true, where that fails.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RETIRED_SETTINGS, retiredSettingWarnings } from '../../src/config.js';
import { DEMO_EXTRACT } from '../../src/first-import.js';
import { accountClient, form } from '../oauth/support.js';
import type { MainProcess } from '../community/support.js';
import { REPO_DIR } from '../support/paths.js';
import { execStarts, unitScripts } from '../support/systemd-units.js';
import { compareVersions } from './changelog.js';
import { createInstall, kept, moderate, nearestIds, runUnitCommand, startService, stopService, TOILETS, until, type Install } from './install.js';
import { buildRelease, findPreviousRelease, PREVIOUS_RELEASE, type BuiltRelease } from './previous-release.js';

const found = findPreviousRelease();
if ('missing' in found && process.env.CI === 'true') throw new Error(`the upgrade test cannot run: ${found.missing}`);
const VERSION = (JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')) as { version: string }).version;

describe(`an install of ${PREVIOUS_RELEASE.tag} upgraded to this tree`, { skip: 'missing' in found ? found.missing : false, timeout: 600_000 }, () => {
  let release: BuiltRelease;
  let install: Install;
  let upgraded: MainProcess | undefined;

  before(async () => {
    release = buildRelease(found as { commit: string; via: string });
    install = await createInstall(release.dir, release.node);
  });
  after(async () => {
    if (upgraded?.child.exitCode === null) await stopService(upgraded);
    install?.data.remove();
  });

  test('the previous release held what its people and operator did', () => {
    const { toilets, status } = install.before;
    assert.equal(status.version, PREVIOUS_RELEASE.version, `built from ${release.via}, run by ${release.node}`);
    assert.equal(toilets.get(TOILETS.claimed).partner.name, 'Café du Casino');
    assert.deepEqual(toilets.get(TOILETS.rated).cleanliness, { average: 3, count: 2 });
    assert.equal(toilets.get(TOILETS.rated).confirmations, 1);
    assert.equal(toilets.get(TOILETS.voted).wheelchair, 'no', 'two votes against the source value');
    assert.equal(toilets.get(TOILETS.locked).provenance.decided.wheelchair.by, 'moderator');
    assert.equal(toilets.get(TOILETS.reported).verification_state, 'disputed');
    assert.equal(toilets.get(install.community).name, 'Kiosk du Port');
  });

  test("every script the previous release's units run is in this build", () => {
    const scripts = unitScripts(release.dir);
    assert.ok(scripts.some(({ script }) => script === 'dist/src/main.js'), 'the service unit is read');
    // built from a source of this tree, not left in dist/ by an earlier build
    const source = (script: string) => join(REPO_DIR, script.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
    const missing = scripts.filter(({ script }) => !existsSync(join(REPO_DIR, script)) || !existsSync(source(script))).map(({ unit, script }) => `${unit} runs ${script}`);
    assert.deepEqual(missing, [], 'an installed unit would fail: keep the file (or a forwarding one) at that path');
  });

  test("the previous release's service unit starts this release on its data folder and environment", async () => {
    upgraded = await startService(REPO_DIR, release.dir, install);
    install.site.url = upgraded.url;
    const log = upgraded.startLog().split('\n').map((line) => JSON.parse(line) as { level: string; message: string });
    for (const warning of retiredSettingWarnings(install.env)) assert.equal(log.filter((line) => line.message === warning && line.level === 'warn').length, 1, warning);
    const named = log.filter((line) => RETIRED_SETTINGS.some(({ name }) => line.message.includes(name)));
    assert.equal(named.length, RETIRED_SETTINGS.length, 'one line per retired setting');
    assert.equal(upgraded.stderr(), '', 'no error at start');
  });

  test("the old install's source database is served: the same toilets, the same answers", async () => {
    const status = (await install.site.client.get('/status')).json;
    assert.equal(status.version, VERSION);
    assert.ok(compareVersions(VERSION, PREVIOUS_RELEASE.version) > 0, `package.json's version ${VERSION} comes after ${PREVIOUS_RELEASE.version}`);
    assert.deepEqual(status.counts, install.before.status.counts);
    assert.equal(status.region, install.before.status.region);
    assert.deepEqual(await nearestIds(install.site), install.before.nearest);
    for (const [id, old] of install.before.toilets) assert.deepEqual(kept(await install.site.client.toilet(id)), kept(old), id);
  });

  test('the same passkey signs in; the session, the account and its moderator role are kept', async () => {
    const { browser, account } = install;
    const kept = await browser.request('GET', '/account');
    assert.equal(kept.status, 200, 'the session made under the previous release');
    const signedIn = await browser.signIn();
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.json));
    const me = await browser.request('GET', '/account');
    assert.equal(me.json.id, account);
    assert.equal(me.json.moderator, true);
    const listings = (await browser.request('GET', '/partner/listings')).json.listings;
    assert.deepEqual(listings.map((l: any) => [l.id, l.claim.status, l.plan.running]), [[install.listing, 'approved', true]]);
  });

  test("the agent's refresh token gets new tokens, and the agent reads the listing", async () => {
    const refreshed = await form(install.site, '/oauth/token', { grant_type: 'refresh_token', refresh_token: install.refreshToken, client_id: install.agent.client.client_id });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.json));
    assert.notEqual(refreshed.json.refresh_token, install.refreshToken);
    const client = await accountClient(install.site, refreshed.json.access_token);
    try {
      const result = await client.callTool({ name: 'get_my_partner_listings', arguments: {} });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      const listings = (result.structuredContent as { listings: { id: string }[] }).listings;
      assert.deepEqual(listings.map((l) => l.id), [install.listing]);
    } finally {
      await client.close();
    }
  });

  test("the operator's commands, the installed backup and dump units run on this release", async () => {
    const targets = (JSON.parse(await moderate(REPO_DIR, install, ['log', '--json'])) as { target: string }[]).map((e) => e.target);
    const decided = [install.account, `sub_${install.community.slice('c_'.length)}`, install.claim, install.listing, TOILETS.locked];
    assert.deepEqual(decided.filter((target) => !targets.includes(target)), [], `the previous release's decisions are in the moderation log: ${targets.join(', ')}`);
    const env = { ...install.env, BACKUP_DIR: join(install.data.dir, 'backups') };
    for (const line of [...execStarts(release.dir, 'toilet-finder-backup.service'), execStarts(release.dir, 'toilet-finder-refresh.service').at(-1)!]) {
      const ran = await runUnitCommand(REPO_DIR, line, env);
      assert.equal(ran.status, 0, `${line}: ${ran.stderr}`);
    }
  });

  test('the nightly refresh unit imports the region again; every contribution and the label stay', async () => {
    const env = { ...install.env, TOILETS_EXTRACT: DEMO_EXTRACT };
    for (const line of execStarts(release.dir, 'toilet-finder-refresh.service')) {
      const ran = await runUnitCommand(REPO_DIR, line, env);
      assert.equal(ran.status, 0, `${line}: ${ran.stderr}`);
    }
    await until(async () => (await install.site.client.get('/status')).json.demo === false, 'the server switches to the new import');
    for (const [id, old] of install.before.toilets) assert.deepEqual(kept(await install.site.client.toilet(id)), kept(old), id);
    await stopService(upgraded!);
  });
});
