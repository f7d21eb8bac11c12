// The access log's client pseudonym: an HMAC-SHA-256 of the client address (the one the rate limit counts)
// under a random key made for the current UTC day, kept in memory only and replaced at the next day, so a
// day's lines can be linked to one another but, once the key is gone, to no address (docs/PRIVACY.md).
// The key lives in shared memory, so one client has one pseudonym per day whichever thread served it (the
// main thread's access-log writer makes the lines of every thread, by each request's time). Whoever first
// asks for a new day replaces the key, under a sequence lock: a reader copies the key and retries if a
// writer was at work meanwhile. Days only go forward: a line of a day whose key is gone gets today's.
import { createHmac, randomFillSync } from 'node:crypto';

const DAY_MS = 86_400_000;
const KEY_BYTES = 32;
// Int32 words: [day, sequence (odd while a writer is at work)], then the key.
const BYTES = 8 + KEY_BYTES;

export class DayKeys {
  private readonly words: Int32Array;
  private readonly key: Uint8Array;
  /** This thread's copy of the key, and the sequence number it was copied at. */
  private copy = Buffer.alloc(KEY_BYTES);
  private copied = -1;

  constructor(
    readonly shared: SharedArrayBuffer = new SharedArrayBuffer(BYTES),
    private readonly now: () => number = Date.now,
  ) {
    this.words = new Int32Array(shared, 0, 2);
    this.key = new Uint8Array(shared, 8, KEY_BYTES);
    if (Atomics.load(this.words, 1) === 0 && Atomics.load(this.words, 0) === 0) this.words[0] = -1; // no day yet
  }

  /**
   * The pseudonym of `address` on the UTC day of `atMs`: 32 hex digits. A time of a day whose key is
   * already replaced (a line formatted just after midnight) gets the current key: yesterday's is gone.
   */
  pseudonym(address: string, atMs = this.now()): string {
    return createHmac('sha256', this.keyOf(Math.floor(atMs / DAY_MS))).update(address).digest('hex').slice(0, 32);
  }

  private keyOf(asked: number): Buffer {
    for (;;) {
      const day = Math.max(asked, Atomics.load(this.words, 0)); // days only go forward
      const sequence = Atomics.load(this.words, 1);
      if ((sequence & 1) === 0 && Atomics.load(this.words, 0) === day) {
        if (sequence === this.copied) return this.copy;
        const copy = Buffer.from(this.key);
        if (Atomics.load(this.words, 1) !== sequence) continue; // replaced while copying
        this.copy.fill(0); // yesterday's key is forgotten here too
        this.copy = copy;
        this.copied = sequence;
        return copy;
      }
      // A new day (or another thread is making its key): make it unless another thread is at it.
      if ((sequence & 1) === 0 && Atomics.compareExchange(this.words, 1, sequence, sequence + 1) === sequence) {
        randomFillSync(this.key);
        Atomics.store(this.words, 0, day);
        Atomics.store(this.words, 1, sequence + 2);
      }
    }
  }
}
