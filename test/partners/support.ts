// Shared by the partner tests: the real service with accounts (test/accounts/support.ts), a signed-in
// business with a claimed, approved listing on a running manual plan, made through the real operations and
// the moderation functions the command calls.
import assert from 'node:assert/strict';
import { Browser } from '../accounts/support.js';
import type { Service } from '../community/support.js';

export interface Listed {
  browser: Browser;
  claim: string;
  listing: string;
  toilet: string;
}

/** Signs a new business up and claims `toilet`; asserts 201. */
export async function claimAs(service: Service, toilet: string, name: string, ip: string): Promise<Listed> {
  const browser = new Browser(service, ip);
  await browser.signUp(name);
  const claimed = await browser.request('POST', `/toilets/${toilet}/claims`, { body: { business_name: name, contact_email: `${name.toLowerCase().replace(/\W/g, '')}@example.org` } });
  assert.equal(claimed.status, 201, JSON.stringify(claimed.json));
  const listings = await browser.request('GET', '/partner/listings');
  const listing = listings.json.listings.find((l: { claim: { id: string } }) => l.claim.id === claimed.json.id);
  return { browser, claim: claimed.json.id, listing: listing.id, toilet };
}

/** A claim approved by a moderator and a running manual plan of `tier`. */
export async function runningListing(service: Service, toilet: string, name: string, ip: string, tier: 'basic' | 'plus' = 'basic'): Promise<Listed> {
  const listed = await claimAs(service, toilet, name, ip);
  await service.app.partners.claims.approve(listed.claim, 'checked the business register');
  await service.app.partners.plans.setManualPlan(listed.listing, tier);
  return listed;
}
