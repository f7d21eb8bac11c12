// A snapshot's overlays as the read path finds them: a slot number per row (a typed array set when an
// overlay changes, where a Map by row was a chain of cache misses per item), the merged overlays by slot,
// and per slot the bytes an item last showed for its overlay with the span of time they hold for. An
// answer reads the slot, compares now with that span and copies one fragment: the bytes (render.ts) are
// remade only when the toilet's or its partner's hours state changes or a live switch ends, not per request.

/** What a slot keeps of an overlay for the item (the snapshot's MergedOverlay). */
interface RowOverlay {
  /** The item's head when a name was decided, else null. */
  headJson: Uint8Array | null;
  /** The partner listing shown, with its counter number (-1: not counted), or null. */
  partner: { counter: number } | null;
}

export class OverlayRows<Overlay extends RowOverlay> {
  /** Per row: 0 without an overlay, else 1 + its slot. Pages are touched only for rows with overlays. */
  private readonly slotOfRow: Int32Array;
  private readonly bySlot: (Overlay | undefined)[] = [];
  private readonly rowOfSlot: number[] = [];
  private readonly freeSlots: number[] = [];
  /** Per slot, what an item reads: the overlay's head (headJson), kept here beside the rest; */
  private readonly heads: (Uint8Array | null)[] = [];
  /** the bytes shown, and the span they hold for: since (inclusive) and until (exclusive), epoch ms, at 2 × slot. */
  private readonly shown: (Uint8Array | undefined)[] = [];
  private spans = new Float64Array(128);
  /** Per slot, the counter number of its partner listing (ListingCounters), -1 when none is counted. */
  private counters = new Int32Array(64);

  constructor(rows: number) {
    this.slotOfRow = new Int32Array(rows);
  }

  /** The row's slot, or -1 when it has no overlay. */
  slotOf(row: number): number {
    return this.slotOfRow[row] - 1;
  }

  overlay(slot: number): Overlay {
    return this.bySlot[slot]!;
  }

  /** The counter number of the slot's partner listing, or -1 (not counted: no partner, or not Plus). */
  counterOf(slot: number): number {
    return this.counters[slot];
  }

  /** The item's head when a name was decided, else null (the item text's). */
  headOf(slot: number): Uint8Array | null {
    return this.heads[slot];
  }

  get(row: number): Overlay | undefined {
    const slot = this.slotOfRow[row] - 1;
    return slot < 0 ? undefined : this.bySlot[slot];
  }

  /** Gives the row this overlay in place of its previous one; the bytes shown for it are made anew. */
  set(row: number, overlay: Overlay): void {
    let slot = this.slotOfRow[row] - 1;
    if (slot < 0) {
      slot = this.freeSlots.pop() ?? this.bySlot.length;
      if (2 * slot >= this.spans.length) this.grow();
      this.slotOfRow[row] = slot + 1;
      this.rowOfSlot[slot] = row;
    }
    this.bySlot[slot] = overlay;
    this.heads[slot] = overlay.headJson;
    this.counters[slot] = overlay.partner?.counter ?? -1;
    this.shown[slot] = undefined;
    this.spans[2 * slot + 1] = 0;
  }

  delete(row: number): void {
    const slot = this.slotOfRow[row] - 1;
    if (slot < 0) return;
    this.slotOfRow[row] = 0;
    this.bySlot[slot] = undefined;
    this.heads[slot] = null;
    this.counters[slot] = -1;
    this.shown[slot] = undefined;
    this.spans[2 * slot + 1] = 0;
    this.freeSlots.push(slot);
  }

  /** Every row with an overlay, with it. */
  *entries(): Generator<[number, Overlay]> {
    for (let slot = 0; slot < this.bySlot.length; slot++) {
      const overlay = this.bySlot[slot];
      if (overlay !== undefined) yield [this.rowOfSlot[slot], overlay];
    }
  }

  /** The bytes shown for the slot if they still hold at nowMs, else undefined. */
  shownAt(slot: number, nowMs: number): Uint8Array | undefined {
    const spans = this.spans;
    return nowMs >= spans[2 * slot] && nowMs < spans[2 * slot + 1] ? this.shown[slot] : undefined;
  }

  /** Keeps the bytes shown for the slot, valid from `since` until `until` (exclusive). */
  show(slot: number, bytes: Uint8Array, since: number, until: number): void {
    this.shown[slot] = bytes;
    this.spans[2 * slot] = since;
    this.spans[2 * slot + 1] = until;
  }

  private grow(): void {
    const spans = new Float64Array(this.spans.length * 2);
    spans.set(this.spans);
    this.spans = spans;
    const counters = new Int32Array(this.counters.length * 2);
    counters.set(this.counters);
    this.counters = counters;
  }
}
