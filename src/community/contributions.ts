// The five contribution writes (spec: submitToilet, confirmToilet, rateToilet, reportToilet,
// correctToilet). Each runs in one transaction that also marks the human-check token used, so a request
// refused here (a replayed token, a per-address limit) writes nothing and burns nothing. After the commit
// the toilet's overlay is re-read into the snapshot in use, so the answer and the very next read show it.
import type { FactAttribute } from '../rules/facts.js';
import type { ReportKind } from './resources.js';
import type { ToiletCatalog } from '../toilets/catalog.js';
import type { Decision } from '../toilets/overlay.js';
import type { AddressRule, OverlayStore } from './store.js';
import type { Pseudonyms } from './pseudonyms.js';
import type { HumanCheckPass } from '../api/guards.js';
import { secondsUntilNextUtcDay, utcDay } from './days.js';
import { sourceVotesOf } from './normal-form.js';

export type Outcome<T> =
  | { kind: 'done'; answer: T }
  /** The human-check token was used before. */
  | { kind: 'replayed' }
  /** This address already added a new rater (or voter) to this toilet today. */
  | { kind: 'daily-limit'; rule: AddressRule; retryAfterSeconds: number };

/** A verified human-check token, or null for a signed-in account (which needs none). */
export type Proof = HumanCheckPass | null;

export interface Submission {
  lat: number;
  lon: number;
  name?: string;
  access?: string;
  fee?: string;
  opening_hours?: string;
  wheelchair?: string;
  changing_table?: string;
  note?: string;
}

export interface VoteInput {
  attribute: FactAttribute;
  /** In normal form (normal-form.ts). */
  value: string;
}

export interface DecidedAnswer {
  by: Decision['by'];
  votes_for: number | null;
  votes_total: number | null;
  as_of: string;
}

type Pending = { id: string; status: 'pending' };

const REPLAYED = { kind: 'replayed' } as const;

export class Contributions {
  private readonly sql;

  constructor(
    private readonly store: OverlayStore,
    private readonly pseudonyms: Pseudonyms,
    private readonly catalog: ToiletCatalog,
    private readonly now: () => number,
  ) {
    const db = store.db;
    this.sql = {
      confirm: db.prepare('INSERT INTO confirmations (toilet_id, at) VALUES (?, ?)'),
      rated: db.prepare('SELECT 1 FROM ratings WHERE toilet_id = ? AND person = ?').pluck(),
      rate: db.prepare('INSERT OR REPLACE INTO ratings (toilet_id, person, rating, at) VALUES (?, ?, ?, ?)'),
      voted: db.prepare('SELECT 1 FROM votes WHERE toilet_id = ? AND person = ? LIMIT 1').pluck(),
      vote: db.prepare('INSERT OR REPLACE INTO votes (toilet_id, attribute, person, value, at) VALUES (?, ?, ?, ?, ?)'),
      report: db.prepare('INSERT INTO reports (toilet_id, kind, note, at) VALUES (?, ?, ?, ?)'),
      submit: db.prepare(
        'INSERT INTO submissions (lat, lon, name, access, fee, opening_hours, wheelchair, changing_table, note, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
    };
  }

  /** One confirmation per toilet and address per UTC day; a repeat the same day changes nothing and answers the same counts. */
  confirm(toiletId: string, ip: string, proof: Proof): Outcome<{ id: string; last_confirmed_at: string; confirmations: number }> {
    const nowMs = this.now();
    const day = utcDay(nowMs);
    const address = this.pseudonyms.address(ip, day);
    const outcome = this.store.transaction(() => {
      if (this.replayed(proof)) return REPLAYED;
      if (!this.store.addressSeen('confirmation', toiletId, day, address)) {
        this.store.rememberAddress('confirmation', toiletId, day, address);
        this.sql.confirm.run(toiletId, nowMs);
      }
      this.spend(proof);
      return null;
    });
    if (outcome) return outcome;
    const overlay = this.refreshed(toiletId);
    return { kind: 'done', answer: { id: toiletId, last_confirmed_at: overlay.last_confirmed_at!, confirmations: overlay.confirmations } };
  }

  /** One rating per person and toilet, the latest counts; an address adds one new rater per toilet per UTC day. */
  rate(toiletId: string, ip: string, person: string, rating: number, proof: Proof): Outcome<{ id: string; rating: number; cleanliness: { average: number; count: number } }> {
    const nowMs = this.now();
    const outcome = this.store.transaction(() => {
      if (this.replayed(proof)) return REPLAYED;
      const newcomer = !this.aliases(toiletId).some((alias) => this.sql.rated.get(alias, person) !== undefined);
      if (newcomer) {
        const refused = this.admitNewcomer('new_rater', toiletId, ip, nowMs);
        if (refused) return refused;
      }
      this.spend(proof);
      this.sql.rate.run(toiletId, person, rating, nowMs);
      return null;
    });
    if (outcome) return outcome;
    return { kind: 'done', answer: { id: toiletId, rating, cleanliness: this.refreshed(toiletId).cleanliness! } };
  }

  /**
   * One vote per person and fact, the latest counts; an address adds one new voter per toilet per UTC day.
   * Answers, per voted fact, the value now shown (normal form; null when unknown) and its `decided` entry.
   */
  vote(toiletId: string, ip: string, person: string, votes: readonly VoteInput[], proof: Proof): Outcome<{ id: string; attributes: Record<string, { value: string | null; decided: DecidedAnswer }> }> {
    const nowMs = this.now();
    const outcome = this.store.transaction(() => {
      if (this.replayed(proof)) return REPLAYED;
      const newcomer = !this.aliases(toiletId).some((alias) => this.sql.voted.get(alias, person) !== undefined);
      if (newcomer) {
        const refused = this.admitNewcomer('new_voter', toiletId, ip, nowMs);
        if (refused) return refused;
      }
      this.spend(proof);
      for (const { attribute, value } of votes) this.sql.vote.run(toiletId, attribute, person, value, nowMs);
      return null;
    });
    if (outcome) return outcome;
    const overlay = this.refreshed(toiletId);
    const snapshot = this.catalog.snapshot;
    const facts = snapshot.sourceFacts(toiletId);
    const sourceVotes = facts ? sourceVotesOf(facts) : {};
    const attributes: Record<string, { value: string | null; decided: DecidedAnswer }> = {};
    for (const { attribute } of votes) {
      const { value, by, votes_for, votes_total, as_of } = overlay.decided[attribute]!;
      attributes[attribute] = { value: value ?? sourceVotes[attribute] ?? null, decided: { by, votes_for, votes_total, as_of } };
    }
    return { kind: 'done', answer: { id: toiletId, attributes } };
  }

  /** A report waits for a moderator; while it is open the toilet is `disputed`. */
  report(toiletId: string, kind: ReportKind, note: string | undefined, proof: Proof): Outcome<Pending> {
    const nowMs = this.now();
    const outcome = this.store.transaction(() => {
      if (this.replayed(proof)) return REPLAYED;
      this.spend(proof);
      return Number(this.sql.report.run(toiletId, kind, note ?? null, nowMs).lastInsertRowid);
    });
    if (typeof outcome !== 'number') return outcome;
    this.refreshed(toiletId);
    return { kind: 'done', answer: { id: `rep_${outcome}`, status: 'pending' } };
  }

  /** A proposed toilet waits for a moderator; approved, it becomes toilet c_<number>. */
  submit(s: Submission, proof: Proof): Outcome<Pending> {
    const nowMs = this.now();
    const outcome = this.store.transaction(() => {
      if (this.replayed(proof)) return REPLAYED;
      this.spend(proof);
      const row = [s.lat, s.lon, s.name ?? null, s.access ?? null, s.fee ?? null, s.opening_hours ?? null, s.wheelchair ?? null, s.changing_table ?? null, s.note ?? null];
      return Number(this.sql.submit.run(...row, nowMs).lastInsertRowid);
    });
    if (typeof outcome !== 'number') return outcome;
    return { kind: 'done', answer: { id: `sub_${outcome}`, status: 'pending' } };
  }

  private replayed(proof: Proof): boolean {
    return proof !== null && this.store.tokenUsed(proof.key);
  }

  private spend(proof: Proof): void {
    if (proof !== null) this.store.useToken(proof.key, proof.expiresAtMs);
  }

  /** Ids the toilet's rows may be stored under (it may have been redrawn). */
  private aliases(toiletId: string): string[] {
    return this.catalog.snapshot.aliases(toiletId);
  }

  /** Counts a new rater or voter against the address's one per toilet and day; the refusal when it was used. */
  private admitNewcomer(rule: AddressRule, toiletId: string, ip: string, nowMs: number): Outcome<never> | null {
    const day = utcDay(nowMs);
    const address = this.pseudonyms.address(ip, day);
    if (this.store.addressSeen(rule, toiletId, day, address)) return { kind: 'daily-limit', rule, retryAfterSeconds: secondsUntilNextUtcDay(nowMs) };
    this.store.rememberAddress(rule, toiletId, day, address);
    return null;
  }

  /** Applies the toilet's stored overlay to the snapshot in use; returns it as merged. */
  private refreshed(toiletId: string) {
    this.catalog.refreshOverlays([toiletId]);
    const snapshot = this.catalog.snapshot;
    return snapshot.overlays.get(snapshot.loadedRowOf(toiletId))!;
  }
}
