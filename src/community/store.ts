// The overlay's store: everything people and moderators add to the source data (docs/PRIVACY.md says what
// each table keeps and for how long), behind one asynchronous interface with two implementations: the
// SQLite file OVERLAY_DB (sqlite-store.ts, the default) and PostgreSQL's `overlay` schema with DATABASE_URL
// (postgres-store.ts), which every replica shares. A write is answered 201 only after its transaction
// committed.
//
// Every change a read can see is logged in the change log with its sequence number, in commit order: a
// server applies what it finds there (live.ts), whichever process or replica wrote it. What the overlay
// source reads (overlay-source.ts) is `readable`, a SQLite database read synchronously while a snapshot is
// built: the file itself, or with PostgreSQL a copy in memory of the rows reads need, kept current from
// the change log, so reads never wait for PostgreSQL.
import type Database from 'better-sqlite3';
import type { FactAttribute } from '../rules/facts.js';

/** A proposed toilet as submitToilet stores it (values in normal form). */
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

export type AddressRule = 'confirmation' | 'new_rater' | 'new_voter';

/** What the change log holds after some point. */
export interface ChangeSet {
  /** Highest sequence number read. */
  seq: number;
  toiletIds: Set<string>;
  /** The set of community toilets changed: a new snapshot is needed. */
  communityToilets: boolean;
}

/** An OSM note waiting in the outbox (osm-notes.ts). */
export interface QueuedNote {
  id: number;
  lat: number;
  lon: number;
  text: string;
  /** How often it was attempted before. */
  attempts: number;
}

/** The writes of one overlay transaction: all of them commit, or none. */
export interface OverlayTransaction {
  /** Marks a human-check token used until it expires; false when it was used before (nothing changes then). */
  useToken(token: string, expiresAtMs: number): Promise<boolean>;
  /** Remembers an address (its keyed hash) for a per-day rule on a toilet; false when it was remembered already that day. */
  rememberAddress(rule: AddressRule, toiletId: string, day: string, address: string): Promise<boolean>;
  addConfirmation(toiletId: string, atMs: number): Promise<void>;
  /** Whether the person rated the toilet under any of its ids. */
  hasRated(toiletIds: readonly string[], person: string): Promise<boolean>;
  /** The person's rating of the toilet, replacing their earlier one. */
  rate(toiletId: string, person: string, rating: number, atMs: number): Promise<void>;
  hasVoted(toiletIds: readonly string[], person: string): Promise<boolean>;
  /** The person's vote on a fact, replacing their earlier one. */
  vote(toiletId: string, attribute: FactAttribute, person: string, value: string, atMs: number): Promise<void>;
  /** A new open report; its number. */
  addReport(toiletId: string, kind: string, note: string | null, atMs: number): Promise<number>;
  /** A new pending submission; its number. */
  addSubmission(submission: Submission, atMs: number): Promise<number>;
  /** Records that a toilet's overlay (with null: the set of community toilets) changed. */
  logChange(toiletId: string | null, atMs: number): Promise<void>;
}

export interface OverlayStore {
  /** The rows the overlay source reads, synchronously (see the header comment). */
  readonly readable: Database.Database;
  /** Runs `fn` in one transaction: all of it commits (durably) or, when it throws, none. */
  transaction<T>(fn: (tx: OverlayTransaction) => Promise<T>): Promise<T>;
  /** Writes and commits one row, to prove the store takes writes now; rejects with what the database says when it does not. */
  probeWrite(nowMs: number): Promise<void>;
  /**
   * The secret that keys address hashes on a UTC day, made at the day's first use. Making it deletes the
   * keys and address rows of earlier days: per-day rules need nothing older.
   */
  dayKey(day: string): Promise<Buffer>;
  /** Moves every rating and vote of one person to another (an account's, when it is deleted), in one transaction. */
  reassignPerson(from: string, to: string): Promise<void>;
  /** Deletes what no rule needs any more (run daily): see docs/PRIVACY.md. */
  purge(nowMs: number): Promise<void>;
  /** The sequence number of the last change `readable` holds already (0: none). */
  lastChange(): Promise<number>;
  /**
   * The changes committed after `seq`, already in `readable`; null when cheap evidence says there are none
   * (SQLite's data_version) and `look` is false. When the log no longer reaches back to `seq`, `readable`
   * is reloaded whole and the set of community toilets counts as changed (a new snapshot).
   */
  changesSince(seq: number, look: boolean): Promise<ChangeSet | null>;
  /** Calls `listener` soon after another process or replica commits a change, where the store can tell (PostgreSQL's NOTIFY). */
  onChange(listener: () => void): void;
  /** The OSM notes to send now, oldest first. */
  queuedNotes(maxAttempts: number, limit: number): Promise<QueuedNote[]>;
  /**
   * Counts an attempt to send a note, before it is sent; false when another server counted one since the
   * note was read (`attempts`: what it read), which then sends it: each replica's outbox round sends a note once.
   */
  noteAttempted(id: number, attempts: number): Promise<boolean>;
  noteSent(id: number, atMs: number, noteId: number | null): Promise<void>;
  noteFailed(id: number, error: string): Promise<void>;
  close(): Promise<void>;
}

/** Decided reports and submissions (with their notes) are kept this long for moderators, then deleted. */
export const DECIDED_KEEP_MONTHS = 12;
/** The change log only needs to outlive a server's next poll; a server behind by more reloads everything. */
export const CHANGES_KEEP_MS = 86_400_000;
