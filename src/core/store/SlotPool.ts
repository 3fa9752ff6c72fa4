import { resize } from '../grow.js';
import { declareExtent, declareScratch } from '../snapshot/StatePlan.js';
import { Colliders } from './Colliders.js';

/** Slots a detached class's run keeps for `members` places: its list changes slowly, so little spare room. */
export function runRoomFor(members: number): number {
  return members + (members >> 3) + 1;
}

/** Writes a box into a float32 box array at `o` (rounding each corner); false when that box is there already. */
export function writeBox(
  box: Float32Array,
  o: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
): boolean {
  const f = Math.fround;
  if (box[o] === f(minX) && box[o + 1] === f(minY) && box[o + 2] === f(maxX) && box[o + 3] === f(maxY)) return false;
  box[o] = minX;
  box[o + 1] = minY;
  box[o + 2] = maxX;
  box[o + 3] = maxY;
  return true;
}

/** The fewest slots a pool keeps room for: a small tree stays small, and so do its snapshots. */
export const MIN_SLOTS = 1024;

/** Slots in a class's first region in a node: most regions then grow before a relayout cuts them. */
export const MIN_REGION = 2;
const CLASSES = 31;

/** Slots a region of `own` items keeps after a compaction: a quarter more and one, so a few arrivals do not move it. */
export function roomFor(own: number): number {
  return own + (own >> 2) + 1;
}

/**
 * The items' slots, in per-node regions and detached runs scanned in order: bump-allocated, free lists per
 * power-of-two size. A slot is its item's one home: box, id, collider and record move together.
 */
export class SlotPool {
  /** minX, minY, maxX, maxY per slot in float32: half the bytes of the biggest per-item array. */
  box: Float32Array;
  id: Int32Array;
  /** Each slot's collider index in {@link colliders} (layer, mask, flags word), so filters skip the records. */
  collider: Int32Array;
  /** Each slot's item record, four int32 (see ItemStore's FLAGS, STATE, LIST and NODE). */
  record: Int32Array;
  /** Counts slot moves: what is keyed by slot (see PairIndex) is stale once it changed. */
  moves = 0;
  /** Called when the arrays were replaced by bigger or smaller ones: the item store keeps the records' array too. */
  resized = (): void => {};
  readonly colliders = new Colliders();
  /** Slots handed out so far (the high-water mark). */
  used = 0;
  /** Free region starts per size class (2^c to 2^(c+1) - 1 slots), linked through `id`; sizes in `collider`. */
  private readonly freeHead = new Int32Array(CLASSES).fill(-1);
  /** Slots in free regions, for validate. */
  freeSlots = 0;
  /** Slots in the region the last {@link alloc} handed out: at least those asked for. */
  allocated = 0;

  constructor(capacity: number) {
    this.box = new Float32Array(capacity * 4);
    this.id = new Int32Array(capacity);
    this.collider = new Int32Array(capacity);
    this.record = new Int32Array(capacity * 4);
    // Slots past the high-water mark are written when handed out: snapshots skip them.
    declareExtent(this, 'box', () => 4 * this.used);
    declareExtent(this, 'id', () => this.used);
    declareExtent(this, 'collider', () => this.used);
    declareExtent(this, 'record', () => 4 * this.used);
    declareScratch(this, 'next');
  }

  get capacity(): number {
    return this.id.length;
  }

  /** A region of `size` slots or more (actual size in {@link allocated}); returns its start. */
  alloc(size: number): number {
    const c = classOf(size);
    let head = this.freeHead[c];
    if (head === -1 || this.collider[head] < size) {
      head = c + 1 < CLASSES ? this.freeHead[c + 1] : -1;
      if (head === -1) return this.bump(size);
      this.freeHead[c + 1] = this.id[head];
    } else {
      this.freeHead[c] = this.id[head];
    }
    this.allocated = this.collider[head];
    this.freeSlots -= this.allocated;
    return head;
  }

  /** One slot, for an item between homes: never a bigger region, so `free(slot, 1)` gives back exactly that. */
  allocOne(): number {
    const head = this.freeHead[0];
    if (head === -1) return this.bump(1);
    this.freeHead[0] = this.id[head];
    this.freeSlots--;
    return head;
  }

  private bump(size: number): number {
    if (this.used + size > this.id.length) this.resize(this.used + size);
    const start = this.used;
    this.used += size;
    this.allocated = size;
    return start;
  }

  free(start: number, size: number): void {
    const c = classOf(size);
    this.id[start] = this.freeHead[c];
    this.collider[start] = size;
    this.freeHead[c] = start;
    this.freeSlots += size;
  }

  reset(): void {
    this.used = 0;
    this.compactedTop = 0;
    this.freeHead.fill(-1);
    this.freeSlots = 0;
    this.colliders.reset();
  }

  /** The arrays a compaction in progress copies regions into, in scan order (see {@link place}). */
  private next: SlotColumns | null = null;
  /** Slots given out so far by the compaction in progress. */
  private placed = 0;
  /** The high-water mark the last compaction left (see {@link endCompact}). */
  private compactedTop = 0;

  /**
   * Starts a compaction: the caller {@link place}s every region in scan order, then calls {@link endCompact}. Regions
   * move both ways, so they are copied into new arrays rather than moved in place.
   */
  beginCompact(): void {
    const cap = this.id.length;
    this.next = {
      box: new Float32Array(4 * cap),
      id: new Int32Array(cap),
      collider: new Int32Array(cap),
      record: new Int32Array(4 * cap),
    };
    this.placed = 0;
  }

  /** Copies the region at `oldStart`, cut to its first `room` slots, to its new place; returns its new start. */
  place(oldStart: number, room: number): number {
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- set by beginCompact
    const to = this.next!;
    const start = this.placed;
    for (let s = oldStart, d = start, end = start + room; d < end; s++, d++) copySlot(this, s, to, d);
    this.placed += room;
    return start;
  }

  /**
   * Takes the compacted arrays and drops the free regions. Keeps room for slots handed out since the last compaction
   * (an eighth at most) and a sixteenth, so a steady scene keeps its size.
   */
  endCompact(): void {
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- set by beginCompact
    const to = this.next!;
    this.next = null;
    this.box = to.box;
    this.id = to.id;
    this.collider = to.collider;
    this.record = to.record;
    this.resized();
    this.moves++;
    const placed = this.placed;
    const handedOut = Math.max(0, this.used - this.compactedTop);
    this.used = this.compactedTop = placed;
    this.freeHead.fill(-1);
    this.freeSlots = 0;
    const keep = Math.max(MIN_SLOTS, placed + (placed >> 4) + Math.min(handedOut, placed >> 3));
    if (keep + (keep >> 4) <= this.id.length) this.resize(keep);
  }

  /** Puts the slots `from[0..count-1]`, all in the region of `room` slots at `start`, at its first places in order. */
  gather(start: number, room: number, from: Int32Array, count: number): void {
    const old: SlotColumns = {
      box: this.box.slice(4 * start, 4 * (start + room)),
      record: this.record.slice(4 * start, 4 * (start + room)),
      id: this.id.slice(start, start + room),
      collider: this.collider.slice(start, start + room),
    };
    for (let i = 0; i < count; i++) copySlot(old, from[i] - start, this, start + i);
    this.moves++;
  }

  /**
   * Copies slot `from` whole (box, id, collider, record) into slot `to`. Written out rather than through copySlot's
   * column objects: births and deaths copy slots in the hot path.
   */
  copy(from: number, to: number): void {
    const { box, record } = this;
    box[4 * to] = box[4 * from];
    box[4 * to + 1] = box[4 * from + 1];
    box[4 * to + 2] = box[4 * from + 2];
    box[4 * to + 3] = box[4 * from + 3];
    record[4 * to] = record[4 * from];
    record[4 * to + 1] = record[4 * from + 1];
    record[4 * to + 2] = record[4 * from + 2];
    record[4 * to + 3] = record[4 * from + 3];
    this.collider[to] = this.collider[from];
    this.id[to] = this.id[from];
    this.moves++;
  }

  /** Room for `min` slots at least, growing by a quarter (compaction trims any excess), or exactly `min` to shrink. */
  private resize(min: number): void {
    let cap = this.id.length;
    if (min < cap) cap = min;
    else while (cap < min) cap += cap >> 2;
    this.box = resize(this.box, cap * 4);
    this.id = resize(this.id, cap);
    this.collider = resize(this.collider, cap);
    this.record = resize(this.record, cap * 4);
    this.resized();
  }
}

/** A slot's columns, as a pool or a compaction's new arrays hold them. */
interface SlotColumns {
  box: Float32Array;
  record: Int32Array;
  id: Int32Array;
  collider: Int32Array;
}

/** Copies slot `s` of `from` whole into slot `d` of `to`: for compactions; moves within the pool use SlotPool.copy. */
function copySlot(from: SlotColumns, s: number, to: SlotColumns, d: number): void {
  for (let k = 0; k < 4; k++) {
    to.box[4 * d + k] = from.box[4 * s + k];
    to.record[4 * d + k] = from.record[4 * s + k];
  }
  to.id[d] = from.id[s];
  to.collider[d] = from.collider[s];
}

function classOf(size: number): number {
  return 31 - Math.clz32(size);
}
