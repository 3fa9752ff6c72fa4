import { MAX_CLASSES } from '../store/CollisionClasses.js';
import { FLAGS, LAYER, MASK, MAX_X, MAX_Y, MIN_X, MIN_Y, PAIR_HEAD, SEEN, STATE, STATIC } from '../store/ItemStore.js';
import { NONE } from '../store/NodePool.js';
import type { PairLists } from '../lists/PairLists.js';
import { NEXT, type PairPool } from './PairPool.js';
import { NEAR, REACH } from './CellSweep.js';
import { PairQuery } from './PairQuery.js';
import { ExactTest } from './ExactTest.js';
import type { SpatialTree } from '../placement/SpatialTree.js';

/**
 * The per-item check, for steps where few items moved (and the only kind under a budget):
 * the item re-tests the pairs it has (its list in the pair pool) and scans the cells its box
 * can reach, in every class it may pair with, for new ones. Entries and exits go to the step's
 * lists (see PairLists); the pool is updated as it goes.
 */
export class FewMovers {
  /** Pair tests made since the caller last reset it. */
  tests = 0;
  private readonly tree: SpatialTree;
  private readonly pairs: PairPool;
  private readonly lists: PairLists;
  private readonly touching: boolean;
  private readonly q = new PairQuery();
  private readonly exactTest: ExactTest;
  private token = 0;

  constructor(tree: SpatialTree, pairs: PairPool, lists: PairLists, touching: boolean) {
    this.tree = tree;
    this.pairs = pairs;
    this.lists = lists;
    this.touching = touching;
    this.exactTest = new ExactTest(tree, touching);
  }

  /**
   * A token no item's SEEN field holds yet: the per-item check marks partners with it, and the
   * movers' collection marks ids it took. Restarts every SEEN field before the counter wraps.
   */
  nextToken(): number {
    if (this.token === 0x7fffffff) {
      this.tree.items.clearSeen();
      this.token = 0;
    }
    return ++this.token;
  }

  /**
   * Checks item `m` if it waits for step `step` (see STATE) and marks it checked. Returns 1,
   * or 0 for a stale queue entry (removed, or checked already).
   */
  check(m: number, step: number): number {
    const items = this.tree.items;
    const mark = 2 * step + 1;
    if (items.stateOf(m) !== mark) return 0;
    items.setState(m, mark - 1);
    const q = this.load(m, step);
    this.retestPairs(q);
    this.findNewPairs(q);
    this.tests += q.tests;
    return 1;
  }

  private load(m: number, step: number): PairQuery {
    const items = this.tree.items;
    const q = this.q;
    q.id = m;
    q.step = step;
    // Partners are marked with a token unique to this check, so the scan tells old pairs
    // from new ones without a hash lookup.
    q.token = this.nextToken();
    q.layer = items.layerOf(m);
    q.mask = items.maskOf(m);
    q.priority = items.priorityOf(m);
    q.isStatic = items.hasFlag(m, STATIC) ? STATIC : 0;
    q.box[0] = items.minX(m);
    q.box[1] = items.minY(m);
    q.box[2] = items.maxX(m);
    q.box[3] = items.maxY(m);
    q.tests = 0;
    return q;
  }

  /** Re-tests the pairs the item had; a partner checked earlier this step did it already. */
  private retestPairs(q: PairQuery): void {
    const items = this.tree.items;
    const i32 = items.i32;
    const f64 = items.f64;
    const pairs = this.pairs;
    const rec = pairs.rec;
    const checked = 2 * q.step;
    const touching = this.touching;
    const x0 = q.box[0],
      y0 = q.box[1],
      x1 = q.box[2],
      y1 = q.box[3];
    const itemRec = items.rec;
    for (let e = i32[(itemRec[q.id] << 4) | PAIR_HEAD]; e !== NONE;) {
      const p = e >> 1;
      const side = e & 1;
      const o = rec[(p << 3) | (1 - side)];
      e = rec[(p << 3) | (NEXT + side)];
      const ro = itemRec[o];
      const r = ro << 4;
      if (i32[r | STATE] === checked) continue;
      q.tests++;
      const ox0 = f64[(ro << 3) | MIN_X],
        oy0 = f64[(ro << 3) | MIN_Y],
        ox1 = f64[(ro << 3) | MAX_X],
        oy1 = f64[(ro << 3) | MAX_Y];
      const keep =
        (q.layer & i32[r | MASK]) !== 0 &&
        (i32[r | LAYER] & q.mask) !== 0 &&
        (q.isStatic & i32[r | FLAGS]) === 0 &&
        (touching ? x0 <= ox1 && ox0 <= x1 && y0 <= oy1 && oy0 <= y1 : x0 < ox1 && ox0 < x1 && y0 < oy1 && oy0 < y1) &&
        this.exactTest.meets(q.id, o);
      if (!keep) {
        this.lists.endPair(p, pairs, items);
        continue;
      }
      i32[r | SEEN] = q.token;
      const op = items.priorityOf(o);
      const pp = op < q.priority ? op : q.priority;
      if (pairs.priority[p] !== pp) {
        pairs.priority[p] = pp;
        this.lists.reorder = true;
      }
    }
  }

  /** Scans the cells of every class the item may pair with, at every level, whose loose bounds reach its box. */
  private findNewPairs(q: PairQuery): void {
    const tree = this.tree;
    const C = tree.classes;
    const row = tree.items.classOf(q.id) * MAX_CLASSES;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (C.size[k] === 0 || C.allowed[row + k] === 0) continue;
      const levels = C.levelItems[k];
      // The root cell is always visited: items that fit nowhere else live there.
      if (levels[0] !== 0) this.visitCells(q, k, 0, 0, 0, 0, 0);
      for (let d = 1; d <= tree.maxDepth; d++) if (levels[d] !== 0) this.visitReach(q, k, d);
    }
  }

  /** Visits the cells of depth `d` whose loose bounds can reach the box (see REACH, NEAR). */
  private visitReach(q: PairQuery, k: number, d: number): void {
    const tree = this.tree;
    const inv = tree.invCellSize[d];
    const b = q.box;
    this.visitCells(
      q,
      k,
      d,
      Math.ceil((b[0] - tree.originX) * inv - REACH),
      Math.floor((b[2] - tree.originX) * inv + NEAR),
      Math.ceil((b[1] - tree.originY) * inv - REACH),
      Math.floor((b[3] - tree.originY) * inv + NEAR),
    );
  }

  /** Tests class k's items in the cells [fx0..fx1] x [fy0..fy1] of depth `d` (clamped to the grid). */
  private visitCells(q: PairQuery, k: number, d: number, fx0: number, fx1: number, fy0: number, fy1: number): void {
    const last = (1 << d) - 1;
    if (fx0 < 0) fx0 = 0;
    if (fy0 < 0) fy0 = 0;
    if (fx1 > last) fx1 = last;
    if (fy1 > last) fy1 = last;
    if (fx0 > fx1 || fy0 > fy1) return;
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- a level that holds items has its cell array (made by indexCell); a check here would sit in the join loop
    const cells = this.tree.levelCells[d]!;
    const byCell = this.tree.classes.regionsByCell[k][d];
    const start = this.tree.classes.start[k];
    const own = this.tree.classes.own[k];
    const ix0 = fx0 | 0;
    const ix1 = fx1 | 0;
    for (let iy = fy0 | 0, iy1 = fy1 | 0; iy <= iy1; iy++) {
      const rowEnd = (iy << d) + ix1;
      for (let c = (iy << d) + ix0; c <= rowEnd; c++) {
        if (byCell !== null) {
          if (byCell[2 * c + 1] !== 0) this.scanSlots(q, byCell[2 * c], byCell[2 * c] + byCell[2 * c + 1]);
          continue;
        }
        const n = cells[c];
        if (n === NONE || own[n] === 0) continue;
        this.scanSlots(q, start[n], start[n] + own[n]);
      }
    }
  }

  /** Tests the items in slots [from, to) against the box; pairs up the new overlaps. */
  private scanSlots(q: PairQuery, from: number, to: number): void {
    const box = this.tree.slots.box;
    const x0 = q.box[0],
      y0 = q.box[1],
      x1 = q.box[2],
      y1 = q.box[3];
    const touching = this.touching;
    q.tests += to - from;
    for (let s = from; s < to; s++) {
      // Box first: it sits in the slot, read in order; the rest only for overlaps.
      if (
        touching
          ? x0 <= box[4 * s + 2] && box[4 * s] <= x1 && y0 <= box[4 * s + 3] && box[4 * s + 1] <= y1
          : x0 < box[4 * s + 2] && box[4 * s] < x1 && y0 < box[4 * s + 3] && box[4 * s + 1] < y1
      ) {
        this.pairUp(q, this.tree.slots.id[s]);
      }
    }
  }

  /** Creates the pair of the item with an overlapping `o`, unless it exists or is filtered out. */
  private pairUp(q: PairQuery, o: number): void {
    const m = q.id;
    const i32 = this.tree.items.i32;
    const r = this.tree.items.rec[o] << 4;
    if (o === m || i32[r | SEEN] === q.token || i32[r | STATE] === 2 * q.step) return;
    if ((q.layer & i32[r | MASK]) === 0 || (i32[r | LAYER] & q.mask) === 0 || (q.isStatic & i32[r | FLAGS]) !== 0)
      return;
    const op = this.tree.items.priorityOf(o);
    const pp = op < q.priority ? op : q.priority;
    if (!this.exactTest.meets(m, o)) return;
    const a = m < o ? m : o;
    const b = m < o ? o : m;
    this.lists.entered.push(a, b, pp, this.pairs.create(a, b, pp, q.step, this.tree.items));
  }
}
