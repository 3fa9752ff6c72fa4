import { fit } from './idlist.js';

const EMPTY = -1;

/**
 * What the plugin remembers about each live pair, keyed by its two entities (a < b): the
 * layers the pair began with (so an exit can be matched to handlers after an entity was
 * removed or its id recycled) and its pair entity. Records live in
 * parallel typed arrays with a free list; an open-addressing hash finds them in O(1).
 */
export class PairMap {
  a = new Int32Array(256);
  b = new Int32Array(256);
  layerA = new Int32Array(256);
  layerB = new Int32Array(256);
  /** Pair entity, or 0 for none. */
  entity = new Uint32Array(256);
  count = 0;

  private free = new Int32Array(256);
  private freeCount = 0;
  private used = 0;
  private table = new Int32Array(512).fill(EMPTY);
  private mask = 511;

  /** Record of the pair (a, b) with a < b, or -1. */
  find(a: number, b: number): number {
    const table = this.table;
    const mask = this.mask;
    for (let slot = hash(a, b) & mask; ; slot = (slot + 1) & mask) {
      const r = table[slot];
      if (r === EMPTY) return -1;
      if (this.a[r] === a && this.b[r] === b) return r;
    }
  }

  /** Adds the pair (a < b), which must not be present; returns its record. */
  add(a: number, b: number): number {
    if ((this.count + 1) * 2 > this.table.length) this.grow();
    const r = this.freeCount > 0 ? this.free[--this.freeCount] : this.used++;
    if (r >= this.a.length) this.reserve(r + 1);
    this.a[r] = a;
    this.b[r] = b;
    this.entity[r] = 0;
    const table = this.table;
    const mask = this.mask;
    let slot = hash(a, b) & mask;
    while (table[slot] !== EMPTY) slot = (slot + 1) & mask;
    table[slot] = r;
    this.count++;
    return r;
  }

  /** Removes a record (linear-probing delete with backward shift: no tombstones). */
  remove(r: number): void {
    const table = this.table;
    const mask = this.mask;
    let slot = hash(this.a[r], this.b[r]) & mask;
    while (table[slot] !== r) slot = (slot + 1) & mask;
    let hole = slot;
    for (let next = (hole + 1) & mask; table[next] !== EMPTY; next = (next + 1) & mask) {
      const q = table[next];
      const home = hash(this.a[q], this.b[q]) & mask;
      if (hole <= next ? home <= hole || home > next : home <= hole && home > next) {
        table[hole] = q;
        hole = next;
      }
    }
    table[hole] = EMPTY;
    this.free = fit(this.free, this.freeCount + 1);
    this.free[this.freeCount++] = r;
    this.count--;
  }

  /** Calls `visit` with every live record. */
  forEach(visit: (r: number) => void): void {
    const table = this.table;
    for (let slot = 0; slot < table.length; slot++) if (table[slot] !== EMPTY) visit(table[slot]);
  }

  private reserve(size: number): void {
    this.a = fit(this.a, size);
    this.b = fit(this.b, size);
    this.layerA = fit(this.layerA, size);
    this.layerB = fit(this.layerB, size);
    this.entity = fit(this.entity, size);
  }

  private grow(): void {
    const size = this.table.length * 2;
    const old = this.table;
    this.table = new Int32Array(size).fill(EMPTY);
    this.mask = size - 1;
    for (let slot = 0; slot < old.length; slot++) {
      const r = old[slot];
      if (r === EMPTY) continue;
      let s = hash(this.a[r], this.b[r]) & this.mask;
      while (this.table[s] !== EMPTY) s = (s + 1) & this.mask;
      this.table[s] = r;
    }
  }
}

function hash(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}
