import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery, type QueryResult } from '../../src/schemas/query.js';
import type { AreaParams, FindParams } from '../../src/schemas/params.js';
import type { InvalidParam } from '../../src/schemas/resources.js';

function accepted<T>(result: QueryResult<T>): T {
  if (!result.ok) assert.fail(`expected the query to be accepted, got ${JSON.stringify(result.invalid)}`);
  return result.params;
}

function rejected<T>(result: QueryResult<T>): InvalidParam[] {
  if (result.ok) assert.fail(`expected the query to be rejected, got ${JSON.stringify(result.params)}`);
  return result.invalid;
}

const find = (query: string | undefined) => parseQuery('findToiletsNear', query);
const area = (query: string | undefined) => parseQuery('listToiletsInArea', query);
const BOX = 'bbox=13.3,52.5,13.4,52.6';

/** The reason given for `name`, asserting it is the only offending parameter. */
function onlyReason<T>(result: QueryResult<T>, name: string): string {
  const invalid = rejected(result);
  assert.deepEqual(
    invalid.map((entry) => entry.name),
    [name],
  );
  return invalid[0].reason;
}

describe('parseQuery findToiletsNear', () => {
  it('applies the defaults and leaves unsent optional parameters out', () => {
    const expected: FindParams = { limit: 5, open_now: false, wheelchair: false, changing_table: false, free: false, no_purchase_needed: false };
    assert.deepEqual(accepted(find('')), expected);
    assert.deepEqual(accepted(find(undefined)), expected);
  });

  it('types a typical query', () => {
    assert.deepEqual(accepted(find('lat=52.52&lon=13.405&limit=7&wheelchair=true&free=false')), {
      lat: 52.52,
      lon: 13.405,
      limit: 7,
      open_now: false,
      wheelchair: true,
      changing_table: false,
      free: false,
      no_purchase_needed: false,
    });
  });

  it('accepts place at 2 and 200 characters and rejects 1 and 201, counting characters rather than UTF-16 units', () => {
    assert.equal(accepted(find('place=ab')).place, 'ab');
    assert.equal(accepted(find(`place=${'a'.repeat(200)}`)).place, 'a'.repeat(200));
    assert.equal(onlyReason(find('place=a'), 'place'), 'must be text of 2 to 200 characters');
    assert.equal(onlyReason(find(`place=${'a'.repeat(201)}`), 'place'), 'must be text of 2 to 200 characters');
    const toilet = encodeURIComponent('🚽');
    assert.equal(accepted(find(`place=${toilet.repeat(2)}`)).place, '🚽🚽');
    assert.equal(accepted(find(`place=${toilet.repeat(200)}`)).place, '🚽'.repeat(200));
    onlyReason(find(`place=${toilet}`), 'place');
    onlyReason(find(`place=${toilet.repeat(201)}`), 'place');
    onlyReason(find('place='), 'place');
  });

  it('accepts two-letter countries in either case and nothing else', () => {
    assert.equal(accepted(find('place=Porto&country=pt')).country, 'pt');
    assert.equal(accepted(find('place=Porto&country=PT')).country, 'PT');
    for (const country of ['P', 'PRT', 'P1', '', 'ß1']) {
      assert.equal(onlyReason(find(`place=Porto&country=${encodeURIComponent(country)}`), 'country'), 'must be a two-letter country code (ISO 3166-1 alpha-2)');
    }
  });

  it('accepts lat and lon at their bounds and rejects just past them', () => {
    assert.deepEqual(accepted(find('lat=-90&lon=-180')), { ...accepted(find('')), lat: -90, lon: -180 });
    assert.deepEqual(accepted(find('lat=90&lon=180')), { ...accepted(find('')), lat: 90, lon: 180 });
    assert.equal(onlyReason(find('lat=90.0000001&lon=0'), 'lat'), 'must be a number between -90 and 90');
    assert.equal(onlyReason(find('lat=-90.0000001&lon=0'), 'lat'), 'must be a number between -90 and 90');
    assert.equal(onlyReason(find('lat=0&lon=180.0000001'), 'lon'), 'must be a number between -180 and 180');
    assert.equal(onlyReason(find('lat=0&lon=-180.0000001'), 'lon'), 'must be a number between -180 and 180');
  });

  it('reads numbers in JSON notation only', () => {
    assert.equal(accepted(find('lat=1e-7&lon=0')).lat, 1e-7);
    assert.equal(accepted(find('lat=-0.5&lon=0')).lat, -0.5);
    for (const text of ['abc', '', '0x10', ' 5', '5 ', '+5', '.5', '5.', 'NaN', 'Infinity', '1e999', '1,5']) {
      assert.equal(onlyReason(find(`lat=${encodeURIComponent(text)}&lon=0`), 'lat'), 'must be a number between -90 and 90', `lat=${text}`);
    }
  });

  it('accepts limit 1..20 as an integer and rejects 0, 21 and fractions', () => {
    assert.equal(accepted(find('limit=1')).limit, 1);
    assert.equal(accepted(find('limit=20')).limit, 20);
    assert.equal(accepted(find('limit=2e1')).limit, 20);
    for (const limit of ['0', '21', '5.5', '-1', 'five']) {
      assert.equal(onlyReason(find(`limit=${limit}`), 'limit'), 'must be an integer between 1 and 20');
    }
  });

  it('accepts exactly true and false for each filter', () => {
    for (const filter of ['open_now', 'wheelchair', 'changing_table', 'free', 'no_purchase_needed'] as const) {
      assert.equal(accepted(find(`${filter}=true`))[filter], true);
      assert.equal(accepted(find(`${filter}=false`))[filter], false);
      for (const text of ['TRUE', 'True', '1', '0', 'yes', '']) {
        assert.equal(onlyReason(find(`${filter}=${text}`), filter), 'must be true or false');
      }
      assert.equal(onlyReason(find(filter), filter), 'must be true or false');
    }
  });

  it('asks for lat and lon together', () => {
    assert.equal(onlyReason(find('lat=52.5'), 'lon'), 'send lon together with lat');
    assert.equal(onlyReason(find('lon=13.4'), 'lat'), 'send lat together with lon');
    assert.deepEqual(rejected(find('lat=95')), [
      { name: 'lat', reason: 'must be a number between -90 and 90' },
      { name: 'lon', reason: 'send lon together with lat' },
    ]);
  });

  it('names unknown parameters with a hint when one is close to a real name', () => {
    assert.equal(onlyReason(find('whelchair=true'), 'whelchair'), 'unknown parameter; did you mean wheelchair?');
    assert.equal(onlyReason(find('wheelcahir=true'), 'wheelcahir'), 'unknown parameter; did you mean wheelchair?');
    assert.equal(onlyReason(find('Limit=3'), 'Limit'), 'unknown parameter; did you mean limit?');
    assert.equal(onlyReason(find('lan=3'), 'lan'), 'unknown parameter; did you mean lat or lon?');
    assert.equal(onlyReason(find('open-now=true'), 'open-now'), 'unknown parameter; did you mean open_now?');
    assert.equal(
      onlyReason(find('bbox=1,2,3,4'), 'bbox'),
      'unknown parameter; known parameters are place, country, lat, lon, limit, open_now, wheelchair, changing_table, free and no_purchase_needed',
    );
    assert.match(onlyReason(find(`${'x'.repeat(5000)}=1`), 'x'.repeat(5000)), /^unknown parameter; known parameters are/);
  });

  it('rejects a repeated parameter, even with the same value', () => {
    assert.equal(onlyReason(find('limit=3&limit=3'), 'limit'), 'sent more than once; send it once');
    assert.equal(onlyReason(find('place=Porto&place=Lisboa'), 'place'), 'sent more than once; send it once');
    assert.equal(onlyReason(find('foo=1&foo=2'), 'foo'), 'unknown parameter; known parameters are place, country, lat, lon, limit, open_now, wheelchair, changing_table, free and no_purchase_needed');
  });

  it('lists every offending parameter, not just the first', () => {
    const invalid = rejected(find('place=x&country=xyz&lat=100&limit=0&limit=2&wheelchair=yes&colour=red'));
    assert.deepEqual(invalid.map((entry) => entry.name).sort(), ['colour', 'country', 'lat', 'limit', 'lon', 'place', 'wheelchair']);
  });

  it('decodes percent-encoding and + as space in names and values', () => {
    assert.equal(accepted(find('place=K%C3%B6ln+Hbf')).place, 'Köln Hbf');
    assert.equal(accepted(find('place=K%C3%B6ln%20Hbf')).place, 'Köln Hbf');
    assert.equal(accepted(find('place=A%2BB')).place, 'A+B');
    assert.equal(accepted(find('place=Fish%26Chips')).place, 'Fish&Chips');
    assert.equal(accepted(find('place=a%3Db')).place, 'a=b');
    assert.equal(accepted(find('place=a=b')).place, 'a=b');
    assert.deepEqual(accepted(find('%6Cat=1&%6c%6fn=2')), { ...accepted(find('')), lat: 1, lon: 2 });
    assert.equal(accepted(find('open%5Fnow=true')).open_now, true);
    assert.equal(onlyReason(find('plac+e=x'), 'plac e'), 'unknown parameter; did you mean place?');
  });

  it('rejects broken percent-encoding', () => {
    assert.equal(onlyReason(find('place=%E0%A4%A'), 'place'), 'the value is not valid percent-encoding');
    assert.equal(onlyReason(find('place=100%'), 'place'), 'the value is not valid percent-encoding');
    assert.equal(onlyReason(find('pl%ZZace=Porto'), 'pl%ZZace'), 'the name is not valid percent-encoding');
    // an undecodable lat still counts as sent, so lon is not also asked for
    assert.deepEqual(rejected(find('lat=%FF&lon=2')), [{ name: 'lat', reason: 'the value is not valid percent-encoding' }]);
  });

  it('ignores empty pieces between ampersands', () => {
    assert.deepEqual(accepted(find('&&lat=1&&lon=2&')), { ...accepted(find('')), lat: 1, lon: 2 });
  });
});

describe('parseQuery listToiletsInArea', () => {
  const box = (bbox: string) => area(`bbox=${bbox}`);
  const parsedBox = (bbox: string) => accepted(box(bbox)).bbox;

  it('requires bbox', () => {
    assert.equal(onlyReason(area(''), 'bbox'), 'is required; send four comma-separated decimal numbers: west,south,east,north');
    assert.equal(onlyReason(area('limit=5'), 'bbox'), 'is required; send four comma-separated decimal numbers: west,south,east,north');
  });

  it('parses the box and applies the defaults', () => {
    const expected: AreaParams = {
      bbox: { west: 13.3, south: 52.5, east: 13.4, north: 52.6 },
      limit: 100,
      open_now: false,
      wheelchair: false,
      changing_table: false,
      free: false,
      no_purchase_needed: false,
    };
    assert.deepEqual(accepted(area(BOX)), expected);
    assert.deepEqual(parsedBox('-9.15,-38.75,-9.1,-38.7'), { west: -9.15, south: -38.75, east: -9.1, north: -38.7 });
  });

  it('accepts limit 1..200 and rejects 0 and 201', () => {
    assert.equal(accepted(area(`${BOX}&limit=1`)).limit, 1);
    assert.equal(accepted(area(`${BOX}&limit=200`)).limit, 200);
    assert.equal(onlyReason(area(`${BOX}&limit=0`), 'limit'), 'must be an integer between 1 and 200');
    assert.equal(onlyReason(area(`${BOX}&limit=201`), 'limit'), 'must be an integer between 1 and 200');
  });

  it('wants exactly four decimal numbers', () => {
    for (const bbox of ['13.3,52.5,13.4', '13.3,52.5,13.4,52.6,1', 'a,b,c,d', '13.3, 52.5,13.4,52.6', '13.3,52.5,13.4,52.6,', '1e-3,0,0.1,0.1', '', '13.3;52.5;13.4;52.6']) {
      assert.equal(onlyReason(box(encodeURIComponent(bbox)), 'bbox'), 'must be four comma-separated decimal numbers: west,south,east,north', bbox);
    }
  });

  it('keeps each corner inside WGS84', () => {
    assert.equal(onlyReason(box('-180.1,0,-180,0.1'), 'bbox'), 'west must be a number between -180 and 180');
    assert.equal(onlyReason(box('0,89.95,0.1,90.05'), 'bbox'), 'north must be a number between -90 and 90');
    assert.deepEqual(parsedBox('179.8,89.8,180,90'), { west: 179.8, south: 89.8, east: 180, north: 90 });
  });

  it('wants west less than east and south less than north', () => {
    assert.equal(onlyReason(box('13.4,52.5,13.3,52.6'), 'bbox'), 'west must be less than east');
    assert.equal(onlyReason(box('13.3,52.5,13.3,52.6'), 'bbox'), 'west must be less than east');
    assert.equal(onlyReason(box('13.3,52.6,13.4,52.5'), 'bbox'), 'south must be less than north');
    assert.equal(onlyReason(box('13.4,52.6,13.3,52.5'), 'bbox'), 'west must be less than east; south must be less than north');
  });

  it('accepts sides of exactly 0.2 degrees although their float differences exceed 0.2', () => {
    assert.ok(13.4 - 13.2 > 0.2 && 52.7 - 52.5 > 0.2, 'the premise: float subtraction overshoots');
    assert.deepEqual(parsedBox('13.2,52.5,13.4,52.7'), { west: 13.2, south: 52.5, east: 13.4, north: 52.7 });
    assert.deepEqual(parsedBox('-0.1,-0.1,0.1,0.1'), { west: -0.1, south: -0.1, east: 0.1, north: 0.1 });
    assert.deepEqual(parsedBox('0.1,0.1,0.30000,0.3'), { west: 0.1, south: 0.1, east: 0.3, north: 0.3 });
  });

  it('rejects sides just over 0.2 degrees and says how large the box is', () => {
    assert.equal(onlyReason(box('13.3,52.5,13.5000001,52.6'), 'bbox'), 'each side of the box may be at most 0.2 degrees; this one is 0.2000001 wide');
    assert.equal(onlyReason(box('13.3,52.5,13.4,52.7000001'), 'bbox'), 'each side of the box may be at most 0.2 degrees; this one is 0.2000001 tall');
    // 0.2 + 1e-17 is 0.2 as a float; only decimal arithmetic sees it is over
    assert.equal(onlyReason(box('0.1,0,0.30000000000000001,0.1'), 'bbox'), 'each side of the box may be at most 0.2 degrees; this one is 0.20000000000000001 wide');
    assert.equal(onlyReason(box('13.3,52.5,13.65,52.6'), 'bbox'), 'each side of the box may be at most 0.2 degrees; this one is 0.35 wide');
    assert.equal(onlyReason(box('13,52,14,53.5'), 'bbox'), 'each side of the box may be at most 0.2 degrees; this one is 1 wide and 1.5 tall');
  });

  it('lists a bad box together with other offending parameters', () => {
    const invalid = rejected(area('bbox=13,52,14,53&limit=500&free=1&place=Porto'));
    assert.deepEqual(invalid.map((entry) => entry.name).sort(), ['bbox', 'free', 'limit', 'place']);
  });
});
