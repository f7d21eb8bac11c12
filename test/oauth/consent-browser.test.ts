// The authorization page in real Chromium: a person with a passkey (virtual authenticator) opens an
// agent's authorization URL signed out, signs in with the passkey on the page, reads the consent page
// (checked with axe-core and for CSP violations; screenshots at phone and desktop size for a person to look
// at) and approves; the agent gets its code on its loopback redirect URI, exchanges it and reads
// /mcp/account.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeFindings, chromiumPath, CSP_WATCH, cspViolations, launchBrowser, startSite, type Site } from '../web/browser.js';
import { serviceClient } from '../community/support.js';
import { createAccountInPage, decide, virtualAuthenticator } from './browser-consent.js';

const browserPath = chromiumPath();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

describe('the consent page in Chromium', { skip: browserPath === null ? 'chromium is not installed (apt-get install chromium)' : false }, () => {
  let site: Site;
  let browser: Browser;
  const screenshots = process.env.OAUTH_SCREENSHOTS; // a folder: write the pages there to look at

  before(async () => {
    // the sign-in budget lifted: the tests sign up and in more often than a person does in a minute
    site = await startSite('monaco', () => Date.now(), { env: { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' } });
    browser = await launchBrowser(browserPath!);
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  for (const [label, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    test(`signed out → passkey sign-in → consent → Approve → code → /mcp/account (${label})`, async () => {
      const callback = createServer();
      const arrived = new Promise<URL>((resolve) => callback.on('request', (req, res) => {
        res.end('done');
        resolve(new URL(req.url!, 'http://127.0.0.1'));
      }));
      await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
      const redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
      const context = await browser.newContext({ viewport, locale: 'en-GB' });
      try {
        await context.addInitScript(CSP_WATCH);
        const page = await context.newPage();
        page.setDefaultTimeout(20_000); // a broken page fails the test rather than hanging it
        await virtualAuthenticator(context, page);
        await createAccountInPage(page, site.base, `Browser ${label}`, await serviceClient(site.base).token());
        await context.clearCookies(); // signed out: the page must sign in first

        const registered = await fetch(`${site.base}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirectUri], client_name: 'Browser Agent' }) });
        const client = (await registered.json()) as { client_id: string };
        const verifier = randomBytes(32).toString('base64url');
        const authorize = new URL(`${site.base}/oauth/authorize`);
        for (const [k, v] of Object.entries({ response_type: 'code', client_id: client.client_id, redirect_uri: redirectUri, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', resource: `${site.base}/mcp/account`, scope: 'account:events', state: 'xyz' })) {
          authorize.searchParams.set(k, v);
        }
        await page.goto(authorize.href);
        if (screenshots) await page.screenshot({ path: `${screenshots}/oauth-sign-in-${label}.png`, fullPage: true });
        await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
        await page.getByRole('button', { name: 'Approve' }).waitFor();
        assert.match(await page.locator('main').innerText(), /Browser Agent[\s\S]*not verified by us[\s\S]*127\.0\.0\.1/);
        assert.deepEqual(await axeFindings(page), []);
        if (screenshots) await page.screenshot({ path: `${screenshots}/oauth-consent-${label}.png`, fullPage: true });
        assert.deepEqual(await cspViolations(page), []);

        await decide(page, 'Approve');
        const back = await Promise.race([arrived, page.waitForTimeout(20_000).then(async () => assert.fail(`no redirect to the client; the page is at ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 300)}; CSP: ${(await cspViolations(page)).join(', ')}`))]);
        assert.equal(back.searchParams.get('state'), 'xyz');
        assert.equal(back.searchParams.get('iss'), site.base);
        const token = await fetch(`${site.base}/oauth/token`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: redirectUri, client_id: client.client_id, code_verifier: verifier, resource: `${site.base}/mcp/account` }).toString(),
        });
        assert.equal(token.status, 200);
        const { access_token } = (await token.json()) as { access_token: string };
        const tools = await fetch(`${site.base}/mcp/account`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list', Authorization: `Bearer ${access_token}` },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
        });
        assert.equal(tools.status, 200);
        assert.deepEqual(((await tools.json()) as any).result.tools.map((t: { name: string }) => t.name), ['get_my_partner_listings']);

        await page.goto(`${site.base}/oauth/connections`);
        assert.match(await page.locator('main').innerText(), /Browser Agent/);
        assert.deepEqual(await axeFindings(page), []);
        if (screenshots) await page.screenshot({ path: `${screenshots}/oauth-connections-${label}.png`, fullPage: true });
      } finally {
        await context.close();
        callback.close();
      }
    });
  }

  for (const [label, viewport] of [['phone', PHONE], ['desktop', { width: 1366, height: 850 }]] as const) {
    test(`a session whose passkey is older than 5 minutes confirms it on the page before the consent (${label})`, async () => {
      const context = await browser.newContext({ viewport, locale: 'en-GB' });
      try {
        await context.addInitScript(CSP_WATCH);
        const page = await context.newPage();
        page.setDefaultTimeout(20_000);
        await virtualAuthenticator(context, page);
        await createAccountInPage(page, site.base, `Stale ${label}`, await serviceClient(site.base).token());
        // the session's last passkey sign-in, ten minutes ago (the site runs on the real clock)
        site.app.accounts.file.db.prepare('UPDATE sessions SET verified_at = ?').run(Date.now() - 10 * 60_000);
        const redirectUri = 'http://127.0.0.1:9/callback';
        const registered = await fetch(`${site.base}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirectUri], client_name: 'Stale Agent' }) });
        const client = (await registered.json()) as { client_id: string };
        const authorize = new URL(`${site.base}/oauth/authorize`);
        for (const [k, v] of Object.entries({ response_type: 'code', client_id: client.client_id, redirect_uri: redirectUri, code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'), code_challenge_method: 'S256', resource: `${site.base}/mcp/account` })) {
          authorize.searchParams.set(k, v);
        }
        await page.goto(authorize.href);
        await page.getByRole('heading', { name: 'Confirm it is you to connect Stale Agent' }).waitFor();
        assert.equal(await page.getByRole('button', { name: 'Approve' }).count(), 0, 'no consent before the passkey');
        assert.deepEqual(await axeFindings(page), []);
        assert.deepEqual(await cspViolations(page), []);
        if (screenshots) await page.screenshot({ path: `${screenshots}/oauth-confirm-${label}.png`, fullPage: true });
        await page.getByRole('button', { name: 'Confirm with a passkey' }).click();
        await page.getByRole('button', { name: 'Approve' }).waitFor();
      } finally {
        await context.close();
      }
    });
  }
});
