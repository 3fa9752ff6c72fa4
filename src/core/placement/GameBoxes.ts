import { MAX_CLASSES, MIXED } from '../store/CollisionClasses.js';
import { IdList } from '../lists/IdList.js';
import { markOutside } from '../snapshot/StatePlan.js';
import { CIRCLE, DETACHED } from '../store/ItemStore.js';
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
/** A whole detached class whose boxes the step's join reads from the game's arrays . */
export const OWE = 2;

/** Rounds to float32, as the slots store a box's corners (see SlotPool.box). */
const fround = Math.fround;

/** A game's centres and full sizes by id (its Position and Bounds). */
export interface Centres {
  x: Numbers;
  y: Numbers;
  w: Numbers;
  h: Numbers;
}

/**
 * How a sync reads the game's boxes ({@link planScan}), and those it left in the game's arrays.
 * Instead of a pass storing a whole detached class's boxes ({@link storeCentres}), a sync may
 * {@link owe} them, and the step's join reads, stores and tests each in one pass (see
 * ProbeGrid.probeClass).
 *
 * Until then the owed slots hold the previous sync's boxes: any other reader settles them
 * first ({@link settle}, {@link settleAll}). A member whose numbers make no box keeps its old
 * one and is reported by {@link report} when it is safe to remove (never mid-step).
 */
export class GameBoxes {
  /** Where owed boxes are read from (see {@link use}). */
  readonly centres: Centres = { x: [], y: [], w: [], h: [] };
  /** Called with each member whose numbers made no box, at a point where it may be removed; null until {@link use}. */
  onBad: ((id: number) => void) | null = null;
  /** Bits of the classes whose boxes are owed. */
  owed = 0;
  /** Per owed class, the members counted as moved when it was owed (the join counts the real ones). */
  private readonly assumed = new Int32Array(MAX_CLASSES);
  /** Boxes the settles and joins changed since {@link takeChanged}. */
  private changed = 0;
  /** Members whose numbers made no box, waiting for {@link report}. */
  private readonly bad = new IdList();
  private readonly tree: SpatialTree;

  constructor(tree: SpatialTree) {
    this.tree = tree;
    // The game's arrays are held by reference: a snapshot must not copy its components.
    markOutside(this.centres);
  }

  /** Boxes {@link storeCentres} changed in its last call. */
  stored = 0;

  /** Ranges {@link planScan} wrote: class, first and end place, how read (e.g. {@link OWE}), items counted. */
  readonly scanPlan = new Int32Array(2 * MAX_CLASSES * SCAN_FIELDS);

  /**
   * Plans a sync's read of a game's boxes, in class order, so it needs only the lists' ids:
   * a detached class without swept items goes to {@link storeCentres} (just its share under a
   * budget) or is left owed to the join (see {@link howWhole}); any other class is moved item by
   * item up to {@link listEnd}. Static classes are skipped, except the mixed one. Returns the ranges.
   */
  planScan(): number {
    const C = this.tree.classes;
    let n = 0;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (C.size[k] === 0 || (C.isStatic[k] === 1 && k !== MIXED)) continue;
      if (C.detached[k] === 0 || C.swept[k] === 1) n = this.planRange(n, k, 0, C.end[k], MOVE_EACH, 0);
      else if (!this.tree.budgeted || !C.waits(k)) n = this.planRange(n, k, 0, C.end[k], this.howWhole(k), C.size[k]);
      else {
        const share = C.planTo[k] - C.planFrom[k] + C.planWrap[k];
        n = this.planRange(n, k, C.planFrom[k], C.planTo[k], STORE_CENTRES, share);
        n = this.planRange(n, k, 0, C.planWrap[k], STORE_CENTRES, 0);
      }
    }
    return n;
  }

  /** How a sync reads detached class k whole: owed to the join unless it self-pairs or has circles. */
  private howWhole(k: number): number {
    const C = this.tree.classes;
    const owes = this.onBad !== null && C.round[k] === 0 && C.allowed[k * MAX_CLASSES + k] === 0;
    return owes ? OWE : STORE_CENTRES;
  }

  /** Writes range n of {@link scanPlan}; returns n + 1. */
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
   * Gives detached class k's members at list places [from, to) boxes from per-id centres and
   * full sizes, in list order: `move` for a whole class without a call per item. Stops at the
   * first member (or unsquare circle) whose numbers make no valid box and returns its place;
   * -1 at `to`. Classes with swept items use `move` instead.
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

  /** Takes owed boxes from these arrays (passed each sync: a game may replace them); bad numbers go to `onBad`. */
  use(x: Numbers, y: Numbers, w: Numbers, h: Numbers, onBad: (id: number) => void): void {
    const c = this.centres;
    c.x = x;
    c.y = y;
    c.w = w;
    c.h = h;
    this.onBad = onBad;
  }

  /** Leaves detached class k's boxes in the game's arrays; all members count as moved so the step joins it. */
  owe(k: number): void {
    const C = this.tree.classes;
    this.owed |= 1 << k;
    this.assumed[k] = C.size[k];
    C.moved[k] += C.size[k];
  }

  /** Whether class k's boxes wait in the game's arrays (only a detached class's may). */
  isOwed(k: number): boolean {
    return ((this.owed >>> k) & 1) === 1 && this.tree.classes.detached[k] === 1;
  }

  /** Stores class k's owed boxes; the members with bad numbers wait for {@link report}. */
  settle(k: number): void {
    const c = this.centres;
    if (((this.owed >>> k) & 1) === 0) return;
    const tree = this.tree;
    // Emptied since it was owed (and maybe refilled in the tree, its boxes written as they came).
    if (tree.classes.detached[k] === 0) {
      this.close(k, 0, 0);
      return;
    }
    let changed = 0;
    for (let at = this.storeCentres(k, 0, Infinity, c.x, c.y, c.w, c.h); ;) {
      changed += this.stored;
      if (at < 0) break;
      this.bad.push(tree.classes.ids[k][at]);
      at = this.storeCentres(k, at + 1, Infinity, c.x, c.y, c.w, c.h);
    }
    // storeCentres counted the changed ones as moved already.
    this.close(k, 0, changed);
  }

  /** Ends class k's debt after a join made its boxes, `changed` of them new. */
  paid(k: number, changed: number): void {
    this.close(k, changed, changed);
  }

  /** Ends class k's debt: its moved count takes `moved` in place of the assumed one; `changed` boxes were new. */
  private close(k: number, moved: number, changed: number): void {
    const count = this.tree.classes.moved;
    count[k] = Math.max(0, count[k] + moved - this.assumed[k]);
    this.assumed[k] = 0;
    this.changed += changed;
    this.owed &= ~(1 << k);
  }

  /** Records a member whose numbers made no box (in a join); it keeps its last box. */
  badMember(id: number): void {
    this.bad.push(id);
  }

  /** Settles every owed class, then reports the bad members: outside a step only. */
  settleAll(): void {
    if (this.owed !== 0) for (let k = 0; k < MAX_CLASSES; k++) this.settle(k);
    this.report();
  }

  /** Hands the members whose numbers made no box to {@link onBad} (which may remove them). */
  report(): void {
    const bad = this.bad;
    if (bad.count === 0) return;
    for (let i = 0; i < bad.count; i++) {
      const id = bad.data[i];
      // Removed since (by the game, or reported twice): nothing to report.
      if (this.tree.items.nodeOf(id) >= DETACHED) this.onBad?.(id);
    }
    bad.clear();
  }

  /** Boxes changed by settles and joins since the last call. */
  takeChanged(): number {
    const n = this.changed;
    this.changed = 0;
    return n;
  }
}
