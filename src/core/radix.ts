import { growInt32 } from './nodes.js';

const BITS = 12;
const BUCKETS = 1 << BITS;

/**
 * Sorts ids by a non-negative 24-bit key with two counting passes (LSD radix), into
 * buffers it owns and reuses: no allocation once warm. Used to visit movers in cell order,
 * so neighbouring movers read memory their predecessors just brought into cache.
 */
export class KeySorter {
  ids: Int32Array = new Int32Array(256);
  keys: Int32Array = new Int32Array(256);
  count = 0;
  private tmpIds = new Int32Array(256);
  private tmpKeys = new Int32Array(256);
  private readonly counts = new Int32Array(BUCKETS);

  push(id: number, key: number): void {
    if (this.count === this.ids.length) {
      const size = this.count * 2;
      this.ids = growInt32(this.ids, size);
      this.keys = growInt32(this.keys, size);
      this.tmpIds = new Int32Array(size);
      this.tmpKeys = new Int32Array(size);
    }
    this.ids[this.count] = id;
    this.keys[this.count++] = key;
  }

  sort(): void {
    this.pass(this.keys, this.ids, this.tmpKeys, this.tmpIds, 0);
    this.pass(this.tmpKeys, this.tmpIds, this.keys, this.ids, BITS);
  }

  private pass(keys: Int32Array, ids: Int32Array, outKeys: Int32Array, outIds: Int32Array, shift: number): void {
    const counts = this.counts;
    const n = this.count;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(keys[i] >>> shift) & (BUCKETS - 1)]++;
    let sum = 0;
    for (let b = 0; b < BUCKETS; b++) {
      const c = counts[b];
      counts[b] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const at = counts[(keys[i] >>> shift) & (BUCKETS - 1)]++;
      outKeys[at] = keys[i];
      outIds[at] = ids[i];
    }
  }
}
