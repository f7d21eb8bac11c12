// Reads every toilet of a source database (its column store, src/source/columns.ts), and the approved
// community toilets after them, into a ToiletTable (opening hours compile on first use).
import type Database from 'better-sqlite3';
import { code, createTable, genderBits, idKey, refreshTraits, type ToiletTable } from './table.js';
import type { CommunityToilet } from './overlay.js';
import { ItemTextWriter, joinItemTexts, NUMBER_COLUMNS, readToiletColumns, TEXT_COLUMNS, type ItemText, type NumberColumn, type StoredColumns } from '../source/columns.js';

export interface LoadedToilets {
  table: ToiletTable;
  /** New id of each id the source saw redrawn (source table id_moves): overlay rows follow the toilet. */
  movedTo: Map<string, string>;
}

/** `db` null: no source database yet, only community toilets. */
export function loadToilets(db: Database.Database | null, community: readonly CommunityToilet[] = []): LoadedToilets {
  const stored = db === null ? null : readToiletColumns(db);
  const sourceCount = stored?.count ?? 0;
  const table = createTable(sourceCount + community.length);
  if (stored) copyColumns(table, stored);
  if (stored) {
    table.idOrder = stored.idOrder;
    table.textFacts = stored.textFacts;
  }
  community.forEach((toilet, i) => fillCommunityRow(table, sourceCount + i, toilet));
  table.itemText = withCommunityText(stored?.itemText ?? null, community);
  for (let row = 0; row < table.count; row++) refreshTraits(table, row);
  const moves = db === null ? [] : (db.prepare('SELECT old_id, new_id FROM id_moves').raw(true).all() as [string, string][]);
  return { table, movedTo: new Map(moves) };
}

function copyColumns(table: ToiletTable, stored: StoredColumns): void {
  for (const name of Object.keys(NUMBER_COLUMNS) as NumberColumn[]) table[name].set(stored.numbers[name]);
  for (const name of TEXT_COLUMNS) {
    const { codes, values } = stored.texts[name];
    const column = table[name];
    for (let row = 0; row < stored.count; row++) column[row] = codes[row] === 0 ? null : values[codes[row] - 1];
  }
}

function fillCommunityRow(table: ToiletTable, row: number, c: CommunityToilet): void {
  const key = idKey(c.id);
  if (key < 0) throw new Error(`unexpected community toilet id ${JSON.stringify(c.id)}`);
  table.communityRows.set(key, row);
  table.idType[row] = key % 4;
  table.idNumber[row] = Math.floor(key / 4);
  table.lat[row] = c.lat;
  table.lon[row] = c.lon;
  table.name[row] = c.name;
  table.access[row] = code.access(c.access);
  table.accessRule[row] = code.accessRule(c.access_rule);
  table.feeRequired[row] = c.fee_required ?? -1;
  table.feeAmount[row] = Number.NaN;
  table.openingHours[row] = c.opening_hours;
  table.wheelchair[row] = code.wheelchair(c.wheelchair);
  table.changingTable[row] = code.changingTable(c.changing_table);
  table.gender[row] = genderBits('');
  table.lastEdited[row] = c.approved_at;
  table.timeZone[row] = c.time_zone;
  table.country[row] = c.country;
}

/** The source rows' item text followed by that of the community rows. */
function withCommunityText(source: ItemText | null, community: readonly CommunityToilet[]): ItemText {
  const writer = new ItemTextWriter(community.length);
  for (const c of community) writer.add(c.id, c.lat, c.lon, c.name);
  return source === null ? writer.finish() : community.length === 0 ? source : joinItemTexts(source, writer.finish());
}
