import { grow } from '../grow.js';
import { declareExtent } from '../snapshot/StatePlan.js';
import type { PairList } from '../options.js';

/** A growable {@link PairList} with a parallel array of pair-pool indices. */
export class PairBuffer implements PairList {
  count = 0;
  a: Int32Array;
  b: Int32Array;
  priority: Uint8Array;
  /** Pool index of each entry (unused for exits, whose pairs are gone), or -1 when the pool is not kept. */
  index: Int32Array;
  /** Step each pair began, kept in the current list while the pool is not kept. */
  born: Int32Array;
  /**
   * The priority each listed pair had before a collider's priority changed it (set by
   * Broadphase.refreshPriorities): a pair that ends in that step reports the one it had.
   */
  was: Uint8Array;

  constructor(capacity = 64) {
    this.a = new Int32Array(capacity);
    this.b = new Int32Array(capacity);
    this.priority = new Uint8Array(capacity);
    this.index = new Int32Array(capacity);
    this.born = new Int32Array(capacity);
    this.was = new Uint8Array(capacity);
    // Entries past the count are written before they are read: snapshots skip them.
    const inUse = (): number => this.count;
    for (const key of ['a', 'b', 'priority', 'index', 'born', 'was']) declareExtent(this, key, inUse);
  }

  push(a: number, b: number, priority: number, index: number, born = 0): void {
    if (this.count === this.a.length) this.reserve(this.count * 2);
    const i = this.count++;
    this.a[i] = a;
    this.b[i] = b;
    this.priority[i] = priority;
    this.index[i] = index;
    this.born[i] = born;
  }

  /** Makes room for `capacity` entries, at least doubling (so a list that creeps up grows rarely). */
  reserve(capacity: number): void {
    if (capacity <= this.a.length) return;
    if (capacity < 2 * this.a.length) capacity = 2 * this.a.length;
    this.a = grow(this.a, capacity);
    this.b = grow(this.b, capacity);
    this.priority = grow(this.priority, capacity);
    this.index = grow(this.index, capacity);
    this.born = grow(this.born, capacity);
    this.was = grow(this.was, capacity);
  }
}
