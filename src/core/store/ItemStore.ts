import { grow, resize } from '../grow.js';
import { fail } from '../errors.js';
import { declareExtent } from '../snapshot/StatePlan.js';
import { writeBox, type SlotPool } from './SlotPool.js';

/** `node` value of an id that is not in the index: below the others, so `node >= PENDING` is `move`'s fast path. */
export const ABSENT = -3;
/** `node` value of an id waiting in the pending-insertion queue. */
export const PENDING = -2;
/** `node` value of a detached class's item. */
export const DETACHED = -1;

/** Flag bits in `flags`. */
export const STATIC = 1;
/** A circle inscribed in its box: candidates come from the box, pairs and queries test the circle. */
export const CIRCLE = 2;
/** Found by its path (see SweptStore): the record's box covers last step's and current position. */
export const SWEPT = 8;
/** The flags that make a candidate pair take the exact test (see ExactTest). */
export const EXACT = SWEPT | CIRCLE;
/** The collision class sits in the flags' second byte (see CollisionClasses). */
export const CLASS_SHIFT = 8;
export const CLASS_BITS = 0xff << CLASS_SHIFT;
/** The priority (0-255) sits in the flags' third byte. */
export const PRIORITY_SHIFT = 16;
export const PRIORITY_BITS = 0xff << PRIORITY_SHIFT;

/** Default collider: layer 1, every mask bit, priority 128 (tier 1). */
export const DEFAULT_LAYER = 1;
export const DEFAULT_MASK = -1;
export const DEFAULT_PRIORITY = 128;
/** The flags word of a new item: no flag, class 0, the default priority. */
const DEFAULT_WORD = DEFAULT_PRIORITY << PRIORITY_SHIFT;

/** Offsets of a box's numbers in its slot (see SlotPool.box and ItemStore.boxAt). */
export const MIN_X = 0;
export const MIN_Y = 1;
export const MAX_X = 2;
export const MAX_Y = 3;

/** Field offsets in an item's record of four int32 (`i32[r * 4 + K]`); box, layer and mask live in its slot. */
// LooseQuadtree.move writes FLAGS, SLOT and NODE out as numbers: keep them 0, 2 and 3.
export const FLAGS = 0;
/** The broadphase mark for step s: `2s + 1` waiting, `2s` taken; older marks are stale, so none is cleared. */
export const STATE = 1;
/** The item's slot, sole home of its box, layer and mask: in a node's or detached region, or its own between homes. */
export const SLOT = 2;
/** Node holding the item, or PENDING / DETACHED (ABSENT while it is being removed). */
export const NODE = 3;

/** `rec` value of an id that is not in the index. */
export const NO_RECORD = -1;

/**
 * Item storage: a record per item and an id-to-record map (the only per-id state), so memory follows the item count.
 * A removed item's record stays with its id until the step ends ({@link releaseDeparted}): bitECS reuses ids at once,
 * and the id then takes its record and list place back.
 */
export class ItemStore {
  /** Record of each id, or NO_RECORD; grown by doubling up to the id limit. */
  rec: Int32Array;
  /** Records: four int32 fields each. */
  i32: Int32Array;
  /** One bit per id, set while DETACHED: merges ask it often, and the bits stay in cache where records do not. */
  detachedBits: Int32Array;
  readonly slots: SlotPool;
  /** Per record, the item's place in its class's list; kept on leaving so the same id rejoins at its place. */
  listAt: Int32Array;
  /** Records handed out so far (the high-water mark); those freed since wait in `free`. */
  private top = 0;
  private free: Int32Array;
  private freeCount = 0;
  /** Records reused from the free list since the last {@link permute}: they break id-order passes. */
  scattered = 0;
  /** Ids removed since the last step ended, whose records wait for {@link releaseDeparted}. */
  private departed: Int32Array;
  private departedCount = 0;

  constructor(capacity: number, slots: SlotPool) {
    this.slots = slots;
    const cap = Math.max(16, capacity);
    this.rec = new Int32Array(cap).fill(NO_RECORD);
    this.detachedBits = new Int32Array((cap + 31) >> 5);
    this.i32 = new Int32Array(cap * 4);
    this.listAt = new Int32Array(cap).fill(-1);
    this.free = new Int32Array(cap);
    this.departed = new Int32Array(64);
    // Past their counts these are written before read, so snapshots skip them; not listAt, whose -1 a new record reads.
    declareExtent(this, 'i32', () => 4 * this.top);
    declareExtent(this, 'free', () => this.freeCount);
    declareExtent(this, 'departed', () => this.departedCount);
  }

  /** Ids below this have a place in the map (the others are absent). */
  get capacity(): number {
    return this.rec.length;
  }

  get records(): number {
    return this.top - this.freeCount;
  }

  /** Makes room in the map for `id`, doubling until it fits (the caller has checked the id limit). */
  ensure(id: number, limit: number): void {
    if (id < this.rec.length) return;
    let cap = this.rec.length;
    while (cap <= id) cap *= 2;
    if (cap > limit) cap = limit;
    try {
      this.detachedBits = grow(this.detachedBits, (cap + 31) >> 5);
      this.rec = grow(this.rec, cap, NO_RECORD);
    } catch (e) {
      // Arrays grown before the failure are harmless: the capacity is the map's length.
      if (e instanceof RangeError) tooFar(id, cap, limit);
      throw e;
    }
  }

  /** Gives an absent id a record as never inserted, with its own slot; its old record and slot if it left this step. */
  add(id: number): number {
    // Departed and back (rec >= 0): the record and its slot are still its own.
    let r = this.rec[id];
    if (r < 0) {
      if (this.freeCount > 0) {
        r = this.free[--this.freeCount];
        this.scattered++;
      } else {
        r = this.top++;
        if (r === this.listAt.length) this.growRecords(r + (r >> 1));
      }
      const s = this.slots.allocOne();
      this.slots.id[s] = id;
      this.i32[(r << 2) | SLOT] = s;
      this.slots.collider[s] = this.slots.colliders.hold(DEFAULT_LAYER, DEFAULT_MASK, DEFAULT_WORD);
    } else {
      const s = this.i32[(r << 2) | SLOT];
      const slots = this.slots;
      slots.collider[s] = slots.colliders.change(slots.collider[s], DEFAULT_LAYER, DEFAULT_MASK, DEFAULT_WORD);
    }
    this.rec[id] = r;
    const i32 = this.i32;
    const o = r << 2;
    i32[o | STATE] = 0;
    i32[o | FLAGS] = DEFAULT_WORD;
    i32[o | NODE] = ABSENT;
    // listAt[r] stays: a hint that CollisionClasses.join checks against the list.
    return r;
  }

  /** Marks a removed id's record departed: freed when the step ends unless the id comes back. */
  depart(id: number): void {
    if (this.departedCount === this.departed.length) this.departed = grow(this.departed, 2 * this.departedCount);
    this.departed[this.departedCount++] = id;
  }

  /** Frees the records of the ids removed since the last call that did not come back. */
  releaseDeparted(): void {
    const i32 = this.i32;
    for (let i = 0; i < this.departedCount; i++) {
      const id = this.departed[i];
      const r = this.rec[id];
      // Freed already (listed twice), or back in the index.
      if (r < 0 || i32[(r << 2) | NODE] !== ABSENT) continue;
      this.rec[id] = NO_RECORD;
      const s = i32[(r << 2) | SLOT];
      this.slots.colliders.drop(this.slots.collider[s]);
      this.slots.freeOne(s);
      this.detachedBits[id >> 5] &= ~(1 << (id & 31));
      if (this.freeCount === this.free.length) this.free = grow(this.free, 2 * this.freeCount);
      this.free[this.freeCount++] = r;
    }
    this.departedCount = 0;
  }

  /** True when the id left since the last step and keeps its record until the step ends. */
  isDeparted(id: number): boolean {
    const r = id < this.rec.length ? this.rec[id] : NO_RECORD;
    return r >= 0 && this.i32[(r << 2) | NODE] === ABSENT;
  }

  /** Moves every record r to `dest[r]` (records in use first) in place; free records go along. O(records). */
  permute(dest: Int32Array): void {
    const { i32, rec, listAt } = this;
    // The map first, from each record in use to its id through its slot (a record keeps no id).
    const live = this.top - this.freeCount;
    for (let r = 0; r < this.top; r++) if (dest[r] < live) rec[this.slots.id[i32[(r << 2) | SLOT]]] = dest[r];
    for (let j = 0; j < this.freeCount; j++) this.free[j] = dest[this.free[j]];
    for (let r = 0; r < this.top; r++) {
      for (let d = dest[r]; d !== r; d = dest[r]) {
        for (let a = r << 2, b = d << 2, end = a + 4; a < end; a++, b++) {
          const t = i32[a];
          i32[a] = i32[b];
          i32[b] = t;
        }
        swap(listAt, r, d);
        dest[r] = dest[d];
        dest[d] = d;
      }
    }
    this.scattered = 0;
  }

  /** Gives each between-homes item's own slot its place in the compaction in progress (see SlotPool.place). */
  placeOwnSlots(): void {
    const i32 = this.i32;
    for (let r = 0; r < this.top; r++) {
      const at = i32[(r << 2) | NODE];
      const o = (r << 2) | SLOT;
      if ((at === ABSENT || at === PENDING) && this.idAtRecord(r) >= 0) i32[o] = this.slots.place(i32[o], 1);
    }
  }

  /** The id holding record r, or -1 when free: a record keeps no id, its slot names it. */
  idAtRecord(r: number): number {
    const s = this.i32[(r << 2) | SLOT];
    if (s < 0 || s >= this.slots.id.length) return -1;
    const id = this.slots.id[s];
    return id >= 0 && id < this.rec.length && this.rec[id] === r ? id : -1;
  }

  /** Records handed out so far, free ones included (see {@link permute}). */
  get handedOut(): number {
    return this.top;
  }

  /** The free records, last freed first at the end (see {@link permute}). */
  freeRecord(j: number): number {
    return this.free[j];
  }

  get freeRecords(): number {
    return this.freeCount;
  }

  /** Checks the map against the records (for validate); throws naming the first broken one. */
  check(): void {
    const used = new Uint8Array(this.top);
    let mapped = 0;
    for (let id = 0; id < this.rec.length; id++) {
      const r = this.rec[id];
      if (r === NO_RECORD) continue;
      if (r < 0 || r >= this.top) fail(`validate: item ${id} maps to record ${r}, outside 0..${this.top - 1}`);
      if (this.idAtRecord(r) !== id)
        fail(
          `validate: item ${id} maps to record ${r}, whose slot ${this.slotOf(id)} names item ${this.slots.id[this.slotOf(id)]}`,
        );
      used[r] = 1;
      mapped++;
    }
    for (let i = 0; i < this.freeCount; i++) {
      const r = this.free[i];
      if (r < 0 || r >= this.top || used[r] !== 0) fail(`validate: record ${r} is free and in use, or no record`);
      used[r] = 2;
    }
    if (mapped + this.freeCount !== this.top)
      fail(`validate: ${mapped} records in use and ${this.freeCount} free, of ${this.top} handed out`);
  }

  reset(): void {
    this.rec.fill(NO_RECORD);
    this.detachedBits.fill(0);
    this.listAt.fill(-1);
    this.top = 0;
    this.freeCount = 0;
    this.departedCount = 0;
    this.scattered = 0;
  }

  /** Gives room back once over a quarter of the records' arrays lies past the high-water mark. Between steps. */
  trim(): void {
    const top = this.top;
    const cap = this.listAt.length;
    if (cap <= 1024 || cap * 4 <= top * 5) return;
    const size = Math.max(1024, top + (top >> 3));
    this.i32 = resize(this.i32, size * 4);
    this.listAt = resize(this.listAt, size);
  }

  private growRecords(cap: number): void {
    this.i32 = grow(this.i32, cap * 4);
    this.listAt = grow(this.listAt, cap, -1);
  }

  // Only this file knows the record layout, bar LooseQuadtree.move: it indexes records itself to stay inlinable.

  /** The item's record number (dense, below {@link handedOut}), or -1 for an absent id. */
  recordOf(id: number): number {
    return id < this.rec.length ? this.rec[id] : NO_RECORD;
  }

  /** Gives an indexed item mark `mark` (see STATE); false when it had it. Small: moves inline it. */
  markOnce(id: number, mark: number): boolean {
    const r = (this.rec[id] << 2) | STATE;
    if (this.i32[r] === mark) return false;
    this.i32[r] = mark;
    return true;
  }

  /** Takes a queued mover of a node holding `mark`: sets `taken`, returns its slot; else -1 (stale). */
  takeMarked(id: number, mark: number, taken: number): number {
    const r = this.rec[id];
    if (r < 0) return -1;
    const o = r << 2;
    if (this.i32[o | STATE] !== mark || this.i32[o | NODE] === DETACHED) return -1;
    this.i32[o | STATE] = taken;
    return this.i32[o | SLOT];
  }

  /** The node holding the item, or ABSENT / PENDING / DETACHED. */
  nodeOf(id: number): number {
    const r = id < this.rec.length ? this.rec[id] : NO_RECORD;
    return r < 0 ? ABSENT : this.i32[(r << 2) | NODE];
  }

  setNode(id: number, node: number): void {
    this.i32[(this.rec[id] << 2) | NODE] = node;
    if (node === DETACHED) this.detachedBits[id >> 5] |= 1 << (id & 31);
    else this.detachedBits[id >> 5] &= ~(1 << (id & 31));
  }

  // Layer and mask live in the item's collider alone (see SlotPool.collider).
  layerOf(id: number): number {
    return this.slots.colliders.layer[this.colliderOf(id)];
  }

  maskOf(id: number): number {
    return this.slots.colliders.mask[this.colliderOf(id)];
  }

  /** Sets layer and mask; returns false when both were set so already. */
  setFilter(id: number, layer: number, mask: number): boolean {
    const slots = this.slots;
    const s = this.slotOf(id);
    const c = slots.collider[s];
    const C = slots.colliders;
    if (C.layer[c] === layer && C.mask[c] === mask) return false;
    slots.collider[s] = C.change(c, layer, mask, C.word[c]);
    return true;
  }

  /** Gives the item's collider the flags word `word`, keeping its layer and mask. */
  setColliderWord(id: number, word: number): void {
    const slots = this.slots;
    const s = this.slotOf(id);
    const c = slots.collider[s];
    const C = slots.colliders;
    slots.collider[s] = C.change(c, C.layer[c], C.mask[c], word);
  }

  /** The low byte of the item's flags (STATIC, CIRCLE, SWEPT). */
  flagsOf(id: number): number {
    return this.i32[(this.rec[id] << 2) | FLAGS] & 0xff;
  }

  /** The whole flags field: the flag bits, the class (CLASS_BITS) and the priority (PRIORITY_BITS). */
  flagsWord(id: number): number {
    return this.i32[(this.rec[id] << 2) | FLAGS];
  }

  hasFlag(id: number, flag: number): boolean {
    return (this.i32[(this.rec[id] << 2) | FLAGS] & flag) !== 0;
  }

  setFlag(id: number, flag: number, on: boolean): void {
    const r = (this.rec[id] << 2) | FLAGS;
    this.i32[r] = on ? this.i32[r] | flag : this.i32[r] & ~flag;
  }

  /** The item's broadphase mark (see STATE); 0 for an absent id. */
  stateOf(id: number): number {
    const r = id < this.rec.length ? this.rec[id] : NO_RECORD;
    return r < 0 ? 0 : this.i32[(r << 2) | STATE];
  }

  setState(id: number, state: number): void {
    this.i32[(this.rec[id] << 2) | STATE] = state;
  }

  /** Offset of the item's box in the slots' boxes (`slots.box`). */
  boxAt(id: number): number {
    return 4 * this.i32[(this.rec[id] << 2) | SLOT];
  }

  colliderOf(id: number): number {
    return this.slots.collider[this.i32[(this.rec[id] << 2) | SLOT]];
  }

  minX(id: number): number {
    return this.slots.box[this.boxAt(id) | MIN_X];
  }

  minY(id: number): number {
    return this.slots.box[this.boxAt(id) | MIN_Y];
  }

  maxX(id: number): number {
    return this.slots.box[this.boxAt(id) | MAX_X];
  }

  maxY(id: number): number {
    return this.slots.box[this.boxAt(id) | MAX_Y];
  }

  /** Writes the box held in `from` (minX, minY, maxX, maxY) into the item's slot. */
  storeBox(id: number, from: Float32Array): void {
    const f32 = this.slots.box;
    const r = this.boxAt(id);
    f32[r | MIN_X] = from[0];
    f32[r | MIN_Y] = from[1];
    f32[r | MAX_X] = from[2];
    f32[r | MAX_Y] = from[3];
  }

  /** Stores a box in the item's slot (rounded to float32); false when it equals the stored one. */
  setBox(id: number, minX: number, minY: number, maxX: number, maxY: number): boolean {
    return writeBox(this.slots.box, this.boxAt(id), minX, minY, maxX, maxY);
  }

  slotOf(id: number): number {
    return this.i32[(this.rec[id] << 2) | SLOT];
  }

  setSlot(id: number, slot: number): void {
    this.i32[(this.rec[id] << 2) | SLOT] = slot;
  }

  /** The item's place in its class's list, or -1 (see listAt). */
  listPlaceOf(id: number): number {
    return this.listAt[this.rec[id]];
  }

  setListPlace(id: number, at: number): void {
    this.listAt[this.rec[id]] = at;
  }

  classOf(id: number): number {
    return (this.i32[(this.rec[id] << 2) | FLAGS] & CLASS_BITS) >> CLASS_SHIFT;
  }

  setClass(id: number, cls: number): void {
    const r = (this.rec[id] << 2) | FLAGS;
    this.i32[r] = (this.i32[r] & ~CLASS_BITS) | (cls << CLASS_SHIFT);
  }

  priorityOf(id: number): number {
    return (this.i32[(this.rec[id] << 2) | FLAGS] & PRIORITY_BITS) >>> PRIORITY_SHIFT;
  }

  setPriority(id: number, priority: number): void {
    const r = (this.rec[id] << 2) | FLAGS;
    this.i32[r] = (this.i32[r] & ~PRIORITY_BITS) | (priority << PRIORITY_SHIFT);
  }
}

/** Packs a node's depth and cell the way NodePool.cell holds them. */
export function packCell(depth: number, cellX: number, cellY: number): number {
  return (depth << 28) | (cellY << 14) | cellX;
}

export function cellDepth(cell: number): number {
  return cell >>> 28;
}

export function cellX(cell: number): number {
  return cell & 0x3fff;
}

export function cellY(cell: number): number {
  return (cell >>> 14) & 0x3fff;
}

/** Priority tiers: the budget serves them in order (see tierOf). */
export const TIERS = 4;

/** Lowest priority of tier 0. */
export const TOP_PRIORITY = 192;

/** Tier of a priority: 0 for 192-255 (never cut by the budget) down to 3 for 0-63. */
export function tierOf(priority: number): number {
  return 3 - (priority >> 6);
}

/** Bytes of per-id storage: the id's record number (and the detached bit). */
const BYTES_PER_ID = 4;

/** The id map spans every id up to the largest: one far id costs 4 bytes for each id below it. */
function tooFar(id: number, cap: number, limit: number): never {
  fail(
    `id ${id} needs per-id arrays for ${cap} ids (about ${Math.ceil((cap * BYTES_PER_ID) / 2 ** 20)} MB at ` +
      `${BYTES_PER_ID} bytes an id), which could not be allocated (maxId ${limit}): keep ids dense, or lower ` +
      'option maxId to refuse such ids up front',
  );
}

function swap(a: Int32Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}
