import { A_CIRCLE, B_CIRCLE, inscribedRadius, pointInBox, sweptShapes } from '../geometry.js';
import { CIRCLE, EXACT, MAX_X, MAX_Y, MIN_X, MIN_Y, SWEPT } from '../store/ItemStore.js';
import { FROM, LAST_FROM } from '../store/SweptStore.js';
import { contactOf, depthAlong } from '../contacts.js';
import type { Contact } from '../options.js';
import type { SpatialTree } from '../placement/SpatialTree.js';

/** Writes an item's box (minX, minY, maxX, maxY) into `out` at `o`. */
export type BoxReader = (id: number, out: Float64Array, o: number) => void;

/** The exact pair test for box-overlapping candidates: circles as circles, swept items along their paths. */
export class ExactTest {
  private readonly tree: SpatialTree;
  private readonly touching: boolean;
  /** Both paths, then the time of impact and the normal at it (see sweptShapes). */
  readonly paths = new Float64Array(19);
  /** The two boxes of a contact as they are now, and as they were at the time of impact. */
  private readonly contactBoxes = new Float64Array(8);
  private readonly contactAt = new Float64Array(8);

  constructor(tree: SpatialTree, touching: boolean) {
    this.tree = tree;
    this.touching = touching;
  }

  /** The contact geometry of a and b (see LooseQuadtree.contact) into `out`; `boxNow` overrides the stored boxes. */
  contact<T extends Contact>(a: number, b: number, out: T, boxNow: BoxReader | null): T {
    const items = this.tree.items;
    const fa = items.flagsWord(a),
      fb = items.flagsWord(b);
    const shapes = shapesOf(fa, fb);
    const s = this.contactBoxes;
    if (boxNow === null) {
      this.tree.boxNow(a, s, 0);
      this.tree.boxNow(b, s, 4);
    } else {
      boxNow(a, s, 0);
      boxNow(b, s, 4);
    }
    if (((fa | fb) & SWEPT) === 0 || this.timeOfImpact(a, b) <= 0) return contactOf(s, shapes, out);
    // Met within the frame: the point where they first touched, the normal of the faces then.
    const p = this.paths;
    const t = p[16],
      nx = p[17],
      ny = p[18];
    const at = this.contactAt;
    for (let i = 0; i < 4; i++) {
      at[i] = p[i] + (p[4 + i] - p[i]) * t;
      at[4 + i] = p[8 + i] + (p[12 + i] - p[8 + i]) * t;
    }
    contactOf(at, shapes, out);
    out.nx = nx;
    out.ny = ny;
    out.depth = depthAlong(s, shapes, nx, ny);
    return out;
  }

  /** True when a and b meet: their shapes overlap, along the paths of the step being run for a swept one. */
  meets(a: number, b: number): boolean {
    const items = this.tree.items;
    const fa = items.flagsWord(a),
      fb = items.flagsWord(b);
    if (((fa | fb) & EXACT) === 0) return true;
    if (((fa | fb) & SWEPT) !== 0) {
      this.load(a, 0, FROM);
      this.load(b, 8, FROM);
      return sweptShapes(this.paths, shapesOf(fa, fb), this.touching);
    }
    // Both still, one at least a circle.
    const box = this.tree.slots.box;
    return roundOverlap(
      box,
      items.boxAt(a),
      (fa & CIRCLE) !== 0,
      box,
      items.boxAt(b),
      (fb & CIRCLE) !== 0,
      this.touching,
    );
  }

  /** First contact (0..1) along last step's paths, normal in `paths[17..18]`; 0 if neither swept, -1 if apart. */
  timeOfImpact(a: number, b: number): number {
    const items = this.tree.items;
    const fa = items.flagsWord(a),
      fb = items.flagsWord(b);
    if (((fa | fb) & SWEPT) === 0) return 0;
    this.load(a, 0, LAST_FROM);
    this.load(b, 8, LAST_FROM);
    return sweptShapes(this.paths, shapesOf(fa, fb), this.touching) ? this.paths[16] : -1;
  }

  /** Writes an item's start and end boxes at `to` (its box twice when it is not swept). */
  load(id: number, to: number, which: number): void {
    const p = this.paths;
    const sweeps = this.tree.sweeps;
    if (sweeps.has(id)) {
      const b = sweeps.boxes;
      const o = sweeps.at(id) + which;
      for (let i = 0; i < 8; i++) p[to + i] = b[o + i];
      return;
    }
    const f32 = this.tree.slots.box;
    const r = this.tree.items.boxAt(id);
    p[to] = p[to + 4] = f32[r | MIN_X];
    p[to + 1] = p[to + 5] = f32[r | MIN_Y];
    p[to + 2] = p[to + 6] = f32[r | MAX_X];
    p[to + 3] = p[to + 7] = f32[r | MAX_Y];
  }
}

/** Still items overlap, one a circle at least: inlined (a call boxes numbers); float32 boxes never under/overflow. */
export function roundOverlap(
  sa: Float32Array,
  i: number,
  ca: boolean,
  sb: Float32Array,
  j: number,
  cb: boolean,
  touching: boolean,
): boolean {
  if (!ca) return roundOverlap(sb, j, cb, sa, i, ca, touching);
  const x = sa[i] * 0.5 + sa[i + 2] * 0.5,
    y = sa[i + 1] * 0.5 + sa[i + 3] * 0.5,
    r = inscribedRadius(sa[i], sa[i + 1], sa[i + 2], sa[i + 3]);
  let dx: number, dy: number, reach: number;
  if (cb) {
    const bx = sb[j] * 0.5 + sb[j + 2] * 0.5,
      by = sb[j + 1] * 0.5 + sb[j + 3] * 0.5,
      br = inscribedRadius(sb[j], sb[j + 1], sb[j + 2], sb[j + 3]);
    dx = bx - x;
    dy = by - y;
    reach = r + br;
  } else {
    dx = x < sb[j] ? sb[j] - x : x > sb[j + 2] ? x - sb[j + 2] : 0;
    dy = y < sb[j + 1] ? sb[j + 1] - y : y > sb[j + 3] ? y - sb[j + 3] : 0;
    reach = r;
  }
  const d2 = dx * dx + dy * dy,
    r2 = reach * reach;
  // A circle of radius 0 is a point, in a box by the box's rule (two such points meet by the formula below).
  if (r2 === 0 && !cb) return pointInBox(x, y, sb[j], sb[j + 1], sb[j + 2], sb[j + 3], touching);
  return touching ? d2 <= r2 : d2 < r2;
}

export function shapesOf(fa: number, fb: number): number {
  return ((fa & CIRCLE) !== 0 ? A_CIRCLE : 0) | ((fb & CIRCLE) !== 0 ? B_CIRCLE : 0);
}
