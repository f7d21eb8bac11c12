// The overlay store as the read path sees it (OverlaySource): per toilet, the counts and decisions
// the counting rules make of the stored rows, read synchronously from the store's `readable` rows (the
// SQLite file, or with DATABASE_URL their copy in memory: overlay-mirror.ts). Rows stored under an id the toilet had before a redraw
// (source id_moves) count for the toilet under its current id.
import { FACT_ATTRIBUTES, type FactAttribute } from '../rules/facts.js';
import type { CommunityToilet, Decision, OverlaySource, SourceView, ToiletOverlay } from '../toilets/overlay.js';
import type { OverlayStore } from './store.js';
import { windowStart } from './days.js';
import { cleanliness, CONFIRMATION_WINDOW_MONTHS, decideByModerator, decideByVotes, type CountedVote } from './tally.js';
import { sourceVotesOf } from './normal-form.js';

type ConfirmationRow = [toiletId: string, recent: number, last: number];
type RatingRow = [toiletId: string, person: string, rating: number, at: number];
type VoteRow = [toiletId: string, attribute: FactAttribute, person: string, value: string, at: number];
type LockRow = [toiletId: string, attribute: FactAttribute, value: string, at: number];
type ReportRow = [toiletId: string, open: number];

/** Every stored row of one toilet (under all its ids), the latest per person where a person counts once. */
class Collected {
  recentConfirmations = 0;
  lastConfirmed = -1;
  readonly ratings = new Map<string, { rating: number; at: number }>();
  readonly votes = new Map<FactAttribute, Map<string, CountedVote>>();
  readonly locks = new Map<FactAttribute, { value: string; at: number }>();
  openReports = 0;

  confirmation([, recent, last]: ConfirmationRow): void {
    this.recentConfirmations += recent;
    this.lastConfirmed = Math.max(this.lastConfirmed, last);
  }

  rating([, person, rating, at]: RatingRow): void {
    const known = this.ratings.get(person);
    if (!known || known.at < at) this.ratings.set(person, { rating, at });
  }

  vote([, attribute, person, value, at]: VoteRow): void {
    let byPerson = this.votes.get(attribute);
    if (!byPerson) this.votes.set(attribute, (byPerson = new Map()));
    const known = byPerson.get(person);
    if (!known || known.at < at) byPerson.set(person, { value, at });
  }

  lock([, attribute, value, at]: LockRow): void {
    const known = this.locks.get(attribute);
    if (!known || known.at < at) this.locks.set(attribute, { value, at });
  }

  report([, open]: ReportRow): void {
    this.openReports += open;
  }
}

export class CommunityOverlay implements OverlaySource {
  private readonly all;
  private readonly one;
  private readonly selectCommunityToilets;

  constructor(
    store: OverlayStore,
    private readonly now: () => number,
  ) {
    const db = store.readable;
    const confirmations = 'SELECT toilet_id, sum(at >= ?), max(at) FROM confirmations';
    const ratings = 'SELECT toilet_id, person, rating, at FROM ratings';
    const votes = 'SELECT toilet_id, attribute, person, value, at FROM votes';
    const locks = 'SELECT toilet_id, attribute, value, at FROM locks';
    const reports = "SELECT toilet_id, count(*) FROM reports WHERE status = 'open'";
    this.all = {
      confirmations: db.prepare(`${confirmations} GROUP BY toilet_id`).raw(true),
      ratings: db.prepare(ratings).raw(true),
      votes: db.prepare(votes).raw(true),
      locks: db.prepare(locks).raw(true),
      reports: db.prepare(`${reports} GROUP BY toilet_id`).raw(true),
    };
    this.one = {
      confirmations: db.prepare(`${confirmations} WHERE toilet_id = ? GROUP BY toilet_id`).raw(true),
      ratings: db.prepare(`${ratings} WHERE toilet_id = ?`).raw(true),
      votes: db.prepare(`${votes} WHERE toilet_id = ?`).raw(true),
      locks: db.prepare(`${locks} WHERE toilet_id = ?`).raw(true),
      reports: db.prepare(`${reports} AND toilet_id = ? GROUP BY toilet_id`).raw(true),
    };
    this.selectCommunityToilets = db.prepare(
      'SELECT id, lat, lon, name, access, access_rule, fee_required, opening_hours, wheelchair, changing_table, time_zone, country, approved_at FROM community_toilets ORDER BY rowid',
    );
  }

  communityToilets(): CommunityToilet[] {
    return this.selectCommunityToilets.all() as CommunityToilet[];
  }

  *entries(view: SourceView): Iterable<[string, ToiletOverlay]> {
    const nowMs = this.now();
    const groups = new Map<string, Collected>();
    const groupOf = (storedId: string): Collected | null => {
      const id = view.currentId(storedId);
      if (id === null) return null; // not loaded: the rows wait in the database
      let group = groups.get(id);
      if (!group) groups.set(id, (group = new Collected()));
      return group;
    };
    const since = windowStart(nowMs, CONFIRMATION_WINDOW_MONTHS);
    for (const row of this.all.confirmations.all(since) as ConfirmationRow[]) groupOf(row[0])?.confirmation(row);
    for (const row of this.all.ratings.iterate() as IterableIterator<RatingRow>) groupOf(row[0])?.rating(row);
    for (const row of this.all.votes.iterate() as IterableIterator<VoteRow>) groupOf(row[0])?.vote(row);
    for (const row of this.all.locks.iterate() as IterableIterator<LockRow>) groupOf(row[0])?.lock(row);
    for (const row of this.all.reports.all() as ReportRow[]) groupOf(row[0])?.report(row);
    for (const [id, group] of groups) yield [id, overlayOf(id, group, view, nowMs)];
  }

  entry(id: string, view: SourceView): ToiletOverlay | null {
    const nowMs = this.now();
    const since = windowStart(nowMs, CONFIRMATION_WINDOW_MONTHS);
    const group = new Collected();
    let found = false;
    const add = <R>(rows: unknown[], take: (row: R) => void) => {
      for (const row of rows as R[]) take(row);
      found ||= rows.length > 0;
    };
    for (const alias of view.aliases(id)) {
      add<ConfirmationRow>(this.one.confirmations.all(since, alias), (row) => group.confirmation(row));
      add<RatingRow>(this.one.ratings.all(alias), (row) => group.rating(row));
      add<VoteRow>(this.one.votes.all(alias), (row) => group.vote(row));
      add<LockRow>(this.one.locks.all(alias), (row) => group.lock(row));
      add<ReportRow>(this.one.reports.all(alias), (row) => group.report(row));
    }
    return found ? overlayOf(id, group, view, nowMs) : null;
  }
}

function overlayOf(id: string, c: Collected, view: SourceView, nowMs: number): ToiletOverlay {
  const facts = view.sourceFacts(id);
  const sourceVotes = facts ? sourceVotesOf(facts) : {};
  const decided: Partial<Record<FactAttribute, Decision>> = {};
  for (const attribute of FACT_ATTRIBUTES) {
    const lock = c.locks.get(attribute);
    const votes = c.votes.get(attribute);
    const decision = lock
      ? decideByModerator(lock.value, lock.at)
      : votes
        ? decideByVotes(sourceVotes[attribute], [...votes.values()], nowMs, attribute !== 'existence')
        : null;
    if (decision) decided[attribute] = decision;
  }
  return {
    confirmations: c.recentConfirmations,
    last_confirmed_at: c.lastConfirmed < 0 ? null : new Date(c.lastConfirmed).toISOString(),
    cleanliness: cleanliness([...c.ratings.values()].map((r) => r.rating)),
    disputed: c.openReports > 0,
    decided,
    partner: null, // partner listings come with the partner module
    gone: c.locks.get('existence')?.value === 'gone',
  };
}
