// The five contribution writes (spec: submitToilet, confirmToilet, rateToilet, reportToilet,
// correctToilet). Each runs in one transaction of the overlay store that also marks the human-check token
// used and logs the change, so a request refused here (a replayed token, a per-address limit) writes
// nothing and burns nothing, and every replica applies the change. After the commit the server applies the
// change log (`applied`, live.ts) before it answers, so the answer and the very next read show it.
import type { FactAttribute } from '../rules/facts.js';
import type { ReportKind } from './resources.js';
import type { ToiletCatalog } from '../toilets/catalog.js';
import type { Decision } from '../toilets/overlay.js';
import type { AddressRule, OverlayStore, OverlayTransaction, Submission } from './store.js';
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

export type { Submission } from './store.js';

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

/** A refusal thrown inside a transaction, so that nothing of it commits. */
class Refused extends Error {
  constructor(readonly outcome: Outcome<never>) {
    super(`refused: ${outcome.kind}`);
  }
}

export class Contributions {
  constructor(
    private readonly store: OverlayStore,
    private readonly pseudonyms: Pseudonyms,
    private readonly catalog: ToiletCatalog,
    private readonly now: () => number,
    /** Applies the committed changes to the snapshot in use (live.ts): resolves once they show. */
    private readonly applied: () => Promise<void>,
  ) {}

  /** One confirmation per toilet and address per UTC day; a repeat the same day changes nothing and answers the same counts. */
  async confirm(toiletId: string, ip: string, proof: Proof): Promise<Outcome<{ id: string; last_confirmed_at: string; confirmations: number }>> {
    const nowMs = this.now();
    const day = utcDay(nowMs);
    const address = await this.pseudonyms.address(ip, day);
    const refused = await this.write(proof, async (tx) => {
      if (await tx.rememberAddress('confirmation', toiletId, day, address)) {
        await tx.addConfirmation(toiletId, nowMs);
        await tx.logChange(toiletId, nowMs);
      }
    });
    if (refused) return refused;
    const overlay = await this.refreshed(toiletId);
    return { kind: 'done', answer: { id: toiletId, last_confirmed_at: overlay.last_confirmed_at!, confirmations: overlay.confirmations } };
  }

  /** One rating per person and toilet, the latest counts; an address adds one new rater per toilet per UTC day. */
  async rate(toiletId: string, ip: string, person: string, rating: number, proof: Proof): Promise<Outcome<{ id: string; rating: number; cleanliness: { average: number; count: number } }>> {
    const nowMs = this.now();
    const address = await this.pseudonyms.address(ip, utcDay(nowMs));
    const refused = await this.write(proof, async (tx) => {
      if (!(await tx.hasRated(this.aliases(toiletId), person))) await this.admitNewcomer(tx, 'new_rater', toiletId, address, nowMs);
      await tx.rate(toiletId, person, rating, nowMs);
      await tx.logChange(toiletId, nowMs);
    });
    if (refused) return refused;
    return { kind: 'done', answer: { id: toiletId, rating, cleanliness: (await this.refreshed(toiletId)).cleanliness! } };
  }

  /**
   * One vote per person and fact, the latest counts; an address adds one new voter per toilet per UTC day.
   * Answers, per voted fact, the value now shown (normal form; null when unknown) and its `decided` entry.
   */
  async vote(toiletId: string, ip: string, person: string, votes: readonly VoteInput[], proof: Proof): Promise<Outcome<{ id: string; attributes: Record<string, { value: string | null; decided: DecidedAnswer }> }>> {
    const nowMs = this.now();
    const address = await this.pseudonyms.address(ip, utcDay(nowMs));
    const refused = await this.write(proof, async (tx) => {
      if (!(await tx.hasVoted(this.aliases(toiletId), person))) await this.admitNewcomer(tx, 'new_voter', toiletId, address, nowMs);
      for (const { attribute, value } of votes) await tx.vote(toiletId, attribute, person, value, nowMs);
      await tx.logChange(toiletId, nowMs);
    });
    if (refused) return refused;
    const overlay = await this.refreshed(toiletId);
    const facts = this.catalog.snapshot.sourceFacts(toiletId);
    const sourceVotes = facts ? sourceVotesOf(facts) : {};
    const attributes: Record<string, { value: string | null; decided: DecidedAnswer }> = {};
    for (const { attribute } of votes) {
      const { value, by, votes_for, votes_total, as_of } = overlay.decided[attribute]!;
      attributes[attribute] = { value: value ?? sourceVotes[attribute] ?? null, decided: { by, votes_for, votes_total, as_of } };
    }
    return { kind: 'done', answer: { id: toiletId, attributes } };
  }

  /** A report waits for a moderator; while it is open the toilet is `disputed`. */
  async report(toiletId: string, kind: ReportKind, note: string | undefined, proof: Proof): Promise<Outcome<Pending>> {
    const nowMs = this.now();
    let number = 0;
    const refused = await this.write(proof, async (tx) => {
      number = await tx.addReport(toiletId, kind, note ?? null, nowMs);
      await tx.logChange(toiletId, nowMs);
    });
    if (refused) return refused;
    await this.refreshed(toiletId);
    return { kind: 'done', answer: { id: `rep_${number}`, status: 'pending' } };
  }

  /** A proposed toilet waits for a moderator; approved, it becomes toilet c_<number>. */
  async submit(s: Submission, proof: Proof): Promise<Outcome<Pending>> {
    let number = 0;
    const refused = await this.write(proof, async (tx) => {
      number = await tx.addSubmission(s, this.now());
    });
    return refused ?? { kind: 'done', answer: { id: `sub_${number}`, status: 'pending' } };
  }

  /** Runs `body` in one transaction after spending the token; the refusal it came to (nothing committed), or null. */
  private async write(proof: Proof, body: (tx: OverlayTransaction) => Promise<void>): Promise<Outcome<never> | null> {
    try {
      await this.store.transaction(async (tx) => {
        if (proof !== null && !(await tx.useToken(proof.key, proof.expiresAtMs))) throw new Refused(REPLAYED);
        await body(tx);
      });
      return null;
    } catch (error) {
      if (error instanceof Refused) return error.outcome;
      throw error;
    }
  }

  /** Ids the toilet's rows may be stored under (it may have been redrawn). */
  private aliases(toiletId: string): string[] {
    return this.catalog.snapshot.aliases(toiletId);
  }

  /** Counts a new rater or voter against the address's one per toilet and day; throws the refusal when it was used. */
  private async admitNewcomer(tx: OverlayTransaction, rule: AddressRule, toiletId: string, address: string, nowMs: number): Promise<void> {
    if (!(await tx.rememberAddress(rule, toiletId, utcDay(nowMs), address))) throw new Refused({ kind: 'daily-limit', rule, retryAfterSeconds: secondsUntilNextUtcDay(nowMs) });
  }

  /** The toilet's overlay as merged into the snapshot in use, once the committed change is applied. */
  private async refreshed(toiletId: string) {
    await this.applied();
    const snapshot = this.catalog.snapshot;
    return snapshot.overlays.get(snapshot.loadedRowOf(toiletId))!;
  }
}
