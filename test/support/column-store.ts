// Tests that edit a source database's toilets table by hand (to stage what a later import would write)
// rebuild its column store from the table afterwards, the way the importer derives it, so the server
// loads what the test staged.
import type Database from 'better-sqlite3';
import { ToiletRowsBuilder } from '../../importer/toilet-rows.js';
import { ToiletColumnsBuilder } from '../../importer/toilet-columns.js';
import { writeToiletColumns } from '../../src/source/columns.js';
import type { ToiletFacts } from '../../src/rules/facts.js';

/** A row of a source database's toilets table. */
export interface SourceRow {
  id: string;
  kind: string;
  lat: number;
  lon: number;
  name: string | null;
  operator: string | null;
  access: ToiletFacts['access'];
  access_rule: ToiletFacts['access_rule'];
  scheme_name: string | null;
  fee_required: number | null;
  fee_amount: number | null;
  fee_currency: string | null;
  opening_hours: string | null;
  wheelchair: ToiletFacts['wheelchair'];
  changing_table: ToiletFacts['changing_table'];
  gender: string;
  checked: string | null;
  quality: number;
  last_edited: number | null;
  time_zone: string;
  country: string | null;
  tags: string;
  /** Null in a database the previous layout wrote (it has no such column) and for toilets without details. */
  details?: string | null;
}

export function rebuildColumnStore(db: Database.Database): void {
  const rows = new ToiletRowsBuilder();
  for (const r of db.prepare('SELECT * FROM toilets').all() as SourceRow[]) {
    rows.add({
      id: r.id,
      host: r.kind === 'host_toilet',
      lat: r.lat,
      lon: r.lon,
      facts: {
        name: r.name,
        operator: r.operator,
        access: r.access,
        access_rule: r.access_rule,
        scheme_name: r.scheme_name,
        fee: { required: r.fee_required === null ? null : r.fee_required === 1, amount: r.fee_amount, currency: r.fee_currency },
        opening_hours: r.opening_hours,
        wheelchair: r.wheelchair,
        changing_table: r.changing_table,
        gender: (r.gender ? r.gender.split(',') : []) as ToiletFacts['gender'],
        checked: r.checked,
        quality: r.quality,
      },
      lastEdited: r.last_edited,
      timeZone: r.time_zone,
      country: r.country,
      tags: r.tags,
      details: r.details ?? null,
    });
  }
  const columns = new ToiletColumnsBuilder();
  columns.add(rows.take().rows);
  db.prepare('DELETE FROM toilet_columns').run();
  writeToiletColumns(db, columns.blobs(new Set()));
}
