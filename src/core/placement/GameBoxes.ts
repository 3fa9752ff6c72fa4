import { MAX_CLASSES, MIXED } from '../store/CollisionClasses.js';
import { CIRCLE } from '../store/ItemStore.js';
import { isSquare, makesBox } from '../errors.js';
import type { SpatialTree } from './SpatialTree.js';

/** Numbers by id: a plain array, a typed array or any indexable store. */
export type Numbers = { readonly [id: number]: number };

/** Fields of a {@link GameBoxes.scanPlan} range. */
export const SCAN_FIELDS = 5;
/** A range of a detached class, whose boxes {@link GameBoxes.storeCentres} stores in one loop. */
export const STORE_CENTRES = 0;
/** A range of items to move one by one (`LooseQuadtree.move`). */
export const MOVE_EACH = 1;

/** Rounds to float32, as the slots store a box's corners (see SlotPool.box). */
const fround = Math.fround;

/** How a sync reads the game's boxes ({@link planScan}) and stores detached classes' ones ({@link storeCentres}). */
export class GameBoxes {
  private readonly tree: SpatialTree;

  constructor(tree: SpatialTree) {
    this.tree = tree;
  }

  /** Boxes {@link storeCentres} changed in its last call. */
  stored = 0;

  /** {@link planScan}'s ranges: class, first and end place, {@link STORE_CENTRES} or {@link MOVE_EACH}, count. */
  readonly scanPlan = new Int32Array(2 * MAX_CLASSES * SCAN_FIELDS);

  /** Plans a sync's read of the boxes by class: detached, unswept ones by {@link storeCentres}, others by `move`. */
  planScan(): number {
    const C = this.tree.classes;
    let n = 0;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (C.size[k] === 0 || (C.isStatic[k] === 1 && k !== MIXED)) continue;
      if (C.detached[k] === 0 || C.swept[k] === 1) n = this.planRange(n, k, 0, C.end[k], MOVE_EACH, 0);
      else if (!this.tree.budgeted || !C.waits(k)) n = this.planRange(n, k, 0, C.end[k], STORE_CENTRES, C.size[k]);
      else {
        const share = C.planTo[k] - C.cursor[k] + C.planWrap[k];
        n = this.planRange(n, k, C.cursor[k], C.planTo[k], STORE_CENTRES, share);
        n = this.planRange(n, k, 0, C.planWrap[k], STORE_CENTRES, 0);
      }
    }
    return n;
  }

  private planRange(n: number, k: number, from: number, to: number, how: number, counted: number): number {
    const o = SCAN_FIELDS * n;
    const plan = this.scanPlan;
    plan[o] = k;
    plan[o + 1] = from;
    plan[o + 2] = to;
    plan[o + 3] = how;
    plan[o + 4] = counted;
    return n + 1;
  }

  /** Class k's list: ids by place, -1 in holes (see CollisionClasses.ids). */
  listIds(k: number): Int32Array {
    return this.tree.classes.ids[k];
  }

  /** Class k's list end: places from here on are unused. */
  listEnd(k: number): number {
    return this.tree.classes.end[k];
  }

  /**
   * Stores detached class k's boxes at list places [from, to) from per-id centres and full sizes: `move` for a whole
   * class without a call per item. Returns the place of the first with no valid box (or an unsquare circle), else -1.
   */
  storeCentres(k: number, from: number, to: number, px: Numbers, py: Numbers, bw: Numbers, bh: Numbers): number {
    const C = this.tree.classes;
    const ids = C.ids[k];
    const box = this.tree.slots.box;
    const base = 4 * C.listStart[k];
    let changed = 0;
    const end = to < C.end[k] ? to : C.end[k];
    const round = C.round[k] > 0;
    let i = from;
    for (; i < end; i++) {
      const id = ids[i];
      if (id < 0) continue;
      const x = px[id],
        y = py[id],
        hw = bw[id] * 0.5,
        hh = bh[id] * 0.5;
      // The corners as the slot holds them (float32): past its range they are infinite.
      const minX = fround(x - hw),
        minY = fround(y - hh),
        maxX = fround(x + hw),
        maxY = fround(y + hh);
      if (!makesBox(hw, hh, minX, minY, maxX, maxY)) break;
      if (round && hw !== hh && this.tree.items.hasFlag(id, CIRCLE) && !isSquare(x - hw, y - hh, x + hw, y + hh)) break;
      const b = base + 4 * i;
      if (box[b] === minX && box[b + 1] === minY && box[b + 2] === maxX && box[b + 3] === maxY) continue;
      box[b] = minX;
      box[b + 1] = minY;
      box[b + 2] = maxX;
      box[b + 3] = maxY;
      changed++;
    }
    C.moved[k] += changed;
    this.stored = changed;
    return i < end ? i : -1;
  }
}
