import { fit, resize } from '../grow.js';
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
  private top = 0;
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
    declareExtent(this, 'box', () => 4 * this.top);
    declareExtent(this, 'id', () => this.top);
    declareExtent(this, 'collider', () => this.top);
    declareExtent(this, 'record', () => 4 * this.top);
    declareScratch(this, 'regionMoves', 'held', 'upFirst');
  }

  /** Slots handed out so far (the high-water mark). */
  get used(): number {
    return this.top;
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

  /** One slot, for an item between homes: never a bigger region, so {@link freeOne} gives back exactly that. */
  allocOne(): number {
    const head = this.freeHead[0];
    if (head === -1) return this.bump(1);
    this.freeHead[0] = this.id[head];
    this.freeSlots--;
    return head;
  }

  freeOne(slot: number): void {
    this.free(slot, 1);
  }

  private bump(size: number): number {
    if (this.top + size > this.id.length) this.resize(this.top + size);
    const start = this.top;
    this.top += size;
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
    this.top = 0;
    this.compactedTop = 0;
    this.freeHead.fill(-1);
    this.freeSlots = 0;
    this.colliders.reset();
  }

  /** The compaction's regions in new order: old start (~start when held apart) and new start, room up to the next. */
  private regionMoves = new Int32Array(0);
  private moveCount = 0;
  private lastMoveCount = 0;
  /** Slots held apart during a compaction (see {@link endCompact}): box, id, collider and record, HELD numbers each. */
  private held = new Float64Array(0);
  /** Slots given out so far by the compaction in progress. */
  private placed = 0;
  /** The high-water mark the last compaction left (see {@link endCompact}). */
  private compactedTop = 0;

  /** Starts a compaction: the caller {@link place}s every region in scan order, then calls {@link endCompact}. */
  beginCompact(): void {
    const last = this.lastMoveCount;
    this.regionMoves = new Int32Array(2 * (last + (last >> 3)) + 64);
    this.moveCount = 0;
    this.placed = 0;
  }

  /** Gives the region at `oldStart` its new place, cut to its first `room` slots; returns its new start. */
  place(oldStart: number, room: number): number {
    const start = this.placed;
    this.placed += room;
    const m = 2 * this.moveCount++;
    // Two more for the end's sentinel (see endCompact).
    if (m + 4 > this.regionMoves.length) this.regionMoves = fit(this.regionMoves, m + 4);
    this.regionMoves[m] = oldStart;
    this.regionMoves[m + 1] = start;
    return start;
  }

  /**
   * Moves each placed region to its new start in one run and drops the free ones. Regions moving down go in new order
   * (each overwrites only slots of regions placed before it), those moving up in reverse; the direction holding fewer
   * goes first, and a region of the other whose old place it overwrites is held apart and written last. Keeps room
   * for slots handed out since the last compaction (an eighth at most) and a sixteenth, so a steady scene keeps size.
   */
  endCompact(): void {
    const { regionMoves: moves, moveCount: count } = this;
    moves[2 * count + 1] = this.placed;
    const held = this.markHeld();
    const upFirst = this.upFirst;
    if (held > 0) this.held = new Float64Array(HELD * held);
    for (let i = 0, h = 0; i < count; i++) {
      const from = ~moves[2 * i];
      if (from < 0) continue;
      for (let s = from, end = from + moves[2 * i + 3] - moves[2 * i + 1]; s < end; s++) this.swapHeld(s, h++);
    }
    if (upFirst) this.moveUp();
    this.moveDown();
    if (!upFirst) this.moveUp();
    for (let i = 0, h = 0; i < count; i++) {
      if (moves[2 * i] >= 0) continue;
      for (let d = moves[2 * i + 1], end = moves[2 * i + 3]; d < end; d++) this.swapHeld(d, h++);
    }
    // Most compactions hold a few slots, a scrambled layout most: none kept.
    this.held = new Float64Array(0);
    this.lastMoveCount = count;
    this.regionMoves = new Int32Array(0);
    this.moves++;
    const top = this.top;
    const placed = this.placed;
    const handedOut = Math.max(0, top - this.compactedTop);
    this.top = this.compactedTop = placed;
    this.freeHead.fill(-1);
    this.freeSlots = 0;
    const keep = Math.max(MIN_SLOTS, placed + (placed >> 4) + Math.min(handedOut, placed >> 3));
    if (keep + (keep >> 4) <= this.id.length) this.resize(keep);
  }

  /** Swaps slot s with held place h (what either leaves behind is overwritten or free). */
  private swapHeld(s: number, h: number): void {
    const { box, id, collider, record, held } = this;
    const o = HELD * h;
    for (let k = 0; k < 4; k++) {
      const v = box[4 * s + k];
      box[4 * s + k] = held[o + k];
      held[o + k] = v;
      const r = record[4 * s + k];
      record[4 * s + k] = held[o + 6 + k];
      held[o + 6 + k] = r;
    }
    const i = id[s];
    id[s] = held[o + 4];
    held[o + 4] = i;
    const c = collider[s];
    collider[s] = held[o + 5];
    held[o + 5] = c;
  }

  /** Moves the regions bound down (not held), in their new order. */
  private moveDown(): void {
    const moves = this.regionMoves;
    for (let i = 0; i < this.moveCount; i++) {
      const from = moves[2 * i];
      if (from <= moves[2 * i + 1]) continue;
      for (let s = from, d = moves[2 * i + 1], end = moves[2 * i + 3]; d < end; s++, d++) this.copy(s, d);
    }
  }

  /** Moves the regions bound up (not held), in the reverse order, each from its end. */
  private moveUp(): void {
    const moves = this.regionMoves;
    for (let i = this.moveCount - 1; i >= 0; i--) {
      const from = moves[2 * i];
      const to = moves[2 * i + 1];
      if (from < 0 || from >= to) continue;
      for (let k = moves[2 * i + 3] - to - 1; k >= 0; k--) this.copy(from + k, to + k);
    }
  }

  /** Whether the regions bound up move first in the compaction in progress (see {@link markHeld}). */
  private upFirst = false;

  /**
   * Marks (see {@link regionMoves}) the regions to hold apart, sets {@link upFirst} and returns their slots: going up first,
   * a region bound down is held when an upward one's new place covers its old one; likewise down. Fewer held wins.
   */
  private markHeld(): number {
    const { regionMoves: moves, moveCount: count } = this;
    let ifUpFirst = 0;
    let ifDownFirst = 0;
    for (let i = 0; i < count; i++) {
      const from = moves[2 * i];
      const to = moves[2 * i + 1];
      if (from === to) continue;
      const down = from > to;
      const end = from + moves[2 * i + 3] - to;
      let lo = 0;
      let hi = count - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (moves[2 * mid + 1] <= from) lo = mid;
        else hi = mid - 1;
      }
      for (let j = lo; j < count && moves[2 * j + 1] < end; j++) {
        // A region marked already still moves in the order that does not hold it.
        const other = moves[2 * j] < 0 ? ~moves[2 * j] : moves[2 * j];
        if (other !== moves[2 * j + 1] && other > moves[2 * j + 1] !== down) {
          moves[2 * i] = ~from;
          if (down) ifUpFirst += end - from;
          else ifDownFirst += end - from;
          break;
        }
      }
    }
    const upFirst = ifUpFirst < ifDownFirst;
    for (let i = 0; i < count; i++) {
      const from = ~moves[2 * i];
      if (from >= 0 && from > moves[2 * i + 1] !== upFirst) moves[2 * i] = from;
    }
    this.upFirst = upFirst;
    return upFirst ? ifUpFirst : ifDownFirst;
  }

  /** Moves slot `start + p` to `start + dest[p]` in place along each cycle (`dest` left as the identity). */
  permute(start: number, dest: Int32Array, count: number): void {
    for (let p = 0; p < count; p++) {
      if (dest[p] === p) continue;
      this.tradeHand(start + p);
      for (let d = dest[p]; d !== p;) {
        this.tradeHand(start + d);
        const next = dest[d];
        dest[d] = d;
        d = next;
      }
      // The cycle closes at p, now empty: the last slot picked up belongs there.
      this.tradeHand(start + p);
      dest[p] = p;
    }
    this.moves++;
  }

  /** The slot {@link permute} carries along a cycle. */
  private readonly handBox = new Float32Array(4);
  private readonly handRecord = new Int32Array(4);
  private handCollider = 0;
  private handId = 0;

  /** Swaps slot s with the slot in hand. */
  private tradeHand(s: number): void {
    const { box, handBox, record, handRecord } = this;
    for (let i = 0, a = 4 * s; i < 4; i++, a++) {
      const b = box[a];
      box[a] = handBox[i];
      handBox[i] = b;
      const r = record[a];
      record[a] = handRecord[i];
      handRecord[i] = r;
    }
    const collider = this.collider[s];
    this.collider[s] = this.handCollider;
    this.handCollider = collider;
    const id = this.id[s];
    this.id[s] = this.handId;
    this.handId = id;
  }

  /** Copies slot `from` whole (box, id, collider, record) into slot `to`. */
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

/** Numbers a slot held apart in a compaction takes: box, id, collider, record. */
const HELD = 10;

function classOf(size: number): number {
  return 31 - Math.clz32(size);
}
