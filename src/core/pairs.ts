import type { ItemStore } from './items.js';
import { growInt32, growUint8, NONE } from './nodes.js';

/**
 * The persistent pair set: a pool of pairs in typed arrays, an open-addressing hash on the
 * canonical key (a < b) to find a pair in O(1), and per-item doubly linked pair lists
 * (edge 2p belongs to a, edge 2p+1 to b) so an item's pairs are walked without a search.
 * Destroyed pairs are held back from reuse until the step ends, so lists of pair indices
 * taken during a step stay unambiguous.
 */
export class PairStore {
  a: Int32Array;
  b: Int32Array;
  priority: Uint8Array;
  alive: Uint8Array;
  /** Step in which the pair began. */
  born: Int32Array;
  edgeNext: Int32Array;
  edgePrev: Int32Array;
  count = 0;

  private free: Int32Array;
  private freeCount = 0;
  private used = 0;
  private held: Int32Array;
  private heldCount = 0;

  private table: Int32Array;
  private tableMask: number;

  constructor(capacity: number) {
    const cap = Math.max(64, capacity);
    this.a = new Int32Array(cap);
    this.b = new Int32Array(cap);
    this.priority = new Uint8Array(cap);
    this.alive = new Uint8Array(cap);
    this.born = new Int32Array(cap);
    this.edgeNext = new Int32Array(cap * 2);
    this.edgePrev = new Int32Array(cap * 2);
    this.free = new Int32Array(cap);
    this.held = new Int32Array(cap);
    this.table = new Int32Array(cap * 2).fill(NONE);
    this.tableMask = cap * 2 - 1;
  }

  get capacity(): number {
    return this.a.length;
  }

  /** Index of the pair (a, b) with a < b, or NONE. */
  find(a: number, b: number): number {
    const table = this.table;
    const mask = this.tableMask;
    for (let slot = hash(a, b) & mask; ; slot = (slot + 1) & mask) {
      const p = table[slot];
      if (p === NONE) return NONE;
      if (this.a[p] === a && this.b[p] === b) return p;
    }
  }

  /** Adds the pair (a < b) and links it into both items' lists. */
  create(a: number, b: number, priority: number, step: number, items: ItemStore): number {
    if (this.freeCount === 0 && this.used === this.capacity) this.grow();
    const p = this.freeCount > 0 ? this.free[--this.freeCount] : this.used++;
    this.a[p] = a;
    this.b[p] = b;
    this.priority[p] = priority;
    this.alive[p] = 1;
    this.born[p] = step;
    this.linkEdge(p << 1, a, items);
    this.linkEdge((p << 1) | 1, b, items);
    const table = this.table;
    const mask = this.tableMask;
    let slot = hash(a, b) & mask;
    while (table[slot] !== NONE) slot = (slot + 1) & mask;
    table[slot] = p;
    this.count++;
    return p;
  }

  /** Removes the pair from the hash and both lists; its index is held until {@link release}. */
  destroy(p: number, items: ItemStore): void {
    this.unlinkEdge(p << 1, this.a[p], items);
    this.unlinkEdge((p << 1) | 1, this.b[p], items);
    this.removeFromTable(p);
    this.alive[p] = 0;
    this.count--;
    if (this.heldCount === this.held.length) this.held = growInt32(this.held, this.held.length * 2);
    this.held[this.heldCount++] = p;
  }

  /** Makes the pairs destroyed since the last call reusable. */
  release(): void {
    if (this.free.length < this.freeCount + this.heldCount) {
      this.free = growInt32(this.free, Math.max(this.free.length * 2, this.freeCount + this.heldCount));
    }
    this.free.set(this.held.subarray(0, this.heldCount), this.freeCount);
    this.freeCount += this.heldCount;
    this.heldCount = 0;
  }

  /** Pool slots in use or held (for validate). */
  get slotsUsed(): number {
    return this.used - this.freeCount;
  }

  /** Forgets every pair (the items' lists must be reset by the caller). */
  reset(): void {
    this.count = 0;
    this.freeCount = 0;
    this.heldCount = 0;
    this.used = 0;
    this.alive.fill(0);
    this.table.fill(NONE);
  }

  private linkEdge(e: number, id: number, items: ItemStore): void {
    const head = items.pairHead[id];
    this.edgeNext[e] = head;
    this.edgePrev[e] = NONE;
    if (head !== NONE) this.edgePrev[head] = e;
    items.pairHead[id] = e;
  }

  private unlinkEdge(e: number, id: number, items: ItemStore): void {
    const next = this.edgeNext[e];
    const prev = this.edgePrev[e];
    if (prev === NONE) items.pairHead[id] = next;
    else this.edgeNext[prev] = next;
    if (next !== NONE) this.edgePrev[next] = prev;
  }

  /** Linear-probing delete with backward shift, so no tombstones pile up. */
  private removeFromTable(p: number): void {
    const table = this.table;
    const mask = this.tableMask;
    let slot = hash(this.a[p], this.b[p]) & mask;
    while (table[slot] !== p) slot = (slot + 1) & mask;
    let hole = slot;
    for (let next = (hole + 1) & mask; table[next] !== NONE; next = (next + 1) & mask) {
      const q = table[next];
      const home = hash(this.a[q], this.b[q]) & mask;
      // Move q into the hole unless its home lies cyclically in (hole, next].
      if (hole <= next ? home <= hole || home > next : home <= hole && home > next) {
        table[hole] = q;
        hole = next;
      }
    }
    table[hole] = NONE;
  }

  private grow(): void {
    const cap = this.capacity * 2;
    this.a = growInt32(this.a, cap);
    this.b = growInt32(this.b, cap);
    this.priority = growUint8(this.priority, cap);
    this.alive = growUint8(this.alive, cap);
    this.born = growInt32(this.born, cap);
    this.edgeNext = growInt32(this.edgeNext, cap * 2);
    this.edgePrev = growInt32(this.edgePrev, cap * 2);
    this.free = growInt32(this.free, cap);
    this.table = new Int32Array(cap * 2).fill(NONE);
    this.tableMask = cap * 2 - 1;
    for (let p = 0; p < this.used; p++) {
      if (this.alive[p] === 0) continue;
      let slot = hash(this.a[p], this.b[p]) & this.tableMask;
      while (this.table[slot] !== NONE) slot = (slot + 1) & this.tableMask;
      this.table[slot] = p;
    }
  }
}

function hash(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}
