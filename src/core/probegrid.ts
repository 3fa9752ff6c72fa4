import { MAX_CLASSES } from './classes.js';
import { MAX_X, MAX_Y, MIN_X, MIN_Y } from './items.js';
import { growFloat64, growInt32 } from './nodes.js';
import type { TreeIndex } from './tree.js';

/** The grid has at most this many cells a side (4^9 cells in all). */
const MAX_SIDE = 512;

/**
 * The join of a deferred class (see TreeIndex.defer) with the classes it pairs with, the way
 * a hand-written uniform grid does it: the partners' items (few: a deferred class is the big
 * one) are counting-sorted into one grid, with a copy of their boxes in cell order; then each
 * item of the deferred class, in id order with its box read from its record, tests the items
 * of the cells its box covers. A pair is reported only in the cell holding the top-left corner
 * of the two boxes' overlap, so once. Boxes outside the world are clamped onto the border
 * cells, which keeps every overlap in a shared cell.
 */
export class ProbeGrid {
  /** Pair tests made by the last join. */
  tests = 0;
  private readonly tree: TreeIndex;
  private readonly touching: boolean;
  private side = 1;
  private inv = 1;
  /** Per cell: first entry of its run; `start[cells]` is the entry count. */
  private start: Int32Array = new Int32Array(2);
  /** Per entry, in cell order: the partner's box, its slot, and its first column and row. */
  private box: Float64Array = new Float64Array(0);
  private slot: Int32Array = new Int32Array(0);
  private corner: Int32Array = new Int32Array(0);
  /** Per partner item while building: its slot and covered cells (first/last column, row). */
  private buildSlots: Int32Array = new Int32Array(0);
  private span: Int32Array = new Int32Array(0);

  constructor(tree: TreeIndex, touching: boolean) {
    this.tree = tree;
    this.touching = touching;
  }

  /**
   * Finds every overlapping pair of deferred class `s` with the classes whose bit is set in
   * `partners`, calling `emit(slotOfS, slotOfPartner)` for each.
   */
  join(s: number, partners: number, emit: (a: number, b: number) => void): void {
    this.tests = 0;
    const entries = this.build(partners);
    if (entries === 0) return;
    const tree = this.tree;
    const C = tree.classes;
    const ids = C.ids[s];
    const f64 = tree.items.f64;
    const itemSlot = tree.items.slot;
    const { start, box, slot, corner, inv, side } = this;
    const last = side - 1;
    const ox = tree.originX;
    const oy = tree.originY;
    const touching = this.touching;
    let tests = 0;
    for (let i = 0, count = C.size[s]; i < count; i++) {
      const id = ids[i];
      const x0 = f64[(id << 3) | MIN_X], y0 = f64[(id << 3) | MIN_Y], x1 = f64[(id << 3) | MAX_X], y1 = f64[(id << 3) | MAX_Y];
      const c0 = clamp(Math.floor((x0 - ox) * inv), last), c1 = clamp(Math.floor((x1 - ox) * inv), last);
      const r0 = clamp(Math.floor((y0 - oy) * inv), last), r1 = clamp(Math.floor((y1 - oy) * inv), last);
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const cell = r * side + c;
          const from = start[cell], to = start[cell + 1];
          tests += to - from;
          for (let e = from; e < to; e++) {
            if (touching
              ? x0 <= box[4 * e + 2] && box[4 * e] <= x1 && y0 <= box[4 * e + 3] && box[4 * e + 1] <= y1
              : x0 < box[4 * e + 2] && box[4 * e] < x1 && y0 < box[4 * e + 3] && box[4 * e + 1] < y1) {
              // Only in the cell of the overlap's top-left corner.
              const pc = corner[2 * e], pr = corner[2 * e + 1];
              if ((pc > c0 ? pc : c0) === c && (pr > r0 ? pr : r0) === r) emit(itemSlot[id], slot[e]);
            }
          }
        }
      }
    }
    this.tests = tests;
  }

  /** Counting-sorts the partners' items into the grid; returns the entries. */
  private build(partners: number): number {
    const tree = this.tree;
    const C = tree.classes;
    // Cells of the level that holds the most partner items: each covers a few cells.
    let best = 0;
    let most = -1;
    let items = 0;
    for (let d = 0; d <= tree.maxDepth; d++) {
      let here = 0;
      for (let k = 0; k < MAX_CLASSES; k++) if (((partners >>> k) & 1) !== 0) here += C.levelItems[k][d];
      items += here;
      if (here > most) {
        most = here;
        best = d;
      }
    }
    if (items === 0) return 0;
    this.side = Math.min(1 << best, MAX_SIDE);
    this.inv = this.side / tree.rootSize;
    const side = this.side;
    const cells = side * side;
    if (this.start.length < cells + 1) this.start = new Int32Array(cells + 1);
    if (this.buildSlots.length < items) {
      this.buildSlots = new Int32Array(items * 2);
      this.span = new Int32Array(items * 8);
    }
    const start = this.start;
    start.fill(0, 0, cells + 1);
    const box = tree.slots.box;
    const last = side - 1;
    const inv = this.inv;
    const ox = tree.originX;
    const oy = tree.originY;
    let n = 0;
    let total = 0;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (((partners >>> k) & 1) === 0) continue;
      const ids = C.ids[k];
      for (let i = 0, count = C.size[k]; i < count; i++) {
        const s = tree.items.slot[ids[i]];
        const c0 = clamp(Math.floor((box[4 * s] - ox) * inv), last), c1 = clamp(Math.floor((box[4 * s + 2] - ox) * inv), last);
        const r0 = clamp(Math.floor((box[4 * s + 1] - oy) * inv), last), r1 = clamp(Math.floor((box[4 * s + 3] - oy) * inv), last);
        this.buildSlots[n] = s;
        this.span[4 * n] = c0;
        this.span[4 * n + 1] = c1;
        this.span[4 * n + 2] = r0;
        this.span[4 * n + 3] = r1;
        n++;
        for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) start[r * side + c]++;
        total += (c1 - c0 + 1) * (r1 - r0 + 1);
      }
    }
    // Inclusive prefix sums give each run's end; filling backwards moves them to its start.
    for (let c = 1; c < cells; c++) start[c] += start[c - 1];
    if (this.slot.length < total) {
      this.box = growFloat64(this.box, Math.max(4 * total, 2 * this.box.length));
      this.slot = growInt32(this.slot, Math.max(total, 2 * this.slot.length));
      this.corner = growInt32(this.corner, Math.max(2 * total, 2 * this.corner.length));
    }
    const gbox = this.box;
    for (let i = n - 1; i >= 0; i--) {
      const s = this.buildSlots[i];
      const c0 = this.span[4 * i], c1 = this.span[4 * i + 1], r0 = this.span[4 * i + 2], r1 = this.span[4 * i + 3];
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const e = --start[r * side + c];
          gbox[4 * e] = box[4 * s];
          gbox[4 * e + 1] = box[4 * s + 1];
          gbox[4 * e + 2] = box[4 * s + 2];
          gbox[4 * e + 3] = box[4 * s + 3];
          this.slot[e] = s;
          this.corner[2 * e] = c0;
          this.corner[2 * e + 1] = r0;
        }
      }
    }
    start[cells] = total;
    return total;
  }
}

function clamp(v: number, last: number): number {
  return v < 0 ? 0 : v > last ? last : v;
}
