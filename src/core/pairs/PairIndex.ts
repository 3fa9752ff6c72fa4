import { fit } from '../grow.js';
import { declareExtent } from '../snapshot/StatePlan.js';
import type { ItemStore } from '../store/ItemStore.js';
import type { PairBuffer } from '../lists/PairBuffer.js';

/** Each item's pairs as positions in the current list, by slot; made on first need after a step or a slot move. */
export class PairIndex {
  /** Set by every step (and every removal): the index is made again before it is next read. */
  stale = true;
  /** Per slot, where its item's pairs start in {@link entries}; one more entry for the end. */
  private starts = new Int32Array(16);
  /** List positions of each slot's pairs, slot after slot. */
  entries = new Int32Array(16);
  /** Slots the index covers: those handed out after it was made have no pairs in it. */
  private records = 0;
  /** The slots' move count when the index was made (see SlotPool.moves). */
  private madeAt = -1;

  constructor() {
    // Only a fresh index is state: a stale one is made again from the list.
    declareExtent(this, 'starts', () => (this.stale ? 0 : this.records + 1));
    declareExtent(this, 'entries', () => (this.stale ? 0 : this.starts[this.records]));
  }

  update(items: ItemStore, list: PairBuffer): void {
    if (!this.stale && this.madeAt === items.slots.moves) return;
    const records = items.slots.used;
    const { a, b, count } = list;
    this.starts = fit(this.starts, records + 1);
    this.entries = fit(this.entries, 2 * count);
    const starts = this.starts;
    const entries = this.entries;
    starts.fill(0, 0, records + 1);
    // Counts into starts[r + 1], then running sums. A pair with an item gone since is left out.
    for (let i = 0; i < count; i++) {
      const ra = items.slotOrNone(a[i]);
      const rb = items.slotOrNone(b[i]);
      if (ra < 0 || rb < 0) continue;
      starts[ra + 1]++;
      starts[rb + 1]++;
    }
    for (let r = 0; r < records; r++) starts[r + 1] += starts[r];
    const filled = starts[records];
    // Filled from the back of each run (keeping list order); starts[r + 1] then holds r's start.
    for (let i = count - 1; i >= 0; i--) {
      const ra = items.slotOrNone(a[i]);
      const rb = items.slotOrNone(b[i]);
      if (ra < 0 || rb < 0) continue;
      entries[--starts[ra + 1]] = i;
      entries[--starts[rb + 1]] = i;
    }
    for (let r = 0; r < records; r++) starts[r] = starts[r + 1];
    starts[records] = filled;
    this.records = records;
    this.stale = false;
    this.madeAt = items.slots.moves;
  }

  /** First entry of the pairs of `id` (an item the list may name). */
  first(items: ItemStore, id: number): number {
    const r = items.slotOrNone(id);
    return r < 0 || r >= this.records ? 0 : this.starts[r];
  }

  end(items: ItemStore, id: number): number {
    const r = items.slotOrNone(id);
    return r < 0 || r >= this.records ? 0 : this.starts[r + 1];
  }

  /** Position of the pair (a < b) in `list`, or -1. */
  find(items: ItemStore, list: PairBuffer, a: number, b: number): number {
    this.update(items, list);
    for (let e = this.first(items, a), end = this.end(items, a); e < end; e++) {
      const i = this.entries[e];
      if (list.a[i] === a && list.b[i] === b) return i;
    }
    return -1;
  }
}
