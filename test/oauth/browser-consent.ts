// A person in real Chromium (Debian's, driven by playwright-core) with a passkey in the DevTools virtual
// authenticator (protocol-notes section 9): creates an account through the site's own operations, then
// answers an authorization page: signs in with the passkey and presses Approve (or Deny). Shared by the
// browser test and `npm run conformance`, whose authorization-code-grant scenario waits for a person.
import type { BrowserContext, Page } from 'playwright-core';

// Browser globals inside page.evaluate callbacks (this module only: the project's one TypeScript program
// cannot take the DOM types).
declare const window: any;
declare const navigator: any;
declare const PublicKeyCredential: any;

/** Adds a CTAP2 platform authenticator with user verification that answers without prompts. */
export async function virtualAuthenticator(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

/** Creates an account with a new passkey from a page of the site (`base`), with a solved human-check token. */
export async function createAccountInPage(page: Page, base: string, displayName: string, challengeToken: string): Promise<void> {
  await page.goto(`${base}/licenses`);
  const status = await page.evaluate(
    async ({ name, token }: { name: string; token: string }) => {
      const post = async (path: string, body: unknown) => {
        const response = await window.fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        return { status: response.status as number, json: await response.json() };
      };
      const options = await post('/api/v1/account/passkey-options', { display_name: name });
      const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options.json) });
      const created = await post('/api/v1/account', { display_name: name, challenge_token: token, credential: credential.toJSON() });
      return created.status;
    },
    { name: displayName, token: challengeToken },
  );
  if (status !== 201) throw new Error(`the account was not created (${status})`);
}

/** On an authorization page: signs in (or confirms it is the person) with the passkey if asked, then presses the decision's button. */
export async function decide(page: Page, decision: 'Approve' | 'Deny'): Promise<void> {
  const signIn = page.getByRole('button', { name: /^(Sign in|Confirm) with a passkey$/ });
  const choice = page.getByRole('button', { name: decision });
  await signIn.or(choice).first().waitFor();
  if (await signIn.isVisible()) {
    await Promise.all([page.waitForEvent('load'), signIn.click()]);
  }
  await choice.click();
}
