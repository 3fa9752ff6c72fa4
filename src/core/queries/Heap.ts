import { grow } from '../grow.js';

/** A binary heap of (key, id) in growable typed arrays: least key then id on top, or greatest with `greatestFirst`. */
export class Heap {
  keys: Float64Array = new Float64Array(64);
  ids: Int32Array = new Int32Array(64);
  count = 0;
  private readonly greatestFirst: boolean;

  constructor(greatestFirst: boolean) {
    this.greatestFirst = greatestFirst;
  }

  /** Adds an entry, its key in `key[0]` (by array: a number crossing a call that is not inlined is boxed). */
  push(keyIn: Float64Array, id: number): void {
    const key = keyIn[0];
    if (this.count === this.keys.length) {
      this.keys = grow(this.keys, this.count * 2);
      this.ids = grow(this.ids, this.count * 2);
    }
    const keys = this.keys;
    const ids = this.ids;
    let i = this.count++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.above(key, id, keys[parent], ids[parent])) break;
      keys[i] = keys[parent];
      ids[i] = ids[parent];
      i = parent;
    }
    keys[i] = key;
    ids[i] = id;
  }

  pop(): void {
    const last = --this.count;
    if (last > 0) this.siftDown(this.keys[last], this.ids[last]);
  }

  replaceTop(keyIn: Float64Array, id: number): void {
    this.siftDown(keyIn[0], id);
  }

  private siftDown(key: number, id: number): void {
    const keys = this.keys;
    const ids = this.ids;
    const count = this.count;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= count) break;
      if (child + 1 < count && this.above(keys[child + 1], ids[child + 1], keys[child], ids[child])) child++;
      if (!this.above(keys[child], ids[child], key, id)) break;
      keys[i] = keys[child];
      ids[i] = ids[child];
      i = child;
    }
    keys[i] = key;
    ids[i] = id;
  }

  /** True when (ka, ia) belongs above (kb, ib). */
  private above(ka: number, ia: number, kb: number, ib: number): boolean {
    const less = ka !== kb ? ka < kb : ia < ib;
    const same = ka === kb && ia === ib;
    return this.greatestFirst ? !less && !same : less;
  }
}
