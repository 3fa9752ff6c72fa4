import { growInt32, growUint8 } from './nodes.js';
import type { PairList } from './types.js';

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

  constructor(capacity = 64) {
    this.a = new Int32Array(capacity);
    this.b = new Int32Array(capacity);
    this.priority = new Uint8Array(capacity);
    this.index = new Int32Array(capacity);
    this.born = new Int32Array(capacity);
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
    this.a = growInt32(this.a, capacity);
    this.b = growInt32(this.b, capacity);
    this.priority = growUint8(this.priority, capacity);
    this.index = growInt32(this.index, capacity);
    this.born = growInt32(this.born, capacity);
  }
}
