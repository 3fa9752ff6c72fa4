import { grow } from '../grow.js';
import { fail } from '../errors.js';
import { declareExtent } from '../snapshot/StatePlan.js';

const EMPTY = 0;

/**
 * Distinct colliders (layer, mask, flags word), held once and named by index from slots: a game has a handful, so the
 * filters read small arrays that stay in cache. Refcounted, so changing priorities does not fill the table.
 */
export class Colliders {
  layer = new Int32Array(16);
  mask = new Int32Array(16);
  word = new Int32Array(16);
  /** Items holding each collider; 0 for a free index. */
  refs = new Int32Array(16);
  /** Indices handed out so far (the high-water mark): the items' indices are below it; those freed wait in `free`. */
  handedOut = 0;
  private free = new Int32Array(16);
  private freeCount = 0;
  /** Collider index + 1 per hash slot, or EMPTY. */
  private table = new Int32Array(32);

  constructor() {
    declareExtent(this, 'layer', () => this.handedOut);
    declareExtent(this, 'mask', () => this.handedOut);
    declareExtent(this, 'word', () => this.handedOut);
    declareExtent(this, 'refs', () => this.handedOut);
    declareExtent(this, 'free', () => this.freeCount);
  }

  /** Distinct colliders held by at least one item. */
  get count(): number {
    return this.handedOut - this.freeCount;
  }

  /** The index of the collider (layer, mask, word), added when new; one more item holds it. */
  hold(layer: number, mask: number, word: number): number {
    const table = this.table;
    const last = table.length - 1;
    let h = hash(layer, mask, word) & last;
    for (let e = table[h]; e !== EMPTY; e = table[h]) {
      const c = e - 1;
      if (this.layer[c] === layer && this.mask[c] === mask && this.word[c] === word) {
        this.refs[c]++;
        return c;
      }
      h = (h + 1) & last;
    }
    const c = this.freeCount > 0 ? this.free[--this.freeCount] : this.handedOut++;
    if (c === this.layer.length) this.growEntries(2 * c);
    this.layer[c] = layer;
    this.mask[c] = mask;
    this.word[c] = word;
    this.refs[c] = 1;
    table[h] = c + 1;
    // At most half full: probes stay short.
    if (2 * this.count > table.length) this.rehash(2 * table.length);
    return c;
  }

  /** One item fewer holds collider c; forgotten when none does. */
  drop(c: number): void {
    if (--this.refs[c] !== 0) return;
    const table = this.table;
    const last = table.length - 1;
    let hole = hash(this.layer[c], this.mask[c], this.word[c]) & last;
    while (table[hole] !== c + 1) hole = (hole + 1) & last;
    // Backward shift: each entry after the hole whose home is not between them moves into it.
    for (let next = (hole + 1) & last; table[next] !== EMPTY; next = (next + 1) & last) {
      const e = table[next] - 1;
      const home = hash(this.layer[e], this.mask[e], this.word[e]) & last;
      if (hole <= next ? home <= hole || home > next : home <= hole && home > next) {
        table[hole] = table[next];
        hole = next;
      }
    }
    table[hole] = EMPTY;
    if (this.freeCount === this.free.length) this.free = grow(this.free, 2 * this.freeCount);
    this.free[this.freeCount++] = c;
  }

  /** The index of (layer, mask, word) for an item leaving collider c: c itself when the numbers are c's. */
  change(c: number, layer: number, mask: number, word: number): number {
    if (this.layer[c] === layer && this.mask[c] === mask && this.word[c] === word) return c;
    const next = this.hold(layer, mask, word);
    this.drop(c);
    return next;
  }

  reset(): void {
    this.handedOut = 0;
    this.freeCount = 0;
    this.refs.fill(0);
    this.table.fill(EMPTY);
  }

  /** Checks the counts against `held` (from TreeCheck) and the hash table; throws naming the first mismatch. */
  check(held: Int32Array): void {
    for (let c = 0; c < this.handedOut; c++) {
      if (this.refs[c] !== held[c])
        fail(`validate: collider ${c} is held by ${held[c]} items, but counts ${this.refs[c]}`);
    }
    let found = 0;
    for (let h = 0; h < this.table.length; h++) {
      const e = this.table[h];
      if (e === EMPTY) continue;
      if (this.refs[e - 1] === 0) fail(`validate: collider ${e - 1} is in the table but held by no item`);
      found++;
    }
    if (found !== this.count) fail(`validate: ${found} colliders in the table, ${this.count} in use`);
  }

  private growEntries(size: number): void {
    this.layer = grow(this.layer, size);
    this.mask = grow(this.mask, size);
    this.word = grow(this.word, size);
    this.refs = grow(this.refs, size);
  }

  private rehash(size: number): void {
    const table = new Int32Array(size);
    const last = size - 1;
    for (let c = 0; c < this.handedOut; c++) {
      if (this.refs[c] === 0) continue;
      let h = hash(this.layer[c], this.mask[c], this.word[c]) & last;
      while (table[h] !== EMPTY) h = (h + 1) & last;
      table[h] = c + 1;
    }
    this.table = table;
  }
}

function hash(layer: number, mask: number, word: number): number {
  let h = Math.imul(layer, 0x9e3779b1) ^ Math.imul(mask ^ 0x7f4a7c15, 0x85ebca77) ^ Math.imul(word, 0xc2b2ae3d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}
