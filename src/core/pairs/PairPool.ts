import { NO_RECORD, type ItemStore } from '../store/ItemStore.js';
import { PairHash } from './PairHash.js';
import { NONE } from '../store/NodePool.js';
import { grow } from '../grow.js';

/**
 * The persistent pair set: a pool of pairs in typed arrays, a hash on the canonical key
 * (a < b) to find a pair in O(1) (see PairHash), and per-item doubly linked pair lists
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

export class PairPool {
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

  /** Pair index by its two ids. */
  private readonly index: PairHash;

  constructor(capacity: number) {
    const cap = Math.max(64, capacity);
    this.rec = new Int32Array(cap * 8);
    this.priority = new Uint8Array(cap);
    this.alive = new Uint8Array(cap);
    this.free = new Int32Array(cap);
    this.held = new Int32Array(cap);
    this.index = new PairHash(cap);
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
    return this.index.find(a, b);
  }

  /** Adds the pair (a < b) and links it into both items' lists. */
  create(a: number, b: number, priority: number, step: number, items: ItemStore): number {
    if (this.freeCount === 0 && this.used === this.capacity) this.growArrays();
    const p = this.freeCount > 0 ? this.free[--this.freeCount] : this.used++;
    this.rec[(p << 3) | PA] = a;
    this.rec[(p << 3) | PB] = b;
    this.rec[(p << 3) | BORN] = step;
    this.priority[p] = priority;
    this.alive[p] = 1;
    this.linkEdge(p << 1, a, items);
    this.linkEdge((p << 1) | 1, b, items);
    this.index.insert(a, b, p);
    this.count++;
    return p;
  }

  /** Removes the pair from the hash and both lists; its index is held until {@link release}. */
  destroy(p: number, items: ItemStore): void {
    this.unlinkEdge(p << 1, this.rec[(p << 3) | PA], items);
    this.unlinkEdge((p << 1) | 1, this.rec[(p << 3) | PB], items);
    this.index.remove(this.rec[(p << 3) | PA], this.rec[(p << 3) | PB]);
    this.alive[p] = 0;
    this.count--;
    if (this.heldCount === this.held.length) this.held = grow(this.held, this.held.length * 2);
    this.held[this.heldCount++] = p;
  }

  /** Makes the pairs destroyed since the last call reusable. */
  release(): void {
    if (this.free.length < this.freeCount + this.heldCount) {
      this.free = grow(this.free, Math.max(this.free.length * 2, this.freeCount + this.heldCount));
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
    this.index.clear();
  }

  private linkEdge(e: number, id: number, items: ItemStore): void {
    const rec = this.rec;
    const side = e & 1;
    const r = (e >> 1) << 3;
    // An item removed since (a pair rebuilt by Broadphase.syncPool only to be ended) has no list.
    if (items.rec[id] === NO_RECORD) {
      rec[r | (NEXT + side)] = NONE;
      rec[r | (PREV + side)] = NONE;
      return;
    }
    const head = items.pairHead(id);
    rec[r | (NEXT + side)] = head;
    rec[r | (PREV + side)] = NONE;
    if (head !== NONE) rec[((head >> 1) << 3) | (PREV + (head & 1))] = e;
    items.setPairHead(id, e);
  }

  private unlinkEdge(e: number, id: number, items: ItemStore): void {
    if (items.rec[id] === NO_RECORD) return;
    const rec = this.rec;
    const r = (e >> 1) << 3;
    const side = e & 1;
    const next = rec[r | (NEXT + side)];
    const prev = rec[r | (PREV + side)];
    if (prev === NONE) items.setPairHead(id, next);
    else rec[((prev >> 1) << 3) | (NEXT + (prev & 1))] = next;
    if (next !== NONE) rec[((next >> 1) << 3) | (PREV + (next & 1))] = prev;
  }

  private growArrays(): void {
    const cap = this.capacity * 2;
    this.rec = grow(this.rec, cap * 8);
    this.priority = grow(this.priority, cap);
    this.alive = grow(this.alive, cap);
    this.free = grow(this.free, cap);
  }
}
