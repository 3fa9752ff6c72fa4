import { grow } from '../grow.js';
import { declareExtent } from '../snapshot/StatePlan.js';

/**
 * Contiguous per-node item storage. Each node owns a region of slots (a power-of-two run)
 * holding copies of its items' boxes and their ids, so scanning a node reads memory in
 * order, as a uniform grid's cells do, instead of chasing a linked list across per-id
 * arrays. Regions come from a bump allocator with one free list per size class.
 */
export const MIN_REGION = 4;
const CLASSES = 28;

export class SlotPool {
  /** minX, minY, maxX, maxY per slot. */
  box: Float64Array;
  id: Int32Array;
  /**
   * Collider copy per slot: layer, mask, flags (static bit), priority. A pass over every item
   * then filters candidates without touching their records.
   */
  meta: Int32Array;
  private top = 0;
  /** Free region starts per size class (class c holds 4 << c slots), threaded through `id`. */
  private readonly freeHead = new Int32Array(CLASSES).fill(-1);
  /** Slots in free regions, for validate. */
  freeSlots = 0;

  constructor(capacity: number) {
    this.box = new Float64Array(capacity * 4);
    this.id = new Int32Array(capacity);
    this.meta = new Int32Array(capacity * 4);
    // Slots past the high-water mark are written when handed out: snapshots skip them.
    declareExtent(this, 'box', () => 4 * this.top);
    declareExtent(this, 'id', () => this.top);
    declareExtent(this, 'meta', () => 4 * this.top);
    // The spare arrays are written whole by a compaction before it reads them.
    for (const key of ['spareBox', 'spareId', 'spareMeta']) declareExtent(this, key, () => 0);
  }

  /** Slots handed out so far (the high-water mark). */
  get used(): number {
    return this.top;
  }

  /** A region of `size` slots (a power of two, at least MIN_REGION). Returns its start. */
  alloc(size: number): number {
    const c = classOf(size);
    const head = this.freeHead[c];
    if (head !== -1) {
      this.freeHead[c] = this.id[head];
      this.freeSlots -= size;
      return head;
    }
    if (this.top + size > this.id.length) this.growArrays(this.top + size);
    const start = this.top;
    this.top += size;
    return start;
  }

  free(start: number, size: number): void {
    const c = classOf(size);
    this.id[start] = this.freeHead[c];
    this.freeHead[c] = start;
    this.freeSlots += size;
  }

  reset(): void {
    this.top = 0;
    this.freeHead.fill(-1);
    this.freeSlots = 0;
  }

  /**
   * Starts a compaction: the caller re-places every region with {@link place} in scan
   * order, then calls {@link endCompact}. Regions end up back to back, so a scan over
   * neighbouring cells reads one run of memory.
   */
  beginCompact(): void {
    if (this.spareBox.length !== this.box.length) {
      this.spareBox = new Float64Array(this.box.length);
      this.spareId = new Int32Array(this.id.length);
      this.spareMeta = new Int32Array(this.meta.length);
    }
    this.top = 0;
    this.freeHead.fill(-1);
    this.freeSlots = 0;
  }

  /** Copies `count` used slots of a region of `size` from the old layout; returns the new start. */
  place(oldStart: number, count: number, size: number): number {
    const start = this.top;
    this.top += size;
    const from = this.box;
    const to = this.spareBox;
    // Plain loops: subarray() would allocate a view per region.
    const fromMeta = this.meta;
    const toMeta = this.spareMeta;
    for (let i = 4 * oldStart, j = 4 * start, end = 4 * (oldStart + count); i < end; i++, j++) {
      to[j] = from[i];
      toMeta[j] = fromMeta[i];
    }
    for (let i = 0; i < count; i++) this.spareId[start + i] = this.id[oldStart + i];
    return start;
  }

  endCompact(): void {
    const box = this.box;
    const id = this.id;
    const meta = this.meta;
    this.box = this.spareBox;
    this.id = this.spareId;
    this.meta = this.spareMeta;
    this.spareBox = box;
    this.spareId = id;
    this.spareMeta = meta;
  }

  private spareBox: Float64Array = new Float64Array(0);
  private spareId: Int32Array = new Int32Array(0);
  private spareMeta: Int32Array = new Int32Array(0);

  /** Moves one slot's box and id to another slot. */
  copy(from: number, to: number): void {
    const box = this.box;
    box[4 * to] = box[4 * from];
    box[4 * to + 1] = box[4 * from + 1];
    box[4 * to + 2] = box[4 * from + 2];
    box[4 * to + 3] = box[4 * from + 3];
    const meta = this.meta;
    meta[4 * to] = meta[4 * from];
    meta[4 * to + 1] = meta[4 * from + 1];
    meta[4 * to + 2] = meta[4 * from + 2];
    meta[4 * to + 3] = meta[4 * from + 3];
    this.id[to] = this.id[from];
  }

  private growArrays(min: number): void {
    let cap = this.id.length * 2;
    while (cap < min) cap *= 2;
    this.box = grow(this.box, cap * 4);
    this.id = grow(this.id, cap);
    this.meta = grow(this.meta, cap * 4);
  }
}

function classOf(size: number): number {
  return 31 - Math.clz32(size) - 2;
}
