// People in the browser tests of accounts and partners: a browser context with a platform authenticator
// (the DevTools protocol's virtual authenticator: real WebAuthn, verified by the real server), signing up
// through the site's own page, and the look at a page every test takes (no CSP violation, no serious
// axe-core finding, and with SCREENSHOTS=<dir> its screenshot for a person to look at).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { axeFindings, CSP_WATCH, cspViolations, solveHumanCheck, type Site } from './browser.js';

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };
/** The wider desktop the newer page tests look at (a common laptop screen). */
export const WIDE_DESKTOP = { width: 1366, height: 850 };
export const shots = process.env.SCREENSHOTS ?? null;

export interface Person {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  authenticator: string;
}

/** A browser context with a platform authenticator that verifies the user (a passkey on the device). */
export async function person(browser: Browser, viewport: { width: number; height: number }): Promise<Person> {
  const context = await browser.newContext({ viewport, locale: 'en-GB' });
  await context.addInitScript(CSP_WATCH);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { context, page, cdp, authenticator: authenticatorId };
}

/** Checks a page as a person meets it: no CSP violation, no serious axe finding, and its screenshot. */
export async function inspect(page: Page, name: string): Promise<void> {
  assert.deepEqual(await cspViolations(page), [], `${name}: CSP`);
  assert.deepEqual(await axeFindings(page), [], `${name}: axe`);
  if (shots !== null) await page.screenshot({ path: join(shots, `${name}-${page.viewportSize()!.width}.png`), fullPage: true });
}

/** Fills the sign-up page (already open, or opened here) and creates the account with a passkey; lands on `landing`. */
export async function signUp(site: Pick<Site, 'base'>, p: Person, name: string, options: { open?: boolean; landing?: string } = {}): Promise<void> {
  if (options.open !== false) await p.page.goto(`${site.base}/signup`);
  await p.page.getByLabel('Display name (1 to 60 characters)').fill(name);
  await solveHumanCheck(p.page, '#signup');
  await inspect(p.page, 'signup');
  await p.page.getByRole('button', { name: 'Create account with a passkey' }).click();
  await p.page.waitForURL(`${site.base}${options.landing ?? '/account'}`);
  if (options.landing === undefined) await p.page.locator('#acc-name', { hasText: name }).waitFor();
}
