// Reads every toilet of a source database (its column store, src/source/columns.ts), and the approved
// community toilets after them, into shared memory: the columns every server thread builds its table over
// (tableOver), and the spatial indexes over them.
import type Database from 'better-sqlite3';
import { code, createSourceTable, genderBits, idKey, type SourceTable } from './table.js';
import { TextColumn } from '../source/text-column.js';
import { startSpatialIndexes, type SpatialIndexes } from './spatial.js';
import type { CommunityToilet } from './overlay.js';
import { ItemTextWriter, joinItemTexts, readDetailsColumn, readToiletColumns, TEXT_COLUMNS, type ItemText } from '../source/columns.js';

export interface LoadedToilets {
  /** The loaded columns, in shared memory. */
  source: SourceTable;
  /** New id of each id the source saw redrawn (source table id_moves): overlay rows follow the toilet. */
  movedTo: Map<string, string>;
  /** Over the loaded columns, in shared memory. */
  indexes: SpatialIndexes;
}

/**
 * `db` null: no source database yet, only community toilets. The spatial indexes are built while the
 * columns other than the positions are read: on a thread of their own from `indexThreadFrom` toilets.
 */
export function loadToilets(db: Database.Database | null, community: readonly CommunityToilet[] = [], indexThreadFrom?: number): LoadedToilets {
  let indexes: (() => SpatialIndexes) | undefined;
  const startIndexes = (lat: Float64Array, lon: Float64Array) => {
    const first = lat.length - community.length;
    community.forEach((c, i) => ([lat[first + i], lon[first + i]] = [c.lat, c.lon]));
    indexes = startSpatialIndexes({ count: lat.length, lat, lon }, indexThreadFrom);
  };
  const stored = db === null ? null : readToiletColumns(db, community.length, startIndexes);
  const sourceCount = stored?.count ?? 0;
  const source = createSourceTable(stored === null ? community.length : 0);
  if (stored) {
    source.count = sourceCount + community.length;
    Object.assign(source, stored.numbers);
    for (const name of TEXT_COLUMNS) source[name] = new TextColumn(stored.texts[name].codes, stored.texts[name].values);
    source.idOrder = stored.idOrder;
    source.textFacts = stored.textFacts;
    source.details = readDetailsColumn(db!, sourceCount);
  } else {
    startIndexes(source.lat, source.lon);
  }
  community.forEach((toilet, i) => fillCommunityRow(source, sourceCount + i, toilet));
  source.itemText = withCommunityText(stored?.itemText ?? null, community);
  const moves = db === null ? [] : (db.prepare('SELECT old_id, new_id FROM id_moves').raw(true).all() as [string, string][]);
  return { source, movedTo: new Map(moves), indexes: indexes!() };
}

/** All but the position, which startIndexes wrote. */
function fillCommunityRow(table: SourceTable, row: number, c: CommunityToilet): void {
  const key = idKey(c.id);
  if (key < 0) throw new Error(`unexpected community toilet id ${JSON.stringify(c.id)}`);
  table.communityRows.set(key, row);
  table.idType[row] = key % 4;
  table.idNumber[row] = Math.floor(key / 4);
  table.name.set(row, c.name);
  table.access[row] = code.access(c.access);
  table.accessRule[row] = code.accessRule(c.access_rule);
  table.feeRequired[row] = c.fee_required ?? -1;
  table.feeAmount[row] = Number.NaN;
  table.openingHours.set(row, c.opening_hours);
  table.wheelchair[row] = code.wheelchair(c.wheelchair);
  table.changingTable[row] = code.changingTable(c.changing_table);
  table.gender[row] = genderBits('');
  table.lastEdited[row] = c.approved_at;
  table.timeZone.set(row, c.time_zone);
  table.country.set(row, c.country);
}

/** The source rows' item text followed by that of the community rows. */
function withCommunityText(source: ItemText | null, community: readonly CommunityToilet[]): ItemText {
  const writer = new ItemTextWriter(community.length);
  for (const c of community) writer.add(c.id, c.lat, c.lon, c.name);
  return source === null ? writer.finish() : community.length === 0 ? source : joinItemTexts(source, writer.finish());
}

/**
 * LoadedToilets as another thread receives them (structured cloning shares the SharedArrayBuffers but
 * drops class prototypes): the text columns made TextColumns again.
 */
export function reviveLoaded(posted: LoadedToilets): LoadedToilets {
  const source = { ...posted.source };
  for (const name of TEXT_COLUMNS) source[name] = new TextColumn(posted.source[name].codes, posted.source[name].values);
  return { ...posted, source };
}
