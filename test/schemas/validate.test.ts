import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BODY_NAME, fieldName, findInvalid, validatorFor } from '../../src/schemas/validate.js';
import type { SchemaName } from '../../src/schemas/resources.js';
import { SCHEMAS } from '../../src/resources.js';

const text = (length: number) => 'x'.repeat(length);
const HEX32 = '0123456789abcdef0123456789abcdef';
const LISTING = `pl_${HEX32}`;

/** Asserts `data` is valid as `schema`. */
function valid(schema: SchemaName, data: unknown): void {
  assert.deepEqual(findInvalid(schema, data), [], JSON.stringify(data).slice(0, 200));
}

/** The names of the offending fields of `data` as `schema`. */
function offending(schema: SchemaName, data: unknown): string[] {
  return findInvalid(schema, data).map((entry) => entry.name);
}

describe('fieldName', () => {
  it('turns JSON pointers into names like votes[2].value', () => {
    assert.equal(fieldName('/votes/2/value'), 'votes[2].value');
    assert.equal(fieldName('/votes/2', 'attribute'), 'votes[2].attribute');
    assert.equal(fieldName('', 'lat'), 'lat');
    assert.equal(fieldName('/a~1b/c~0d'), 'a/b.c~d');
    assert.equal(fieldName(''), BODY_NAME);
  });
});

describe('body errors', () => {
  it('name the body itself when it is not an object', () => {
    for (const body of [null, [], 'lat=1', 5]) assert.deepEqual(findInvalid('SubmitToiletRequest', body), [{ name: 'body', reason: 'must be an object' }]);
  });

  it('list every offending field once, with plain reasons', () => {
    assert.deepEqual(findInvalid('SubmitToiletRequest', { lat: 91, name: 7, access: 'scheme', wheelchar: 'yes' }), [
      { name: 'lon', reason: 'is required' },
      { name: 'wheelchar', reason: 'unknown field; did you mean wheelchair?' },
      { name: 'name', reason: 'must be text of at most 120 characters' },
      { name: 'lat', reason: 'must be a number between -90 and 90' },
      { name: 'access', reason: 'must be one of public, permissive, customers or unknown' },
    ]);
  });
});

describe('submitToilet body', () => {
  const minimal = { lat: 41.15, lon: -8.61 };

  it('needs lat and lon and takes every optional field at its bound', () => {
    valid('SubmitToiletRequest', minimal);
    valid('SubmitToiletRequest', {
      ...minimal,
      name: text(120),
      access: 'customers',
      fee: 'unknown',
      opening_hours: text(200),
      wheelchair: 'limited',
      changing_table: 'no',
      note: text(500),
      challenge_token: text(2048),
    });
    assert.deepEqual(offending('SubmitToiletRequest', { lat: 41.15 }), ['lon']);
    assert.deepEqual(offending('SubmitToiletRequest', { lon: -8.61 }), ['lat']);
  });

  it('rejects each field just past its bound', () => {
    assert.deepEqual(
      offending('SubmitToiletRequest', {
        lat: -90.001,
        lon: 180.001,
        name: text(121),
        opening_hours: text(201),
        note: text(501),
        challenge_token: text(2049),
      }),
      ['name', 'lat', 'lon', 'opening_hours', 'note', 'challenge_token'],
    );
    assert.deepEqual(offending('SubmitToiletRequest', { ...minimal, access: 'scheme', fee: 'paid', wheelchair: 'partial', changing_table: 'limited' }), [
      'access',
      'fee',
      'wheelchair',
      'changing_table',
    ]);
  });
});

describe('confirmToilet, rateToilet and reportToilet bodies', () => {
  it('confirm: an optional challenge token only', () => {
    valid('ConfirmToiletRequest', {});
    valid('ConfirmToiletRequest', { challenge_token: text(2048) });
    assert.deepEqual(offending('ConfirmToiletRequest', { challenge_token: text(2049) }), ['challenge_token']);
    assert.deepEqual(offending('ConfirmToiletRequest', { device_id: HEX32 }), ['device_id']);
  });

  it('rate: an integer 1..5 and a lowercase hex device id', () => {
    valid('RateToiletRequest', { rating: 1 });
    valid('RateToiletRequest', { rating: 5, device_id: HEX32, challenge_token: 'token' });
    for (const rating of [0, 6, 2.5, '3', null]) {
      assert.deepEqual(findInvalid('RateToiletRequest', { rating }), [{ name: 'rating', reason: 'must be an integer between 1 and 5' }], String(rating));
    }
    for (const device_id of [HEX32.toUpperCase(), HEX32.slice(1), `${HEX32}0`]) {
      assert.deepEqual(findInvalid('RateToiletRequest', { rating: 3, device_id }), [{ name: 'device_id', reason: 'must be 32 lowercase hex digits' }]);
    }
    assert.deepEqual(offending('RateToiletRequest', {}), ['rating']);
  });

  it('report: a kind from the list and an optional note', () => {
    for (const kind of ['gone', 'closed', 'wrong_place', 'wrong_hours']) valid('ReportToiletRequest', { kind, note: text(500), challenge_token: 'token' });
    assert.deepEqual(findInvalid('ReportToiletRequest', { kind: 'dirty' }), [{ name: 'kind', reason: 'must be one of gone, closed, wrong_place or wrong_hours' }]);
    assert.deepEqual(offending('ReportToiletRequest', { note: text(501) }), ['kind', 'note']);
  });
});

describe('correctToilet body', () => {
  const vote = (attribute: string, value: string) => ({ votes: [{ attribute, value }] });

  it('takes 1 to 10 votes', () => {
    valid('CorrectToiletRequest', vote('existence', 'yes'));
    valid('CorrectToiletRequest', { votes: Array.from({ length: 10 }, () => ({ attribute: 'name', value: 'x' })), device_id: HEX32 });
    assert.deepEqual(findInvalid('CorrectToiletRequest', { votes: [] }), [{ name: 'votes', reason: 'must be an array of 1 to 10 items' }]);
    assert.deepEqual(offending('CorrectToiletRequest', { votes: Array.from({ length: 11 }, () => ({ attribute: 'name', value: 'x' })) }), ['votes']);
    assert.deepEqual(offending('CorrectToiletRequest', {}), ['votes']);
  });

  it('accepts the allowed values of each attribute', () => {
    const allowed: [string, string[]][] = [
      ['access', ['public', 'permissive', 'customers', 'scheme']],
      ['fee', ['free', 'paid']],
      ['fee_amount', ['0.50 EUR', '2 GBP', '1.5 CHF', '0 USD']],
      ['wheelchair', ['yes', 'limited', 'no']],
      ['changing_table', ['yes', 'no']],
      ['gender', ['unisex', 'female,male', 'unisex,female,male']],
      ['opening_hours', ['Mo-Fr 08:00-18:00', text(200)]],
      ['name', ['Café Central', text(200)]],
      ['operator', ['City of Porto']],
      ['existence', ['yes', 'gone']],
    ];
    for (const [attribute, values] of allowed) for (const value of values) valid('CorrectToiletRequest', vote(attribute, value));
  });

  it('rejects other values, naming the vote', () => {
    const refused: [string, string, string][] = [
      ['access', 'unknown', 'must be one of public, permissive, customers or scheme'],
      ['fee', 'fee', 'must be one of free or paid'],
      ['fee_amount', 'EUR 0.50', 'must be an amount and an ISO 4217 currency code, e.g. 0.50 EUR'],
      ['fee_amount', '0.50', 'must be an amount and an ISO 4217 currency code, e.g. 0.50 EUR'],
      ['fee_amount', '0.50 eur', 'must be an amount and an ISO 4217 currency code, e.g. 0.50 EUR'],
      ['wheelchair', 'unknown', 'must be one of yes, limited or no'],
      ['changing_table', 'limited', 'must be one of yes or no'],
      ['gender', 'female, male', 'must be unisex, female, male; several separated by commas'],
      ['gender', 'other', 'must be unisex, female, male; several separated by commas'],
      ['existence', 'no', 'must be one of yes or gone'],
      ['name', text(201), 'must be text of at most 200 characters'],
    ];
    for (const [attribute, value, reason] of refused) {
      const body = { votes: [{ attribute: 'name', value: 'ok' }, { attribute: 'existence', value: 'yes' }, { attribute, value }] };
      assert.deepEqual(findInvalid('CorrectToiletRequest', body), [{ name: 'votes[2].value', reason }], `${attribute}=${value}`);
    }
  });

  it('names unknown attributes and missing or extra keys of a vote', () => {
    assert.deepEqual(findInvalid('CorrectToiletRequest', vote('colour', 'blue')), [
      { name: 'votes[0].attribute', reason: 'must be one of access, fee, fee_amount, wheelchair, changing_table, gender, opening_hours, name, operator or existence' },
    ]);
    assert.deepEqual(offending('CorrectToiletRequest', { votes: [{ value: 'gone' }, { attribute: 'fee' }, { attribute: 'fee', value: 'free', weight: 2 }] }), [
      'votes[0].attribute',
      'votes[1].value',
      'votes[2].weight',
    ]);
  });
});

describe('claimToilet and partner bodies', () => {
  const claim = { business_name: 'Café Central', contact_email: 'owner@cafe.example' };

  it('claim: bounds of each field', () => {
    valid('ClaimToiletRequest', claim);
    valid('ClaimToiletRequest', {
      business_name: text(80),
      contact_email: `${text(188)}@example.org`,
      contact_phone: text(40),
      website: `https://example.org/${text(180)}`,
      note: text(500),
    });
    valid('ClaimToiletRequest', { ...claim, business_name: 'AB' });
    assert.deepEqual(findInvalid('ClaimToiletRequest', { ...claim, business_name: 'A' }), [{ name: 'business_name', reason: 'must be text of 2 to 80 characters' }]);
    assert.deepEqual(offending('ClaimToiletRequest', { ...claim, business_name: text(81) }), ['business_name']);
    assert.deepEqual(offending('ClaimToiletRequest', { ...claim, contact_email: `${text(189)}@example.org` }), ['contact_email']);
    assert.deepEqual(findInvalid('ClaimToiletRequest', { ...claim, contact_email: 'owner' }), [
      { name: 'contact_email', reason: 'must be an email address of at most 200 characters' },
    ]);
    assert.deepEqual(offending('ClaimToiletRequest', { ...claim, contact_phone: text(41), website: 'cafe.example', note: text(501) }), [
      'contact_phone',
      'website',
      'note',
    ]);
    assert.deepEqual(offending('ClaimToiletRequest', { ...claim, website: `https://example.org/${text(181)}` }), ['website']);
    assert.deepEqual(offending('ClaimToiletRequest', {}), ['business_name', 'contact_email']);
  });

  it('profile update: any subset of keys, nullable conditions and hours', () => {
    valid('UpdatePartnerProfileRequest', {});
    valid('UpdatePartnerProfileRequest', { conditions: null, opening_hours: null, open_now: false });
    valid('UpdatePartnerProfileRequest', { conditions: 'everyone', opening_hours: '' });
    valid('UpdatePartnerProfileRequest', { conditions: 'customers', opening_hours: text(200), open_now: true });
    assert.deepEqual(findInvalid('UpdatePartnerProfileRequest', { conditions: 'nobody' }), [
      { name: 'conditions', reason: 'must be one of everyone or customers, or null' },
    ]);
    assert.deepEqual(offending('UpdatePartnerProfileRequest', { opening_hours: text(201), open_now: 'false', closed_until: 0 }), [
      'closed_until',
      'opening_hours',
      'open_now',
    ]);
  });

  it('checkout and portal: a listing id and a tier', () => {
    valid('StartCheckoutRequest', { listing: LISTING, tier: 'basic' });
    valid('StartCheckoutRequest', { listing: LISTING, tier: 'plus' });
    assert.deepEqual(findInvalid('StartCheckoutRequest', { listing: `pl_${HEX32.toUpperCase()}`, tier: 'gold' }), [
      { name: 'listing', reason: 'must be a partner listing id: pl_ and 32 lowercase hex digits' },
      { name: 'tier', reason: 'must be one of basic or plus' },
    ]);
    valid('OpenBillingPortalRequest', { listing: LISTING });
    assert.deepEqual(offending('OpenBillingPortalRequest', { listing: HEX32 }), ['listing']);
    assert.deepEqual(offending('OpenBillingPortalRequest', {}), ['listing']);
  });
});

describe('site-page answers', () => {
  it('confirm and rate answers', () => {
    valid('ConfirmToiletAnswer', { id: 'n1', last_confirmed_at: '2026-11-20T10:00:00Z', confirmations: 1 });
    assert.deepEqual(offending('ConfirmToiletAnswer', { id: 'n1', last_confirmed_at: 'yesterday', confirmations: 0 }), ['last_confirmed_at', 'confirmations']);
    valid('RateToiletAnswer', { id: 'n1', rating: 4, cleanliness: { average: 4, count: 1 } });
    assert.deepEqual(offending('RateToiletAnswer', { id: 'n1', rating: 4, cleanliness: null }), ['cleanliness']);
  });

  it('claim, profile, hosted page and webhook answers', () => {
    valid('ClaimToiletAnswer', { id: 'c1', status: 'pending' });
    assert.deepEqual(findInvalid('ClaimToiletAnswer', { id: 'c1', status: 'approved' }), [{ name: 'status', reason: 'must be "pending"' }]);
    valid('PartnerProfileAnswer', { conditions: null, opening_hours: null, closed_until: 0, open_now: true });
    assert.deepEqual(offending('PartnerProfileAnswer', { conditions: null, opening_hours: null, closed_until: 1.5, open_now: 'yes' }), ['closed_until', 'open_now']);
    valid('HostedPageAnswer', { url: 'https://checkout.example.com/c/pay/cs_test_1' });
    assert.deepEqual(offending('HostedPageAnswer', { url: '/pay' }), ['url']);
    valid('WebhookAnswer', { received: true });
    valid('WebhookAnswer', { received: true, duplicate: true });
    assert.deepEqual(offending('WebhookAnswer', { received: false }), ['received']);
    assert.deepEqual(offending('WebhookAnswer', { duplicate: true }), ['received']);
  });

  it('answers whose fields the spec leaves open are objects', () => {
    valid('CreatedAnswer', { id: 's1' });
    assert.deepEqual(offending('CreatedAnswer', 'created'), ['body']);
    valid('WebhookEvent', { id: 'evt_1', type: 'customer.subscription.updated' });
  });
});

describe('validators', () => {
  it('compile for every named schema (the service compiles each on first use)', () => {
    for (const name of Object.keys(SCHEMAS) as SchemaName[]) assert.equal(typeof validatorFor(name), 'function', name);
    assert.equal(validatorFor('ToiletItem')({}), false);
  });
});
