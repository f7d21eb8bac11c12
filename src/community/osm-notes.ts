// The outbox of anonymous OpenStreetMap notes (queued by moderation.ts when a moderator approves a report
// on an OpenStreetMap toilet). Off unless OSM_NOTES_API is set; the server sends what is queued every few
// minutes (and at once when the job starts), one note at a time, and retries failures on later rounds.
// With DATABASE_URL the outbox is shared, so it is a job of the cluster's worker only (src/cluster/worker.ts);
// a note's attempt is still counted only if no other round counted one since it was read, so a round of a
// worker that just lost the lease and one of the replica that took it never send the same note.
import type { BackgroundJob } from '../feature.js';
import type { Logger } from '../log.js';
import type { OverlayStore } from './store.js';

export const SEND_INTERVAL_MS = 5 * 60_000;
/** A note that failed this often is left for the operator (osm_notes.last_error says why). */
const MAX_ATTEMPTS = 10;
const BATCH = 20;

export interface SendReport {
  sent: number;
  failed: number;
}

export class OsmNoteSender implements BackgroundJob {
  readonly name = 'osm-notes';
  readonly runsOn = 'cluster-worker';
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<SendReport> | null = null;

  constructor(
    private readonly store: OverlayStore,
    /** e.g. https://api.openstreetmap.org/api/0.6 */
    private readonly apiBase: string,
    private readonly userAgent: string,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  /** Sends what is queued now (a replica that became the worker sends what waited), then every SEND_INTERVAL_MS. */
  start(): void {
    const round = () => void this.flush().catch((error) => this.log.error('sending OpenStreetMap notes stopped; the next round retries', { error: String(error) }));
    round();
    this.timer = setInterval(round, SEND_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Sends every queued note (one round at a time). Rejects when the database refuses a write (a full disk):
   * each attempt is counted before its note is sent, so then nothing more is sent this round.
   */
  flush(): Promise<SendReport> {
    this.sending ??= this.round().finally(() => (this.sending = null));
    return this.sending;
  }

  private async round(): Promise<SendReport> {
    const report = { sent: 0, failed: 0 };
    for (const note of await this.store.queuedNotes(MAX_ATTEMPTS, BATCH)) {
      if (!(await this.store.noteAttempted(note.id, note.attempts))) continue; // another replica's round has it
      let created: { properties?: { id?: number } };
      try {
        // API 0.6 "Create a new note": anonymous when sent without authorisation
        const response = await fetch(`${this.apiBase}/notes.json`, {
          method: 'POST',
          headers: { 'User-Agent': this.userAgent, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ lat: String(note.lat), lon: String(note.lon), text: note.text }),
          signal: AbortSignal.timeout(30_000),
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`);
        created = (await response.json()) as { properties?: { id?: number } };
      } catch (error) {
        await this.store.noteFailed(note.id, (error as Error).message);
        report.failed++;
        continue;
      }
      await this.store.noteSent(note.id, this.now(), created.properties?.id ?? null);
      report.sent++;
    }
    return report;
  }
}
