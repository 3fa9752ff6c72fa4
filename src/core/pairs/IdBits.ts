import { grow } from '../grow.js';
import { declareExtent } from '../snapshot/StatePlan.js';

/** A set of ids as bits (small enough to stay in cache), remembering its ids so clearing costs what was set. */
export class IdBits {
  /** Bit `id & 31` of word `id >> 5`; hot loops read the words directly. */
  words: Int32Array = new Int32Array(32);
  private ids: Int32Array = new Int32Array(64);
  /** Ids in the set. */
  count = 0;

  constructor() {
    declareExtent(this, 'ids', () => this.count);
  }

  /** Makes room for ids below `capacity`. */
  fit(capacity: number): void {
    const words = (capacity + 31) >> 5;
    if (this.words.length < words) this.words = grow(this.words, words);
  }

  has(id: number): boolean {
    return ((this.words[id >> 5] >>> (id & 31)) & 1) !== 0;
  }

  add(id: number): void {
    if (this.has(id)) return;
    this.words[id >> 5] |= 1 << (id & 31);
    if (this.count === this.ids.length) this.ids = grow(this.ids, this.count * 2);
    this.ids[this.count++] = id;
  }

  clear(): void {
    for (let i = 0; i < this.count; i++) this.words[this.ids[i] >> 5] = 0;
    this.count = 0;
  }
}
