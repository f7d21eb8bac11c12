// With DATABASE_URL, what the overlay source reads (overlay-source.ts) is not in PostgreSQL but in this copy
// in memory: a SQLite database of the overlay's own layout holding only the rows reads need (confirmations,
// ratings, votes, locks, open reports without their notes, community toilets). It is loaded whole at start
// and per toilet when the change log names it (postgres-store.ts), so a snapshot is built with the same
// synchronous queries as from OVERLAY_DB, read threads touch no database, and a read never waits for
// PostgreSQL, which may be down while reads go on.
import Database from 'better-sqlite3';
import { migrate } from '../storage/migrations.js';
import { OVERLAY_MIGRATIONS } from './migrations.js';

/** The mirrored tables, the columns copied and what selects a toilet's rows; `where` also filters a full load. */
const TABLES = [
  { name: 'confirmations', columns: ['toilet_id', 'at'], where: '' },
  { name: 'ratings', columns: ['toilet_id', 'person', 'rating', 'at'], where: '' },
  { name: 'votes', columns: ['toilet_id', 'attribute', 'person', 'value', 'at'], where: '' },
  { name: 'locks', columns: ['toilet_id', 'attribute', 'value', 'at'], where: '' },
  { name: 'reports', columns: ['id', 'toilet_id', 'kind', 'at', 'status'], where: "status = 'open'" },
] as const;

const COMMUNITY_TOILET_COLUMNS = ['id', 'lat', 'lon', 'name', 'access', 'access_rule', 'fee_required', 'opening_hours', 'wheelchair', 'changing_table', 'time_zone', 'country', 'approved_at'];

/** Runs a SELECT on PostgreSQL and resolves with its rows as arrays of the columns asked for. */
export type RowSource = (text: string, values: unknown[]) => Promise<unknown[][]>;

export class OverlayMirror {
  readonly db = new Database(':memory:');
  private readonly insert;
  private readonly insertToilet;

  constructor() {
    migrate(this.db, OVERLAY_MIGRATIONS);
    const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');
    this.insert = new Map(TABLES.map((t) => [t.name, this.db.prepare(`INSERT INTO ${t.name} (${t.columns.join(', ')}) VALUES (${placeholders(t.columns.length)})`)]));
    this.insertToilet = this.db.prepare(`INSERT INTO community_toilets (${COMMUNITY_TOILET_COLUMNS.join(', ')}) VALUES (${placeholders(COMMUNITY_TOILET_COLUMNS.length)})`);
  }

  /** Replaces every row with PostgreSQL's (`schema`: where the tables are). */
  async loadAll(read: RowSource, schema: string): Promise<void> {
    const fetched = await Promise.all(TABLES.map((t) => read(`SELECT ${t.columns.join(', ')} FROM ${schema}.${t.name}${t.where ? ` WHERE ${t.where}` : ''}`, [])));
    const toilets = await this.fetchToilets(read, schema);
    this.db.transaction(() => {
      TABLES.forEach((t, i) => {
        this.db.prepare(`DELETE FROM ${t.name}`).run();
        for (const row of fetched[i]) this.insert.get(t.name)!.run(...row);
      });
      this.replaceToilets(toilets);
    })();
  }

  /** Replaces the rows of these toilets (stored ids) with PostgreSQL's; with `communityToilets` those too. */
  async load(read: RowSource, schema: string, toiletIds: readonly string[], communityToilets: boolean): Promise<void> {
    const fetched =
      toiletIds.length === 0
        ? []
        : await Promise.all(TABLES.map((t) => read(`SELECT ${t.columns.join(', ')} FROM ${schema}.${t.name} WHERE toilet_id = ANY($1)${t.where ? ` AND ${t.where}` : ''}`, [toiletIds])));
    const toilets = communityToilets ? await this.fetchToilets(read, schema) : null;
    this.db.transaction(() => {
      fetched.forEach((rows, i) => {
        const t = TABLES[i];
        const drop = this.db.prepare(`DELETE FROM ${t.name} WHERE toilet_id = ?`);
        for (const id of toiletIds) drop.run(id);
        for (const row of rows) this.insert.get(t.name)!.run(...row);
      });
      if (toilets !== null) this.replaceToilets(toilets);
    })();
  }

  close(): void {
    this.db.close();
  }

  private fetchToilets(read: RowSource, schema: string): Promise<unknown[][]> {
    return read(`SELECT ${COMMUNITY_TOILET_COLUMNS.join(', ')} FROM ${schema}.community_toilets ORDER BY ordinal`, []);
  }

  private replaceToilets(rows: unknown[][]): void {
    this.db.prepare('DELETE FROM community_toilets').run();
    for (const row of rows) this.insertToilet.run(...row);
  }
}
