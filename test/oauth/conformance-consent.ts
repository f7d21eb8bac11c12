// The person of `npm run conformance`'s authorization-code-grant scenario (scripts/conformance.sh): the
// suite prints an authorization URL and waits for its callback; this opens it in Chromium with a virtual
// authenticator, creates an account with a passkey (the human check solved here), signs in on the page
// and presses Approve. Never an auto-approve setting in the product.
//   node dist/test/oauth/conformance-consent.js <base_url> <authorization url>
import { serviceClient } from '../community/support.js';
import { chromiumPath, launchBrowser } from '../web/browser.js';
import { createAccountInPage, decide, virtualAuthenticator } from './browser-consent.js';

const [base, url] = process.argv.slice(2);
if (!base || !url) {
  console.error('usage: node dist/test/oauth/conformance-consent.js <base_url> <authorization url>');
  process.exit(2);
}
const path = chromiumPath();
if (path === null) throw new Error('chromium is missing: apt-get install -y chromium');
const browser = await launchBrowser(path);
try {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await virtualAuthenticator(context, page);
  await createAccountInPage(page, base, 'Conformance person', await serviceClient(base).token());
  await context.clearCookies();
  await page.goto(url);
  const leaving = page.waitForURL((target) => target.origin !== new URL(base).origin);
  await decide(page, 'Approve');
  await leaving;
  console.log('approved; the browser went to the client callback');
} finally {
  await browser.close();
}
