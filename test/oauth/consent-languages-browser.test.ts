// The consent page of a client ID metadata document's client in real Chromium, in German and French (the
// browser's locale and Accept-Language): the page's text has none of the English sentences, axe finds
// nothing, no CSP violation, at phone and desktop size. OAUTH_SCREENSHOTS=<dir> writes each for a person
// to look at.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser as Chromium } from 'playwright-core';
import { axeFindings, chromiumPath, CSP_WATCH, cspViolations, launchBrowser } from '../web/browser.js';
import { PHONE, WIDE_DESKTOP } from '../web/people.js';
import { Clock } from '../community/support.js';
import { Browser } from '../accounts/support.js';
import { LOCALES } from '../../src/web/text/catalogue.js';
import { documentSuite } from './document-host.js';
import { REDIRECT_URI, RESOURCE, SCOPE } from './support.js';

declare const document: any;

const browserPath = chromiumPath();
const ENGLISH = ['not verified by us', 'asks to act', 'It gets', 'For how long', 'Approve', 'Deny', 'Describes itself', 'Returns you to', 'a program on this computer'];

describe('the consent page in German and French in Chromium', { skip: browserPath === null ? 'chromium is not installed (apt-get install chromium)' : false }, () => {
  // Chromium needs a socket
  const suite = documentSuite(new Clock(Date.now()), 'socket');
  let chromium: Chromium;
  before(async () => {
    chromium = await launchBrowser(browserPath!);
  });
  after(async () => {
    await chromium?.close();
  });

  for (const lang of ['de', 'fr'] as const) {
    for (const [label, viewport] of [['phone', PHONE], ['desktop', WIDE_DESKTOP]] as const) {
      test(`${lang}, ${label}`, async () => {
        const { service, host } = suite;
        const url = host.url('desk.example.test', '/mcp/client.json');
        host.set(url, { body: { client_id: url, client_name: 'Desk Agent', client_uri: 'https://desk.example.test', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' } });
        const person = new Browser(service);
        await person.signUp(lang === 'de' ? 'Greta Beispiel' : 'Camille Exemple');
        const [name, value] = person.cookie!.split(/=(.*)/s);
        const context = await chromium.newContext({ viewport, locale: LOCALES[lang], extraHTTPHeaders: { 'Accept-Language': LOCALES[lang] } });
        try {
          // the session cookie is __Host-: Secure, which Chromium keeps for http on localhost (a trustworthy origin)
          const origin = service.url.replace('127.0.0.1', 'localhost');
          await context.addCookies([{ name, value, domain: 'localhost', path: '/', secure: true, httpOnly: true, sameSite: 'Lax' }]);
          const page = await context.newPage();
          await page.addInitScript(CSP_WATCH);
          const query = new URLSearchParams({ response_type: 'code', client_id: url, redirect_uri: REDIRECT_URI, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', resource: RESOURCE, scope: SCOPE, state: 'x' });
          const response = await page.goto(`${origin}/oauth/authorize?${query}`);
          assert.equal(response?.status(), 200);
          assert.equal(await page.getAttribute('html', 'lang'), LOCALES[lang]);
          const words = await page.evaluate(() => document.body.innerText as string);
          assert.match(words, /Desk Agent/);
          assert.match(words, /desk\.example\.test/);
          assert.deepEqual(ENGLISH.filter((sentence) => words.includes(sentence)), [], 'no English on the page');
          assert.deepEqual(await axeFindings(page), []);
          assert.deepEqual(await cspViolations(page), []);
          if (process.env.OAUTH_SCREENSHOTS) await page.screenshot({ path: join(process.env.OAUTH_SCREENSHOTS, `consent-document-${lang}-${label}.png`), fullPage: true });
        } finally {
          await context.close();
        }
      });
    }
  }
});
