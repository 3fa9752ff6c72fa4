import { growInt32, NONE } from './nodes.js';

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
/**
 * Inserted while the pair pool was not kept (see Broadphase.linked): a listed pair with this
 * id may belong to an earlier item under the same id, so it ends rather than stays.
 */
export const REBORN = 8;
/** Moved since the tree last caught up (see TreeIndex.sync): its slot and node may be stale. */
export const UNSYNCED = 16;

/**
 * True when a pair listed by the last step no longer holds because one of its ids left the
 * index since, or left and came back as a new item (REBORN).
 */
export function pairLeft(i32: Int32Array, a: number, b: number): boolean {
  return i32[(a << 4) | NODE] === ABSENT || i32[(b << 4) | NODE] === ABSENT ||
    ((i32[(a << 4) | FLAGS] | i32[(b << 4) | FLAGS]) & REBORN) !== 0;
}

/** Default collider: layer 1, every mask bit, priority 128 (tier 1). */
export const DEFAULT_LAYER = 1;
export const DEFAULT_MASK = -1;
export const DEFAULT_PRIORITY = 128;

/**
 * Field offsets in an item's record. Each item owns one 64-byte record (a cache line):
 * its box as four float64 (`f64[id * 8 + 0..3]`) and eight int32 fields after it
 * (`i32[id * 16 + K]`). The broadphase touches most of them for every candidate, so one
 * record per item costs one cache miss where separate arrays per field cost one each.
 */
export const MIN_X = 0;
export const MIN_Y = 1;
export const MAX_X = 2;
export const MAX_Y = 3;
export const FLAGS = 8;
/** Step in which the broadphase last checked the item (so pairs are tested once). */
export const CHECKED = 9;
/** Token of the last mover that found this item among its partners. */
export const SEEN = 10;
export const LAYER = 11;
export const MASK = 12;
export const PRIORITY = 13;
/** First pair edge of the item's pair list, or NONE. */
export const PAIR_HEAD = 14;
/** Node holding the item, or ABSENT / PENDING. */
export const NODE = 15;

/** Per-id storage in records, grown by doubling up to the id limit. Items are never objects. */
export class ItemStore {
  f64: Float64Array;
  i32: Int32Array;
  /** The item's slot in its node's region (see SlotPool), which holds a copy of its box. */
  slot: Int32Array;

  constructor(capacity: number) {
    const cap = Math.max(16, capacity);
    this.f64 = new Float64Array(cap * 8);
    this.i32 = new Int32Array(this.f64.buffer);
    this.slot = new Int32Array(cap);
    this.initRecords(0, cap);
  }

  get capacity(): number {
    return this.slot.length;
  }

  /** Makes room for `id`, doubling until it fits (the caller has checked the id limit). */
  ensure(id: number, limit: number): void {
    if (id < this.slot.length) return;
    let cap = this.slot.length;
    while (cap <= id) cap *= 2;
    if (cap > limit) cap = limit;
    const old = this.slot.length;
    const f64 = new Float64Array(cap * 8);
    f64.set(this.f64);
    this.f64 = f64;
    this.i32 = new Int32Array(f64.buffer);
    this.slot = growInt32(this.slot, cap);
    this.initRecords(old, cap);
  }

  /** Gives ids from..to-1 the state of an id never inserted. */
  initRecords(from: number, to: number): void {
    const i32 = this.i32;
    for (let id = from; id < to; id++) {
      const r = id << 4;
      i32[r | FLAGS] = 0;
      i32[r | CHECKED] = -1;
      i32[r | SEEN] = 0;
      i32[r | LAYER] = DEFAULT_LAYER;
      i32[r | MASK] = DEFAULT_MASK;
      i32[r | PRIORITY] = DEFAULT_PRIORITY;
      i32[r | PAIR_HEAD] = NONE;
      i32[r | NODE] = ABSENT;
    }
  }
}

/** Tier of a priority: 0 for 192-255 (never cut by the budget) down to 3 for 0-63. */
export function tierOf(priority: number): number {
  return 3 - (priority >> 6);
}
