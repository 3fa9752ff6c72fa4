import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  A_CIRCLE,
  B_CIRCLE,
  circleBoxOverlap,
  circlesOverlap,
  contactOf,
  LooseQuadtree,
  pointBoxDistance,
  rayBoxDistance,
  pointCircleDistance,
  pointInCircle,
  rayCircleDistance,
  Shape,
  sweptShapes,
  type Contact,
  validateTree,
} from '../../src/core/index.js';
import { gap, meetWithin, overlaps, Q, qbox, qpath, type QShape } from './exact.js';

/*
 * Circles and contacts against exact arithmetic. Coordinates lie on a grid of quarter units,
 * where the library's floating point is exact for the decisions (overlap, tangency), so the
 * two must agree exactly; irrational results (distances, times, normals) must agree to within
 * rounding.
 */

const RUNS = 3000;
/** A grid coordinate: a multiple of 1/4 in [-40, 40]. */
const coord = fc.integer({ min: -160, max: 160 }).map((v) => v / 4);
/** A grid size: a multiple of 1/4 in [0, 20]. */
const size = fc.integer({ min: 0, max: 80 }).map((v) => v / 4);
/** A box, or a circle (a square box), on the grid. */
const shape = fc
  .record({ x: coord, y: coord, w: size, h: size, circle: fc.boolean() })
  .map(({ x, y, w, h, circle }) => ({ box: [x, y, x + w, y + (circle ? w : h)] as const, circle }));
type Shaped = { box: readonly [number, number, number, number]; circle: boolean };

function q(s: Shaped): QShape {
  return { box: qbox(...s.box), circle: s.circle };
}

function shapesOf(a: Shaped, b: Shaped): number {
  return (a.circle ? A_CIRCLE : 0) | (b.circle ? B_CIRCLE : 0);
}

/** Centre and radius of the circle inscribed in a box: its smaller half-side, as the tree takes it. */
function centre(s: Shaped): [number, number, number] {
  const r = Math.min(s.box[2] - s.box[0], s.box[3] - s.box[1]) / 2;
  return [(s.box[0] + s.box[2]) / 2, (s.box[1] + s.box[3]) / 2, r];
}

describe('circle geometry against exact arithmetic', () => {
  it('circlesOverlap, pointInCircle and circleBoxOverlap decide exactly, tangents included', () => {
    let tangent = 0;
    fc.assert(
      fc.property(shape, shape, fc.boolean(), (a, b, touching) => {
        const round: Shaped = { box: [a.box[0], a.box[1], a.box[2], a.box[1] + a.box[2] - a.box[0]], circle: true };
        const qa = q(round),
          qb = q(b);
        const [ax, ay, ar] = centre(round);
        if (b.circle) {
          const [bx, by, br] = centre(b);
          expect(circlesOverlap(ax, ay, ar, bx, by, br, touching)).toBe(overlaps(qa, qb, touching));
          expect(pointInCircle(bx, by, ax, ay, ar, touching)).toBe(
            overlaps(qa, { box: qbox(bx, by, bx, by), circle: true }, touching),
          );
        } else {
          expect(circleBoxOverlap(ax, ay, ar, ...b.box, touching)).toBe(overlaps(qa, qb, touching));
        }
        if (gap(qa, qb).sign() === 0) tangent++;
      }),
      { seed: 41, numRuns: RUNS },
    );
    expect(tangent).toBeGreaterThan(0);
  });

  it('tangent circles, and a circle tangent to a box, overlap only when touching', () => {
    // Centres 5m apart along a 3-4-5 triangle, radii summing to 5m; a box whose side lies r from the centre.
    fc.assert(
      fc.property(coord, coord, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 20 }), (x, y, m, split) => {
        const ra = Math.min(split / 4, 5 * m),
          rb = 5 * m - ra;
        for (const touching of [false, true]) {
          expect(circlesOverlap(x, y, ra, x + 3 * m, y + 4 * m, rb, touching)).toBe(touching);
          expect(circleBoxOverlap(x, y, rb, x + rb, y - 1, x + rb + 2, y + 1, touching)).toBe(touching);
          // Radius 0: a point inside the open box, which overlaps it under either rule.
          expect(circleBoxOverlap(x, y, rb, x + rb - 0.25, y - 1, x + rb + 2, y + 1, touching)).toBe(true);
        }
      }),
      { seed: 48, numRuns: 500 },
    );
  });

  it('pointCircleDistance is the distance to the disk, to within rounding', () => {
    fc.assert(
      fc.property(coord, coord, shape, (px, py, c) => {
        const [x, y, r] = centre({ ...c, circle: true });
        const exact = Math.max(0, Math.hypot(px - x, py - y) - r);
        expect(pointCircleDistance(px, py, x, y, r)).toBeCloseTo(exact, 9);
      }),
      { seed: 42, numRuns: RUNS },
    );
  });

  it('rayCircleDistance along an axis: the exact entry, tangents by the rule', () => {
    let tangents = 0;
    fc.assert(
      fc.property(
        coord,
        coord,
        fc.constantFrom<[number, number]>([1, 0], [-1, 0], [0, 1], [0, -1]),
        fc.constantFrom(Infinity, 0, 5, 17.5, 60),
        shape,
        fc.boolean(),
        (ox, oy, [dx, dy], max, c, touching) => {
          const [x, y, r] = centre({ ...c, circle: true });
          const got = rayCircleDistance(ox, oy, dx, dy, max, x, y, r, touching);
          // Along an axis: the offset across the ray, and where along it the centre lies.
          const across = dx !== 0 ? y - oy : x - ox;
          const along = dx !== 0 ? (x - ox) * dx : (y - oy) * dy;
          const disc = r * r - across * across; // exact on the grid
          if (disc === 0) tangents++;
          const hitsLine = touching ? disc >= 0 : disc > 0;
          const half = Math.sqrt(Math.max(0, disc));
          const enter = along - half,
            exit = along + half;
          const inRange = touching ? enter <= max && exit >= 0 : enter < max && exit > 0;
          if (!hitsLine || !inRange) {
            expect(got).toBe(-1);
          } else {
            expect(got).toBeCloseTo(Math.max(0, enter), 9);
          }
        },
      ),
      { seed: 43, numRuns: RUNS },
    );
    expect(tangents).toBeGreaterThan(10);
  });
});

describe("circles at the edge of float32's range", () => {
  // Squares of coordinates there (about 1e77) stay finite; a small radius, or a small offset
  // beside a far ray, must still count.
  it('a ray from far away misses a small circle beside its line, and hits one on it', () => {
    for (const touching of [false, true]) {
      expect(rayCircleDistance(952, -3.4e38, 0, 1, Infinity, 238, 818, 2, touching)).toBe(-1);
      expect(rayCircleDistance(952, -3.4e38, 0, 1, Infinity, 952.5, 818, 2, touching) / 3.4e38).toBeCloseTo(1, 12);
      // Tangent to the line: a hit only when touching.
      const tangent = rayCircleDistance(950, -3.4e38, 0, 1, Infinity, 952, 818, 2, touching);
      if (touching) expect(tangent / 3.4e38).toBeCloseTo(1, 12);
      else expect(tangent).toBe(-1);
    }
  });

  it('small circles at the same far centre overlap; apart they do not', () => {
    for (const touching of [false, true]) {
      expect(circlesOverlap(3.4e38, -3.4e38, 1, 3.4e38, -3.4e38, 2, touching)).toBe(true);
      expect(pointInCircle(3e38, 3e38, 3e38, 3e38, 0.5, touching)).toBe(true);
      expect(circlesOverlap(3e38, 0, 1, 3e38 + 1e30, 0, 1, touching)).toBe(false);
      expect(circlesOverlap(-3.4e38, 0, 3.4e38, 3.4e38, 0, 3.4e38, touching)).toBe(touching);
    }
  });

  it('nearest from far away: the k nearest by their own distances, equal ones by ascending id', () => {
    // Every item is about 3.6e38 from the point, and most round to the same double: the k
    // lowest ids among those must come back, even when the nodes holding them round to a
    // larger distance than they do.
    const tree = new LooseQuadtree({ width: 1024, height: 1024, maxDepth: 6 });
    const rng = mulberry(7);
    const px = -3.4e38,
      py = -1.3047721228562296e38;
    const all: [id: number, distance: number][] = [];
    for (let id = 0; id < 400; id++) {
      const x = Math.floor(rng() * 1000),
        y = Math.floor(rng() * 1000),
        s = 1 + Math.floor(rng() * 40);
      tree.insert(id, x, y, x + s, y + s);
      const circle = id % 2 === 0;
      if (circle) tree.setShape(id, Shape.Circle);
      all.push([
        id,
        circle
          ? pointCircleDistance(px, py, x + s / 2, y + s / 2, s / 2)
          : pointBoxDistance(px, py, x, y, x + s, y + s),
      ]);
    }
    all.sort((p, q) => p[1] - q[1] || p[0] - q[0]);
    let tied = 0;
    for (const k of [1, 5, 17, 60, 150]) {
      const ids: number[] = [],
        dists: number[] = [];
      const n = tree.nearest(px, py, k, Infinity, ids, dists);
      expect(n).toBe(k);
      expect(ids.slice(0, n)).toEqual(all.slice(0, k).map((e) => e[0]));
      expect(dists.slice(0, n)).toEqual(all.slice(0, k).map((e) => e[1]));
      if (all[k][1] === all[k - 1][1]) tied++;
    }
    expect(tied).toBeGreaterThan(2);
  });
});

describe('rays from far away', () => {
  it('raycast and raycastAll: hits by their own distances, equal ones by ascending id', () => {
    // A ray from -3.4e38 up the column x = 500.5: every item it meets is entered at about
    // 3.4e38, most at the same double. The first hit is the lowest id among those.
    const tree = new LooseQuadtree({ width: 1024, height: 1024, maxDepth: 6 });
    const rng = mulberry(11);
    const ox = 500.5,
      oy = -3.4e38;
    const hits: [id: number, distance: number][] = [];
    for (let id = 0; id < 300; id++) {
      const s = 2 + Math.floor(rng() * 40);
      const x = 500 - Math.floor(rng() * s),
        y = Math.floor(rng() * 1000);
      tree.insert(id, x, y, x + s, y + s);
      const circle = id % 3 === 0;
      if (circle) tree.setShape(id, Shape.Circle);
      const t = circle
        ? rayCircleDistance(ox, oy, 0, 1, Infinity, x + s / 2, y + s / 2, s / 2, false)
        : rayBoxDistance(ox, oy, 0, 1, Infinity, x, y, x + s, y + s, false);
      if (t >= 0) hits.push([id, t]);
    }
    hits.sort((p, q) => p[1] - q[1] || p[0] - q[0]);
    expect(hits.length).toBeGreaterThan(50);
    expect(hits[1][1]).toBe(hits[0][1]);
    const ids: number[] = [],
      dists: number[] = [];
    expect(tree.raycastAll(ox, oy, 0, 1, Infinity, ids, dists)).toBe(hits.length);
    expect(ids.slice(0, hits.length)).toEqual(hits.map((h) => h[0]));
    const hit = { id: -1, distance: 0 };
    expect(tree.raycast(ox, oy, 0, 1, Infinity, hit)).toBe(true);
    expect(hit).toEqual({ id: hits[0][0], distance: hits[0][1] });
  });
});

/** A small seeded PRNG (mulberry32) for scenes written out in a test. */
function mulberry(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The 16 numbers of two paths, A's start and end boxes, then B's. */
function pathsArray(a: Shaped, a1: Shaped, b: Shaped, b1: Shaped): Float64Array {
  const s = new Float64Array(19);
  s.set([...a.box, ...a1.box, ...b.box, ...b1.box]);
  return s;
}

/** A shape's box moved and (for a box) resized; a circle stays square. */
const moved = (s: Shaped) =>
  fc
    .record({
      dx: fc.integer({ min: -240, max: 240 }),
      dy: fc.integer({ min: -240, max: 240 }),
      grow: fc.integer({ min: -8, max: 8 }),
    })
    .map(({ dx, dy, grow }) => {
      const w = Math.max(0, s.box[2] - s.box[0] + grow / 4);
      const h = s.circle ? w : Math.max(0, s.box[3] - s.box[1] + grow / 8);
      const x = s.box[0] + dx / 4,
        y = s.box[1] + dy / 4;
      return { box: [x, y, x + w, y + h] as const, circle: s.circle };
    });
const motion = shape.chain((a) => moved(a).map((a1) => [a, a1] as const));

describe('swept shapes against exact arithmetic', () => {
  it('meet exactly when the exact model says, first at the time it gives, with its normal', () => {
    const seen = { met: 0, later: 0, circles: 0, mixed: 0, grazes: 0 };
    fc.assert(
      fc.property(motion, motion, fc.boolean(), fc.boolean(), ([a, a1], [b, b1], still, touching) => {
        if (still) b1 = b;
        const s = pathsArray(a, a1, b, b1);
        const met = sweptShapes(s, shapesOf(a, b), touching);
        const pa = qpath(a.box, a1.box, a.circle),
          pb = qpath(b.box, b1.box, b.circle);
        const want = meetWithin(pa, pb, Q.ZERO, Q.ONE, touching);
        expect(met, JSON.stringify({ a, a1, b, b1, touching })).toBe(want);
        if (!met) return;
        seen.met++;
        if (a.circle && b.circle) seen.circles++;
        else if (a.circle || b.circle) seen.mixed++;
        const t = s[16];
        expect(t).toBeGreaterThanOrEqual(0);
        expect(t).toBeLessThanOrEqual(1);
        // They meet by t (give or take rounding), and not before.
        expect(meetWithin(pa, pb, Q.ZERO, Q.of(Math.min(1, t + 1e-9)), touching)).toBe(true);
        if (t === 0) {
          expect([s[17], s[18]]).toEqual([0, 0]);
          return;
        }
        seen.later++;
        expect(meetWithin(pa, pb, Q.ZERO, Q.of(Math.max(0, t - 1e-9)), touching)).toBe(false);
        // The normal at t: unit length, from A to B, across the faces that touch then.
        const n: [number, number] = [s[17], s[18]];
        expect(Math.hypot(...n)).toBeCloseTo(1, 12);
        const at = (p: Shaped, p1: Shaped, i: number) => p.box[i] + (p1.box[i] - p.box[i]) * t;
        const A = [0, 1, 2, 3].map((i) => at(a, a1, i)),
          B = [0, 1, 2, 3].map((i) => at(b, b1, i));
        const expected = touchNormal(A, a.circle, B, b.circle);
        // A point circle touching a box's edge at its centre has no direction to give.
        if (expected.some((e) => Number.isNaN(e[0]))) return;
        if (expected.length > 1) seen.grazes++;
        expect(
          expected.some((e) => Math.abs(e[0] - n[0]) < 1e-6 && Math.abs(e[1] - n[1]) < 1e-6),
          `normal ${n.join(',')} not among ${JSON.stringify(expected)}`,
        ).toBe(true);
      }),
      { seed: 44, numRuns: 20000 },
    );
    expect(seen.later).toBeGreaterThan(500);
    expect(seen.circles).toBeGreaterThan(300);
    expect(seen.mixed).toBeGreaterThan(300);
  });
});

/**
 * The normals two shapes that just touch may have, from A to B: for boxes, each axis whose
 * faces meet (a corner meets on both); with a circle, from its centre to the other's nearest
 * point (box) or centre.
 */
function touchNormal(A: number[], aCircle: boolean, B: number[], bCircle: boolean): [number, number][] {
  const unit = (x: number, y: number): [number, number] => {
    const l = Math.hypot(x, y);
    return [x / l, y / l];
  };
  const c = (X: number[]) => [(X[0] + X[2]) / 2, (X[1] + X[3]) / 2];
  if (aCircle && bCircle) return [unit(c(B)[0] - c(A)[0], c(B)[1] - c(A)[1])];
  if (aCircle || bCircle) {
    const [cx, cy] = c(aCircle ? A : B);
    const box = aCircle ? B : A;
    const px = Math.min(Math.max(cx, box[0]), box[2]),
      py = Math.min(Math.max(cy, box[1]), box[3]);
    const [nx, ny] = unit(px - cx, py - cy);
    return aCircle ? [[nx, ny]] : [[-nx, -ny]];
  }
  const out: [number, number][] = [];
  const tol = 1e-6 * (1 + Math.max(...A.map(Math.abs), ...B.map(Math.abs)));
  if (Math.abs(A[2] - B[0]) <= tol) out.push([1, 0]);
  if (Math.abs(B[2] - A[0]) <= tol) out.push([-1, 0]);
  if (Math.abs(A[3] - B[1]) <= tol) out.push([0, 1]);
  if (Math.abs(B[3] - A[1]) <= tol) out.push([0, -1]);
  return out;
}

describe('contactOf', () => {
  const out: Contact = { nx: 0, ny: 0, depth: 0, x: 0, y: 0 };
  const boxes = (a: Shaped, b: Shaped): Float64Array => new Float64Array([...a.box, ...b.box]);
  const shifted = (s: Shaped, dx: number, dy: number): Shaped => ({
    ...s,
    box: [s.box[0] + dx, s.box[1] + dy, s.box[2] + dx, s.box[3] + dy],
  });

  it('two boxes: the least of the four axis pushes, ties +x, -x, +y, -y; the push leaves them touching', () => {
    let ties = 0;
    fc.assert(
      fc.property(shape, shape, (a0, b0) => {
        const a = { ...a0, circle: false },
          b = { ...b0, circle: false };
        if (!overlaps(q(a), q(b), false)) return;
        contactOf(boxes(a, b), 0, out);
        const pushes: [number, number, number][] = [
          [a.box[2] - b.box[0], 1, 0],
          [b.box[2] - a.box[0], -1, 0],
          [a.box[3] - b.box[1], 0, 1],
          [b.box[3] - a.box[1], 0, -1],
        ];
        const least = Math.min(...pushes.map((p) => p[0]));
        const first = pushes.find((p) => p[0] === least)!;
        if (pushes.filter((p) => p[0] === least).length > 1) ties++;
        expect([out.nx, out.ny, out.depth]).toEqual([first[1], first[2], least]);
        // Moving A by -n * depth leaves the boxes touching, not overlapping (exact on the grid).
        expect(gap(q(shifted(a, -out.nx * out.depth, -out.ny * out.depth)), q(b)).sign()).toBe(0);
        // The point lies in the overlap.
        expect(out.x).toBeGreaterThanOrEqual(Math.max(a.box[0], b.box[0]));
        expect(out.x).toBeLessThanOrEqual(Math.min(a.box[2], b.box[2]));
        expect(out.y).toBeGreaterThanOrEqual(Math.max(a.box[1], b.box[1]));
        expect(out.y).toBeLessThanOrEqual(Math.min(a.box[3], b.box[3]));
      }),
      { seed: 45, numRuns: RUNS * 3 },
    );
    expect(ties).toBeGreaterThan(3);
  });

  it("a circle: the normal along the centres (two circles) or to the box's nearest point; the push ends the overlap and no less does", () => {
    let inside = 0;
    fc.assert(
      fc.property(shape, shape, fc.boolean(), (a0, b0, swap) => {
        const a = swap ? { ...a0, circle: a0.circle || !b0.circle } : { ...a0, circle: true };
        const b = b0;
        if (!overlaps(q(a), q(b), false)) return;
        contactOf(boxes(a, b), shapesOf(a, b), out);
        for (const v of [out.nx, out.ny, out.depth, out.x, out.y]) expect(Number.isFinite(v)).toBe(true);
        expect(Math.hypot(out.nx, out.ny)).toBeCloseTo(1, 12);
        if (a.circle && b.circle) {
          const [ax, ay, ar] = centre(a),
            [bx, by, br] = centre(b);
          const d = Math.hypot(bx - ax, by - ay);
          if (d > 0) {
            expect(out.nx).toBeCloseTo((bx - ax) / d, 12);
            expect(out.ny).toBeCloseTo((by - ay) / d, 12);
          } else {
            expect([out.nx, out.ny]).toEqual([1, 0]);
          }
          expect(out.depth).toBeCloseTo(ar + br - d, 9);
        }
        const [cx, cy] = centre(a.circle ? a : b);
        const box = a.circle ? b : a;
        if (a.circle !== b.circle && cx > box.box[0] && cx < box.box[2] && cy > box.box[1] && cy < box.box[3]) inside++;
        // Pushed by the depth (a hair more, for the rounding of irrational normals) they are apart;
        // pushed a little less they still overlap.
        const tol = 1e-9;
        const past = shifted(a, -out.nx * (out.depth + tol), -out.ny * (out.depth + tol));
        expect(overlaps(q(past), q(b), false), JSON.stringify({ a, b, out })).toBe(false);
        if (out.depth > 1e-6) {
          const short = shifted(a, -out.nx * out.depth * (1 - 1e-6), -out.ny * out.depth * (1 - 1e-6));
          expect(overlaps(q(short), q(b), false)).toBe(true);
        }
      }),
      { seed: 46, numRuns: RUNS * 3 },
    );
    expect(inside).toBeGreaterThan(10);
  });

  it('is never NaN: coincident centres, points, zero radii', () => {
    for (const shapes of [0, A_CIRCLE, B_CIRCLE, A_CIRCLE | B_CIRCLE]) {
      for (const s of [
        [0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 4, 4, 0, 0, 4, 4],
        [1, 1, 3, 3, 0, 0, 4, 4],
        [0, 0, 4, 4, 2, 2, 2, 2],
      ]) {
        contactOf(new Float64Array(s), shapes, out);
        for (const v of [out.nx, out.ny, out.depth, out.x, out.y])
          expect(Number.isFinite(v), `${shapes} ${s.join(',')}`).toBe(true);
        expect(Math.hypot(out.nx, out.ny)).toBe(1);
      }
    }
    // Coincident centres part along +x.
    expect(contactOf(new Float64Array([0, 0, 4, 4, 0, 0, 4, 4]), 0, out)).toMatchObject({ nx: 1, ny: 0, depth: 4 });
    expect(contactOf(new Float64Array([0, 0, 4, 4, 1, 1, 3, 3]), A_CIRCLE | B_CIRCLE, out)).toMatchObject({
      nx: 1,
      ny: 0,
      depth: 3,
    });
  });
});

describe('circles in the tree', () => {
  for (const touching of [false, true]) {
    it(`tangent circles pair only when touching (touching ${touching}); their boxes overlap either way`, () => {
      const tree = new LooseQuadtree({ width: 256, height: 256, touching });
      // Centres (50, 50) and (56, 58): 10 apart, radii 4 and 6.
      tree.insert(1, 46, 46, 54, 54);
      tree.insert(2, 50, 52, 62, 64);
      tree.setShape(1, Shape.Circle);
      tree.setShape(2, Shape.Circle);
      tree.step();
      expect(tree.current.count).toBe(touching ? 1 : 0);
      expect(tree.queryCircle(56, 58, 6, [])).toBe(touching ? 2 : 1);
      // A box in the corner of a circle's box but outside the circle: a box pairs, a circle not.
      tree.insert(3, 45, 45, 46.5, 46.5);
      tree.step();
      expect(tree.pairsOf(3, [])).toBe(0);
      tree.setShape(1, Shape.Box);
      tree.step();
      expect(tree.pairsOf(3, [])).toBe(1);
      validateTree(tree);
    });
  }

  it('a swept circle bullet hits a round rock it passes through, with the normal at its time of impact', () => {
    const tree = new LooseQuadtree({ width: 512, height: 512 });
    tree.insert(1, 10, 96, 18, 104); // bullet, centre (14, 100), radius 4
    tree.insert(2, 200, 90, 220, 110); // rock, centre (210, 100), radius 10
    tree.setShape(1, Shape.Circle);
    tree.setShape(2, Shape.Circle);
    tree.setSwept(1, true);
    tree.step();
    tree.move(1, 390, 96, 398, 104); // straight through the rock in one frame
    tree.step();
    expect(tree.pairsOf(1, [])).toBe(1);
    // First touch when the centres are 14 apart: centre x 196, of a 380 move from 14.
    expect(tree.timeOfImpact(1, 2)).toBeCloseTo((196 - 14) / 380, 12);
    const c = tree.contact(1, 2, { nx: 0, ny: 0, depth: 0, x: 0, y: 0 });
    expect(c.nx).toBeCloseTo(1, 12);
    expect(c.ny).toBeCloseTo(0, 12);
    expect(c.x).toBeCloseTo(200, 9);
    expect(c.y).toBeCloseTo(100, 9);
    // Now the bullet is past the rock: no overlap left to push out of.
    expect(c.depth).toBe(0);
  });

  it('contact names the ids of a non-pair and of an unknown item, and allocates nothing', () => {
    const tree = new LooseQuadtree({ width: 256, height: 256 });
    tree.insert(1, 0, 0, 10, 10);
    tree.insert(2, 5, 5, 15, 15);
    tree.insert(3, 100, 100, 110, 110);
    tree.step();
    const out = { nx: 0, ny: 0, depth: 0, x: 0, y: 0 };
    expect(tree.contact(2, 1, out)).toMatchObject({ nx: -1, ny: 0, depth: 5, x: 7.5, y: 7.5 });
    expect(() => tree.contact(1, 3, out)).toThrow(
      'bitecs-quadtree: contact of items 1 and 3: they are not a pair after the last step',
    );
    expect(() => tree.contact(1, 1, out)).toThrow(
      'bitecs-quadtree: contact of items 1 and 1: they are not a pair after the last step',
    );
    // Both ids, whichever is unknown, as the ECS names entities.
    expect(() => tree.contact(1, 9, out)).toThrow(
      'bitecs-quadtree: contact of items 1 and 9: they are not a pair after the last step (item 9 is not in the tree)',
    );
    expect(() => tree.contact(9, 2, out)).toThrow(
      'bitecs-quadtree: contact of items 9 and 2: they are not a pair after the last step (item 9 is not in the tree)',
    );
    expect(() => tree.contact(-1, 2, out)).toThrow(
      'bitecs-quadtree: contact of items -1 and 2: they are not a pair after the last step (item -1 is not in the tree)',
    );
  });

  it('setShape refuses a box that is not square, naming the item and both sizes, and changes nothing', () => {
    const tree = new LooseQuadtree({ width: 256, height: 256 });
    tree.insert(1, 0, 0, 10, 8);
    expect(() => tree.setShape(1, Shape.Circle)).toThrow(
      'bitecs-quadtree: item 1 is a circle but its box is 10 wide and 8 high: a circle is inscribed in a square box (its diameter is the width); give it centre ± radius, not corners read back from getBox, whose float32 rounding drifts',
    );
    expect(tree.shapeOf(1)).toBe(Shape.Box);
    expect(() => tree.setShape(1, 2 as never)).toThrow(
      'bitecs-quadtree: item 1 has an unknown shape (got 2); use Shape.Box or Shape.Circle',
    );
    expect(() => tree.setShape(4, Shape.Circle)).toThrow(
      'bitecs-quadtree: setShape of unknown item 4 (never inserted, or removed already)',
    );
    tree.move(1, 0, 0, 10, 10);
    tree.setShape(1, Shape.Circle);
    expect(() => tree.move(1, 0, 0, 12, 10)).toThrow(
      'bitecs-quadtree: item 1 is a circle but its box is 12 wide and 10 high',
    );
    expect(tree.getBox(1, { minX: 0, minY: 0, maxX: 0, maxY: 0 })).toEqual({ minX: 0, minY: 0, maxX: 10, maxY: 10 });
    expect(tree.shapeOf(1)).toBe(Shape.Circle);
    // A box square to within rounding is accepted.
    tree.move(1, 0.1, 0.2, 0.1 + 0.3, 0.2 + 0.3);
    validateTree(tree);
    // Removed and inserted again, an id is a box.
    tree.remove(1);
    tree.insert(1, 0, 0, 10, 8);
    expect(tree.shapeOf(1)).toBe(Shape.Box);
  });
});

describe('sweepBox against round and square items', () => {
  it('meets first what the exact model meets first, at the time it gives', () => {
    let met = 0,
      roundHits = 0;
    fc.assert(
      fc.property(
        fc.array(shape, { minLength: 1, maxLength: 12 }),
        shape,
        fc.integer({ min: -160, max: 160 }),
        fc.integer({ min: -160, max: 160 }),
        fc.boolean(),
        (items, mover, dx4, dy4, touching) => {
          const tree = new LooseQuadtree({ x: -64, y: -64, width: 160, height: 160, maxDepth: 4, touching });
          items.forEach((it, id) => {
            tree.insert(id, ...it.box);
            if (it.circle) tree.setShape(id, Shape.Circle);
          });
          const dx = dx4 / 4,
            dy = dy4 / 4;
          const hit = { id: -1, toi: 0 };
          const found = tree.sweepBox(...mover.box, dx, dy, hit);
          const path = qpath(
            mover.box,
            [mover.box[0] + dx, mover.box[1] + dy, mover.box[2] + dx, mover.box[3] + dy],
            false,
          );
          const still = (it: Shaped) => qpath(it.box, it.box, it.circle);
          const meeting = items.map((it) => meetWithin(path, still(it), Q.ZERO, Q.ONE, touching));
          expect(found).toBe(meeting.some((m) => m));
          if (!found) return;
          met++;
          if (items[hit.id].circle) roundHits++;
          // The one met meets by its time, and nothing meets before it (give or take rounding).
          expect(meetWithin(path, still(items[hit.id]), Q.ZERO, Q.of(Math.min(1, hit.toi + 1e-9)), touching)).toBe(
            true,
          );
          if (hit.toi > 1e-9) {
            for (const it of items)
              expect(meetWithin(path, still(it), Q.ZERO, Q.of(hit.toi - 1e-9), touching)).toBe(false);
          }
        },
      ),
      { seed: 49, numRuns: 1500 },
    );
    expect(met).toBeGreaterThan(300);
    expect(roundHits).toBeGreaterThan(100);
  });
});

describe('query order', () => {
  // Items on a coarse grid, so that many lie at exactly the same distance from the query.
  const item = fc.record({
    x: fc.integer({ min: 0, max: 12 }),
    y: fc.integer({ min: 0, max: 12 }),
    s: fc.integer({ min: 0, max: 3 }),
    circle: fc.boolean(),
  });
  const scene = fc.array(item, { minLength: 1, maxLength: 60 });

  it('raycastAll and nearest: nearest first, equal distances by ascending id', () => {
    let ties = 0;
    fc.assert(
      fc.property(
        scene,
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 12 }),
        fc.constantFrom<[number, number]>([1, 0], [0, 1], [-1, 0], [1, 1], [-3, 4]),
        fc.boolean(),
        (items, px, py, [dx, dy], touching) => {
          const tree = new LooseQuadtree({ width: 64, height: 64, maxDepth: 4, touching });
          // Ids in shuffled order, so that insertion order is not id order.
          items.forEach((it, i) => {
            const id = (i * 37) % 101;
            tree.insert(id, it.x * 4, it.y * 4, it.x * 4 + it.s * 2, it.y * 4 + it.s * 2);
            if (it.circle) tree.setShape(id, Shape.Circle);
          });
          const ids: number[] = [],
            dists: number[] = [];
          for (const n of [
            tree.raycastAll(px * 4, py * 4, dx, dy, Infinity, ids, dists),
            tree.nearest(px * 4, py * 4, 1000, Infinity, ids, dists),
          ]) {
            for (let i = 1; i < n; i++) {
              expect(dists[i]).toBeGreaterThanOrEqual(dists[i - 1]);
              if (dists[i] === dists[i - 1]) {
                ties++;
                expect(ids[i]).toBeGreaterThan(ids[i - 1]);
              }
            }
          }
        },
      ),
      { seed: 47, numRuns: 400 },
    );
    expect(ties).toBeGreaterThan(30);
  });
});
