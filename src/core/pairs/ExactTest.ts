import { A_CIRCLE, B_CIRCLE, circleBoxOverlap, circlesOverlap, sweptShapes } from '../geometry.js';
import { CIRCLE, EXACT, FLAGS, MAX_X, MAX_Y, MIN_X, MIN_Y, SWEPT } from '../store/ItemStore.js';
import { FROM, LAST_FROM } from '../store/SweptStore.js';
import type { SpatialTree } from '../placement/SpatialTree.js';

/**
 * The exact pair test for candidates whose boxes overlap but that need more than that: a
 * circle (see ItemStore.CIRCLE) is tested as the circle inscribed in its box, and a swept
 * item (see SweptStore) along its path. The pair finders find candidates by boxes (a swept
 * item's covers its path), then ask here. An item that is not swept stands still at its box.
 */
export class ExactTest {
  private readonly tree: SpatialTree;
  private readonly touching: boolean;
  /** Both paths, then the time of impact and the normal at it (see sweptShapes). */
  readonly paths = new Float64Array(19);

  constructor(tree: SpatialTree, touching: boolean) {
    this.tree = tree;
    this.touching = touching;
  }

  /** True when a and b meet: their shapes overlap, along the paths of the step being run for a swept one. */
  meets(a: number, b: number): boolean {
    const i32 = this.tree.items.i32;
    const fa = i32[(a << 4) | FLAGS], fb = i32[(b << 4) | FLAGS];
    if (((fa | fb) & EXACT) === 0) return true;
    if (((fa | fb) & SWEPT) !== 0) {
      this.load(a, 0, FROM);
      this.load(b, 8, FROM);
      return sweptShapes(this.paths, shapesOf(fa, fb), this.touching);
    }
    return this.shapesOverlap(a, fa, b, fb);
  }

  /**
   * First contact of a and b (0..1) along the paths the last step tested, the normal then in
   * `paths[17]`, `paths[18]`: 0 when neither is swept (they only meet at the step), -1 when
   * they did not meet.
   */
  timeOfImpact(a: number, b: number): number {
    const i32 = this.tree.items.i32;
    const fa = i32[(a << 4) | FLAGS], fb = i32[(b << 4) | FLAGS];
    if (((fa | fb) & SWEPT) === 0) return 0;
    this.load(a, 0, LAST_FROM);
    this.load(b, 8, LAST_FROM);
    return sweptShapes(this.paths, shapesOf(fa, fb), this.touching) ? this.paths[16] : -1;
  }

  /** Two items that stand still, one of them at least a circle. */
  private shapesOverlap(a: number, fa: number, b: number, fb: number): boolean {
    const f64 = this.tree.items.f64;
    const ra = a << 3, rb = b << 3;
    if ((fa & CIRCLE) !== 0 && (fb & CIRCLE) !== 0) {
      return circlesOverlap(
        f64[ra | MIN_X] * 0.5 + f64[ra | MAX_X] * 0.5, f64[ra | MIN_Y] * 0.5 + f64[ra | MAX_Y] * 0.5, f64[ra | MAX_X] * 0.5 - f64[ra | MIN_X] * 0.5,
        f64[rb | MIN_X] * 0.5 + f64[rb | MAX_X] * 0.5, f64[rb | MIN_Y] * 0.5 + f64[rb | MAX_Y] * 0.5, f64[rb | MAX_X] * 0.5 - f64[rb | MIN_X] * 0.5,
        this.touching);
    }
    const c = (fa & CIRCLE) !== 0 ? ra : rb;
    const box = c === ra ? rb : ra;
    return circleBoxOverlap(
      f64[c | MIN_X] * 0.5 + f64[c | MAX_X] * 0.5, f64[c | MIN_Y] * 0.5 + f64[c | MAX_Y] * 0.5, f64[c | MAX_X] * 0.5 - f64[c | MIN_X] * 0.5,
      f64[box | MIN_X], f64[box | MIN_Y], f64[box | MAX_X], f64[box | MAX_Y], this.touching);
  }

  /** Writes an item's start and end boxes at `to` (its record box twice when it is not swept). */
  load(id: number, to: number, which: number): void {
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

/** The shape bits of a pair for sweptShapes, from the two items' flags. */
export function shapesOf(fa: number, fb: number): number {
  return ((fa & CIRCLE) !== 0 ? A_CIRCLE : 0) | ((fb & CIRCLE) !== 0 ? B_CIRCLE : 0);
}
