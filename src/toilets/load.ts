// Reads every toilet of a source database, and the approved community toilets, into a ToiletTable
// (opening hours compile on first use).
import type Database from 'better-sqlite3';
import { code, createTable, genderBits, idKey, refreshTraits, type ToiletTable } from './table.js';
import type { CommunityToilet } from './overlay.js';

const SELECT_TOILETS = `SELECT id, lat, lon, name, operator, access, access_rule, scheme_name, fee_required, fee_amount,
  fee_currency, opening_hours, wheelchair, changing_table, gender, checked, quality, last_edited, time_zone, country
  FROM toilets`;

type Row = [
  id: string, lat: number, lon: number, name: string | null, operator: string | null, access: string, accessRule: string,
  schemeName: string | null, feeRequired: number | null, feeAmount: number | null, feeCurrency: string | null,
  openingHours: string | null, wheelchair: string, changingTable: string, gender: string, checked: string | null,
  quality: number, lastEdited: number | null, timeZone: string, country: string | null,
];

export interface LoadedToilets {
  table: ToiletTable;
  /** Row of each id key (see idKey). */
  rowByKey: Map<number, number>;
  /** New id of each id the source saw redrawn (source table id_moves): overlay rows follow the toilet. */
  movedTo: Map<string, string>;
}

/** `db` null: no source database yet, only community toilets. */
export function loadToilets(db: Database.Database | null, community: readonly CommunityToilet[] = []): LoadedToilets {
  const sourceCount = db === null ? 0 : (db.prepare('SELECT count(*) AS n FROM toilets').get() as { n: number }).n;
  const table = createTable(sourceCount + community.length);
  const rowByKey = new Map<number, number>();
  let row = 0;
  if (db !== null) {
    for (const r of db.prepare(SELECT_TOILETS).raw(true).iterate() as IterableIterator<Row>) {
      if (row === sourceCount) break; // the file is read-only while served; guard anyway
      fillRow(table, rowByKey, row++, r);
    }
  }
  for (const c of community) {
    const r: Row = [c.id, c.lat, c.lon, c.name, null, c.access, c.access_rule, null, c.fee_required, null, null, c.opening_hours,
      c.wheelchair, c.changing_table, '', null, 0, c.approved_at, c.time_zone, c.country];
    fillRow(table, rowByKey, row++, r);
  }
  table.count = row;
  const moves = db === null ? [] : (db.prepare('SELECT old_id, new_id FROM id_moves').raw(true).all() as [string, string][]);
  return { table, rowByKey, movedTo: new Map(moves) };
}

function fillRow(table: ToiletTable, rowByKey: Map<number, number>, row: number, r: Row): void {
  const key = idKey(r[0]);
  if (key < 0) throw new Error(`unexpected toilet id ${JSON.stringify(r[0])}`);
  rowByKey.set(key, row);
  table.idType[row] = key % 4;
  table.idNumber[row] = Math.floor(key / 4);
  table.lat[row] = r[1];
  table.lon[row] = r[2];
  table.name[row] = r[3];
  table.operator[row] = r[4];
  table.access[row] = code.access(r[5]);
  table.accessRule[row] = code.accessRule(r[6]);
  table.schemeName[row] = r[7];
  table.feeRequired[row] = r[8] === null ? -1 : r[8];
  table.feeAmount[row] = r[9] ?? Number.NaN;
  table.feeCurrency[row] = r[10];
  table.openingHours[row] = r[11];
  table.wheelchair[row] = code.wheelchair(r[12]);
  table.changingTable[row] = code.changingTable(r[13]);
  table.gender[row] = r[14] ? genderBits(r[14]) : 0;
  table.checked[row] = r[15];
  table.quality[row] = r[16];
  table.lastEdited[row] = r[17] ?? 0;
  if (r[11] !== null) {
    table.timeZone[row] = r[18];
    table.country[row] = r[19];
  }
  refreshTraits(table, row);
}
