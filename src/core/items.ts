import { growFloat64, growInt32, growUint8, NONE } from './nodes.js';

/** `node` value of an id that is not in the index. */
export const ABSENT = -2;
/** `node` value of an id waiting in the pending-insertion queue. */
export const PENDING = -3;

/** Flag bits in `flags`. */
export const STATIC = 1;
/** Queued for the broadphase (moved, resized, added or re-filtered since it was last checked). */
export const DIRTY = 2;
/** Sits in the root because its box fits no loose bounds (far outside the world). */
export const OUTSIDE = 4;

/** Default collider: layer 1, every mask bit, priority 128 (tier 1). */
export const DEFAULT_LAYER = 1;
export const DEFAULT_MASK = -1;
export const DEFAULT_PRIORITY = 128;

/**
 * Per-id storage: parallel typed arrays indexed by item id, grown by doubling up to the
 * id limit. Items are never objects.
 */
export class ItemStore {
  minX: Float64Array;
  minY: Float64Array;
  maxX: Float64Array;
  maxY: Float64Array;
  /** Node holding the item, or ABSENT / PENDING. */
  node: Int32Array;
  /** Neighbours in the node's item list. */
  next: Int32Array;
  prev: Int32Array;
  layer: Int32Array;
  mask: Int32Array;
  priority: Uint8Array;
  flags: Uint8Array;
  /** Step in which the broadphase last checked the item (so pairs are tested once). */
  checkedAt: Int32Array;
  /** First pair edge of the item's pair list, or NONE. */
  pairHead: Int32Array;

  constructor(capacity: number) {
    const cap = Math.max(16, capacity);
    this.minX = new Float64Array(cap);
    this.minY = new Float64Array(cap);
    this.maxX = new Float64Array(cap);
    this.maxY = new Float64Array(cap);
    this.node = new Int32Array(cap).fill(ABSENT);
    this.next = new Int32Array(cap);
    this.prev = new Int32Array(cap);
    this.layer = new Int32Array(cap).fill(DEFAULT_LAYER);
    this.mask = new Int32Array(cap).fill(DEFAULT_MASK);
    this.priority = new Uint8Array(cap).fill(DEFAULT_PRIORITY);
    this.flags = new Uint8Array(cap);
    this.checkedAt = new Int32Array(cap).fill(-1);
    this.pairHead = new Int32Array(cap).fill(NONE);
  }

  get capacity(): number {
    return this.node.length;
  }

  /** Makes room for `id`, doubling until it fits (the caller has checked the id limit). */
  ensure(id: number, limit: number): void {
    if (id < this.node.length) return;
    let cap = this.node.length;
    while (cap <= id) cap *= 2;
    if (cap > limit) cap = limit;
    const old = this.node.length;
    this.minX = growFloat64(this.minX, cap);
    this.minY = growFloat64(this.minY, cap);
    this.maxX = growFloat64(this.maxX, cap);
    this.maxY = growFloat64(this.maxY, cap);
    this.node = growInt32(this.node, cap);
    this.node.fill(ABSENT, old);
    this.next = growInt32(this.next, cap);
    this.prev = growInt32(this.prev, cap);
    this.layer = growInt32(this.layer, cap);
    this.layer.fill(DEFAULT_LAYER, old);
    this.mask = growInt32(this.mask, cap);
    this.mask.fill(DEFAULT_MASK, old);
    this.priority = growUint8(this.priority, cap);
    this.priority.fill(DEFAULT_PRIORITY, old);
    this.flags = growUint8(this.flags, cap);
    this.checkedAt = growInt32(this.checkedAt, cap);
    this.checkedAt.fill(-1, old);
    this.pairHead = growInt32(this.pairHead, cap);
    this.pairHead.fill(NONE, old);
  }
}

/** Tier of a priority: 0 for 192-255 (never cut by the budget) down to 3 for 0-63. */
export function tierOf(priority: number): number {
  return 3 - (priority >> 6);
}
