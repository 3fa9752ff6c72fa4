import { MAX_CLASSES } from '../store/CollisionClasses.js';
import { IdList } from '../lists/IdList.js';
import { DETACHED } from '../store/ItemStore.js';
import { markOutside } from '../snapshot/StatePlan.js';
import type { Numbers, SpatialTree } from './SpatialTree.js';

/** A game's centres and full sizes by id (its Position and Bounds). */
export interface Centres {
  x: Numbers;
  y: Numbers;
  w: Numbers;
  h: Numbers;
}

/**
 * Boxes of whole detached classes that a sync left in the game's arrays: instead of a pass
 * storing them ({@link SpatialTree.storeCentres}), a sync may {@link owe} them, and the step's
 * join reads, stores and tests each in one pass (see ProbeGrid.joinOwed).
 *
 * Until then the owed slots hold the previous sync's boxes: any other reader settles them
 * first ({@link settle}, {@link settleAll}). A member whose numbers make no box keeps its old
 * one and is reported by {@link report} when it is safe to remove (never mid-step).
 */
export class OwedBoxes {
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
    for (let at = tree.storeCentres(k, 0, Infinity, c.x, c.y, c.w, c.h); ;) {
      changed += tree.stored;
      if (at < 0) break;
      this.bad.push(tree.classes.ids[k][at]);
      at = tree.storeCentres(k, at + 1, Infinity, c.x, c.y, c.w, c.h);
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
