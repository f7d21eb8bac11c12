// Progress for long imports: a redrawn bar on a terminal, a plain line every few seconds otherwise (cron).

export interface ProgressSample {
  label: string;
  done: number;
  total: number | null;
  /** What `done` and `total` count, e.g. 'tiles'; without it they are bytes. */
  unit?: string;
  /** Extra counter shown with its rate, e.g. OSM elements. */
  count?: { name: string; value: number };
}

/** Where progress goes: process.stderr, which says whether it is a terminal and how wide. */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const LOG_EVERY_MS = 5000;
const REDRAW_EVERY_MS = 100;

export class ProgressReporter {
  private readonly started: number;
  private last: number; // the first line after one interval, not a meaningless 0% at the start
  private drawn = false;

  constructor(
    private readonly out: ProgressOutput,
    private readonly quiet: boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.started = this.last = now();
  }

  update(sample: ProgressSample): void {
    if (this.quiet) return;
    const now = this.now();
    const tty = this.out.isTTY === true;
    if (now - this.last < (tty ? REDRAW_EVERY_MS : LOG_EVERY_MS)) return;
    this.last = now;
    const line = describe(sample, (now - this.started) / 1000, tty ? bar(sample) : '');
    if (tty) {
      this.out.write(`\r${line.padEnd(this.out.columns ? this.out.columns - 1 : 100)}`);
      this.drawn = true;
    } else {
      this.out.write(`${line}\n`);
    }
  }

  /** Ends the redrawn line so later output starts on a fresh one. */
  finish(): void {
    if (this.drawn) this.out.write('\n');
    this.drawn = false;
  }
}

function bar(sample: ProgressSample): string {
  if (!sample.total) return '';
  const width = 24;
  const filled = Math.round((Math.min(sample.done, sample.total) / sample.total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] `;
}

function describe(sample: ProgressSample, seconds: number, barText: string): string {
  const amount = sample.unit === undefined ? megabytes : (n: number) => `${Math.round(n).toLocaleString('en')} ${sample.unit}`;
  const parts = [sample.total ? `${Math.floor((100 * sample.done) / sample.total)}% of ${amount(sample.total)}` : amount(sample.done)];
  if (seconds > 0) parts.push(`${amount(sample.done / seconds)}/s`);
  if (sample.count && seconds > 0) {
    parts.push(`${sample.count.value.toLocaleString('en')} ${sample.count.name}, ${Math.round(sample.count.value / seconds).toLocaleString('en')}/s`);
  }
  // the rate of the first second says little (the first blocks are still in flight): no ETA from it
  if (sample.total && sample.done > 0 && seconds >= 1) {
    const eta = Math.max(0, Math.round(((sample.total - sample.done) * seconds) / sample.done));
    parts.push(`ETA ${Math.floor(eta / 60)}:${String(eta % 60).padStart(2, '0')}`);
  }
  return `${sample.label}: ${barText}${parts.join(', ')}`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}
