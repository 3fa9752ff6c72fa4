import { grow } from '../grow.js';
import { IdList } from '../lists/IdList.js';
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
/** Found by its path (see SweptStore): its slot's box covers last step's and current position. */
export const SWEPT = 8;
/** The flags that make a candidate pair take the exact test (see ExactTest). */
export const EXACT = SWEPT | CIRCLE;
/** The collision class sits in the flags' second byte (see CollisionClasses). */
export const CLASS_SHIFT = 8;
export const CLASS_BITS = 0xff << CLASS_SHIFT;
/** The priority (0-255) sits in the flags' third byte. */
export const PRIORITY_SHIFT = 16;
const PRIORITY_BITS = 0xff << PRIORITY_SHIFT;

/** Default collider: layer 1, every mask bit, priority 128 (tier 1). */
const DEFAULT_LAYER = 1;
const DEFAULT_MASK = -1;
const DEFAULT_PRIORITY = 128;
/** The flags word of a new item: no flag, class 0, the default priority. */
const DEFAULT_WORD = DEFAULT_PRIORITY << PRIORITY_SHIFT;

/** Offsets of a box's numbers in its slot (see SlotPool.box and ItemStore.boxAt). */
export const MIN_X = 0;
export const MIN_Y = 1;
export const MAX_X = 2;
export const MAX_Y = 3;

/** Field offsets in an item's record, four int32 in its slot (`slots.record[s * 4 + K]`), beside its box. */
// LooseQuadtree.move writes FLAGS and NODE out as numbers: keep them 0 and 3.
export const FLAGS = 0;
/** The broadphase mark for step s: `2s + 1` waiting, `2s` taken; older marks are stale, so none is cleared. */
const STATE = 1;
/** The item's place in its class's list; kept on leaving, so the same id rejoins at its place. */
export const LIST = 2;
/** Node holding the item, or PENDING / DETACHED (ABSENT while it is being removed). */
export const NODE = 3;

/** `rec` value of an id that is not in the index. */
const NO_RECORD = -1;

/**
 * Item storage: each item's record lives in its slot (see SlotPool), so wherever the slot goes (a node's region, a
 * detached run, a slot of its own between homes) box and record go together and passes over slots read records in
 * order. The id-to-slot map is the only per-id state, so memory follows the item count. A removed item keeps its slot
 * until the step ends ({@link releaseDeparted}): bitECS reuses ids at once, and the id then takes it back.
 */
export class ItemStore {
  /** Slot of each id, or NO_RECORD; grown by doubling up to the id limit. */
  rec: Int32Array;
  /** The records: the slots' array (see SlotPool.record), held here too so the hot accessors read one field. */
  i32: Int32Array;
  readonly slots: SlotPool;
  /** Ids removed since the last step ended, whose slots wait for {@link releaseDeparted}. */
  private readonly departed = new IdList();

  constructor(capacity: number, slots: SlotPool) {
    this.slots = slots;
    this.i32 = slots.record;
    slots.resized = () => {
      this.i32 = slots.record;
    };
    const cap = Math.max(16, capacity);
    this.rec = new Int32Array(cap).fill(NO_RECORD);
    // Records past the slots in use are written before read, so snapshots skip them.
    declareExtent(this, 'i32', () => 4 * slots.used);
  }

  /** Ids below this have a place in the map (the others are absent). */
  get capacity(): number {
    return this.rec.length;
  }

  /** Makes room in the map for `id`, doubling until it fits (the caller has checked the id limit). */
  ensure(id: number, limit: number): void {
    if (id < this.rec.length) return;
    let cap = this.rec.length;
    while (cap <= id) cap *= 2;
    if (cap > limit) cap = limit;
    try {
      this.rec = grow(this.rec, cap, NO_RECORD);
    } catch (e) {
      // The map spans every id up to the largest: one far id costs 4 bytes (its slot) for each id below it.
      if (e instanceof RangeError)
        fail(
          `id ${id} needs per-id arrays for ${cap} ids (about ${Math.ceil((cap * 4) / 2 ** 20)} MB at ` +
            `4 bytes an id), which could not be allocated (maxId ${limit}): keep ids dense, or lower ` +
            'option maxId to refuse such ids up front',
        );
      throw e;
    }
  }

  /** Gives an absent id a record as never inserted, in a slot of its own; its old slot if it left this step. */
  add(id: number): void {
    const slots = this.slots;
    // Departed and back (rec >= 0): the slot is still its own.
    let s = this.rec[id];
    if (s < 0) {
      s = slots.allocOne();
      slots.id[s] = id;
      slots.collider[s] = slots.colliders.hold(DEFAULT_LAYER, DEFAULT_MASK, DEFAULT_WORD);
      this.rec[id] = s;
    } else {
      slots.collider[s] = slots.colliders.change(slots.collider[s], DEFAULT_LAYER, DEFAULT_MASK, DEFAULT_WORD);
    }
    const i32 = slots.record;
    const o = s << 2;
    i32[o | STATE] = 0;
    i32[o | FLAGS] = DEFAULT_WORD;
    i32[o | NODE] = ABSENT;
    // LIST stays: a hint (a freed slot's, when reused) that CollisionClasses.join checks against the list.
  }

  /** Marks a removed id's record departed: freed when the step ends unless the id comes back. */
  depart(id: number): void {
    this.departed.push(id);
  }

  /** Frees the slots of the ids removed since the last call that did not come back. */
  releaseDeparted(): void {
    const i32 = this.i32;
    for (let i = 0; i < this.departed.count; i++) {
      const id = this.departed.data[i];
      const s = this.rec[id];
      // Freed already (listed twice), or back in the index.
      if (s < 0 || i32[(s << 2) | NODE] !== ABSENT) continue;
      this.rec[id] = NO_RECORD;
      this.slots.colliders.drop(this.slots.collider[s]);
      this.slots.free(s, 1);
    }
    this.departed.clear();
  }

  reset(): void {
    this.rec.fill(NO_RECORD);
    this.departed.clear();
  }

  // Only this file knows the record layout, bar LooseQuadtree.move: it indexes records itself to stay inlinable.

  /** The item's slot, or -1 for an absent id or one past the map ({@link slotOf} for an id known present). */
  slotOrNone(id: number): number {
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
    const s = this.rec[id];
    if (s < 0) return -1;
    const o = s << 2;
    const i32 = this.i32;
    if (i32[o | STATE] !== mark || i32[o | NODE] === DETACHED) return -1;
    i32[o | STATE] = taken;
    return s;
  }

  /** The node holding the item, or ABSENT / PENDING / DETACHED. */
  nodeOf(id: number): number {
    const r = id < this.rec.length ? this.rec[id] : NO_RECORD;
    return r < 0 ? ABSENT : this.i32[(r << 2) | NODE];
  }

  setNode(id: number, node: number): void {
    this.i32[(this.rec[id] << 2) | NODE] = node;
  }

  // Layer and mask live in the item's collider alone (see SlotPool.collider).
  layerOf(id: number): number {
    return this.slots.colliders.layer[this.slots.collider[this.rec[id]]];
  }

  maskOf(id: number): number {
    return this.slots.colliders.mask[this.slots.collider[this.rec[id]]];
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

  /** Copies the item's flags word into its collider (keeping layer and mask), for the pair filters. */
  syncColliderWord(id: number): void {
    const slots = this.slots;
    const s = this.slotOf(id);
    const c = slots.collider[s];
    const C = slots.colliders;
    slots.collider[s] = C.change(c, C.layer[c], C.mask[c], this.flagsWord(id));
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
    return 4 * this.rec[id];
  }

  /** Stores a box in the item's slot (rounded to float32); false when it equals the stored one. */
  setBox(id: number, minX: number, minY: number, maxX: number, maxY: number): boolean {
    return writeBox(this.slots.box, this.boxAt(id), minX, minY, maxX, maxY);
  }

  slotOf(id: number): number {
    return this.rec[id];
  }

  /** Points the id at `slot`, to which its whole slot (record included) was copied. */
  setSlot(id: number, slot: number): void {
    this.rec[id] = slot;
  }

  /** The item's place in its class's list (see LIST); a hint when it is in none. */
  listPlaceOf(id: number): number {
    return this.i32[(this.rec[id] << 2) | LIST];
  }

  setListPlace(id: number, at: number): void {
    this.i32[(this.rec[id] << 2) | LIST] = at;
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
