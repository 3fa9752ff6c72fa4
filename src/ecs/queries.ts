import type { Contact, RayHit, SweepHit } from '../core/index.js';
import { badArrays } from '../core/internal.js';
import { validBox } from './check.js';
import { stateOf, type QuadtreeState } from './state.js';

/*
 * Spatial queries on a world. They see the tree as of the last sync: entities moved since
 * are found where they were. Results are entity ids written into caller-owned arrays (their
 * length is set to the count); `mask` keeps only entities whose Collider layer has one of
 * its bits. Overlap follows the world's `touching` option, as pairs do. An output argument
 * left out (or of the wrong kind) is refused naming the function (by the core).
 */

/** Entities whose box overlaps the rectangle. Returns the count. */
export function queryRect(
  world: object,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  out: number[],
  mask = -1,
): number {
  return stateOf(world).tree.queryRect(minX, minY, maxX, maxY, out, mask);
}

/** Entities whose shape overlaps the circle (an area attack; radius 0 is a point, as in `queryPoint`). Returns the count. */
export function queryCircle(world: object, x: number, y: number, radius: number, out: number[], mask = -1): number {
  return stateOf(world).tree.queryCircle(x, y, radius, out, mask);
}

/** Entities whose box contains the point. Returns the count. */
export function queryPoint(world: object, x: number, y: number, out: number[], mask = -1): number {
  return stateOf(world).tree.queryPoint(x, y, out, mask);
}

/**
 * The first entity a ray from (ox, oy) along (dx, dy) hits within `maxDistance` (the
 * direction need not be unit length; ties go to the lower id). Writes the entity and the
 * distance into `hit` (`id` -1 and `distance` Infinity when nothing is hit).
 */
export function raycast(
  world: object,
  ox: number,
  oy: number,
  dx: number,
  dy: number,
  maxDistance: number,
  hit: RayHit,
  mask = -1,
): boolean {
  return stateOf(world).tree.raycast(ox, oy, dx, dy, maxDistance, hit, mask);
}

/** Every entity a ray hits within `maxDistance`, nearest first, with their distances. Returns the count. */
export function raycastAll(
  world: object,
  ox: number,
  oy: number,
  dx: number,
  dy: number,
  maxDistance: number,
  outIds: number[],
  outDistances: number[],
  mask = -1,
): number {
  return stateOf(world).tree.raycastAll(ox, oy, dx, dy, maxDistance, outIds, outDistances, mask);
}

/**
 * The `k` entities nearest to a point (by distance to their shapes, 0 inside), closer than
 * `maxDistance` (0 is the point itself, as in `queryPoint`), nearest first. Distances go to
 * `outDistances` if given. Returns the count.
 */
export function queryNearest(
  world: object,
  x: number,
  y: number,
  k: number,
  maxDistance: number,
  outIds: number[],
  outDistances: number[] | null = null,
  mask = -1,
): number {
  // Checked here too: the core would name its own method, `nearest`.
  if (!Array.isArray(outIds) || (outDistances !== null && !Array.isArray(outDistances)))
    badArrays('queryNearest', outIds, outDistances, 'an array or null');
  return stateOf(world).tree.nearest(x, y, k, maxDistance, outIds, outDistances, mask);
}

/**
 * Moves a box (`minX, minY, maxX, maxY`) by (dx, dy) through the tree without changing
 * anything: the first entity it meets, by time of impact (0..1 of the move, 0 when it starts
 * overlapping), ties by the lower id, into `hit` (`id` -1 when none). For a body the game
 * moves itself: move it by `toi` of the way and stop. Returns whether anything was met.
 */
export function sweepBox(
  world: object,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  dx: number,
  dy: number,
  hit: SweepHit,
  mask = -1,
): boolean {
  return stateOf(world).tree.sweepBox(minX, minY, maxX, maxY, dx, dy, hit, mask);
}

/**
 * When in the last collision step's frame two entities of a current pair first touched (0 at
 * its start, 1 at its end): along the path of a `Swept` one, 0 when neither is swept or
 * they overlapped from the start, -1 for two entities that are not a pair after the last
 * step. For handlers, which get no toi argument: a call the dispatch budget deferred to a
 * later frame reads that frame's.
 */
export function timeOfImpact(world: object, a: number, b: number): number {
  return stateOf(world).tree.timeOfImpact(a, b);
}

/**
 * The contact geometry of a current pair into `out` (and returns it), the entities where their
 * Position and Bounds put them now (a push an earlier handler made is seen): the unit normal from `a`
 * to `b`, the depth (how far `a` must move against the normal to end the overlap; 0 when they
 * only touch) and a contact point, for boxes and {@link Circle}s alike; for a pair with a
 * `Swept` entity that met within the frame, the normal of the faces that first touched (see
 * the core's `contact`). To bounce `a` off `b`, reflect its velocity when it moves towards `b`
 * (`v · n > 0`): `v -= 2 (v · n) n`; to push it out, move it by `-n * depth`. Allocates nothing.
 * @throws naming both entities if they are not a pair after the last collision step
 */
export function contact<T extends Contact>(world: object, a: number, b: number, out: T): T {
  return contactIn(stateOf(world), a, b, out);
}

/** {@link contact} for a caller that holds the world's state already. */
export function contactIn<T extends Contact>(s: QuadtreeState, a: number, b: number, out: T): T {
  return s.tree.contactOf(a, b, out, 'entity', (s.boxNow ??= boxNowOf(s)));
}

/**
 * Where contact reads an entity's box: from its Position and Bounds, so that one a step budget
 * left waiting (whose box in the tree is as of its last check) is seen where it is now, as the
 * sync would store it; a swept entity's, or one whose components make no box, from the tree.
 */
function boxNowOf(s: QuadtreeState): (eid: number, out: Float64Array, o: number) => void {
  const f = Math.fround;
  return (eid, out, o) => {
    const x = s.position.x[eid],
      y = s.position.y[eid],
      w = s.bounds.width[eid],
      h = s.bounds.height[eid];
    const hw = w * 0.5,
      hh = h * 0.5;
    if (s.entities.swept[eid] === 1 || !validBox(x, y, w, h)) {
      s.tree.tree.boxNow(eid, out, o);
      return;
    }
    out[o] = f(x - hw);
    out[o + 1] = f(y - hh);
    out[o + 2] = f(x + hw);
    out[o + 3] = f(y + hh);
  };
}
