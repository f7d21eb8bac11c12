// Reads every toilet of a source database into a ToiletTable, compiling opening hours once per toilet.
import type Database from 'better-sqlite3';
import { code, createTable, genderBits, idKey, refreshTraits, type ToiletTable } from './table.js';
import { compileHours } from '../hours/index.js';

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
}

export function loadToilets(db: Database.Database): LoadedToilets {
  const count = (db.prepare('SELECT count(*) AS n FROM toilets').get() as { n: number }).n;
  const table = createTable(count);
  const rowByKey = new Map<number, number>();
  let row = 0;
  for (const r of db.prepare(SELECT_TOILETS).raw(true).iterate() as IterableIterator<Row>) {
    if (row === count) break; // the file is read-only while served; guard anyway
    const key = idKey(r[0]);
    if (key < 0) throw new Error(`source database holds an unexpected toilet id ${JSON.stringify(r[0])}`);
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
    if (r[11] !== null) table.hours[row] = compileHours(r[11], { lat: r[1], lon: r[2], country: r[19], timeZone: r[18] });
    refreshTraits(table, row);
    row++;
  }
  table.count = row;
  return { table, rowByKey };
}
