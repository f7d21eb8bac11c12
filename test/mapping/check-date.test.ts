// Doc §3.2: provenance.checked from check/survey dates.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkedMonth, type Tags } from '../../importer/mapping/index.js';
import { tagText, testFactsRows } from './rows.js';

const EXTRACT = Date.UTC(2024, 5, 10); // 2024-06-10

// Every row also with the tags' JSON text (the importer passes it to skip tags without a check key).
function testRows(rows: readonly (readonly [Tags, string | null])[], extractDate: number | null = EXTRACT): void {
  for (const [tags, expected] of rows) {
    test(`${tagText(tags)} → ${expected}`, () => {
      assert.equal(checkedMonth(tags, extractDate), expected);
      assert.equal(checkedMonth(tags, extractDate, undefined, JSON.stringify(tags)), expected);
    });
  }
}

describe('§3.2 keys that count as a check', () => {
  testRows([
    [{ check_date: '2023-05-17' }, '2023-05'],
    [{ 'check_date:opening_hours': '2023-05-17' }, '2023-05'],
    [{ 'check_date:wheelchair': '2022-01-02' }, '2022-01'],
    [{ 'survey:date': '2014-06' }, '2014-06'],
    [{ survey_date: '2019-09-01' }, '2019-09'],
    [{ last_checked: '2020-02-02' }, '2020-02'],
    [{ lastcheck: '2020-03-03' }, '2020-03'],
    [{ 'checked_exists:date': '2021-04-04' }, '2021-04'],
    [{ 'check_date:existence': '2021-05-05' }, '2021-05'],
    [{ 'opening_hours:check_date': '2021-06-06' }, '2021-06'],
    // Not checks: imagery date, notes.
    [{ 'source:date': '2023-01-01' }, null],
    [{ note: 'checked 2023-01-01' }, null],
    [{}, null],
    // The latest date wins across keys.
    [{ check_date: '2019-05-01', 'survey:date': '2022-08-30' }, '2022-08'],
    [{ check_date: '2023-05-01', 'survey:date': '2014-06' }, '2023-05'],
  ]);
});

describe('§3.2 date formats', () => {
  testRows([
    [{ check_date: '2023-05' }, '2023-05'],
    [{ check_date: '2023-05-17T10:20:00Z' }, '2023-05'],
    [{ check_date: ' 2023-5-7 ' }, '2023-05'],
    [{ check_date: '17.05.2023' }, '2023-05'],
    [{ check_date: '7.5.2023' }, '2023-05'],
    // DD/MM/YYYY vs MM/DD/YYYY: only when one part is above 12 (or both parts are equal).
    [{ check_date: '17/05/2023' }, '2023-05'],
    [{ check_date: '05/17/2023' }, '2023-05'],
    [{ check_date: '06/06/2023' }, '2023-06'],
    [{ check_date: '05/06/2023' }, null],
    [{ check_date: '07/2016' }, '2016-07'],
    [{ check_date: '2023' }, null],
    [{ check_date: '2023-02-30' }, null],
    [{ check_date: '2024-02-29' }, '2024-02'],
    [{ check_date: '2023-13-01' }, null],
    [{ check_date: '32.01.2023' }, null],
    [{ check_date: 'last summer' }, null],
    // Lists take the latest item.
    [{ check_date: '2021-05-01;2023-02-03;2022-12-31' }, '2023-02'],
    [{ check_date: '2021-05-01; yesterday' }, '2021-05'],
    // Before 2004 or after the extract date: rejected.
    [{ check_date: '2003-12-31' }, null],
    [{ check_date: '2004-01-01' }, '2004-01'],
    [{ check_date: '2024-06-10' }, '2024-06'],
    [{ check_date: '2024-06-11' }, null],
    [{ check_date: '2024-06' }, '2024-06'],
    [{ check_date: '2024-07' }, null],
    [{ check_date: '2031-01-01', 'survey:date': '2020-01-01' }, '2020-01'],
  ]);
  testRows([[{ check_date: '2031-01-01' }, '2031-01']], null);
});

describe('§3.2 host toilets: a host check only when no toilet-specific date exists', () => {
  const host = (tags: Tags): string | null => {
    const answer = checkedMonth(tags, EXTRACT, tags);
    assert.equal(checkedMonth(tags, EXTRACT, tags, JSON.stringify(tags)), answer);
    return answer;
  };
  const rows: (readonly [Tags, string | null])[] = [
    [{ amenity: 'cafe', toilets: 'yes', check_date: '2023-01-01', 'toilets:check_date': '2020-03-01' }, '2020-03'],
    [{ amenity: 'cafe', toilets: 'yes', check_date: '2023-01-01', 'check_date:toilets': '2021-04-01' }, '2021-04'],
    [{ amenity: 'cafe', toilets: 'yes', check_date: '2023-01-01', 'toilets:wheelchair:check_date': '2019-05-01' }, '2019-05'],
    [{ amenity: 'cafe', toilets: 'yes', check_date: '2023-01-01' }, '2023-01'],
    [{ amenity: 'cafe', toilets: 'yes', 'check_date:opening_hours': '2022-02-02' }, '2022-02'],
    [{ amenity: 'cafe', toilets: 'yes', check_date: '2023-01-01', 'toilets:check_date': '2031-01-01' }, '2023-01'],
  ];
  for (const [tags, expected] of rows) test(`host ${tagText(tags)} → ${expected}`, () => assert.equal(host(tags), expected));
});

describe('§3.2 through mapToiletTags (context.extractDate, context.host)', () => {
  testFactsRows([
    { extractDate: EXTRACT, tags: { amenity: 'toilets', check_date: '2024-07-01', 'survey:date': '2023-03' }, expect: { checked: '2023-03' } },
    { tags: { amenity: 'toilets', check_date: '2031-01-01' }, expect: { checked: '2031-01' } },
    { host: true, extractDate: EXTRACT, tags: { shop: 'mall', toilets: 'yes', check_date: '2023-01-01', 'toilets:check_date': '2020-03-01' }, expect: { checked: '2020-03' } },
  ]);
});
