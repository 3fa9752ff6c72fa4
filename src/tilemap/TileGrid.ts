/**
 * A grid of tile values and the rectangles its solid tiles merge into.
 *
 * The merge is canonical: each row's solid tiles form maximal runs, and a rectangle is a
 * maximal vertical stack of identical runs (the same first and last column in consecutive
 * rows). That is the greedy merge "runs along rows, then extended down while the run below
 * matches", and it depends only on the map, not on the order of edits. So a change of tiles
 * in row r can only alter the rectangles that touch rows r - 1 to r + 1 (a stack ending at
 * r - 1 may now continue into r, one starting at r + 1 may now begin higher): those are
 * re-derived from the solid bitmap and compared with the old ones, and a rectangle that
 * comes out the same keeps its item, so its pairs go on. Rectangles follow walls across the
 * whole map, with no seams at chunk borders; a change costs the width of three rows plus the
 * height of the stacks it touches.
 *
 * The grid reports the rectangles it adds and removes to a {@link RectSink}; it knows nothing
 * of trees or entities.
 */

import { valueArray, type TileValues } from './options.js';

/** Where the rectangles of a grid go: the core's tree or the ECS's entities. */
export interface RectSink {
  /** Takes `count` item ids for new rectangles into `out`, or throws having taken none. */
  acquire(count: number, out: Int32Array): void;
  /** Adds the item `id` with this box. */
  add(id: number, minX: number, minY: number, maxX: number, maxY: number): void;
  /** Removes the item `id` and frees its id. */
  remove(id: number): void;
  /** Gives the item `id` the layer's collider again (it changed). */
  recollide(id: number): void;
  /** False once the game took item `id` away by hand: its id may be someone else's now. */
  holds(id: number): boolean;
}

const NONE = -1;

export class TileGrid {
  readonly columns: number;
  readonly rows: number;
  readonly x: number;
  readonly y: number;
  readonly tileWidth: number;
  readonly tileHeight: number;
  values: TileValues;
  /** 1 where the tile is solid. */
  readonly solid: Uint8Array;
  /** The rectangle slot covering each tile, or -1. */
  readonly slotAt: Int32Array;

  /** Rectangles by slot: first and last column and row (inclusive), and the item id. */
  c0 = new Int32Array(16);
  r0 = new Int32Array(16);
  c1 = new Int32Array(16);
  r1 = new Int32Array(16);
  ids = new Int32Array(16).fill(NONE);
  /** Slots in use (a slot is free when its id is -1). */
  count = 0;
  private slotEnd = 0;
  private freeSlots: number[] = [];
  /** Item id to slot. */
  readonly slotOfId = new Map<number, number>();

  readonly sink: RectSink;
  // Scratch of a change: the stacks to add (c0, r0, c1, r1 by four), old slots to remove.
  private adds = new Int32Array(64);
  private addCount = 0;
  private removes: number[] = [];
  private stamp = new Int32Array(16);
  private stampNow = 0;
  private newIds = new Int32Array(16);
  private readonly rowMark: Uint8Array;
  private readonly affected: Uint8Array;
  private old = new Float64Array(16);

  constructor(
    sink: RectSink,
    values: TileValues,
    solid: Uint8Array,
    columns: number,
    x: number,
    y: number,
    tileWidth: number,
    tileHeight: number,
  ) {
    this.sink = sink;
    this.values = values;
    this.solid = solid;
    this.columns = columns;
    this.rows = columns === 0 ? 0 : values.length / columns;
    this.x = x;
    this.y = y;
    this.tileWidth = tileWidth;
    this.tileHeight = tileHeight;
    this.slotAt = new Int32Array(values.length).fill(NONE);
    this.rowMark = new Uint8Array(this.rows);
    this.affected = new Uint8Array(this.rows);
  }

  /** Merges the whole grid and adds every rectangle (ids are taken first: a refusal changes nothing). */
  load(): void {
    this.addCount = 0;
    const cols = this.columns;
    const solid = this.solid;
    // One pass over the runs in reading order: a run identical to the run above continues
    // that stack. The runs are found with indexOf, which runs at native speed even before the
    // engine compiles this loop: a load visits each run, not each tile.
    const top = new Int32Array(cols).fill(NONE);
    for (let t = solid.indexOf(1); t !== NONE;) {
      const r = Math.floor(t / cols);
      const rowEnd = (r + 1) * cols;
      let end = solid.indexOf(0, t);
      if (end === NONE || end > rowEnd) end = rowEnd;
      const c = t - r * cols,
        e = end - 1 - r * cols;
      const above = top[c];
      if (above !== NONE && this.adds[above + 2] === e && this.adds[above + 3] === r - 1) {
        this.adds[above + 3] = r;
      } else {
        top[c] = this.pushAdd(c, r, e, r);
      }
      t = solid.indexOf(1, end);
    }
    this.reserveSlots(this.addCount >> 2);
    this.commit();
  }

  /**
   * Sets tiles from flat triples `[col, row, value, ...]` (already checked) and re-merges the
   * rows they touch. Nothing changes if a rectangle to remove is one the sink no longer holds
   * (its slot is returned, else -1), or if the sink refuses the ids of the new rectangles (its
   * error is thrown).
   */
  change(triples: ArrayLike<number>, isSolid: (value: number) => boolean): number {
    const cols = this.columns;
    const n = triples.length / 3;
    // Old values kept to undo.
    if (this.old.length < n) this.old = new Float64Array(Math.max(n, this.old.length * 2));
    const old = this.old;
    this.rowMark.fill(0);
    let any = false;
    for (let i = 0; i < n; i++) {
      const t = triples[3 * i + 1] * cols + triples[3 * i];
      old[i] = this.values[t];
      const v = triples[3 * i + 2];
      this.values[t] = v;
      if (this.values[t] !== v) this.widen(v, t);
      const s = isSolid(v) ? 1 : 0;
      if (this.solid[t] !== s) {
        this.solid[t] = s;
        this.rowMark[triples[3 * i + 1]] = 1;
        any = true;
      }
    }
    if (!any) return -1;
    this.deriveChanged();
    // A rectangle the game removed by hand: its id may be another's now, so nothing is removed.
    for (const s of this.removes) {
      if (this.stamp[s] !== this.stampNow || this.sink.holds(this.ids[s])) continue;
      this.undo(triples, n, isSolid);
      return s;
    }
    try {
      this.commit();
    } catch (e) {
      this.undo(triples, n, isSolid);
      throw e;
    }
    return -1;
  }

  /** Puts back the values {@link change} overwrote. */
  private undo(triples: ArrayLike<number>, n: number, isSolid: (value: number) => boolean): void {
    for (let i = n - 1; i >= 0; i--) {
      const t = triples[3 * i + 1] * this.columns + triples[3 * i];
      this.values[t] = this.old[i];
      this.solid[t] = isSolid(this.old[i]) ? 1 : 0;
    }
  }

  /** Moves the values to an array that holds `v` too, and writes it at `t`. */
  private widen(v: number, t: number): void {
    let lo = v,
      hi = v;
    for (const x of this.values) {
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    const next = valueArray(this.values.length, lo, hi, Number.isInteger(v) && !(this.values instanceof Float64Array));
    next.set(this.values);
    next[t] = v;
    this.values = next;
  }

  /** The stacks to add and the slots to remove after rows marked in rowMark changed. */
  private deriveChanged(): void {
    const rows = this.rows;
    // Affected rows: each changed row and its neighbours.
    const affected = this.affected;
    affected.fill(0);
    for (let r = 0; r < rows; r++) {
      if (this.rowMark[r] === 0) continue;
      if (r > 0) affected[r - 1] = 1;
      affected[r] = 1;
      if (r + 1 < rows) affected[r + 1] = 1;
    }
    this.addCount = 0;
    this.removes.length = 0;
    const stamp = this.nextStamp();
    const cols = this.columns;
    for (let r = 0; r < rows; r++) {
      if (affected[r] === 0) continue;
      // Old slots touching the row: candidates to remove (kept below if they come out the same).
      for (let c = 0; c < cols; c++) {
        const s = this.slotAt[r * cols + c];
        if (s !== NONE && this.stamp[s] < stamp) {
          this.stamp[s] = stamp;
          this.removes.push(s);
        }
      }
      // New stacks through the row.
      for (let c = 0; c < cols;) {
        if (this.solid[r * cols + c] === 0) {
          c++;
          continue;
        }
        const e = this.runEnd(r, c);
        // A stack through an affected row above was found from that row already.
        let top = r,
          found = false;
        while (!found && top > 0 && this.isRun(top - 1, c, e)) found = affected[--top] === 1;
        if (!found) {
          let bottom = r;
          while (bottom + 1 < rows && this.isRun(bottom + 1, c, e)) bottom++;
          this.keepOrAdd(c, top, e, bottom, stamp);
        }
        c = e + 1;
      }
    }
  }

  /** The last column of the run of solid tiles in row r that starts at solid column c. */
  private runEnd(r: number, c: number): number {
    const cols = this.columns;
    let e = c;
    while (e + 1 < cols && this.solid[r * cols + e + 1] !== 0) e++;
    return e;
  }

  /** A new stack equal to an old slot keeps that slot (its item goes on); otherwise it is added. */
  private keepOrAdd(c0: number, r0: number, c1: number, r1: number, stamp: number): void {
    const s = this.slotAt[r0 * this.columns + c0];
    if (s !== NONE && this.c0[s] === c0 && this.r0[s] === r0 && this.c1[s] === c1 && this.r1[s] === r1) {
      this.stamp[s] = stamp + 1; // seen, and not removed after all
      return;
    }
    this.pushAdd(c0, r0, c1, r1);
  }

  /** True when columns c0..c1 of row r are a maximal run of solid tiles. */
  private isRun(r: number, c0: number, c1: number): boolean {
    const cols = this.columns;
    const base = r * cols;
    if (c0 > 0 && this.solid[base + c0 - 1] !== 0) return false;
    if (c1 + 1 < cols && this.solid[base + c1 + 1] !== 0) return false;
    for (let c = c0; c <= c1; c++) if (this.solid[base + c] === 0) return false;
    return true;
  }

  /** Takes ids for the stacks to add (may throw, before anything changed), then applies the change. */
  private commit(): void {
    const stamp = this.stampNow;
    const n = this.addCount >> 2;
    if (this.newIds.length < n) this.newIds = new Int32Array(Math.max(n, this.newIds.length * 2));
    this.sink.acquire(n, this.newIds);
    for (const s of this.removes) {
      if (this.stamp[s] !== stamp) continue;
      this.sink.remove(this.ids[s]);
      this.freeSlot(s);
    }
    this.removes.length = 0;
    for (let i = 0; i < n; i++) {
      const a = this.adds;
      this.addSlot(a[4 * i], a[4 * i + 1], a[4 * i + 2], a[4 * i + 3], this.newIds[i]);
    }
    this.addCount = 0;
  }

  private addSlot(c0: number, r0: number, c1: number, r1: number, id: number): void {
    let s: number;
    if (this.freeSlots.length > 0) s = this.freeSlots.pop() as number;
    else {
      s = this.slotEnd++;
      if (s >= this.ids.length) this.growSlots();
    }
    this.c0[s] = c0;
    this.r0[s] = r0;
    this.c1[s] = c1;
    this.r1[s] = r1;
    this.ids[s] = id;
    this.count++;
    this.slotOfId.set(id, s);
    const cols = this.columns;
    for (let r = r0; r <= r1; r++) this.slotAt.fill(s, r * cols + c0, r * cols + c1 + 1);
    const tw = this.tileWidth,
      th = this.tileHeight;
    this.sink.add(id, this.x + c0 * tw, this.y + r0 * th, this.x + (c1 + 1) * tw, this.y + (r1 + 1) * th);
  }

  private freeSlot(s: number): void {
    const cols = this.columns;
    for (let r = this.r0[s]; r <= this.r1[s]; r++) {
      for (let t = r * cols + this.c0[s]; t <= r * cols + this.c1[s]; t++)
        if (this.slotAt[t] === s) this.slotAt[t] = NONE;
    }
    this.slotOfId.delete(this.ids[s]);
    this.ids[s] = NONE;
    this.freeSlots.push(s);
    this.count--;
  }

  /** Removes every rectangle but those the game took away by hand (their ids may be others' now). */
  removeAll(): void {
    for (let s = 0; s < this.slotEnd; s++) {
      if (this.ids[s] === NONE) continue;
      if (this.sink.holds(this.ids[s])) this.sink.remove(this.ids[s]);
      this.freeSlot(s);
    }
  }

  private pushAdd(c0: number, r0: number, c1: number, r1: number): number {
    const k = this.addCount;
    if (k + 4 > this.adds.length) {
      const next = new Int32Array(this.adds.length * 2);
      next.set(this.adds);
      this.adds = next;
    }
    this.adds[k] = c0;
    this.adds[k + 1] = r0;
    this.adds[k + 2] = c1;
    this.adds[k + 3] = r1;
    this.addCount = k + 4;
    return k;
  }

  private nextStamp(): number {
    if (this.stamp.length < this.ids.length) this.stamp = new Int32Array(this.ids.length);
    this.stampNow += 2;
    return this.stampNow;
  }

  /** Makes room for `n` more slots at once (a load's rectangles), rather than by doublings. */
  private reserveSlots(n: number): void {
    const need = this.slotEnd + n;
    if (need > this.ids.length) this.growSlots(Math.max(need, this.ids.length * 2));
  }

  private growSlots(size = this.ids.length * 2): void {
    const widen = (a: Int32Array): Int32Array<ArrayBuffer> => {
      const next = new Int32Array(size);
      next.set(a);
      return next;
    };
    const old = this.ids.length;
    this.c0 = widen(this.c0);
    this.r0 = widen(this.r0);
    this.c1 = widen(this.c1);
    this.r1 = widen(this.r1);
    this.ids = widen(this.ids);
    this.ids.fill(NONE, old);
    this.stamp = widen(this.stamp);
  }
}
