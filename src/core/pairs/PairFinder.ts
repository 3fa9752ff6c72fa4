import { MAX_CLASSES } from '../store/CollisionClasses.js';
import { CIRCLE, CLASS_BITS, CLASS_SHIFT, EXACT, PRIORITY_SHIFT, STATIC, SWEPT } from '../store/ItemStore.js';
import { NONE } from '../store/NodePool.js';
import type { PairBuffer } from '../lists/PairBuffer.js';
import type { IdBits } from './IdBits.js';
import { ProbeGrid } from './ProbeGrid.js';
import { boxesOverlap } from '../geometry.js';
import { ExactTest, roundOverlap } from './ExactTest.js';
import type { SpatialTree } from '../placement/SpatialTree.js';

/** Cell-index margins, in cells: loose bounds reach 1.5 cells before a cell and 0.5 after; 1e-9 absorbs rounding. */
export const REACH = 1.5 + 1e-9;
export const NEAR = 0.5 + 1e-9;

/** Overlapping pairs, by class pair (see CollisionClasses): class pairs the filters reject are never read. */
export class PairFinder {
  /** Pair tests made since {@link beginStep}. */
  tests = 0;
  private readonly tree: SpatialTree;
  private readonly touching: boolean;
  private out: PairBuffer | null = null;
  /** Bit set of the items not to pair with (the step's touched ones: movers done, and detached ones, never met), or null. */
  private skip: Int32Array | null = null;
  /** Whether pairs of the classes being joined need the per-pair layer, mask and static test. */
  private filter = true;
  private readonly exactTest: ExactTest;
  private readonly grid: ProbeGrid;
  private readonly emitSlots = (s: number, t: number): void => this.emit(s, t);
  /** Pairs within a class that needs no filter; the grid runs {@link exactTest} itself. */
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- `out` is set for the whole of each join
  private readonly emitWithin = (a: number, b: number, priority: number): void => this.out!.push(a, b, priority);
  /** Pairs within a class whose items filter pair by pair (the shared class): tested by {@link emit}. */
  private readonly emitFiltered = (a: number, b: number): void =>
    this.emit(this.tree.items.slotOf(a), this.tree.items.slotOf(b));

  constructor(tree: SpatialTree, touching: boolean) {
    this.tree = tree;
    this.touching = touching;
    this.grid = new ProbeGrid(tree, touching);
    this.exactTest = new ExactTest(tree, touching);
  }

  beginStep(): void {
    this.tests = 0;
    this.grid.invalidate();
  }

  /** Appends every overlapping pair the colliders allow to `out` as (lower id, higher id, pair priority). */
  run(out: PairBuffer): void {
    const C = this.tree.classes;
    this.out = out;
    const grid = this.grid;
    for (let a = 0; a < MAX_CLASSES; a++) {
      if (C.size[a] === 0) continue;
      if (C.detached[a] === 1) {
        this.runJoin(a, null, 0, C.end[a]);
        continue;
      }
      for (let b = a; b < MAX_CLASSES; b++) {
        if (C.size[b] === 0 || C.detached[b] === 1 || C.allowed[a * MAX_CLASSES + b] === 0) continue;
        this.filter = C.exact[a * MAX_CLASSES + b] === 0;
        // The joins return their tests: see runJoin.
        if (a === b)
          this.tests += this.filter
            ? grid.selfJoin(a, this.emitFiltered, null)
            : grid.selfJoin(a, this.emitWithin, this.exactTest);
        // The smaller class goes into the grid: its build scatters entries at random, the dearer pass.
        else if (C.size[a] <= C.size[b]) this.tests += grid.join(1 << a, this.emitSlots, b, null, 0, C.end[b]);
        else this.tests += grid.join(1 << b, this.emitSlots, a, null, 0, C.end[a]);
      }
    }
    this.out = null;
  }

  /** Appends the pairs of detached class k's members at places from..to-1 (or `places[from..to-1]`). */
  joinDetached(k: number, out: PairBuffer, places: Int32Array | null, from: number, to: number): void {
    this.out = out;
    this.runJoin(k, places, from, to);
    this.out = null;
  }

  /** Appends the pairs of the movers in `moverSlots[0..count-1]`, each once (a done mover is added to `touched`). */
  runMovers(moverSlots: Int32Array, count: number, touched: IdBits, out: PairBuffer): void {
    const tree = this.tree;
    const C = tree.classes;
    const collider = tree.slots.collider;
    const wordOf = tree.slots.colliders.word;
    const slotId = tree.slots.id;
    this.out = out;
    this.skip = touched.words;
    for (let i = 0; i < count; i++) {
      const s = moverSlots[i];
      const k = (wordOf[collider[s]] & CLASS_BITS) >> CLASS_SHIFT;
      for (let o = 0; o < MAX_CLASSES; o++) {
        if (C.size[o] === 0 || C.allowed[k * MAX_CLASSES + o] === 0) continue;
        this.filter = C.exact[k * MAX_CLASSES + o] === 0;
        const levels = C.levelItems[o];
        for (let d = 0; d <= tree.maxDepth; d++) if (levels[d] !== 0) this.pairWithReach(s, o, d);
      }
      touched.add(slotId[s]);
    }
    this.out = null;
    this.skip = null;
  }

  /** Pairs of detached class s's members at from..to-1 (or `places[...]`) with its partners and, whole, itself. */
  private runJoin(s: number, places: Int32Array | null, from: number, to: number): void {
    const C = this.tree.classes;
    const selfJoined = C.allowed[s * MAX_CLASSES + s] === 1;
    if (selfJoined) {
      // Joins return their tests: a field written after their long loops would discard code compiled mid-loop.
      this.tests += this.grid.selfJoin(s, this.emitWithin, this.exactTest);
    }
    let partners = 0;
    let partnerItems = 0;
    this.filter = false;
    for (let o = 0; o < MAX_CLASSES; o++) {
      if (o === s || C.size[o] === 0 || C.allowed[s * MAX_CLASSES + o] === 0) continue;
      partners |= 1 << o;
      partnerItems += C.size[o];
      if (C.exact[s * MAX_CLASSES + o] === 0) this.filter = true;
    }
    if (partners !== 0) {
      // Probe from the smaller side: the partners through the class's own grid when it has one.
      if (selfJoined && partnerItems < C.size[s]) this.tests += this.grid.probe(partners, this.emitSlots);
      else this.tests += this.grid.join(partners, this.emitSlots, s, places, from, to);
    }
  }

  /** Pairs the mover in slot s with class k's cells of level `d` its loose bounds reach. */
  private pairWithReach(s: number, k: number, d: number): void {
    // The root holds what fits nowhere else, far outside the world too: always reached.
    if (d === 0) {
      this.pairWithCells(s, k, 0, 0, 0, 0, 0);
      return;
    }
    const tree = this.tree;
    const box = tree.slots.box;
    const inv = tree.invCellSize[d];
    const last = (1 << d) - 1;
    // Clamped before the conversion to an integer: boxes far outside the world give huge values.
    const lx = Math.ceil((box[4 * s] - tree.originX) * inv - REACH);
    const hx = Math.floor((box[4 * s + 2] - tree.originX) * inv + NEAR);
    const ly = Math.ceil((box[4 * s + 1] - tree.originY) * inv - REACH);
    const hy = Math.floor((box[4 * s + 3] - tree.originY) * inv + NEAR);
    if (hx < 0 || hy < 0 || lx > last || ly > last) return;
    this.pairWithCells(
      s,
      k,
      d,
      lx < 0 ? 0 : lx | 0,
      hx > last ? last : hx | 0,
      ly < 0 ? 0 : ly | 0,
      hy > last ? last : hy | 0,
    );
  }

  /** Pairs the mover in slot s with class k's items in cells [fx0..fx1] x [fy0..fy1] of level `d`. */
  private pairWithCells(s: number, k: number, d: number, fx0: number, fx1: number, fy0: number, fy1: number): void {
    const tree = this.tree;
    const box = tree.slots.box;
    const x0 = box[4 * s],
      y0 = box[4 * s + 1],
      x1 = box[4 * s + 2],
      y1 = box[4 * s + 3];
    const C = tree.classes;
    const start = C.start[k];
    const own = C.own[k];
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- a level that holds items has its cell array (made by indexCell); a check here would sit in the join loop
    const cells = tree.nodes.levelCells[d]!;
    const touching = this.touching;
    let tests = 0;
    for (let iy = fy0; iy <= fy1; iy++) {
      for (let c = (iy << d) + fx0, rowEnd = (iy << d) + fx1; c <= rowEnd; c++) {
        // The region looked up inline, not by a call: this runs per mover and cell.
        const n = cells[c];
        if (n === NONE) continue;
        const count = own[n];
        if (count === 0) continue;
        const from = start[n];
        tests += count;
        for (let t = from, to = from + count; t < to; t++) {
          if (boxesOverlap(x0, y0, x1, y1, box[4 * t], box[4 * t + 1], box[4 * t + 2], box[4 * t + 3], touching))
            this.emit(s, t);
        }
      }
    }
    this.tests += tests;
  }

  /** Records the overlapping slots s and t as a pair unless their colliders filter it out. */
  private emit(s: number, t: number): void {
    const slots = this.tree.slots;
    const cs = slots.collider[s],
      ct = slots.collider[t];
    const { layer, mask, word } = slots.colliders;
    if (
      s === t ||
      (this.filter &&
        ((layer[cs] & mask[ct]) === 0 || (layer[ct] & mask[cs]) === 0 || (word[cs] & word[ct] & STATIC) !== 0))
    )
      return;
    const a = slots.id[s];
    const b = slots.id[t];
    if (this.skip !== null && ((this.skip[b >> 5] >>> (b & 31)) & 1) !== 0) return;
    const ms = word[cs],
      mt = word[ct];
    const ps = ms >>> PRIORITY_SHIFT;
    const pt = mt >>> PRIORITY_SHIFT;
    // Only a swept item or a circle sets these bits: a pair of two boxes skips the exact test.
    if (
      ((ms | mt) & EXACT) !== 0 &&
      !(((ms | mt) & SWEPT) === 0
        ? roundOverlap(slots.box, 4 * s, (ms & CIRCLE) !== 0, slots.box, 4 * t, (mt & CIRCLE) !== 0, this.touching)
        : this.exactTest.meets(a, b))
    )
      return;
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- `out` is set for the whole of each join
    this.out!.push(a < b ? a : b, a < b ? b : a, ps < pt ? ps : pt);
  }
}
