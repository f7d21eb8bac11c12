// What a moderator does, in one module for the command line (moderate-cli.ts) and the site's moderator
// queue (routes.ts):
// review the queues with context, approve or reject submissions and reports, lock or unlock a fact's
// value, mark a toilet gone. Every action is one transaction of the overlay store (store.ts: SQLite or
// PostgreSQL) with its entry in the moderation log (time, action, target, reason) and in the change log, by
// which every running server applies it (src/community/live.ts).
import { FACT_ATTRIBUTES, type FactAttribute } from '../rules/facts.js';
import type { ToiletCatalog } from '../toilets/catalog.js';
import { SOURCE_OF_ID_TYPE, toiletId, Trait } from '../toilets/table.js';
import { haverSinToMeters, metersToHaverSin } from '../index/great-circle.js';
import { countryAt, timeZoneAt } from '../geo/where.js';
import type { ModerationStore, ModerationTransaction, ProposedToilet, ReportRow } from './store.js';
import { normalizeVote } from '../community/normal-form.js';
import type { PointFilter } from '../index/point-filter.js';

/** A refused action; the message says why and what to do. */
export class ModerationError extends Error {}

/** How far around a submission the queue looks for toilets already listed. */
const NEARBY_METERS = 100;
const NEARBY_COUNT = 3;

export interface QueuedSubmission extends ProposedToilet {
  id: string;
  submitted_at: string;
  /** Toilets already listed near it: maybe the same one. */
  nearby: { id: string; name: string | null; distance_m: number }[];
}

export interface QueuedReport {
  id: string;
  reported_at: string;
  kind: string;
  note: string | null;
  toilet_id: string;
  /** The toilet as listed now, or null when the current data no longer has it. */
  toilet: { name: string | null; lat: number; lon: number; source: string; gone: boolean } | null;
  /** Open reports on the same toilet, this one included. */
  open_reports: number;
}

/** A toilet most voters say is gone: votes never hide it, a moderator decides (`gone` or a lock on existence yes). */
export interface GoneVotes {
  toilet_id: string;
  name: string | null;
  gone_votes: number;
  /** Votes that it exists, the source's one included. */
  exists_votes: number;
}

/** A value a moderator set for a fact (`lock`, `gone`), in force until `unlock`. */
export interface FactLock {
  toilet_id: string;
  name: string | null;
  fact: string;
  value: string;
  locked_at: string;
}

export interface LogEntry {
  at: string;
  action: string;
  target: string;
  reason: string;
  details: unknown;
}

export interface ModerationOptions {
  baseUrl: string;
  /** OpenStreetMap API base: when set, approving a report on an OpenStreetMap toilet queues an anonymous note. */
  osmNotesApi: string | null;
}

const REPORT_SENTENCE: Record<string, string> = {
  gone: 'is gone',
  closed: 'is closed',
  wrong_place: 'is not where the map puts it',
  wrong_hours: 'has other opening hours than mapped',
};
const OSM_TYPES = ['node', 'way', 'relation'];

export class Moderation {
  constructor(
    private readonly store: ModerationStore,
    private readonly catalog: ToiletCatalog,
    private readonly now: () => number,
    private readonly options: ModerationOptions,
  ) {}

  async submissions(): Promise<QueuedSubmission[]> {
    const pending = await this.store.pendingSubmissions();
    const snapshot = this.catalog.snapshot;
    const rows = new Int32Array(NEARBY_COUNT);
    const haverSins = new Float64Array(NEARBY_COUNT);
    const listed: PointFilter = { mask: Trait.Hidden, required: 0, verify: 0, accept: null };
    return pending.map((s) => {
      const found = snapshot.findNearest(s.lon, s.lat, NEARBY_COUNT, metersToHaverSin(NEARBY_METERS), listed, rows, haverSins);
      const nearby = Array.from({ length: found }, (_, i) => ({
        id: toiletId(snapshot.table, rows[i]),
        name: snapshot.table.name.get(rows[i]),
        distance_m: Math.round(haverSinToMeters(haverSins[i])),
      }));
      const { id, at, lat, lon, name, access, fee, opening_hours, wheelchair, changing_table, note } = s;
      return { id: `sub_${id}`, submitted_at: new Date(at).toISOString(), lat, lon, name, access, fee, opening_hours, wheelchair, changing_table, note, nearby };
    });
  }

  async reports(): Promise<QueuedReport[]> {
    const open = await this.store.openReports();
    const snapshot = this.catalog.snapshot;
    return open.map((r) => {
      const current = snapshot.currentId(r.toilet_id);
      const row = current === null ? -1 : snapshot.loadedRowOf(current);
      const t = snapshot.table;
      const toilet =
        row < 0 ? null : { name: t.name.get(row), lat: t.lat[row], lon: t.lon[row], source: SOURCE_OF_ID_TYPE[t.idType[row]], gone: (t.traits[row] & Trait.Hidden) !== 0 };
      return { id: `rep_${r.id}`, reported_at: new Date(r.at).toISOString(), kind: r.kind, note: r.note, toilet_id: current ?? r.toilet_id, toilet, open_reports: r.open_reports };
    });
  }

  goneVotes(): GoneVotes[] {
    const snapshot = this.catalog.snapshot;
    const found: GoneVotes[] = [];
    for (const [row, overlay] of snapshot.overlays.entries()) {
      const existence = overlay.decided.existence;
      if (existence?.by !== 'votes' || overlay.gone) continue;
      const gone = existence.votes_total! - existence.votes_for!;
      if (gone > existence.votes_for!) found.push({ toilet_id: toiletId(snapshot.table, row), name: snapshot.table.name.get(row), gone_votes: gone, exists_votes: existence.votes_for! });
    }
    return found;
  }

  /** The locks in force, the newest first, each with the toilet's current id and name. */
  async locks(): Promise<FactLock[]> {
    const locks = await this.store.locks();
    const snapshot = this.catalog.snapshot;
    return locks.map((l) => {
      const id = snapshot.currentId(l.toilet_id);
      const row = id === null ? -1 : snapshot.loadedRowOf(id);
      return { toilet_id: id ?? l.toilet_id, name: row < 0 ? null : snapshot.table.name.get(row), fact: l.attribute, value: l.value, locked_at: new Date(l.at).toISOString() };
    });
  }

  /**
   * Approves `sub_<n>` (it becomes toilet c_<n>) or `rep_<n>` (closing it; an OSM note may be queued). Returns
   * what it did. `by`: the moderator's account when the action comes from the site (recorded in the log).
   */
  approve(target: string, reason: string, by?: string): Promise<string> {
    const { kind, number } = parseTarget(target);
    return kind === 'sub' ? this.approveSubmission(number, reason, by) : this.decideReport(number, 'approved', reason, by);
  }

  /** Rejects `sub_<n>` or `rep_<n>`. */
  reject(target: string, reason: string, by?: string): Promise<string> {
    const { kind, number } = parseTarget(target);
    if (kind === 'rep') return this.decideReport(number, 'rejected', reason, by);
    return this.act('reject', target, reason, actor({}, by), async (tx) => {
      await this.decidePending(tx, number, 'rejected');
      return `rejected ${target}`;
    });
  }

  /** Shows `value` for the fact whatever the votes say (provenance.decided by: moderator). */
  lock(toiletId: string, attribute: string, value: string, reason: string, by?: string): Promise<string> {
    const fact = factAttribute(attribute);
    const normal = normalizeVote(fact, value);
    if (!normal.ok) throw new ModerationError(`${attribute} ${JSON.stringify(value)} ${normal.reason}`);
    const id = this.toilet(toiletId);
    return this.act(fact === 'existence' && normal.value === 'gone' ? 'gone' : 'lock', id, reason, actor({ attribute: fact, value: normal.value }, by), async (tx) => {
      await tx.lock(id, fact, normal.value, this.now());
      await tx.logChange(id, this.now());
      return `locked ${fact} of ${id} to ${normal.value}`;
    });
  }

  /** Removes a lock: votes (or the source) decide the fact again. An existence lock brings a gone toilet back. */
  unlock(toiletId: string, attribute: string, reason: string, by?: string): Promise<string> {
    const fact = factAttribute(attribute);
    const id = this.toilet(toiletId);
    return this.act('unlock', id, reason, actor({ attribute: fact }, by), async (tx) => {
      const removed = await tx.unlock(this.catalog.snapshot.aliases(id), fact);
      if (removed === 0) throw new ModerationError(`${id} has no lock on ${fact}`);
      await tx.logChange(id, this.now());
      return `unlocked ${fact} of ${id}`;
    });
  }

  /** Marks a toilet gone: getToilet answers 404 and it leaves every answer (undo: unlock existence). */
  markGone(toiletId: string, reason: string, by?: string): Promise<string> {
    return this.lock(toiletId, 'existence', 'gone', reason, by);
  }

  async history(limit: number): Promise<LogEntry[]> {
    return (await this.store.history(limit)).map((e) => ({
      ...e,
      at: new Date(e.at).toISOString(),
      details: e.details === null ? null : JSON.parse(e.details),
    }));
  }

  private approveSubmission(number: number, reason: string, by: string | undefined): Promise<string> {
    const id = `c_${number}`;
    return this.act('approve', `sub_${number}`, reason, actor({ toilet: id }, by), async (tx) => {
      const s = await this.decidePending(tx, number, 'approved');
      await tx.addToilet({
        id,
        lat: s.lat,
        lon: s.lon,
        name: s.name,
        access: s.access ?? 'unknown',
        access_rule: s.access === 'customers' ? 'customers' : s.fee === 'fee' ? 'fee' : s.fee === 'free' ? 'free' : 'unknown',
        fee_required: s.fee === 'fee' ? 1 : s.fee === 'free' ? 0 : null,
        opening_hours: s.opening_hours,
        wheelchair: s.wheelchair ?? 'unknown',
        changing_table: s.changing_table ?? 'unknown',
        time_zone: timeZoneAt(s.lat, s.lon),
        country: countryAt(s.lat, s.lon),
        approved_at: Math.floor(this.now() / 1000),
      });
      await tx.logChange(null, this.now());
      return `approved sub_${number}: it is toilet ${id}`;
    });
  }

  private decideReport(number: number, status: 'approved' | 'rejected', reason: string, by: string | undefined): Promise<string> {
    const target = `rep_${number}`;
    return this.act(status === 'approved' ? 'approve' : 'reject', target, reason, actor({}, by), async (tx) => {
      const report = await tx.report(number);
      if (!report || !(await tx.decideReport(number, status, this.now()))) throw new ModerationError(`${target} is not an open report; see \`list reports\``);
      await tx.logChange(report.toilet_id, this.now());
      const note = status === 'approved' ? await this.queueOsmNote(tx, report) : null;
      return `${status} ${target}${note ? ` and queued an OpenStreetMap note about ${note}` : ''}`;
    });
  }

  /** Queues an anonymous note for OpenStreetMap mappers when notes are on and the toilet is theirs. The user's note is not sent. */
  private async queueOsmNote(tx: ModerationTransaction, report: ReportRow): Promise<string | null> {
    if (this.options.osmNotesApi === null) return null;
    const snapshot = this.catalog.snapshot;
    const id = snapshot.currentId(report.toilet_id);
    const row = id === null ? -1 : snapshot.loadedRowOf(id);
    const t = snapshot.table;
    if (row < 0 || SOURCE_OF_ID_TYPE[t.idType[row]] !== 'openstreetmap') return null;
    const object = `${OSM_TYPES[t.idType[row]]}/${t.idNumber[row]}`;
    const text =
      `Users of ${this.options.baseUrl} report that this toilet (https://www.openstreetmap.org/${object}) ${REPORT_SENTENCE[report.kind]}. ` +
      `A moderator there found the report plausible but did not check on the ground; please survey and update the map. ${this.options.baseUrl}/t/${id}`;
    await tx.queueNote(report.id, t.lat[row], t.lon[row], text, this.now());
    return object;
  }

  /** Decides a pending submission; refuses one that is not (any more). */
  private async decidePending(tx: ModerationTransaction, number: number, status: 'approved' | 'rejected'): Promise<ProposedToilet> {
    const s = await tx.submission(number);
    if (!s || !(await tx.decideSubmission(number, status, this.now()))) throw new ModerationError(`sub_${number} is not a pending submission; see \`list submissions\``);
    return s;
  }

  /** The current id of a loaded toilet (gone or not). */
  private toilet(toiletId: string): string {
    const id = this.catalog.snapshot.currentId(toiletId);
    if (id === null) throw new ModerationError(`no toilet has the id ${toiletId}`);
    return id;
  }

  /**
   * Runs an action and records it in the moderation log, all in one overlay transaction (account actions,
   * account-moderation.ts, run their accounts-database change inside it).
   */
  async act<T = string>(action: string, target: string, reason: string, details: object, run: (tx: ModerationTransaction) => T | Promise<T>): Promise<T> {
    this.checkReason(reason);
    return this.store.transaction(async (tx) => {
      const outcome = await run(tx);
      await tx.log(this.now(), action, target, reason.trim(), JSON.stringify(details));
      return outcome;
    });
  }

  /**
   * act() for an action whose change is another store's own transaction (a claim, a plan: the partner
   * store): the change is made and committed first, then recorded; a refused change records nothing.
   */
  async actAfter<T = string>(action: string, target: string, reason: string, details: object, run: () => Promise<T>): Promise<T> {
    this.checkReason(reason);
    const outcome = await run();
    await this.store.transaction((tx) => tx.log(this.now(), action, target, reason.trim(), JSON.stringify(details)));
    return outcome;
  }

  private checkReason(reason: string): void {
    if (reason.trim() === '') throw new ModerationError('give a reason (--reason "..."): every action is recorded with one');
  }
}

/** An action's log details, with the moderator's account when a site moderator did it (the CLI is the operator). */
export function actor(details: object, by: string | undefined): object {
  return by === undefined ? details : { ...details, by };
}

function parseTarget(target: string): { kind: 'sub' | 'rep'; number: number } {
  const match = /^(sub|rep)_([1-9][0-9]*)$/.exec(target);
  if (!match) throw new ModerationError(`${target} is neither a submission (sub_<n>) nor a report (rep_<n>)`);
  return { kind: match[1] as 'sub' | 'rep', number: Number(match[2]) };
}

function factAttribute(attribute: string): FactAttribute {
  if (!(FACT_ATTRIBUTES as readonly string[]).includes(attribute)) throw new ModerationError(`${attribute} is not a fact; use one of ${FACT_ATTRIBUTES.join(', ')}`);
  return attribute as FactAttribute;
}
