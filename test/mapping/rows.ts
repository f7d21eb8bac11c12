// Table-driven helpers: each row reads like a line of docs/osm-toilet-tags.md (tags → expected fields).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QualityFlag, type ToiletFacts } from '../../src/rules/facts.js';
import { mapToiletTags, type Tags } from '../../importer/mapping/index.js';

export type FlagName = keyof typeof QualityFlag;

export interface FactsRow {
  tags: Tags;
  /** A host toilet (toilets=yes on another feature); default standalone. */
  host?: boolean;
  country?: string | null;
  extractDate?: number;
  expect: Partial<ToiletFacts>;
  /** When given, exactly these QualityFlag bits must be set. */
  flags?: FlagName[];
}

export function tagText(tags: Tags): string {
  const text = Object.entries(tags)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  return text === '' ? '(no tags)' : text;
}

export function flagNames(quality: number): FlagName[] {
  return (Object.keys(QualityFlag) as FlagName[]).filter((name) => (quality & QualityFlag[name]) !== 0);
}

export function mapRow(row: Pick<FactsRow, 'tags' | 'host' | 'country' | 'extractDate'>): ToiletFacts {
  return mapToiletTags(row.tags, { country: row.country ?? null, host: row.host ?? false, extractDate: row.extractDate ?? null });
}

/** One test per row: the listed fields (and flags, when given) must match. */
export function testFactsRows(rows: readonly FactsRow[]): void {
  for (const row of rows) {
    const where = `${row.host ? 'host ' : ''}${tagText(row.tags)}${row.country ? ` [${row.country}]` : ''}`;
    const expected = JSON.stringify({ ...row.expect, ...(row.flags ? { flags: row.flags } : {}) });
    test(`${where} → ${expected}`, () => {
      const facts = mapRow(row);
      for (const [field, value] of Object.entries(row.expect)) {
        assert.deepEqual(facts[field as keyof ToiletFacts], value, field);
      }
      if (row.flags) assert.deepEqual(flagNames(facts.quality), row.flags, 'quality flags');
    });
  }
}
