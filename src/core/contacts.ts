import { A_CIRCLE, B_CIRCLE, boxesOverlap, centreOf, circleBoxOverlap, circlesOverlap, radiusOf } from './geometry.js';
import type { Contact } from './options.js';

/**
 * Contact of two overlapping shapes (`s`: A's box then B's; `shapes`: A_CIRCLE, B_CIRCLE) into `out`: the unit normal
 * from A to B, the `depth` A must move against it (0 when touching), and a contact point. Boxes part along the
 * shortest axis move, a circle and a box along centre to nearest point (out the nearest side when inside), circles
 * along the centres' line (+x when they coincide). Ties prefer +x, -x, +y, -y. Never NaN for finite boxes.
 */
export function contactOf<T extends Contact>(s: Float64Array, shapes: number, out: T): T {
  if (shapes === 0) return boxesContact(s, out);
  if (shapes === (A_CIRCLE | B_CIRCLE)) return circlesContact(s, out);
  if (shapes === A_CIRCLE) return circleBoxContact(s, 0, 4, 1, out);
  return circleBoxContact(s, 4, 0, -1, out);
}

/** How far A must move against the unit normal (nx, ny) to part the shapes' extents along it; 0 when apart. */
export function depthAlong(s: Float64Array, shapes: number, nx: number, ny: number): number {
  const aCircle = (shapes & A_CIRCLE) !== 0,
    bCircle = (shapes & B_CIRCLE) !== 0;
  const reachA = support(s, 0, aCircle, nx, ny);
  const nearB = -support(s, 4, bCircle, -nx, -ny);
  const nearA = -support(s, 0, aCircle, -nx, -ny);
  const reachB = support(s, 4, bCircle, nx, ny);
  const d = reachA - nearB;
  return d > 0 && reachB > nearA && overlapNow(s, aCircle, bCircle) ? d : 0;
}

/** Whether the two shapes in `s` overlap (strictly). */
function overlapNow(s: Float64Array, aCircle: boolean, bCircle: boolean): boolean {
  if (!aCircle && !bCircle) return boxesOverlap(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], false);
  const c = aCircle ? 0 : 4;
  const cx = centreOf(s, c, 0),
    cy = centreOf(s, c, 1),
    r = radiusOf(s, c);
  if (aCircle && bCircle) return circlesOverlap(cx, cy, r, centreOf(s, 4, 0), centreOf(s, 4, 1), radiusOf(s, 4), false);
  const b = 4 - c;
  return circleBoxOverlap(cx, cy, r, s[b], s[b + 1], s[b + 2], s[b + 3], false);
}

/** The largest `p · (nx, ny)` over the shape in box `s[o..o+3]`. */
function support(s: Float64Array, o: number, circle: boolean, nx: number, ny: number): number {
  if (circle) return centreOf(s, o, 0) * nx + centreOf(s, o, 1) * ny + radiusOf(s, o);
  return (nx > 0 ? s[o + 2] * nx : s[o] * nx) + (ny > 0 ? s[o + 3] * ny : s[o + 1] * ny);
}

/** The normals +x, -x, +y, -y, in the order that breaks ties between equal pushes. */
const NORMAL_X = [1, -1, 0, 0];
const NORMAL_Y = [0, 0, 1, -1];

/** Index into NORMAL_X, NORMAL_Y of the least push for the normals +x, -x, +y, -y; the earlier on a tie. */
function leastPush(plusX: number, minusX: number, plusY: number, minusY: number): number {
  let k = 0,
    least = plusX;
  if (minusX < least) {
    least = minusX;
    k = 1;
  }
  if (plusY < least) {
    least = plusY;
    k = 2;
  }
  return minusY < least ? 3 : k;
}

function boxesContact<T extends Contact>(s: Float64Array, out: T): T {
  // A's push out in each of four directions; the normal points the other way (towards B).
  const right = s[2] - s[4]; // move A -x: normal +x
  const left = s[6] - s[0]; // move A +x: normal -x
  const down = s[3] - s[5]; // move A -y: normal +y
  const up = s[7] - s[1]; // move A +y: normal -y
  const k = leastPush(right, left, down, up);
  const depth = Math.min(right, left, down, up);
  out.nx = NORMAL_X[k];
  out.ny = NORMAL_Y[k];
  out.depth = depth > 0 ? depth : 0;
  out.x = (s[0] > s[4] ? s[0] : s[4]) * 0.5 + (s[2] < s[6] ? s[2] : s[6]) * 0.5;
  out.y = (s[1] > s[5] ? s[1] : s[5]) * 0.5 + (s[3] < s[7] ? s[3] : s[7]) * 0.5;
  return out;
}

function circlesContact<T extends Contact>(s: Float64Array, out: T): T {
  const ax = centreOf(s, 0, 0),
    ay = centreOf(s, 0, 1),
    ra = radiusOf(s, 0);
  const bx = centreOf(s, 4, 0),
    by = centreOf(s, 4, 1),
    rb = radiusOf(s, 4);
  const dx = bx - ax,
    dy = by - ay;
  const len = Math.hypot(dx, dy);
  const nx = len > 0 && len < Infinity ? dx / len : 1;
  const ny = len > 0 && len < Infinity ? dy / len : 0;
  const depth = ra + rb - (len < Infinity ? len : Math.hypot(dx * 0.5, dy * 0.5) * 2);
  out.nx = nx;
  out.ny = ny;
  out.depth = depth > 0 ? depth : 0;
  const along = ra - out.depth * 0.5;
  out.x = ax + nx * along;
  out.y = ay + ny * along;
  return out;
}

/** A circle (box at `c`) and a box (at `b`): the normal from circle to box, times `sign` so it points from A to B. */
function circleBoxContact<T extends Contact>(s: Float64Array, c: number, b: number, sign: number, out: T): T {
  const cx = centreOf(s, c, 0),
    cy = centreOf(s, c, 1),
    r = radiusOf(s, c);
  const qx = cx < s[b] ? s[b] : cx > s[b + 2] ? s[b + 2] : cx;
  const qy = cy < s[b + 1] ? s[b + 1] : cy > s[b + 3] ? s[b + 3] : cy;
  const dx = qx - cx,
    dy = qy - cy;
  const len = Math.hypot(dx, dy);
  let nx: number,
    ny: number,
    depth: number,
    px = qx,
    py = qy;
  if (len > 0 && len < Infinity) {
    nx = dx / len;
    ny = dy / len;
    depth = r - len;
  } else {
    // The centre inside the box: out through the nearest side, the circle's radius beyond it.
    const toLeft = cx - s[b],
      toRight = s[b + 2] - cx,
      toTop = cy - s[b + 1],
      toBottom = s[b + 3] - cy;
    // Pushes tried +x, -x, +y, -y as for two boxes, as normals from A to B.
    const plusX = sign > 0 ? toLeft : toRight,
      minusX = sign > 0 ? toRight : toLeft,
      plusY = sign > 0 ? toTop : toBottom,
      minusY = sign > 0 ? toBottom : toTop;
    const k = leastPush(plusX, minusX, plusY, minusY);
    depth = Math.min(plusX, minusX, plusY, minusY);
    // Back to the normal from the circle to the box, whose side the circle leaves by.
    nx = NORMAL_X[k] * sign;
    ny = NORMAL_Y[k] * sign;
    px = nx > 0 ? s[b] : nx < 0 ? s[b + 2] : cx;
    py = ny > 0 ? s[b + 1] : ny < 0 ? s[b + 3] : cy;
    depth += r;
  }
  out.nx = nx * sign;
  out.ny = ny * sign;
  out.depth = depth > 0 ? depth : 0;
  out.x = px;
  out.y = py;
  return out;
}
