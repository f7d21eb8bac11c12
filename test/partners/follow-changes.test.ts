// What keeping listings on their toilets costs a write: after a contribution or a profile change the
// listings are followed on the toilets that changed only, not read all again (which made every change
// O(listings): ~35 ms an operation at 300 listings, over 10 minutes for 11,000 made through the server).
// The rows the partner tables hand out are counted, with many listings on other toilets; a load still
// follows them all (the lifecycle tests prove what following does).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Clock, importedData, readSourceToilets, type Data, type Service } from '../community/support.js';
import { startAccountsService } from '../accounts/support.js';
import { SqlitePartnerStore, SqlitePartnerTables } from '../../src/partners/sqlite-store.js';
import type { Step } from '../../src/storage/steps.js';
import { runningListing } from './support.js';

const START = Date.parse('2024-06-05T08:00:00Z');
/**
 * Listings on other toilets, made straight in the tables: far more than one change may read. The extract
 * has fewer toilets, so they are on ids it does not have (a load finds them vanished), still active.
 */
const OTHER_LISTINGS = 150;

/** Counts the rows every listing or claim read of `store` returns from now on (its SQLite tables answer at once). */
function countRowsRead(store: SqlitePartnerStore): { rows: number } {
  const counter = { rows: 0 };
  const count = (result: unknown) => {
    if (Array.isArray(result)) counter.rows += result.length;
    else if (result !== null && typeof result === 'object') counter.rows += 1;
  };
  const tables = store.tables;
  for (const name of Object.getOwnPropertyNames(SqlitePartnerTables.prototype)) {
    const method = (tables as unknown as Record<string, unknown>)[name];
    if (typeof method !== 'function' || name === 'constructor') continue;
    Object.defineProperty(tables, name, {
      value: (...args: unknown[]) => {
        const result = (method as (...a: unknown[]) => unknown).apply(tables, args);
        if (!isStep(result)) return count(result), result;
        return (function* () {
          const value = yield* result;
          count(value);
          return value;
        })();
      },
    });
  }
  return counter;
}

function isStep(value: unknown): value is Step<unknown> {
  return typeof (value as Step<unknown> | null)?.next === 'function';
}

describe('following the toilets reads the listings a change touches', () => {
  let data: Data;
  let service: Service;
  let toilets: string[];
  let counter: { rows: number };

  before(async () => {
    data = await importedData();
    service = await startAccountsService(data, new Clock(START), { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' });
    toilets = readSourceToilets(data.toiletsDb).map((t) => t.id);
    const db = service.app.accounts.file.db;
    const claim = db.prepare("INSERT INTO partner_claims (id, account_id, toilet_id, business_name, status, created_at) VALUES (?, NULL, ?, ?, 'approved', ?)");
    const listing = db.prepare("INSERT INTO partner_listings (id, claim_id, account_id, toilet_id, name, plan_tier, plan_source, created_at, updated_at) VALUES (?, ?, NULL, ?, ?, 'basic', 'manual', ?, ?)");
    db.transaction(() => {
      for (let n = 0; n < OTHER_LISTINGS; n++) {
        const id = n.toString(16).padStart(32, '0');
        claim.run(`pc_${id}`, `n${990_000_000 + n}`, `Other ${n}`, START);
        listing.run(`pl_${id}`, `pc_${id}`, `n${990_000_000 + n}`, `Other ${n}`, START, START);
      }
    })();
    service.app.catalog.load();
    counter = countRowsRead(service.app.partners.store as SqlitePartnerStore);
  });
  after(async () => {
    await service.close();
    data.remove();
  });

  test('a contribution reads at most the listings on its toilet', async () => {
    await runningListing(service, toilets[0], 'Counted Cafe', '198.51.100.120');
    counter.rows = 0;
    const confirmed = await service.post(`/api/v1/toilets/${toilets[1]}/confirmations`, {}, { ip: '198.51.100.121' });
    assert.equal(confirmed.status, 201, JSON.stringify(confirmed.json));
    assert.equal(counter.rows, 0, 'no listing on that toilet, none read');
    const partnered = await service.post(`/api/v1/toilets/${toilets[0]}/confirmations`, {}, { ip: '198.51.100.122' });
    assert.equal(partnered.status, 201, JSON.stringify(partnered.json));
    assert.ok(counter.rows <= 2, `${counter.rows} rows read for a contribution on a partnered toilet`);
    assert.equal((await service.toilet(toilets[0])).partner.name, 'Counted Cafe');
  });

  test('a profile change reads a bounded number of rows, whatever the number of listings', async () => {
    const listed = await runningListing(service, toilets[2], 'Counted Kiosk', '198.51.100.123');
    counter.rows = 0;
    const changed = await listed.browser.request('PATCH', `/partner/listings/${listed.listing}`, { body: { conditions: 'everyone' } });
    assert.equal(changed.status, 200, JSON.stringify(changed.json));
    assert.ok(counter.rows <= 5, `${counter.rows} rows read for one profile change`);
    assert.equal((await service.toilet(listed.toilet)).partner.conditions, 'everyone');
  });

  test('a load follows every listing', () => {
    counter.rows = 0;
    service.app.catalog.load();
    assert.ok(counter.rows >= OTHER_LISTINGS, `${counter.rows} rows read at a load`);
  });
});
