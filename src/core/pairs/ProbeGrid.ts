import { MAX_CLASSES } from '../store/CollisionClasses.js';
import { CIRCLE, EXACT, MAX_X, MAX_Y, MIN_X, MIN_Y, PRIORITY_SHIFT, SWEPT } from '../store/ItemStore.js';
import { grow, resize, Slack } from '../grow.js';
import { boxesOverlap } from '../geometry.js';
import { markOutside } from '../snapshot/StatePlan.js';
import type { SpatialTree } from '../placement/SpatialTree.js';
import { roundOverlap, type ExactTest } from './ExactTest.js';

/** The grid has at most this many cells a side (4^9 cells in all). */
const MAX_SIDE = 512;

/** Whole-class joins on a grid of the busiest level's cells; an overlap is emitted once, in its top-left cell. */
export class ProbeGrid {
  private readonly tree: SpatialTree;
  private readonly touching: boolean;
  private side = 1;
  private inv = 1;
  /** Per cell: first entry of its run; `start[cells]` is the entry count. */
  private start: Int32Array = new Int32Array(2);
  /** Per entry, in cell order: the box, and a tag of slot, first column, first row, priority | exact bits << 8. */
  private box: Float32Array = new Float32Array(0);
  private tag: Int32Array = new Int32Array(0);
  /** The join (partner classes, probing class) the grid holds while it may serve another this step, else -1. */
  private built = -1;
  /** The largest size of the probing class's sampled members. */
  private sizeX = 0;
  private sizeY = 0;
  /** How far entries reach up and left past their boxes; a member at most this size reads one cell. */
  private padX = 0;
  private padY = 0;
  /** The most entries and cells a build used since the last {@link invalidate}. */
  private used = 0;
  private usedCells = 0;
  private readonly slack = new Slack();
  private entries = 0;
  /** Items (or a sample of them) per tree level, for the choice of the cell size. */
  private readonly levels: Int32Array;

  constructor(tree: SpatialTree, touching: boolean) {
    this.tree = tree;
    this.touching = touching;
    this.levels = new Int32Array(tree.maxDepth + 1);
    // Built anew for each join, and forgotten before each step (see invalidate): not state.
    markOutside(this);
  }

  /** Forgets the grid built for the last join: boxes may have moved since. Called before each step's joins. */
  invalidate(): void {
    this.built = -1;
    // The first step's world-sized grid gives its room back as the pair lists do (see Slack).
    if (this.slack.due(this.used, this.tag.length >> 2)) {
      const size = this.used + (this.used >> 3);
      this.box = resize(this.box, 4 * size);
      this.tag = resize(this.tag, 4 * size);
      this.start = resize(this.start, this.usedCells + 1);
    }
    this.used = 0;
    this.usedCells = 0;
  }

  /** Samples up to 256 of class k's items: adds to {@link levels} if `levels`, keeps the largest size if `pads`. */
  private sample(k: number, levels: boolean, pads: boolean): void {
    const tree = this.tree;
    const C = tree.classes;
    const f32 = tree.slots.box;
    const cell = tree.cellSize;
    const ids = C.ids[k];
    const end = C.end[k];
    const detached = C.detached[k] === 1;
    const stride = Math.max(1, Math.floor(end / 256));
    let padX = 0;
    let padY = 0;
    for (let i = 0; i < end; i += stride) {
      if (ids[i] < 0) continue;
      const r = 4 * (detached ? C.listStart[k] + i : tree.items.slotOf(ids[i]));
      const w = f32[r | MAX_X] - f32[r | MIN_X];
      const h = f32[r | MAX_Y] - f32[r | MIN_Y];
      if (w > padX) padX = w;
      if (h > padY) padY = h;
      if (!levels) continue;
      // The deepest level whose cells hold the box, written out: a call would put its numbers on the heap.
      let d = tree.maxDepth;
      while (d > 0 && cell[d] < (w > h ? w : h)) d--;
      this.levels[d]++;
    }
    if (pads) {
      this.sizeX = padX;
      this.sizeY = padY;
    }
  }

  /** Pairs class `s`'s members at places `lo..hi-1` (or `places[lo..hi-1]`) with the `partners` (none detached). */
  join(
    partners: number,
    emit: (slot: number, partner: number) => void,
    s: number,
    places: Int32Array | null,
    lo: number,
    hi: number,
  ): number {
    // Several shares of a class against the same partners reuse one grid (the class's size widens its entries).
    const key = partners * MAX_CLASSES + s;
    if (this.built !== key) {
      this.sample(s, false, true);
      this.entries = this.build(partners, false);
      this.built = key;
    }
    return this.entries === 0 ? 0 : this.probeClass(s, places, lo, hi, emit);
  }

  /** After {@link selfJoin}: the class's pairs with fewer `partners`, each probing its grid; emits partner first. */
  probe(partners: number, emit: (slot: number, partner: number) => void): number {
    let tests = 0;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (((partners >>> k) & 1) !== 0) tests += this.probeClass(k, null, 0, this.tree.classes.end[k], emit);
    }
    return tests;
  }

  /** Tests class k's members at `lo..hi-1` (or `places[lo..hi-1]`) against the grid, emitting each overlap once. */
  private probeClass(
    k: number,
    places: Int32Array | null,
    lo: number,
    hi: number,
    emit: (slot: number, partner: number) => void,
  ): number {
    // One loop for all items: a call per item costs too much here.
    const tree = this.tree;
    const C = tree.classes;
    const f32 = tree.slots.box;
    const items = tree.items;
    const ids = C.ids[k];
    const detached = C.detached[k] === 1;
    const first = C.listStart[k];
    const { start, box, tag, inv, side, padX, padY } = this;
    const last = side - 1;
    const ox = tree.originX;
    const oy = tree.originY;
    const touching = this.touching;
    let tests = 0;
    for (let j = lo; j < hi; j++) {
      const i = places === null ? j : places[j];
      const id = ids[i];
      if (id < 0) continue;
      const slot = detached ? first + i : items.slotOf(id);
      const b = 4 * slot;
      const x0 = f32[b | MIN_X],
        y0 = f32[b | MIN_Y],
        x1 = f32[b | MAX_X],
        y1 = f32[b | MAX_Y];
      // Cells by truncation: negative and huge values are clamped first, so `| 0` is a floor.
      const fc0 = (x0 - ox) * inv,
        fr0 = (y0 - oy) * inv;
      const c0 = fc0 < 0 ? 0 : fc0 >= side ? last : fc0 | 0,
        r0 = fr0 < 0 ? 0 : fr0 >= side ? last : fr0 | 0;
      if (x1 - x0 <= padX && y1 - y0 <= padY) {
        // Every partner it may overlap is listed in this cell, once.
        const cell = r0 * side + c0;
        const from = start[cell],
          to = start[cell + 1];
        tests += to - from;
        for (let e = from; e < to; e++) {
          if (boxesOverlap(x0, y0, x1, y1, box[4 * e], box[4 * e + 1], box[4 * e + 2], box[4 * e + 3], touching))
            emit(slot, tag[4 * e]);
        }
        continue;
      }
      const fc1 = (x1 - ox) * inv,
        fr1 = (y1 - oy) * inv;
      const c1 = fc1 < 0 ? 0 : fc1 >= side ? last : fc1 | 0,
        r1 = fr1 < 0 ? 0 : fr1 >= side ? last : fr1 | 0;
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const cell = r * side + c;
          const from = start[cell],
            to = start[cell + 1];
          tests += to - from;
          for (let e = from; e < to; e++) {
            if (!boxesOverlap(x0, y0, x1, y1, box[4 * e], box[4 * e + 1], box[4 * e + 2], box[4 * e + 3], touching))
              continue;
            // Only in the cell of the overlap's top-left corner (the partner's own first cell in its tag).
            const pc = tag[4 * e + 1],
              pr = tag[4 * e + 2];
            if ((pc > c0 ? pc : c0) === c && (pr > r0 ? pr : r0) === r) emit(slot, tag[4 * e]);
          }
        }
      }
    }
    return tests;
  }

  /** Every overlapping pair within class `s`, lower id first; with `exactTest`, swept or round pairs must pass it. */
  selfJoin(s: number, emit: (a: number, b: number, priority: number) => void, exactTest: ExactTest | null): number {
    this.built = -1;
    if (this.build(1 << s, true) === 0) return 0;
    const { start, box, tag, side } = this;
    const slotIds = this.tree.slots.id;
    const cells = side * side;
    const touching = this.touching;
    let tests = 0;
    for (let cell = 0, r = 0, c = 0; cell < cells; cell++) {
      const from = start[cell],
        to = start[cell + 1];
      tests += ((to - from) * (to - from - 1)) >> 1;
      for (let p = from; p < to - 1; p++) {
        const x0 = box[4 * p],
          y0 = box[4 * p + 1],
          x1 = box[4 * p + 2],
          y1 = box[4 * p + 3];
        const cp = tag[4 * p + 1],
          rp = tag[4 * p + 2];
        for (let q = p + 1; q < to; q++) {
          if (!boxesOverlap(x0, y0, x1, y1, box[4 * q], box[4 * q + 1], box[4 * q + 2], box[4 * q + 3], touching))
            continue;
          const cq = tag[4 * q + 1],
            rq = tag[4 * q + 2];
          if ((cp > cq ? cp : cq) !== c || (rp > rq ? rp : rq) !== r) continue;
          const a = slotIds[tag[4 * p]],
            b = slotIds[tag[4 * q]];
          const tp = tag[4 * p + 3],
            tq = tag[4 * q + 3];
          const e = (tp | tq) >> 8;
          if (
            exactTest !== null &&
            e !== 0 &&
            !((e & SWEPT) === 0
              ? roundOverlap(box, 4 * p, ((tp >> 8) & CIRCLE) !== 0, box, 4 * q, ((tq >> 8) & CIRCLE) !== 0, touching)
              : exactTest.meets(a, b))
          )
            continue;
          const pa = tp & 0xff,
            pb = tq & 0xff;
          emit(a < b ? a : b, a < b ? b : a, pa < pb ? pa : pb);
        }
      }
      if (++c === side) {
        c = 0;
        r++;
      }
    }
    return tests;
  }

  /** Counting-sorts the `classes` into the grid, keyed by slot; returns the entries. */
  private build(classes: number, selfJoin: boolean): number {
    const tree = this.tree;
    const C = tree.classes;
    const items = tree.items;
    const levels = this.levels;
    levels.fill(0);
    let count = 0;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (((classes >>> k) & 1) === 0) continue;
      count += C.size[k];
      if (C.detached[k] === 1) this.sample(k, true, false);
      else for (let d = 0; d <= tree.maxDepth; d++) levels[d] += C.levelItems[k][d];
    }
    if (count === 0) return 0;
    let best = 0;
    for (let d = 1; d <= tree.maxDepth; d++) if (levels[d] > levels[best]) best = d;
    // A self join's cells are a third wider: its scatter misses cache per entry, its tests run in order along a cell.
    // At most about eight cells an item: every pass visits every cell, and a sparser grid saves the probes little.
    let side = Math.min(selfJoin ? Math.max(1, (3 << best) >> 2) : 1 << best, MAX_SIDE);
    while (side > 1 && side * side > 8 * count) side >>= 1;
    this.side = side;
    this.inv = this.side / tree.rootSize;
    const cells = side * side;
    if (this.start.length < cells + 1) this.start = new Int32Array(cells + 1);
    if (cells > this.usedCells) this.usedCells = cells;
    const start = this.start;
    start.fill(0, 0, cells + 1);
    const source = tree.slots.box;
    const last = side - 1;
    const inv = this.inv;
    // At most a quarter cell: a partner then lists itself in one more row and column at most.
    this.padX = selfJoin ? 0 : Math.min(this.sizeX, tree.rootSize / side / 4);
    this.padY = selfJoin ? 0 : Math.min(this.sizeY, tree.rootSize / side / 4);
    // A hair wider than the pads: a member's size, computed from its corners, may lie an ulp short.
    const padX = this.padX * (1 + 2 ** -40);
    const padY = this.padY * (1 + 2 ** -40);
    const ox = tree.originX;
    const oy = tree.originY;
    let total = 0;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (((classes >>> k) & 1) === 0) continue;
      const ids = C.ids[k];
      const listStart = C.listStart[k];
      const detached = C.detached[k] === 1;
      for (let i = 0, end = C.end[k]; i < end; i++) {
        if (ids[i] < 0) continue;
        const slot = detached ? listStart + i : items.slotOf(ids[i]);
        const b = 4 * slot;
        const c0 = clamp(Math.floor((source[b] - padX - ox) * inv), last),
          c1 = clamp(Math.floor((source[b + 2] - ox) * inv), last);
        const r0 = clamp(Math.floor((source[b + 1] - padY - oy) * inv), last),
          r1 = clamp(Math.floor((source[b + 3] - oy) * inv), last);
        for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) start[r * side + c]++;
        total += (c1 - c0 + 1) * (r1 - r0 + 1);
      }
    }
    // Inclusive prefix sums give each run's end; filling backwards moves them to its start.
    for (let c = 1; c < cells; c++) start[c] += start[c - 1];
    if (this.tag.length < 4 * total) {
      // Grown by half: entries are the grid's biggest arrays, and their count moves little.
      const entries = this.tag.length >> 2;
      const size = Math.max(total + (total >> 3), entries + (entries >> 1));
      this.box = grow(this.box, 4 * size);
      this.tag = grow(this.tag, 4 * size);
    }
    const gbox = this.box;
    const tag = this.tag;
    const collider = tree.slots.collider;
    const wordOf = tree.slots.colliders.word;
    // Last first, so filling runs backwards keeps list order; cells recomputed, cheaper than scratch read back.
    for (let k = MAX_CLASSES - 1; k >= 0; k--) {
      if (((classes >>> k) & 1) === 0) continue;
      const ids = C.ids[k];
      const listStart = C.listStart[k];
      const detached = C.detached[k] === 1;
      for (let i = C.end[k] - 1; i >= 0; i--) {
        if (ids[i] < 0) continue;
        const slot = detached ? listStart + i : items.slotOf(ids[i]);
        const b = 4 * slot;
        const word = wordOf[collider[slot]];
        const bits = (word >>> PRIORITY_SHIFT) | ((word & EXACT) << 8);
        const c0 = clamp(Math.floor((source[b] - ox) * inv), last),
          c1 = clamp(Math.floor((source[b + 2] - ox) * inv), last);
        const r0 = clamp(Math.floor((source[b + 1] - oy) * inv), last),
          r1 = clamp(Math.floor((source[b + 3] - oy) * inv), last);
        const w0 = clamp(Math.floor((source[b] - padX - ox) * inv), last),
          h0 = clamp(Math.floor((source[b + 1] - padY - oy) * inv), last);
        for (let r = h0; r <= r1; r++) {
          for (let c = w0; c <= c1; c++) {
            const e = --start[r * side + c];
            gbox[4 * e] = source[b];
            gbox[4 * e + 1] = source[b + 1];
            gbox[4 * e + 2] = source[b + 2];
            gbox[4 * e + 3] = source[b + 3];
            tag[4 * e] = slot;
            tag[4 * e + 1] = c0;
            tag[4 * e + 2] = r0;
            tag[4 * e + 3] = bits;
          }
        }
      }
    }
    start[cells] = total;
    if (total > this.used) this.used = total;
    return total;
  }
}

function clamp(v: number, last: number): number {
  return v < 0 ? 0 : v > last ? last : v;
}
