// Accounts in Debian's chromium with the DevTools protocol's virtual authenticator (real WebAuthn in the
// browser, verified by the real server): sign up with the human check and a passkey, sign out (the service
// worker is told to clear), sign in with the passkey autofill (phone) or the button (desktop), then contribute without a human check (no
// challenge_token sent); on the account page add a passkey, remove one after the 5 minutes have passed
// through the re-authentication prompt, and end the other session it offers to end; a moderator approves a
// submission in the web queue; an operator's recovery link registers a new passkey. axe-core and the CSP on every account page, in both layouts. SCREENSHOTS=<dir>
// writes each page's screenshot there (phone and desktop) for a person to look at.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { chromiumPath, launchBrowser, startSite, type Site } from './browser.js';
import { DESKTOP, inspect, person as personIn, PHONE, shots, signUp as signUpOn, WIDE_DESKTOP, type Person } from './people.js';
import { serviceClient } from '../community/support.js';
import { AccountModeration } from '../../src/moderation/account-moderation.js';
import { Moderation } from '../../src/moderation/moderation.js';
import { moderationStoreOf } from '../../src/moderation/store-choice.js';
import { checkRegistration, clientRow } from '../../src/oauth/clients.js';
import { createHash } from 'node:crypto';
import { runNow } from '../../src/storage/steps.js';


const START = Date.parse('2024-06-05T08:00:00Z');
const MINUTE = 60_000;
/** By the Monte-Carlo casino in the Monaco extract. */
const TOILET = 'n4316767608';

const browserPath = chromiumPath();

describe('accounts in a browser', { skip: browserPath === null ? 'chromium is not installed (apt-get install -y chromium)' : false, timeout: 600_000 }, () => {
  let site: Site;
  let browser: Browser;
  let nowMs = START;

  before(async () => {
    site = await startSite('monaco', () => nowMs, { env: { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' } });
    browser = await launchBrowser(browserPath!);
    if (shots !== null) mkdirSync(shots, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  const person = (viewport: { width: number; height: number }) => personIn(browser, viewport);
  const signUp = (p: Person, name: string) => signUpOn(site, p, name);

  async function passkeysOf(p: Person): Promise<number> {
    return (await p.cdp.send('WebAuthn.getCredentials', { authenticatorId: p.authenticator })).credentials.length;
  }

  for (const [layout, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    test(`${layout}: sign up, sign out, sign in with the passkey, contribute without a human check`, async () => {
      nowMs = START;
      const p = await person(viewport);
      const { page } = p;
      // what the page posts to its service worker
      const clears: string[] = [];
      await p.context.exposeFunction('reportWorkerMessage', (type: string) => clears.push(type));
      await p.context.addInitScript(`{ const post = ServiceWorker.prototype.postMessage; ServiceWorker.prototype.postMessage = function (message, ...rest) { window.reportWorkerMessage(message && message.type); return post.call(this, message, ...rest); }; }`);
      // on the desktop the browser offers no passkey autofill, so the person uses the button
      if (layout === 'desktop') await p.context.addInitScript('PublicKeyCredential.isConditionalMediationAvailable = async () => false;');
      await signUp(p, `Ada ${layout}`);
      assert.equal(await passkeysOf(p), 1, 'the passkey lives on the authenticator');
      await page.locator('#session-list li').first().waitFor();
      await inspect(page, 'account');
      assert.equal(await page.locator('#account-link').innerText(), 'Account');

      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL(`${site.base}/`);
      assert.deepEqual(clears, ['clear'], 'the service worker was told to clear its copies');
      assert.equal(await page.locator('#account-link').innerText(), 'Sign in');
      assert.equal((await page.request.get(`${site.base}/api/v1/account`)).status(), 401, 'signed out on the server');

      await page.locator('#account-link').click();
      await page.waitForURL(`${site.base}/signin`);
      if (layout === 'phone') {
        // the passkey autofill: the virtual authenticator picks the passkey the field offers, unasked
        await page.waitForURL(`${site.base}/account`);
      } else {
        assert.equal(await page.getByLabel('Passkey', { exact: true }).getAttribute('autocomplete'), 'username webauthn');
        await inspect(page, 'signin');
        await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
        await page.waitForURL(`${site.base}/account`);
      }
      await page.locator('#acc-name', { hasText: `Ada ${layout}` }).waitFor();

      await page.goto(`${site.base}/t/${TOILET}`);
      await page.getByText('It is here', { exact: true }).click();
      await page.locator('form[data-op=confirm]').getByText('You are signed in: no robot check needed.').waitFor();
      assert.equal(await page.locator('form[data-op=confirm] altcha-widget').count(), 0, 'no human check shown');
      const sent = page.waitForRequest((r) => r.url().endsWith(`/api/v1/toilets/${TOILET}/confirmations`));
      await page.locator('form[data-op=confirm] button[type=submit]').click();
      assert.equal(JSON.parse((await sent).postData() ?? '{}').challenge_token, undefined, 'no challenge_token sent');
      await page.getByText(/^Thank you: confirmed (once|\d+ times) in the last 12 months\.$/).waitFor();
      await p.context.close();
    });
  }

  test('the account page: add a passkey, remove one through the re-authentication prompt, end the other session', async () => {
    nowMs = START;
    const p = await person(DESKTOP);
    const { page } = p;
    await signUp(p, 'Grace');

    // the same passkey on a second device (a synced passkey): a second session
    const other = await person(PHONE);
    await other.context.addInitScript('PublicKeyCredential.isConditionalMediationAvailable = async () => false;');
    const [credential] = (await p.cdp.send('WebAuthn.getCredentials', { authenticatorId: p.authenticator })).credentials;
    await other.cdp.send('WebAuthn.addCredential', { authenticatorId: other.authenticator, credential });
    await other.page.goto(`${site.base}/signin`);
    await other.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await other.page.waitForURL(`${site.base}/account`);

    await page.reload();
    // the page wires its forms once it has shown the passkeys and both sessions: click only then
    await page.locator('#passkey-list li').first().waitFor();
    await page.locator('#session-list li').nth(1).waitFor();
    // a device holds one passkey per account (it says so when asked for a second): a security key adds one
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.locator('#add-passkey').getByText('This device already holds a passkey for your account', { exact: false }).waitFor();
    await p.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: p.authenticator });
    p.authenticator = (
      await p.cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'usb', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      })
    ).authenticatorId;
    await page.getByLabel('Name of the new passkey (e.g. Laptop)').fill('Laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.locator('#add-passkey').getByText('Passkey added.').waitFor();
    await page.locator('#passkey-list li', { hasText: 'Laptop' }).waitFor();
    assert.equal(await passkeysOf(p), 1, 'on the security key');
    await page.getByText('Your account is signed in on 1 other device or browser.', { exact: false }).waitFor();
    await inspect(page, 'account-passkeys');

    nowMs += 6 * MINUTE; // the last passkey sign-in is now too old for a sensitive change
    await page.getByRole('button', { name: 'Remove Passkey 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.waitFor();
    await inspect(page, 'account-reauth');
    await dialog.getByRole('button', { name: 'Confirm with a passkey' }).click();
    await page.locator('#add-passkey').getByText('Passkey removed.').waitFor();
    assert.deepEqual(await page.locator('#passkey-list li strong').allInnerTexts(), ['Laptop']);
    assert.equal(await page.getByRole('button', { name: 'Remove Laptop' }).isDisabled(), true, 'never the last one');

    await page.getByRole('button', { name: 'End the other sessions' }).click();
    await page.locator('#sessions').getByText('Other sessions ended: 1.').waitFor();
    // the message shows before the list is read again: wait for the list, not for a fixed moment
    await page.waitForFunction("document.querySelectorAll('#session-list li').length === 1");
    assert.equal((await other.page.request.get(`${site.base}/api/v1/account`)).status(), 401, 'the other device is signed out');

    await page.getByLabel('I understand: delete my account').check();
    await page.getByRole('button', { name: 'Delete my account now' }).click();
    await page.waitForURL(`${site.base}/`);
    assert.equal((await page.request.get(`${site.base}/api/v1/account`)).status(), 401, 'deleted');
    await p.context.close();
    await other.context.close();
  });

  for (const [layout, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    test(`${layout}: a moderator approves a submission in the web queue`, async () => {
      nowMs = START;
      const client = serviceClient(site.base);
      const submitted = await client.post('/api/v1/submissions', { lat: 43.7394, lon: 7.4276, name: `Casino gardens ${layout}` }, { origin: site.base });
      assert.equal(submitted.status, 201, JSON.stringify(submitted.json));
      const submission = submitted.json.id as string;

      const p = await person(viewport);
      const { page } = p;
      await signUp(p, `Mo ${layout}`);
      const account = await (await page.request.get(`${site.base}/api/v1/account`)).json();
      await site.app.accounts.store.setModerator(account.id, true);

      await page.goto(`${site.base}/moderation`);
      const item = page.locator('.queue-item', { hasText: submission });
      await item.waitFor();
      await item.getByText(`Casino gardens ${layout}`).waitFor();
      await item.getByText(/Already listed nearby: .*n4316767608/).waitFor();
      await inspect(page, 'moderation');

      await item.getByRole('button', { name: 'Approve' }).click();
      await item.getByText('Give a reason first').waitFor();
      await item.getByLabel('Reason (recorded with the action)').fill('matches the photo');
      await item.getByRole('button', { name: 'Approve' }).click();
      const toilet = `c_${submission.slice(4)}`;
      await page.getByText(`Done: approved ${submission}: it is toilet ${toilet}`).waitFor();
      assert.equal(await page.locator('.queue-item', { hasText: submission }).count(), 0, 'gone from the queue');
      await page.locator('.log li', { hasText: `approve ${submission}` }).waitFor();
      assert.equal((await page.request.get(`${site.base}/api/v1/toilets/${toilet}`)).status(), 200, 'served at once');
      const logged = site.app.community.store.readable.prepare('SELECT details FROM moderation_log WHERE target = ?').pluck().get(submission) as string;
      assert.equal(JSON.parse(logged).by, account.id);
      await p.context.close();
    });
  }

  test('a recovery link registers a new passkey on a new device and signs in there', async () => {
    nowMs = START;
    const lost = await person(PHONE);
    await signUp(lost, 'Lin');
    const account = await (await lost.page.request.get(`${site.base}/api/v1/account`)).json();
    const link = await new AccountModeration(new Moderation(moderationStoreOf(site.app.community.store), site.app.catalog, () => nowMs, { baseUrl: site.base, osmNotesApi: null }), site.app.accounts.store, () => nowMs, site.base).recoveryLink(account.id, 'lost phone');

    const found = await person(DESKTOP);
    await found.page.goto(link.url);
    await found.page.waitForURL(`${site.base}/account/recover`); // the token leaves the address bar once read
    await found.page.getByLabel('Name of the new passkey (optional)').fill('New phone');
    await inspect(found.page, 'recover');
    await found.page.getByRole('button', { name: 'Register a new passkey' }).click();
    await found.page.waitForURL(`${site.base}/account`);
    await found.page.locator('#passkey-list li', { hasText: 'New phone' }).waitFor();
    assert.equal((await lost.page.request.get(`${site.base}/api/v1/account`)).status(), 401, 'whoever held the lost passkey is signed out');

    await found.page.goto(link.url);
    await found.page.getByRole('button', { name: 'Register a new passkey' }).click();
    await found.page.locator('#recover .form-status').getByText('used already or expired', { exact: false }).waitFor();
    await lost.context.close();
    await found.context.close();
  });

  test('a signed-in account that is not a moderator is told so', async () => {
    nowMs = START;
    const p = await person(PHONE);
    await signUp(p, 'Visitor');
    await p.page.goto(`${site.base}/moderation`);
    await p.page.getByText('This page is for moderators.', { exact: false }).waitFor();
    await p.context.close();
  });

  test('after sign-in, ?next= is followed only to this site: tabs, newlines, backslashes and encoded forms stay here', async () => {
    nowMs = START;
    const p = await person(DESKTOP);
    await p.context.addInitScript('PublicKeyCredential.isConditionalMediationAvailable = async () => false;');
    const left: string[] = [];
    await p.context.route(/^https?:\/\/(?!localhost[:/])/, (route) => {
      left.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>another site</title>' });
    });
    await signUp(p, 'Margaret');
    const signInWith = async (next: string) => {
      await p.context.clearCookies();
      await p.page.goto(`${site.base}/signin?next=${next}`);
      await p.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await p.page.waitForURL((url) => url.pathname !== '/signin' || url.origin !== site.base);
      const landed = new URL(p.page.url());
      // the account page reads the session once loaded: let it, or the next round's cleared cookies send it back to /signin
      if (landed.origin === site.base && landed.pathname === '/account') await p.page.locator('#acc-name', { hasText: 'Margaret' }).waitFor();
      return landed;
    };
    for (const next of ['/%09/evil.example/x', '/%0A/evil.example/x', '/%0D%0A/evil.example/x', '/%5Cevil.example/x', '/%09%5Cevil.example/x', '//evil.example/x', '%2F%2Fevil.example/x', 'https://evil.example/x', 'javascript:alert(1)', '/%2509/../%09/evil.example']) {
      const landed = await signInWith(next);
      assert.equal(landed.origin, site.base, `${next}: stays on this site (${landed.href})`);
    }
    assert.deepEqual(left, [], 'no request left for another site');
    const own = await signInWith(encodeURIComponent(`/toilets/${TOILET}?from=signin`));
    assert.equal(`${own.pathname}${own.search}`, `/toilets/${TOILET}?from=signin`, 'a path of this site is followed');
    await p.context.close();
  });

  for (const [layout, viewport] of [['phone', PHONE], ['desktop', WIDE_DESKTOP]] as const) {
    test(`${layout}: the account page shows the account id and disconnects every app, saying what it ended`, async () => {
      nowMs = START;
      const p = await person(viewport);
      await signUp(p, `Katherine ${layout}`);
      const account = await (await p.page.request.get(`${site.base}/api/v1/account`)).json();
      await p.page.locator('#acc-id', { hasText: account.id }).waitFor();
      // an app connected to the account: a registered client, an approved consent, its tokens
      const oauth = site.app.oauth;
      const registered = checkRegistration({ redirect_uris: ['http://127.0.0.1:9/cb'], client_name: 'Assistant' }, nowMs);
      assert.ok(!('error' in registered));
      runNow(oauth.store.tablesIn(null).insertClient(clientRow(registered, nowMs)));
      const verifier = 'v'.repeat(43);
      const code = await oauth.grants.issueCode({ client_id: registered.client_id, redirect_uri: 'http://127.0.0.1:9/cb', code_challenge: createHash('sha256').update(verifier).digest('base64url'), resource: `${site.base}/mcp/account`, scope: 'account:events', state: null }, account.id, nowMs);
      const tokens = await oauth.grants.redeemCode({ code, clientId: registered.client_id, redirectUri: 'http://127.0.0.1:9/cb', verifier, resource: null }, nowMs);
      assert.ok('access_token' in tokens);
      await p.page.reload();
      await p.page.locator('#session-list li').first().waitFor();
      await inspect(p.page, 'account-connections');
      await p.page.getByRole('button', { name: 'Sign out everywhere else and disconnect every app' }).click();
      await p.page.locator('#sessions').getByText('Other sessions ended: 0. Apps disconnected: 1.').waitFor();
      assert.equal(await oauth.grants.verifyAccess(tokens.access_token, nowMs), null, 'the app is disconnected');
      assert.equal((await p.page.request.get(`${site.base}/api/v1/account`)).status(), 200, 'this session stays');
      await inspect(p.page, 'account-connections-ended');
      await p.context.close();
    });
  }
});
