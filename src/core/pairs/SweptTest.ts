import { sweptContact } from '../geometry.js';
import { FLAGS, MAX_X, MAX_Y, MIN_X, MIN_Y, SWEPT } from '../store/ItemStore.js';
import { FROM, LAST_FROM } from '../store/SweptStore.js';
import type { SpatialTree } from '../placement/SpatialTree.js';

/**
 * The exact pair test for pairs with a swept item (see SweptStore): the pair finders find
 * candidates by the boxes covering each path, then ask here whether the moving boxes met.
 * An item that is not swept stands still at its box.
 */
export class SweptTest {
  private readonly tree: SpatialTree;
  private readonly touching: boolean;
  /** Both paths, then the time of impact (see sweptContact). */
  private readonly paths = new Float64Array(17);

  constructor(tree: SpatialTree, touching: boolean) {
    this.tree = tree;
    this.touching = touching;
  }

  /** True when a and b meet along the paths of the step being run (true when neither is swept). */
  meets(a: number, b: number): boolean {
    const i32 = this.tree.items.i32;
    if (((i32[(a << 4) | FLAGS] | i32[(b << 4) | FLAGS]) & SWEPT) === 0) return true;
    this.load(a, 0, FROM);
    this.load(b, 8, FROM);
    return sweptContact(this.paths, this.touching);
  }

  /**
   * First contact of a and b (0..1) along the paths the last step tested: 0 when neither is
   * swept (their boxes only meet at the step), -1 when they did not meet.
   */
  timeOfImpact(a: number, b: number): number {
    const i32 = this.tree.items.i32;
    if (((i32[(a << 4) | FLAGS] | i32[(b << 4) | FLAGS]) & SWEPT) === 0) return 0;
    this.load(a, 0, LAST_FROM);
    this.load(b, 8, LAST_FROM);
    return sweptContact(this.paths, this.touching) ? this.paths[16] : -1;
  }

  /** Writes an item's start and end boxes at `to` (its record box twice when it is not swept). */
  private load(id: number, to: number, which: number): void {
    const p = this.paths;
    const sweeps = this.tree.sweeps;
    if (sweeps.has(id)) {
      const b = sweeps.boxes;
      const o = sweeps.at(id) + which;
      for (let i = 0; i < 8; i++) p[to + i] = b[o + i];
      return;
    }
    const f64 = this.tree.items.f64;
    const r = id << 3;
    p[to] = p[to + 4] = f64[r | MIN_X];
    p[to + 1] = p[to + 5] = f64[r | MIN_Y];
    p[to + 2] = p[to + 6] = f64[r | MAX_X];
    p[to + 3] = p[to + 7] = f64[r | MAX_Y];
  }
}
