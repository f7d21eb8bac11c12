// What moderation keeps in the overlay store (src/community/store.ts), behind one asynchronous interface:
// the queues it reads, and the decisions, locks, OSM notes and moderation log entries it writes, each
// action in one transaction with its entry in the change log. Two implementations, chosen by the overlay
// store they stand on (store-choice.ts): SQLite (sqlite-store.ts) and PostgreSQL (postgres-store.ts).

/** What a person proposed for a new toilet, as stored and as the queue shows it. */
export interface ProposedToilet {
  lat: number;
  lon: number;
  name: string | null;
  access: string | null;
  fee: string | null;
  opening_hours: string | null;
  wheelchair: string | null;
  changing_table: string | null;
  note: string | null;
}

export interface SubmissionRow extends ProposedToilet {
  id: number;
  at: number;
  status: string;
}

export interface ReportRow {
  id: number;
  toilet_id: string;
  kind: string;
  note: string | null;
  at: number;
}

export interface LockRow {
  toilet_id: string;
  attribute: string;
  value: string;
  at: number;
}

export interface LogRow {
  at: number;
  action: string;
  target: string;
  reason: string;
  /** JSON, or null. */
  details: string | null;
}

/** A community toilet as approval stores it (src/toilets/overlay.ts, CommunityToilet). */
export interface CommunityToiletRow {
  id: string;
  lat: number;
  lon: number;
  name: string | null;
  access: string;
  access_rule: string;
  fee_required: 0 | 1 | null;
  opening_hours: string | null;
  wheelchair: string;
  changing_table: string;
  time_zone: string;
  country: string | null;
  approved_at: number;
}

/** The writes (and the reads they depend on) of one moderation action: all of them commit, or none. */
export interface ModerationTransaction {
  submission(id: number): Promise<SubmissionRow | null>;
  /** Decides a pending submission; false when it was not pending (any more). */
  decideSubmission(id: number, status: 'approved' | 'rejected', atMs: number): Promise<boolean>;
  addToilet(toilet: CommunityToiletRow): Promise<void>;
  report(id: number): Promise<ReportRow | null>;
  /** Decides an open report; false when it was not open (any more). */
  decideReport(id: number, status: 'approved' | 'rejected', atMs: number): Promise<boolean>;
  lock(toiletId: string, attribute: string, value: string, atMs: number): Promise<void>;
  /** Removes the locks of a fact under these ids; how many there were. */
  unlock(toiletIds: readonly string[], attribute: string): Promise<number>;
  queueNote(reportId: number, lat: number, lon: number, text: string, atMs: number): Promise<void>;
  log(atMs: number, action: string, target: string, reason: string, details: string): Promise<void>;
  /** Records that a toilet's overlay (with null: the set of community toilets) changed. */
  logChange(toiletId: string | null, atMs: number): Promise<void>;
}

export interface ModerationStore {
  transaction<T>(fn: (tx: ModerationTransaction) => Promise<T>): Promise<T>;
  pendingSubmissions(): Promise<SubmissionRow[]>;
  /** The open reports, oldest first, each with the number of open reports on its toilet. */
  openReports(): Promise<(ReportRow & { open_reports: number })[]>;
  /** The locks, the newest first. */
  locks(): Promise<LockRow[]>;
  /** The latest entries of the moderation log, the newest first. */
  history(limit: number): Promise<LogRow[]>;
}
