/**
 * The overlap rules, in one place so queries and pair finding agree: open boxes, or closed with `touching`. Numbers
 * are float32 values (stored corners) or 0 or 2^-126 to 3.4e38 in magnitude (queries count smaller ones as 0): a gap
 * or radius is then 0 or at least 2^-178, so no square overflows or loses its digits.
 */

/** True when the boxes overlap. `&`, not `&&`: pair candidates fail at random, so branches would mispredict. */
export function boxesOverlap(
  aMinX: number,
  aMinY: number,
  aMaxX: number,
  aMaxY: number,
  bMinX: number,
  bMinY: number,
  bMaxX: number,
  bMaxY: number,
  touching: boolean,
): boolean {
  return touching
    ? (+(aMinX <= bMaxX) & +(bMinX <= aMaxX) & +(aMinY <= bMaxY) & +(bMinY <= aMaxY)) !== 0
    : (+(aMinX < bMaxX) & +(bMinX < aMaxX) & +(aMinY < bMaxY) & +(bMinY < aMaxY)) !== 0;
}

/** Squared distance from a point to a box (0 inside or on the edge). */
export function pointBoxDistanceSq(
  x: number,
  y: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
): number {
  const dx = x < minX ? minX - x : x > maxX ? x - maxX : 0;
  const dy = y < minY ? minY - y : y > maxY ? y - maxY : 0;
  return dx * dx + dy * dy;
}

/** Distance from a point to a box (0 inside or on the edge). */
export function pointBoxDistance(x: number, y: number, minX: number, minY: number, maxX: number, maxY: number): number {
  return Math.sqrt(pointBoxDistanceSq(x, y, minX, minY, maxX, maxY));
}

/**
 * True when a circle and a box overlap; a circle of radius 0 is a point, in the box's interior (on it, `touching`).
 * Numbers nearer 0 than 2^-126 must be float32 values or 0, as queries and stored boxes are (see the module's note).
 */
export function circleBoxOverlap(
  x: number,
  y: number,
  r: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  touching: boolean,
): boolean {
  if (r === 0) return pointInBox(x, y, minX, minY, maxX, maxY, touching);
  const d2 = pointBoxDistanceSq(x, y, minX, minY, maxX, maxY);
  return touching ? d2 <= r * r : d2 < r * r;
}

/** True when the point lies in the box (open box unless `touching`). */
export function pointInBox(
  x: number,
  y: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  touching: boolean,
): boolean {
  return touching ? minX <= x && x <= maxX && minY <= y && y <= maxY : minX < x && x < maxX && minY < y && y < maxY;
}

/** Distance along a ray (unit `dx,dy`) into the open box (closed with `touching`) up to `maxDistance`, or -1. */
export function rayBoxDistance(
  ox: number,
  oy: number,
  dx: number,
  dy: number,
  maxDistance: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  touching: boolean,
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
 * The swept-box test: boxes A and B move linearly from start to end box over t in [0, 1]; `s` holds A's start and
 * end boxes, then B's. Returns whether they meet, writing the first contact time to `s[16]` and the normal from A to
 * B to `s[17]`, `s[18]` (0 and 0, 0 when overlapping at the start). Slab method: overlap is one interval in t.
 */
export function sweptContact(s: Float64Array, touching: boolean): boolean {
  let lo = 0;
  let hi = 1;
  // Which condition set `lo`: axis * 2 + side, or -1.
  let face = -1;
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
        face = axis * 2 + side;
      }
    }
  }
  if (touching ? !(lo <= hi) : !(lo < hi)) return false;
  s[16] = lo;
  // Side 0: A's low side met B's high side, so B lies on A's low side.
  const toward = face < 0 ? 0 : (face & 1) === 0 ? -1 : 1;
  s[17] = face >> 1 === 0 ? toward : 0;
  s[18] = face >> 1 === 1 ? toward : 0;
  return true;
}

// A circle item is the one inscribed in its box; interiors must meet (a zero circle is a point) unless `touching`.

/**
 * The radius of the circle inscribed in a box square to within rounding: its smaller half-side, so that the circle
 * never leaves the box, where pair finders and queries look for it.
 */
export function inscribedRadius(minX: number, minY: number, maxX: number, maxY: number): number {
  const rx = maxX * 0.5 - minX * 0.5,
    ry = maxY * 0.5 - minY * 0.5;
  return rx < ry ? rx : ry;
}

/** True when two circles overlap (centre distance below the radii's sum; at most, with `touching`); numbers as above. */
export function circlesOverlap(
  x1: number,
  y1: number,
  r1: number,
  x2: number,
  y2: number,
  r2: number,
  touching: boolean,
): boolean {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const d2 = dx * dx + dy * dy;
  const r = r1 + r2;
  const rr = r * r;
  return touching ? d2 <= rr : d2 < rr;
}

/** True when the point lies in the circle (open unless `touching`). */
export function pointInCircle(px: number, py: number, x: number, y: number, r: number, touching: boolean): boolean {
  return circlesOverlap(px, py, 0, x, y, r, touching);
}

/** Distance from a point to a circle (0 inside or on it). */
export function pointCircleDistance(px: number, py: number, x: number, y: number, r: number): number {
  const d = Math.hypot(x - px, y - py) - r;
  return d > 0 ? d : 0;
}

/** Distance along a ray (unit `dx,dy`) into the open disk (closed with `touching`) up to `maxDistance`, or -1. */
export function rayCircleDistance(
  ox: number,
  oy: number,
  dx: number,
  dy: number,
  maxDistance: number,
  x: number,
  y: number,
  r: number,
  touching: boolean,
): number {
  // t^2 + 2bt + c = 0; the discriminant is r^2 less the centre's squared distance to the line (b^2 - c cancels).
  const mx = ox - x;
  const my = oy - y;
  const b = mx * dx + my * dy;
  const c = mx * mx + my * my - r * r;
  const px = mx - b * dx,
    py = my - b * dy;
  const disc = r * r - (px * px + py * py);
  if (touching ? disc < 0 : disc <= 0) return -1;
  const root = Math.sqrt(disc);
  // The nearer root without cancellation: -b - root when b > 0, else c / (-b + root).
  const enter = b > 0 ? -b - root : c / (-b + root);
  const exit = b > 0 ? c / (-b - root) : -b + root;
  if (touching) {
    if (enter > maxDistance || exit < 0) return -1;
  } else if (!(enter < maxDistance) || !(exit > 0)) {
    return -1;
  }
  return enter > 0 ? enter : 0;
}

/** Shape bit for the swept and contact tests: the first of the two is a circle. */
export const A_CIRCLE = 1;
/** Shape bit for the swept and contact tests: the second of the two is a circle. */
export const B_CIRCLE = 2;

/**
 * The earliest t in [lo, hi] where `a t² + b t + c` is below 0 (at most 0 with `touching`), or -1. Without
 * `fromStart`, `lo` is known not to count and is not evaluated (a gap touching 0 at a cut evaluates a hair below).
 */
function firstBelowZero(
  a: number,
  b: number,
  c: number,
  lo: number,
  hi: number,
  touching: boolean,
  fromStart: boolean,
): number {
  const at = (t: number) => (a * t + b) * t + c;
  if (fromStart) {
    const start = at(lo);
    if (touching ? start <= 0 : start < 0) return lo;
  }
  if (a === 0) {
    if (!(b < 0)) return -1;
    const t = -c / b;
    return (touching ? t <= hi : t < hi) && t >= lo ? t : -1;
  }
  const disc = b * b - 4 * a * c;
  if (disc < 0 || (disc === 0 && !touching && a > 0)) return -1;
  const root = Math.sqrt(disc);
  const q = -0.5 * (b + (b < 0 ? -root : root));
  let r1 = q / a;
  let r2 = q === 0 ? r1 : c / q;
  if (r1 > r2) {
    const s = r1;
    r1 = r2;
    r2 = s;
  }
  // a > 0: below zero between the roots; a < 0: outside them (so after r2, as at(lo) >= 0).
  const t = a > 0 ? r1 : r2;
  if (t < lo) return a > 0 && r2 > lo ? lo : -1;
  return (touching ? t <= hi : t < hi) ? t : -1;
}

/**
 * {@link sweptContact} for any two shapes: either may be a circle (`shapes`: A_CIRCLE, B_CIRCLE) inscribed in its box
 * at each t. Corners up to twice float32's range (a sweep's end box) square without overflow.
 */
export function sweptShapes(s: Float64Array, shapes: number, touching: boolean): boolean {
  if (shapes === 0) return sweptContact(s, touching);
  let w = s;
  for (let o = 0; o < 16; o += 8) {
    if ((shapes & (o === 0 ? A_CIRCLE : B_CIRCLE)) === 0 || s[o] !== s[o + 2] || s[o + 4] !== s[o + 6]) continue;
    if (w === s) w = pathsCopy(s);
    toCentre(w, o);
    toCentre(w, o + 4);
    shapes &= o === 0 ? ~A_CIRCLE : ~B_CIRCLE;
  }
  const met =
    shapes === 0
      ? sweptContact(w, touching)
      : shapes === (A_CIRCLE | B_CIRCLE)
        ? sweptCircles(w, touching)
        : shapes === B_CIRCLE
          ? sweptBoxCircle(w, 0, 8, touching, 1)
          : sweptBoxCircle(w, 8, 0, touching, -1);
  if (met && w !== s) for (let i = 16; i < 19; i++) s[i] = w[i];
  return met;
}

/** Scratch for the paths sweptShapes changes, so the caller's stay as they were. */
const WORK_PATHS = new Float64Array(19);

function pathsCopy(s: Float64Array): Float64Array {
  for (let i = 0; i < 16; i++) WORK_PATHS[i] = s[i];
  return WORK_PATHS;
}

/** Shrinks the box at `s[o..o+3]` to its centre: a circle of radius 0 is that point. */
function toCentre(s: Float64Array, o: number): void {
  const x = s[o] * 0.5 + s[o + 2] * 0.5,
    y = s[o + 1] * 0.5 + s[o + 3] * 0.5;
  s[o] = s[o + 2] = x;
  s[o + 1] = s[o + 3] = y;
}

/** The gaps a quadratic of sweptBoxCircle is built from. */
const TERMS = new Float64Array(4);

/** Centre coordinate of the circle in box `s[o..o+3]`, on axis 0 (x) or 1 (y). */
export function centreOf(s: Float64Array, o: number, axis: number): number {
  return s[o + axis] * 0.5 + s[o + 2 + axis] * 0.5;
}

/** Radius of the circle in box `s[o..o+3]`. */
export function radiusOf(s: Float64Array, o: number): number {
  return inscribedRadius(s[o], s[o + 1], s[o + 2], s[o + 3]);
}

/** Two moving circles: |cB - cA|² - (rA + rB)², a quadratic in t. */
function sweptCircles(s: Float64Array, touching: boolean): boolean {
  const px = centreOf(s, 8, 0) - centreOf(s, 0, 0),
    py = centreOf(s, 8, 1) - centreOf(s, 0, 1);
  const vx = centreOf(s, 12, 0) - centreOf(s, 4, 0) - px,
    vy = centreOf(s, 12, 1) - centreOf(s, 4, 1) - py;
  const r0 = radiusOf(s, 0) + radiusOf(s, 8),
    k = radiusOf(s, 4) + radiusOf(s, 12) - r0;
  const a = vx * vx + vy * vy - k * k,
    b = 2 * (px * vx + py * vy - r0 * k),
    c = px * px + py * py - r0 * r0;
  const t = firstBelowZero(a, b, c, 0, 1, touching, true);
  if (t < 0) return false;
  return met(s, t, px + vx * t, py + vy * t, 1);
}

/** Box and circle: the gap is linear between side crossings, a quadratic per piece; `sign` 1 when A is the box. */
function sweptBoxCircle(s: Float64Array, box: number, circle: number, touching: boolean, sign: number): boolean {
  // Breakpoints: where the centre crosses a side, on either axis.
  const cuts = CUTS;
  let n = 0;
  cuts[n++] = 0;
  for (let axis = 0; axis < 2; axis++) {
    const c0 = centreOf(s, circle, axis),
      c1 = centreOf(s, circle + 4, axis);
    for (let side = 0; side < 2; side++) {
      const e0 = s[box + 2 * side + axis],
        e1 = s[box + 4 + 2 * side + axis];
      const g0 = c0 - e0,
        g1 = c1 - e1;
      if (g0 < 0 !== g1 < 0 && g0 !== g1) {
        const t = g0 / (g0 - g1);
        if (t > 0 && t < 1) cuts[n++] = t;
      }
    }
  }
  cuts[n++] = 1;
  sortSmall(cuts, n);
  const v = TERMS;
  // The radius r0 + k t.
  const r0 = radiusOf(s, circle),
    k = radiusOf(s, circle + 4) - r0;
  for (let i = 0; i + 1 < n; i++) {
    const lo = cuts[i],
      hi = cuts[i + 1];
    if (hi < lo || (hi === lo && i + 2 < n)) continue;
    const mid = (lo + hi) * 0.5;
    // Each axis's gap as g0 + g1 t on this piece into v[0..3].
    for (let axis = 0; axis < 2; axis++) {
      const c0 = centreOf(s, circle, axis),
        cv = centreOf(s, circle + 4, axis) - c0;
      const lo0 = s[box + axis],
        lov = s[box + 4 + axis] - lo0;
      const hi0 = s[box + 2 + axis],
        hiv = s[box + 6 + axis] - hi0;
      const centre = c0 + cv * mid;
      let g0 = 0,
        g1 = 0;
      if (centre < lo0 + lov * mid) {
        g0 = lo0 - c0;
        g1 = lov - cv;
      } else if (centre > hi0 + hiv * mid) {
        g0 = c0 - hi0;
        g1 = cv - hiv;
      }
      v[2 * axis] = g0;
      v[2 * axis + 1] = g1;
    }
    const a = -k * k + v[1] * v[1] + v[3] * v[3],
      b = -2 * r0 * k + 2 * v[0] * v[1] + 2 * v[2] * v[3],
      c = -r0 * r0 + v[0] * v[0] + v[2] * v[2];
    const t = firstBelowZero(a, b, c, lo, hi, touching, i === 0);
    if (t < 0) continue;
    // The normal at t: from the box's nearest point to the centre (box to circle).
    return met(s, t, gapAt(s, box, circle, 0, t), gapAt(s, box, circle, 1, t), sign);
  }
  return false;
}

/** On `axis` at time t: the circle's centre less the box's nearest point (0 within the box's span). */
function gapAt(s: Float64Array, box: number, circle: number, axis: number, t: number): number {
  const c0 = centreOf(s, circle, axis);
  const cen = c0 + (centreOf(s, circle + 4, axis) - c0) * t;
  const lo = s[box + axis] + (s[box + 4 + axis] - s[box + axis]) * t;
  const hi = s[box + 2 + axis] + (s[box + 6 + axis] - s[box + 2 + axis]) * t;
  return cen < lo ? cen - lo : cen > hi ? cen - hi : 0;
}

/** Writes the contact time t and the normal (nx, ny) made unit (+x when it has no length) times `sign`: 0, 0 at 0. */
function met(s: Float64Array, t: number, nx: number, ny: number, sign: number): true {
  s[16] = t;
  if (t === 0) {
    s[17] = s[18] = 0;
    return true;
  }
  const len = Math.hypot(nx, ny);
  s[17] = sign * (len > 0 ? nx / len : 1);
  s[18] = sign * (len > 0 ? ny / len : 0);
  return true;
}

/** Scratch breakpoints for sweptBoxCircle. */
const CUTS = new Float64Array(6);

/** Insertion sort of the first n entries (n <= 6). */
function sortSmall(a: Float64Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}
