/**
 * The overlap rules, in one place so queries and pair finding agree. `touching` selects
 * closed boxes (edges count); otherwise boxes are open and only interiors collide.
 */

/**
 * True when the boxes overlap under the rule. The pair finders' inner loops (`pairs/`) write
 * this test out in place: a call with eight loose numbers that the engine declines to inline
 * (its inlining budget runs out in big loops) boxes every number, per candidate.
 */
export function boxesOverlap(
  aMinX: number, aMinY: number, aMaxX: number, aMaxY: number,
  bMinX: number, bMinY: number, bMaxX: number, bMaxY: number,
  touching: boolean,
): boolean {
  return touching
    ? aMinX <= bMaxX && bMinX <= aMaxX && aMinY <= bMaxY && bMinY <= aMaxY
    : aMinX < bMaxX && bMinX < aMaxX && aMinY < bMaxY && bMinY < aMaxY;
}

/** Squared distance from a point to a box (0 inside or on the edge). */
export function pointBoxDistanceSq(x: number, y: number, minX: number, minY: number, maxX: number, maxY: number): number {
  const dx = x < minX ? minX - x : x > maxX ? x - maxX : 0;
  const dy = y < minY ? minY - y : y > maxY ? y - maxY : 0;
  return dx * dx + dy * dy;
}

/**
 * Power of two that brings coordinates up to 2^1024 down to about 2^424, so squared
 * distances cannot overflow. Scaling by a power of two is exact (bar values under 2^-422,
 * which cannot matter next to the distances that need it).
 */
const DOWN = 2 ** -600;

/**
 * Distance from a point to a box (0 inside or on the edge). Exact where squaring does not
 * overflow, and finite for any finite input: past about 1e154 it works on scaled values.
 */
export function pointBoxDistance(x: number, y: number, minX: number, minY: number, maxX: number, maxY: number): number {
  const d2 = pointBoxDistanceSq(x, y, minX, minY, maxX, maxY);
  if (d2 < Infinity) return Math.sqrt(d2);
  return Math.sqrt(pointBoxDistanceSq(x * DOWN, y * DOWN, minX * DOWN, minY * DOWN, maxX * DOWN, maxY * DOWN)) / DOWN;
}

/**
 * True when a circle and a box overlap. Strict: the box's open interior must come closer
 * than r to the centre (a zero-size box strictly inside the circle counts, as with boxes).
 * Compares squares; when both the squared distance and r² overflow, compares scaled values.
 */
export function circleBoxOverlap(x: number, y: number, r: number, minX: number, minY: number, maxX: number, maxY: number, touching: boolean): boolean {
  const d2 = pointBoxDistanceSq(x, y, minX, minY, maxX, maxY);
  const r2 = r * r;
  // Only one of them infinite still compares right: the other side is below ~1.3e154.
  if (d2 === Infinity && r2 === Infinity) return farCircleBoxOverlap(x, y, r, minX, minY, maxX, maxY, touching);
  return touching ? d2 <= r2 : d2 < r2;
}

/** {@link circleBoxOverlap} on scaled values, apart so the common case stays small enough to inline. */
function farCircleBoxOverlap(x: number, y: number, r: number, minX: number, minY: number, maxX: number, maxY: number, touching: boolean): boolean {
  const d2 = pointBoxDistanceSq(x * DOWN, y * DOWN, minX * DOWN, minY * DOWN, maxX * DOWN, maxY * DOWN);
  const r2 = (r * DOWN) * (r * DOWN);
  return touching ? d2 <= r2 : d2 < r2;
}

/**
 * Coordinates beyond this magnitude may overflow a squared distance (squares pass 2^1024
 * from about 1.3e154 on): queries that can meet them take overflow-safe distances.
 */
export const FAR = 2 ** 500;

/** True when the point lies in the box (open box unless `touching`). */
export function pointInBox(x: number, y: number, minX: number, minY: number, maxX: number, maxY: number, touching: boolean): boolean {
  return touching
    ? minX <= x && x <= maxX && minY <= y && y <= maxY
    : minX < x && x < maxX && minY < y && y < maxY;
}

/**
 * Distance along a ray (unit direction `dx,dy`) to where it enters the box, or -1 if the
 * segment `[0, maxDistance]` misses it. Strict rule: the segment must pass through the
 * open interior, so grazing an edge is a miss; with `touching` the box is closed.
 * Starting inside gives 0.
 */
export function rayBoxDistance(
  ox: number, oy: number, dx: number, dy: number, maxDistance: number,
  minX: number, minY: number, maxX: number, maxY: number, touching: boolean,
): number {
  let enter = -Infinity;
  let exit = Infinity;
  if (dx === 0) {
    if (touching ? ox < minX || ox > maxX : ox <= minX || ox >= maxX) return -1;
  } else {
    const t1 = (minX - ox) / dx;
    const t2 = (maxX - ox) / dx;
    enter = t1 < t2 ? t1 : t2;
    exit = t1 < t2 ? t2 : t1;
  }
  if (dy === 0) {
    if (touching ? oy < minY || oy > maxY : oy <= minY || oy >= maxY) return -1;
  } else {
    const t1 = (minY - oy) / dy;
    const t2 = (maxY - oy) / dy;
    const e = t1 < t2 ? t1 : t2;
    const x = t1 < t2 ? t2 : t1;
    if (e > enter) enter = e;
    if (x < exit) exit = x;
  }
  if (touching) {
    if (enter > exit || enter > maxDistance || exit < 0) return -1;
  } else if (!(enter < exit) || !(enter < maxDistance) || !(exit > 0)) {
    return -1;
  }
  return enter > 0 ? enter : 0;
}

/**
 * The swept-box test: boxes A and B each move (corners linearly) from a start box to an end
 * box over the frame, t in [0, 1]; they meet when, at some t, they overlap under the rule.
 * `s` holds A's start and end boxes, then B's (16 numbers, each box minX, minY, maxX, maxY).
 * Returns whether they meet, and writes the first time of contact into `s[16]` (0 when they
 * overlap at the start). Slab method on the relative motion: each of the four separating
 * conditions is linear in t, so the times of overlap are one interval. Boxes that do not move
 * reduce to {@link boxesOverlap} exactly. Works on an array (not loose numbers) so that a call
 * the engine does not inline allocates nothing.
 */
export function sweptContact(s: Float64Array, touching: boolean): boolean {
  let lo = 0;
  let hi = 1;
  // A.min < B.max and B.min < A.max on each axis: g(t) = c + k t < 0 (<= 0 when touching).
  for (let axis = 0; axis < 2; axis++) {
    for (let side = 0; side < 2; side++) {
      // side 0: A.min - B.max; side 1: B.min - A.max.
      const lowOf = side === 0 ? 0 : 8;
      const highOf = side === 0 ? 8 : 0;
      const c = s[lowOf + axis] - s[highOf + 2 + axis];
      const e = s[lowOf + 4 + axis] - s[highOf + 6 + axis];
      const k = e - c;
      if (k === 0) {
        if (touching ? c > 0 : c >= 0) return false;
        continue;
      }
      const root = -c / k;
      if (k > 0) {
        if (root < hi) hi = root;
      } else if (root > lo) {
        lo = root;
      }
    }
  }
  if (touching ? !(lo <= hi) : !(lo < hi)) return false;
  s[16] = lo;
  return true;
}
