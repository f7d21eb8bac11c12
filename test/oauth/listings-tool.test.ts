// get_my_partner_listings on /mcp/account with the official client: read-only annotations and the
// operation's schemas, the caller's own listings only, and its answer before and after a claim approval
// and a profile change made on the website.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Clock, importedData, type Data, type Service } from '../community/support.js';
import { startAccountsService } from '../accounts/support.js';
import { claimAs } from '../partners/support.js';
import { assertValid } from '../support/server.js';
import { accountClient, connect, newAgent } from './support.js';

describe('get_my_partner_listings', () => {
  let data: Data;
  let service: Service;
  const clock = new Clock(Date.parse('2024-06-05T08:00:00Z'));

  before(async () => {
    data = await importedData();
    service = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' });
  });
  after(async () => {
    await service.close();
    data.remove();
  });

  test("lists the caller's claims and listings, never another account's; follows approval and profile changes", async () => {
    const ada = await claimAs(service, 'n4316767608', 'Ada Cafe', '198.51.100.21');
    const bob = await claimAs(service, 'n6720523794', 'Bob Bar', '198.51.100.22');
    const tokens = await connect(ada.browser, await newAgent(service));
    const client = await accountClient(service, tokens.access_token);
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'get_my_partner_listings')!;
      assert.equal(tool.annotations?.readOnlyHint, true);
      assert.equal(tool.annotations?.destructiveHint, false);
      assert.ok(tool.outputSchema);
      assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}), [], 'no argument can name another account');

      const call = async () => {
        const result = await client.callTool({ name: 'get_my_partner_listings', arguments: {} });
        assert.notEqual(result.isError, true, JSON.stringify(result.content));
        assertValid('PartnerListingList', result.structuredContent);
        assert.deepEqual(JSON.parse((result.content as { text: string }[])[0].text), result.structuredContent);
        return (result.structuredContent as { listings: any[] }).listings;
      };
      const pending = await call();
      assert.deepEqual(pending.map((l) => [l.id, l.toilet_id, l.claim.status]), [[ada.listing, 'n4316767608', 'pending']]);
      assert.ok(!JSON.stringify(pending).includes(bob.listing), "Bob's listing never appears");

      await service.app.partners.claims.approve(ada.claim, 'checked');
      await service.app.partners.plans.setManualPlan(ada.listing, 'basic');
      const approved = await call();
      assert.equal(approved[0].claim.status, 'approved');
      assert.equal(approved[0].plan.running, true);

      const changed = await ada.browser.request('PATCH', `/partner/listings/${ada.listing}`, { body: { conditions: 'everyone', opening_hours: 'Mo-Su 08:00-20:00', open_now: false } });
      assert.equal(changed.status, 200, JSON.stringify(changed.json));
      const profile = (await call())[0].profile;
      assert.equal(profile.conditions, 'everyone');
      assert.equal(profile.opening_hours, 'Mo-Su 08:00-20:00');
      assert.ok(profile.closed_until, 'the live switch closed it');
    } finally {
      await client.close();
    }
  });
});
