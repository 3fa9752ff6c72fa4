import { DENSE_DEPTH, MAX_CLASSES } from '../store/CollisionClasses.js';
import { floatBelow } from '../geometry.js';
import { CIRCLE, CLASS_BITS, CLASS_SHIFT, EXACT, PRIORITY_SHIFT, STATIC, SWEPT } from '../store/ItemStore.js';
import { NONE } from '../store/NodePool.js';
import type { PairBuffer } from '../lists/PairBuffer.js';
import { ProbeGrid } from './ProbeGrid.js';
import { ExactTest, roundOverlap } from './ExactTest.js';
import { declareScratch } from '../snapshot/StatePlan.js';
import type { SpatialTree } from '../placement/SpatialTree.js';

/**
 * Cell-index margins, in cells: loose bounds reach 1.5 cells before a cell's index and 0.5
 * after it. The 1e-9 widening keeps float rounding from dropping a cell at the boundary.
 */
export const REACH = 1.5 + 1e-9;
export const NEAR = 0.5 + 1e-9;

/** A region with more items than this reaches other levels item by item, not by its union. */
const UNION_LIMIT = 4;

/**
 * Overlapping pairs found from slot memory alone (box, id and collider copies, read in order),
 * class by class (see CollisionClasses):
 *
 * - {@link run}: every pair of every item, the way a uniform grid finds them but over the
 *   tree's cells as they are. A class that may pair with itself pairs each cell's items among
 *   themselves, with the forward half of its neighbours on its own level (right, and the row
 *   below) and with every deeper level's cells its items can reach: each pair is met once.
 *   Two different classes are joined from the smaller one: its cells probe the other's cells
 *   at every level. Class pairs whose filters reject each other are never looked at.
 * - {@link runMovers}: the pairs of the given movers only; each probes, at every level, the
 *   cells of every class it may pair with.
 *
 * For {@link run}, each class's tight bounds per cell (the union of its items' boxes) are
 * computed first: a cell whose items are out of reach is skipped whole, and an item is only
 * tested against a cell its box overlaps.
 */
export class CellSweep {
  /** Pair tests made by the last run. */
  tests = 0;
  private readonly tree: SpatialTree;
  private readonly touching: boolean;
  /**
   * Per class and depth up to DENSE_DEPTH: minX, minY, maxX, maxY of the class's items per
   * cell, rounded outward to 32-bit floats. They only ever skip what cannot pair, so a bound a
   * little wider than the items is as good, at half the bytes.
   */
  private readonly bounds: (Float32Array | null)[][] = [];
  private out: PairBuffer | null = null;
  /** Bit set of the items not to pair with (movers already checked), or null. */
  private skip: Int32Array | null = null;
  /** Whether pairs of the classes being joined need the per-pair layer, mask and static test. */
  private filter = true;
  /** Whether pairs of the classes being joined may need the exact test: a swept item or a circle (see ExactTest). */
  private careful = false;
  private readonly exactTest: ExactTest;
  /** First slot of the region {@link regionAt} last counted. */
  private regionFirst = 0;
  /** Whether the tight bounds are current (a movers' run does without them). */
  private useBounds = false;
  private readonly grid: ProbeGrid;
  private readonly emitSlots = (s: number, t: number): void => this.emit(s, t);
  /** Pairs within a detached class; the grid asks {@link exactTest} itself when either is swept or a circle. */
  private readonly emitWithin = (a: number, b: number, priority: number): void => this.push(a, b, priority);
  /** Box of the items being paired (a cell's union, or one item's box): numbers stay unboxed. */
  private readonly union = new Float64Array(4);

  constructor(tree: SpatialTree, touching: boolean) {
    this.tree = tree;
    this.touching = touching;
    this.grid = new ProbeGrid(tree, touching);
    this.exactTest = new ExactTest(tree, touching);
    for (let k = 0; k < MAX_CLASSES; k++)
      this.bounds.push(new Array<Float32Array | null>(tree.maxDepth + 1).fill(null));
    // Computed by each run before they are read: not state.
    declareScratch(this, 'bounds');
  }

  /** Forgets anything built for an earlier step (see ProbeGrid.invalidate). */
  beginStep(): void {
    this.grid.invalidate();
  }

  /** Appends every overlapping pair the colliders allow to `out` as (lower id, higher id, pair priority). */
  run(out: PairBuffer): void {
    const C = this.tree.classes;
    this.out = out;
    this.skip = null;
    this.tests = 0;
    this.useBounds = true;
    for (let k = 0; k < MAX_CLASSES; k++) if (C.size[k] > 0 && C.detached[k] === 0) this.computeBounds(k);
    for (let a = 0; a < MAX_CLASSES; a++) {
      if (C.size[a] === 0) continue;
      if (C.detached[a] === 1) {
        this.runJoin(a, null, 0, C.end[a]);
        continue;
      }
      for (let b = a; b < MAX_CLASSES; b++) {
        if (C.size[b] === 0 || C.detached[b] === 1 || C.allowed[a * MAX_CLASSES + b] === 0) continue;
        this.filter = C.exact[a * MAX_CLASSES + b] === 0;
        this.careful = C.careful(a) || C.careful(b);
        if (a === b) this.selfJoin(a);
        else if (C.size[a] <= C.size[b]) this.crossJoin(a, b);
        else this.crossJoin(b, a);
      }
    }
    this.out = null;
  }

  /**
   * Appends to `out` every pair of the members of detached class k at list places from..to-1,
   * or with `places` at `places[from..to-1]` (a few of its members), with its partners, and
   * (for its whole list only) within the class.
   */
  joinDetached(k: number, out: PairBuffer, places: Int32Array | null, from: number, to: number): void {
    this.out = out;
    this.skip = null;
    this.tests = 0;
    this.runJoin(k, places, from, to);
    this.out = null;
  }

  /**
   * Appends the pairs of the movers in slots `moverSlots[0..count-1]` to `out`, each once:
   * a pair of two movers is reported by the first of them, whose bit in `checked` (a bit set
   * by id) is set as it is done.
   */
  runMovers(moverSlots: Int32Array, count: number, checked: Int32Array, out: PairBuffer): void {
    const tree = this.tree;
    const C = tree.classes;
    const box = tree.slots.box;
    const collider = tree.slots.collider;
    const wordOf = tree.slots.colliders.word;
    const slotId = tree.slots.id;
    const u = this.union;
    this.out = out;
    this.skip = checked;
    this.tests = 0;
    // Tight bounds would need a pass over every item: more than they save for a fraction of movers.
    this.useBounds = false;
    for (let i = 0; i < count; i++) {
      const s = moverSlots[i];
      const k = (wordOf[collider[s]] & CLASS_BITS) >> CLASS_SHIFT;
      u[0] = box[4 * s];
      u[1] = box[4 * s + 1];
      u[2] = box[4 * s + 2];
      u[3] = box[4 * s + 3];
      for (let o = 0; o < MAX_CLASSES; o++) {
        if (C.size[o] === 0 || C.allowed[k * MAX_CLASSES + o] === 0) continue;
        this.filter = C.exact[k * MAX_CLASSES + o] === 0;
        this.careful = C.careful(k) || C.careful(o);
        this.probeLevels(s, s + 1, o, 0);
      }
      const id = slotId[s];
      checked[id >> 5] |= 1 << (id & 31);
    }
    this.out = null;
    this.skip = null;
  }

  /** Pairs of one class among themselves: each cell with itself, its forward neighbours and the deeper levels in reach. */
  private selfJoin(k: number): void {
    const tree = this.tree;
    const C = tree.classes;
    const r = this.touching ? 2 : 1;
    for (let d = 0; d <= tree.maxDepth; d++) {
      if (C.levelItems[k][d] === 0) continue;
      const side = 1 << d;
      const last = side - 1;
      for (let c = 0, total = side * side; c < total; c++) {
        const own = this.regionAt(k, d, c);
        if (own === 0) continue;
        const first = this.regionFirst;
        const end = first + own;
        const cx = c & last;
        const cy = c >> d;
        this.pairWithin(first, end);
        this.loadUnion(k, d, c, first, end);
        this.pairWithCells(first, end, k, d, cx + 1, cx + r > last ? last : cx + r, cy, cy);
        if (cy < last)
          this.pairWithCells(
            first,
            end,
            k,
            d,
            cx - r < 0 ? 0 : cx - r,
            cx + r > last ? last : cx + r,
            cy + 1,
            cy + r > last ? last : cy + r,
          );
        this.reachLevels(first, end, k, d + 1);
      }
    }
  }

  /** Pairs of class s with class l: the cells of s probe the cells of l at every level. */
  private crossJoin(s: number, l: number): void {
    const tree = this.tree;
    const C = tree.classes;
    for (let d = 0; d <= tree.maxDepth; d++) {
      if (C.levelItems[s][d] === 0) continue;
      // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- a level that holds items has its cell array (made by indexCell); a check here would sit in the join loop
      for (let c = 0, total = tree.levelCells[d]!.length; c < total; c++) {
        const own = this.regionAt(s, d, c);
        if (own === 0) continue;
        const first = this.regionFirst;
        this.loadUnion(s, d, c, first, first + own);
        this.reachLevels(first, first + own, l, 0);
      }
    }
  }

  /**
   * Pairs of the members of detached class s at list places from..to-1 (or `places[from..to-1]`;
   * no other detached class among its partners) with every class it may pair with, and with
   * each other when the class pairs with itself (then only for its whole list): its items are
   * in no node, so the probe grid reads them from the class's region, in list order.
   */
  private runJoin(s: number, places: Int32Array | null, from: number, to: number): void {
    const C = this.tree.classes;
    this.careful = C.careful(s);
    const selfJoined = C.allowed[s * MAX_CLASSES + s] === 1;
    // Owed boxes are read by join alone, over the whole class; any other way settles them first.
    const owed = this.tree.owedBoxes;
    if (owed.isOwed(s) && (selfJoined || places !== null || from !== 0 || to < C.end[s])) owed.settle(s);
    if (selfJoined) {
      // The joins return their tests: a field stored after their long loops would have no
      // type feedback when the engine compiles them mid-loop, and throw the code away each call.
      this.tests += this.grid.selfJoin(s, this.emitWithin, this.careful ? this.exactTest : null);
    }
    let partners = 0;
    let partnerItems = 0;
    this.filter = false;
    for (let o = 0; o < MAX_CLASSES; o++) {
      if (o === s || C.size[o] === 0 || C.allowed[s * MAX_CLASSES + o] === 0) continue;
      partners |= 1 << o;
      partnerItems += C.size[o];
      if (C.exact[s * MAX_CLASSES + o] === 0) this.filter = true;
      if (C.careful(o)) this.careful = true;
    }
    if (partners !== 0) {
      // Probe from the smaller side: the partners through the class's own grid when it has one.
      if (selfJoined && partnerItems < C.size[s]) this.tests += this.grid.probe(partners, this.emitSlots);
      else this.tests += this.grid.join(partners, this.emitSlots, s, places, from, to);
    }
    // Without partners, or with none in the grid, the join read no member: store them now.
    owed.settle(s);
  }

  /** Appends a pair found by the sweep. Kept small: it is inlined into the joins' loops. */
  private push(a: number, b: number, priority: number): void {
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- set for the whole of each join; push is inlined into the join loops
    const out = this.out!;
    if (out.count === out.a.length) out.reserve(out.count + 1);
    const k = out.count++;
    out.a[k] = a;
    out.b[k] = b;
    out.priority[k] = priority;
  }

  /**
   * Pairs slots [first, end), whose union is in `union`, with class k's cells at levels
   * `from` and deeper that their loose bounds reach: by the union when the slots are few,
   * else item by item.
   */
  private reachLevels(first: number, end: number, k: number, from: number): void {
    if (end - first <= UNION_LIMIT) {
      this.probeLevels(first, end, k, from);
      return;
    }
    const box = this.tree.slots.box;
    const u = this.union;
    for (let s = first; s < end; s++) {
      u[0] = box[4 * s];
      u[1] = box[4 * s + 1];
      u[2] = box[4 * s + 2];
      u[3] = box[4 * s + 3];
      this.probeLevels(s, s + 1, k, from);
    }
  }

  /** Pairs slots [first, end), whose union is in `union`, with class k's cells in reach at levels `from` and deeper. */
  private probeLevels(first: number, end: number, k: number, from: number): void {
    const levels = this.tree.classes.levelItems[k];
    for (let d = from; d <= this.tree.maxDepth; d++) if (levels[d] !== 0) this.pairWithReach(first, end, k, d);
  }

  /** Each of class k's cells' tight bounds, on the levels that keep cell arrays. */
  private computeBounds(k: number): void {
    const tree = this.tree;
    const C = tree.classes;
    const box = tree.slots.box;
    for (let d = 0; d <= tree.maxDepth && d <= DENSE_DEPTH; d++) {
      if (C.levelItems[k][d] === 0) continue;
      // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- a class with items at a dense level has its cell array there (see regionsByCellAt)
      const byCell = C.regionsByCell[k][d]!;
      let b = this.bounds[k][d];
      if (b === null) b = this.bounds[k][d] = new Float32Array(2 * byCell.length);
      for (let c = 0, count = byCell.length >> 1; c < count; c++) {
        const own = byCell[2 * c + 1];
        if (own === 0) continue;
        let x0 = Infinity,
          y0 = Infinity,
          x1 = -Infinity,
          y1 = -Infinity;
        for (let s = byCell[2 * c], end = s + own; s < end; s++) {
          if (box[4 * s] < x0) x0 = box[4 * s];
          if (box[4 * s + 1] < y0) y0 = box[4 * s + 1];
          if (box[4 * s + 2] > x1) x1 = box[4 * s + 2];
          if (box[4 * s + 3] > y1) y1 = box[4 * s + 3];
        }
        b[4 * c] = floatBelow(x0);
        b[4 * c + 1] = floatBelow(y0);
        b[4 * c + 2] = -floatBelow(-x1);
        b[4 * c + 3] = -floatBelow(-y1);
      }
    }
  }

  /**
   * Items of class k in cell c of depth d (0 for none); their first slot goes to
   * {@link regionFirst}. Read from the class's cell array on the levels that keep one, else
   * through the cell's node.
   */
  private regionAt(k: number, d: number, c: number): number {
    const C = this.tree.classes;
    const byCell = C.regionsByCell[k][d];
    if (byCell !== null) {
      this.regionFirst = byCell[2 * c];
      return byCell[2 * c + 1];
    }
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- a level that holds items has its cell array (made by indexCell); a check here would sit in the join loop
    const n = this.tree.levelCells[d]![c];
    if (n === NONE) return 0;
    this.regionFirst = C.start[k][n];
    return C.own[k][n];
  }

  /** Puts the union of slots [first, end), class k's items in cell c of depth d, into `union`. */
  private loadUnion(k: number, d: number, c: number, first: number, end: number): void {
    const u = this.union;
    const b = d <= DENSE_DEPTH ? this.bounds[k][d] : null;
    if (b !== null) {
      u[0] = b[4 * c];
      u[1] = b[4 * c + 1];
      u[2] = b[4 * c + 2];
      u[3] = b[4 * c + 3];
      return;
    }
    const box = this.tree.slots.box;
    u[0] = u[1] = Infinity;
    u[2] = u[3] = -Infinity;
    for (let s = first; s < end; s++) {
      if (box[4 * s] < u[0]) u[0] = box[4 * s];
      if (box[4 * s + 1] < u[1]) u[1] = box[4 * s + 1];
      if (box[4 * s + 2] > u[2]) u[2] = box[4 * s + 2];
      if (box[4 * s + 3] > u[3]) u[3] = box[4 * s + 3];
    }
  }

  /** Pairs the items of slots [first, end) among themselves. */
  private pairWithin(first: number, end: number): void {
    const box = this.tree.slots.box;
    const touching = this.touching;
    this.tests += ((end - first) * (end - first - 1)) >> 1;
    for (let s = first; s < end - 1; s++) {
      const x0 = box[4 * s],
        y0 = box[4 * s + 1],
        x1 = box[4 * s + 2],
        y1 = box[4 * s + 3];
      for (let t = s + 1; t < end; t++) {
        // The comparisons are anded without branches (see boxesOverlap).
        const x = touching
          ? +(x0 <= box[4 * t + 2]) & +(box[4 * t] <= x1)
          : +(x0 < box[4 * t + 2]) & +(box[4 * t] < x1);
        const y = touching
          ? +(y0 <= box[4 * t + 3]) & +(box[4 * t + 1] <= y1)
          : +(y0 < box[4 * t + 3]) & +(box[4 * t + 1] < y1);
        if ((x & y) !== 0) {
          this.emit(s, t);
        }
      }
    }
  }

  /** Pairs slots [first, end), whose union is in `union`, with class k's cells of level `d` their loose bounds reach. */
  private pairWithReach(first: number, end: number, k: number, d: number): void {
    // The root holds what fits nowhere else, far outside the world too: always reached.
    if (d === 0) {
      this.pairWithCells(first, end, k, 0, 0, 0, 0, 0);
      return;
    }
    const tree = this.tree;
    const u = this.union;
    const inv = tree.invCellSize[d];
    const last = (1 << d) - 1;
    // Clamped before the conversion to an integer: boxes far outside the world give huge values.
    const lx = Math.ceil((u[0] - tree.originX) * inv - REACH);
    const hx = Math.floor((u[2] - tree.originX) * inv + NEAR);
    const ly = Math.ceil((u[1] - tree.originY) * inv - REACH);
    const hy = Math.floor((u[3] - tree.originY) * inv + NEAR);
    if (hx < 0 || hy < 0 || lx > last || ly > last) return;
    this.pairWithCells(
      first,
      end,
      k,
      d,
      lx < 0 ? 0 : lx | 0,
      hx > last ? last : hx | 0,
      ly < 0 ? 0 : ly | 0,
      hy > last ? last : hy | 0,
    );
  }

  /**
   * Pairs the items of slots [first, end), whose union is in `union`, with class k's items in
   * the cells [fx0..fx1] x [fy0..fy1] of level `d` (inside the grid, possibly empty ranges).
   */
  private pairWithCells(
    first: number,
    end: number,
    k: number,
    d: number,
    fx0: number,
    fx1: number,
    fy0: number,
    fy1: number,
  ): void {
    const u = this.union;
    const x0 = u[0],
      y0 = u[1],
      x1 = u[2],
      y1 = u[3];
    const tree = this.tree;
    const C = tree.classes;
    const byCell = C.regionsByCell[k][d];
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- a level that holds items has its cell array (made by indexCell); a check here would sit in the join loop
    const cells = tree.levelCells[d]!;
    const b = this.useBounds && d <= DENSE_DEPTH ? this.bounds[k][d] : null;
    const box = tree.slots.box;
    const touching = this.touching;
    let tests = 0;
    let bx0 = -Infinity,
      by0 = -Infinity,
      bx1 = Infinity,
      by1 = Infinity;
    for (let iy = fy0; iy <= fy1; iy++) {
      for (let c = (iy << d) + fx0, rowEnd = (iy << d) + fx1; c <= rowEnd; c++) {
        // regionAt written out: this runs per mover and cell, and the call cost 7% of a
        // 10%-moving step at 10k.
        let from: number;
        let count: number;
        if (byCell !== null) {
          count = byCell[2 * c + 1];
          if (count === 0) continue;
          from = byCell[2 * c];
        } else {
          const n = cells[c];
          if (n === NONE || (count = C.own[k][n]) === 0) continue;
          from = C.start[k][n];
        }
        if (b !== null) {
          bx0 = b[4 * c];
          by0 = b[4 * c + 1];
          bx1 = b[4 * c + 2];
          by1 = b[4 * c + 3];
          if (
            !(touching
              ? x0 <= bx1 && bx0 <= x1 && y0 <= by1 && by0 <= y1
              : x0 < bx1 && bx0 < x1 && y0 < by1 && by0 < y1)
          )
            continue;
        }
        const to = from + count;
        for (let s = first; s < end; s++) {
          const sx0 = box[4 * s],
            sy0 = box[4 * s + 1],
            sx1 = box[4 * s + 2],
            sy1 = box[4 * s + 3];
          // Skip the cell for this item when its box misses the cell's items.
          if (
            !(touching
              ? sx0 <= bx1 && bx0 <= sx1 && sy0 <= by1 && by0 <= sy1
              : sx0 < bx1 && bx0 < sx1 && sy0 < by1 && by0 < sy1)
          )
            continue;
          tests += count;
          for (let t = from; t < to; t++) {
            // The comparisons are anded without branches (see boxesOverlap).
            const x = touching
              ? +(sx0 <= box[4 * t + 2]) & +(box[4 * t] <= sx1)
              : +(sx0 < box[4 * t + 2]) & +(box[4 * t] < sx1);
            const y = touching
              ? +(sy0 <= box[4 * t + 3]) & +(box[4 * t + 1] <= sy1)
              : +(sy0 < box[4 * t + 3]) & +(box[4 * t + 1] < sy1);
            if ((x & y) !== 0) {
              this.emit(s, t);
            }
          }
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
    // Only the three columns a sort and merge read; the list's index and born stay unused.
    if (this.careful) {
      if (
        ((ms | mt) & EXACT) !== 0 &&
        !(((ms | mt) & SWEPT) === 0
          ? roundOverlap(slots.box, 4 * s, (ms & CIRCLE) !== 0, slots.box, 4 * t, (mt & CIRCLE) !== 0, this.touching)
          : this.exactTest.meets(a, b))
      )
        return;
    }
    this.push(a < b ? a : b, a < b ? b : a, ps < pt ? ps : pt);
  }
}
