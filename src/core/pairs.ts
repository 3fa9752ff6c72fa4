import { PAIR_HEAD, type ItemStore } from './items.js';
import { growInt32, growUint8, NONE } from './nodes.js';

/**
 * The persistent pair set: a pool of pairs in typed arrays, an open-addressing hash on the
 * canonical key (a < b) to find a pair in O(1), and per-item doubly linked pair lists
 * (edge 2p belongs to a, edge 2p+1 to b) so an item's pairs are walked without a search.
 * Destroyed pairs are held back from reuse until the step ends, so lists of pair indices
 * taken during a step stay unambiguous.
 */
/** Offsets in a pair's record (`rec[p * 8 + K]`); edge links are indexed by side (0 = a, 1 = b). */
export const PA = 0;
export const PB = 1;
export const NEXT = 2;
export const PREV = 4;
export const BORN = 6;

export class PairStore {
  /**
   * One 32-byte record per pair: a, b, next edge per side, previous edge per side, the step it
   * began. Walking an item's pairs then costs one cache miss per pair, not one per field.
   */
  rec: Int32Array;
  /** Compact per-pair arrays read in bulk by the sorted-list merge. */
  priority: Uint8Array;
  alive: Uint8Array;
  count = 0;

  private free: Int32Array;
  private freeCount = 0;
  private used = 0;
  private held: Int32Array;
  private heldCount = 0;

  /**
   * Open-addressing table, 4 ints per slot: pair index (NONE if empty), a, b and one unused,
   * so a slot is 16 bytes and never straddles a cache line.
   */
  private table: Int32Array;
  private tableMask: number;

  constructor(capacity: number) {
    const cap = Math.max(64, capacity);
    this.rec = new Int32Array(cap * 8);
    this.priority = new Uint8Array(cap);
    this.alive = new Uint8Array(cap);
    this.free = new Int32Array(cap);
    this.held = new Int32Array(cap);
    this.table = emptyTable(cap * 2);
    this.tableMask = cap * 2 - 1;
  }

  get capacity(): number {
    return this.alive.length;
  }

  a(p: number): number {
    return this.rec[(p << 3) | PA];
  }

  b(p: number): number {
    return this.rec[(p << 3) | PB];
  }

  /** Step in which the pair began. */
  born(p: number): number {
    return this.rec[(p << 3) | BORN];
  }

  /** The edge after `e` in its item's pair list (edge 2p + side), or NONE. */
  edgeNext(e: number): number {
    return this.rec[((e >> 1) << 3) | (NEXT + (e & 1))];
  }

  edgePrev(e: number): number {
    return this.rec[((e >> 1) << 3) | (PREV + (e & 1))];
  }

  /** Index of the pair (a, b) with a < b, or NONE. */
  find(a: number, b: number): number {
    const table = this.table;
    const mask = this.tableMask;
    for (let slot = hash(a, b) & mask; ; slot = (slot + 1) & mask) {
      const p = table[slot << 2];
      if (p === NONE) return NONE;
      if (table[(slot << 2) | 1] === a && table[(slot << 2) | 2] === b) return p;
    }
  }

  /** Adds the pair (a < b) and links it into both items' lists. */
  create(a: number, b: number, priority: number, step: number, items: ItemStore): number {
    if (this.freeCount === 0 && this.used === this.capacity) this.grow();
    const p = this.freeCount > 0 ? this.free[--this.freeCount] : this.used++;
    this.rec[(p << 3) | PA] = a;
    this.rec[(p << 3) | PB] = b;
    this.rec[(p << 3) | BORN] = step;
    this.priority[p] = priority;
    this.alive[p] = 1;
    this.linkEdge(p << 1, a, items);
    this.linkEdge((p << 1) | 1, b, items);
    this.insertKey(p, a, b);
    this.count++;
    return p;
  }

  /** Removes the pair from the hash and both lists; its index is held until {@link release}. */
  destroy(p: number, items: ItemStore): void {
    this.unlinkEdge(p << 1, this.rec[(p << 3) | PA], items);
    this.unlinkEdge((p << 1) | 1, this.rec[(p << 3) | PB], items);
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
    const rec = this.rec;
    const side = e & 1;
    const r = (e >> 1) << 3;
    const head = items.i32[(id << 4) | PAIR_HEAD];
    rec[r | (NEXT + side)] = head;
    rec[r | (PREV + side)] = NONE;
    if (head !== NONE) rec[((head >> 1) << 3) | (PREV + (head & 1))] = e;
    items.i32[(id << 4) | PAIR_HEAD] = e;
  }

  private unlinkEdge(e: number, id: number, items: ItemStore): void {
    const rec = this.rec;
    const r = (e >> 1) << 3;
    const side = e & 1;
    const next = rec[r | (NEXT + side)];
    const prev = rec[r | (PREV + side)];
    if (prev === NONE) items.i32[(id << 4) | PAIR_HEAD] = next;
    else rec[((prev >> 1) << 3) | (NEXT + (prev & 1))] = next;
    if (next !== NONE) rec[((next >> 1) << 3) | (PREV + (next & 1))] = prev;
  }

  private insertKey(p: number, a: number, b: number): void {
    const table = this.table;
    const mask = this.tableMask;
    let slot = hash(a, b) & mask;
    while (table[slot << 2] !== NONE) slot = (slot + 1) & mask;
    table[slot << 2] = p;
    table[(slot << 2) | 1] = a;
    table[(slot << 2) | 2] = b;
  }

  /** Linear-probing delete with backward shift, so no tombstones pile up. */
  private removeFromTable(p: number): void {
    const table = this.table;
    const mask = this.tableMask;
    let slot = hash(this.rec[(p << 3) | PA], this.rec[(p << 3) | PB]) & mask;
    while (table[slot << 2] !== p) slot = (slot + 1) & mask;
    let hole = slot;
    for (let next = (hole + 1) & mask; table[next << 2] !== NONE; next = (next + 1) & mask) {
      const home = hash(table[(next << 2) | 1], table[(next << 2) | 2]) & mask;
      // Move the entry into the hole unless its home lies cyclically in (hole, next].
      if (hole <= next ? home <= hole || home > next : home <= hole && home > next) {
        table[hole << 2] = table[next << 2];
        table[(hole << 2) | 1] = table[(next << 2) | 1];
        table[(hole << 2) | 2] = table[(next << 2) | 2];
        hole = next;
      }
    }
    table[hole << 2] = NONE;
  }

  private grow(): void {
    const cap = this.capacity * 2;
    this.rec = growInt32(this.rec, cap * 8);
    this.priority = growUint8(this.priority, cap);
    this.alive = growUint8(this.alive, cap);
    this.free = growInt32(this.free, cap);
    const old = this.table;
    this.table = emptyTable(cap * 2);
    this.tableMask = cap * 2 - 1;
    for (let i = 0; i < old.length; i += 4) {
      if (old[i] !== NONE) this.insertKey(old[i], old[i + 1], old[i + 2]);
    }
  }
}

function emptyTable(slots: number): Int32Array {
  return new Int32Array(slots * 4).fill(NONE);
}

function hash(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}
