import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  A_CIRCLE,
  B_CIRCLE,
  circleBoxOverlap,
  circlesOverlap,
  contactOf,
  LooseQuadtree,
  Shape,
  sweptShapes,
  type Contact,
  type SweepHit,
  validateTree,
} from '../../src/core/index.js';
import { meetWithin, overlaps, Q, qbox, qpath } from './exact.js';

/*
 * Shapes at their edges: circles beside walls whose corners lie where squared distances
 * overflow, circles of radius 0, and the cases contact and timeOfImpact decide by rule.
 */

const out = (): Contact => ({ nx: 0, ny: 0, depth: 0, x: 0, y: 0 });

/**
 * Wall half-widths out to the largest float32 (boxes are stored in float32): their corners square
 * past it, and past 1e76.
 */
const FAR_WALLS = [1e30, 1e38, 3.4028234663852886e38];

describe("a swept circle beside a wall out to the edge of float32's range", () => {
  for (const W of FAR_WALLS) {
    for (const touching of [false, true]) {
      for (const circleFirst of [false, true]) {
        it(`wall ±${W}, touching ${touching}, the circle ${circleFirst ? 'a' : 'b'}: crosses, stands across, parts`, () => {
          const tree = new LooseQuadtree({ width: 256, height: 256, touching });
          const ball = circleFirst ? 1 : 2,
            wall = circleFirst ? 2 : 1;
          // The wall: y 100..110 across all of x; the ball: radius 5, swept.
          tree.insert(wall, -W, 100, W, 110);
          tree.setStatic(wall, true);
          const at = (y: number) => tree.move(ball, 10, y - 5, 20, y + 5);
          tree.insert(ball, 10, 40, 20, 50);
          tree.setShape(ball, Shape.Circle);
          tree.setSwept(ball, true);
          tree.step();
          const pairs = () => tree.pairsOf(ball, []);
          const c = out();
          // Through the wall in one frame: its bottom reaches y 100 at centre 95, half-way.
          at(145);
          tree.step();
          expect(pairs()).toBe(1);
          expect(tree.timeOfImpact(ball, wall)).toBeCloseTo(0.5, 12);
          tree.contact(ball, wall, c);
          expect([c.nx + 0, c.ny, c.depth, c.x, c.y]).toEqual([0, 1, 0, 15, 100]);
          tree.contact(wall, ball, c);
          expect([c.nx + 0, c.ny]).toEqual([0, -1]);
          // Standing past it: the pair ends.
          tree.step();
          expect(pairs()).toBe(0);
          expect(tree.timeOfImpact(ball, wall)).toBe(-1);
          // Back into it (its top reaches 110 at centre 115), then standing still across it.
          at(105);
          tree.step();
          expect(tree.timeOfImpact(ball, wall)).toBeCloseTo(0.75, 12);
          tree.step();
          expect(pairs()).toBe(1);
          expect(tree.timeOfImpact(ball, wall)).toBe(0);
          expect(tree.contact(ball, wall, c)).toMatchObject({ nx: 0, ny: 1, depth: 10 });
          // 13 apart (its top at 123): under either rule no pair, and no time of impact.
          at(128);
          tree.step();
          tree.step();
          expect(pairs()).toBe(0);
          expect(tree.timeOfImpact(ball, wall)).toBe(-1);
          // Tangent (its top at 110): a pair only when touching.
          at(115);
          tree.step();
          tree.step();
          expect(pairs()).toBe(touching ? 1 : 0);
          // The same items unswept agree.
          tree.setSwept(ball, false);
          tree.step();
          expect(pairs()).toBe(touching ? 1 : 0);
          at(105);
          tree.step();
          expect(pairs()).toBe(1);
          validateTree(tree);
        });
      }

      it(`wall ±${W}, touching ${touching}: sweepBox meets a round item first at its time`, () => {
        const tree = new LooseQuadtree({ width: 256, height: 256, touching });
        tree.insert(1, 10, 100, 20, 110); // centre (15, 105), radius 5
        tree.setShape(1, Shape.Circle);
        tree.insert(2, 200, 100, 210, 110); // a box level with it: met at the same times, a higher id
        const hit: SweepHit = { id: -1, toi: 0 };
        // A wall-wide box, bottom at 90, moved down by 40: it reaches the circle's top at 10.
        expect(tree.sweepBox(-W, 80, W, 90, 0, 40, hit)).toBe(true);
        expect(hit).toEqual({ id: 1, toi: 0.25 });
        // 13 short of the circle, standing or moving along it: no hit under either rule.
        expect(tree.sweepBox(-W, 80, W, 87, 0, 0, hit)).toBe(false);
        expect(tree.sweepBox(-W, 80, W, 87, 0, 12, hit)).toBe(false);
        // Moved by 13 it ends tangent to the circle: a hit at 1 only when touching.
        expect(tree.sweepBox(-W, 80, W, 87, 0, 13, hit)).toBe(touching);
        if (touching) expect(hit).toEqual({ id: 1, toi: 1 });
        // Standing across the circle: a hit at 0.
        expect(tree.sweepBox(-W, 104, W, 106, 0, 0, hit)).toBe(true);
        expect(hit).toEqual({ id: 1, toi: 0 });
      });
    }
  }
});

/** A grid coordinate: a multiple of 1/4 in [-40, 40]. */
const coord = fc.integer({ min: -160, max: 160 }).map((v) => v / 4);
const size = fc.integer({ min: 0, max: 80 }).map((v) => v / 4);
const step = fc.integer({ min: -240, max: 240 }).map((v) => v / 4);
/** Far magnitudes, out to float32's edge (squares past 1e76; a sweep's end box twice as far). */
const far = fc.constantFrom(1e30, 2 ** 100, 1e38, 2 ** 127, 3.4028234663852886e38);
type Box4 = [number, number, number, number];

/** A box on the grid, each side pushed out to a far magnitude or not; it may move on the grid. */
const farBoxPath = fc
  .record({
    x: coord,
    y: coord,
    w: size,
    h: size,
    dx: step,
    dy: step,
    sides: fc.array(fc.option(far, { freq: 2, nil: undefined }), { minLength: 4, maxLength: 4 }),
  })
  .map(({ x, y, w, h, dx, dy, sides }) => {
    const box: Box4 = [x, y, x + w, y + h];
    sides.forEach((f, i) => {
      if (f !== undefined) box[i] = i < 2 ? -f : f;
    });
    const to: Box4 = [box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy];
    return { from: box, to };
  });

/** A circle on the grid, or now and then one of far radius; it may move on the grid. */
const circlePath = fc
  .record({
    x: coord,
    y: coord,
    d: size,
    d1: size,
    dx: step,
    dy: step,
    huge: fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: far, weight: 1 }),
  })
  .map(({ x, y, d, d1, dx, dy, huge }) => {
    const r = huge ?? d / 2,
      r1 = huge ?? d1 / 2;
    const from: Box4 = [x - r, y - r, x + r, y + r];
    const to: Box4 = [x + dx - r1, y + dy - r1, x + dx + r1, y + dy + r1];
    return { from, to };
  });

describe("swept circles against boxes and circles out to float32's edge, against exact arithmetic", () => {
  it('meet exactly when the exact model says, first at the time it gives', () => {
    const seen = { met: 0, later: 0, farMet: 0 };
    fc.assert(
      fc.property(
        circlePath,
        fc.oneof(
          farBoxPath,
          circlePath.map((p) => ({ ...p, circle: true })),
        ),
        fc.boolean(),
        fc.boolean(),
        (c, other, circleFirst, touching) => {
          const otherCircle = 'circle' in other;
          const a = circleFirst ? c : other,
            b = circleFirst ? other : c;
          const s = new Float64Array(19);
          s.set([...a.from, ...a.to, ...b.from, ...b.to]);
          const input = s.slice(0, 16);
          const shapes = otherCircle ? A_CIRCLE | B_CIRCLE : circleFirst ? A_CIRCLE : B_CIRCLE;
          const met = sweptShapes(s, shapes, touching);
          // The paths are left as they were.
          expect(s.slice(0, 16)).toEqual(input);
          const pa = qpath(a.from, a.to, (shapes & A_CIRCLE) !== 0),
            pb = qpath(b.from, b.to, (shapes & B_CIRCLE) !== 0);
          expect(met, JSON.stringify({ a, b, touching })).toBe(meetWithin(pa, pb, Q.ZERO, Q.ONE, touching));
          if (!met) return;
          seen.met++;
          if ([...input].some((v) => Math.abs(v) >= 1e30)) seen.farMet++;
          const t = s[16];
          expect(meetWithin(pa, pb, Q.ZERO, Q.of(Math.min(1, t + 1e-9)), touching)).toBe(true);
          if (t === 0) return;
          seen.later++;
          expect(meetWithin(pa, pb, Q.ZERO, Q.of(Math.max(0, t - 1e-9)), touching)).toBe(false);
          expect(Math.hypot(s[17], s[18])).toBeCloseTo(1, 12);
        },
      ),
      { seed: 51, numRuns: 3000 },
    );
    expect(seen.farMet).toBeGreaterThan(300);
    expect(seen.later).toBeGreaterThan(100);
  });
});

/** A shape on the grid (a circle's box square) moving on the grid: its start and end boxes. */
const gridPath = fc
  .record({ x: coord, y: coord, w: size, h: size, grow: size, dx: step, dy: step, circle: fc.boolean() })
  .map(({ x, y, w, h, grow, dx, dy, circle }) => {
    const h0 = circle ? w : h,
      w1 = circle ? grow : w,
      h1 = circle ? grow : h;
    const from: Box4 = [x, y, x + w, y + h0],
      to: Box4 = [x + dx, y + dy, x + dx + w1, y + dy + h1];
    return { from, to, circle };
  });

/**
 * Powers of two that keep the grid inside the geometry's numbers (float32's range, no number
 * nearer 0 than its smallest normal, as queries take them; 2^120 takes it to the range's edge),
 * where items in a tree can stand too.
 */
const scale = fc.constantFrom(-120, -100, -60, -20, 20, 60, 100, 120).map((e) => 2 ** e);

describe('a scene scaled by a power of two meets and overlaps as it does unscaled', () => {
  it('swept, static and queried, from 2^-120 to 2^120', () => {
    const seen = { met: 0, later: 0, overlaps: 0, inTree: 0 };
    fc.assert(
      fc.property(gridPath, gridPath, scale, fc.boolean(), (a, b, k, touching) => {
        const shapes = (a.circle ? A_CIRCLE : 0) | (b.circle ? B_CIRCLE : 0);
        if (shapes === 0) return;
        const plain = new Float64Array(19),
          scaled = new Float64Array(19);
        plain.set([...a.from, ...a.to, ...b.from, ...b.to]);
        scaled.set([...plain.subarray(0, 16)].map((v) => v * k));
        const met = sweptShapes(plain, shapes, touching);
        const pa = qpath(a.from, a.to, a.circle),
          pb = qpath(b.from, b.to, b.circle);
        expect(met).toBe(meetWithin(pa, pb, Q.ZERO, Q.ONE, touching));
        expect(sweptShapes(scaled, shapes, touching), JSON.stringify({ a, b, k, touching })).toBe(met);
        if (met) {
          seen.met++;
          expect(scaled[16]).toBeCloseTo(plain[16], 12);
          if (plain[16] > 0) seen.later++;
          expect(scaled[17]).toBeCloseTo(plain[17], 9);
          expect(scaled[18]).toBeCloseTo(plain[18], 9);
        }
        // Standing at their start boxes: circleBoxOverlap and circlesOverlap agree with the model.
        const centre = (q: Box4, m: number): [number, number, number] => [
          (q[0] * m) / 2 + (q[2] * m) / 2,
          (q[1] * m) / 2 + (q[3] * m) / 2,
          (q[2] * m) / 2 - (q[0] * m) / 2,
        ];
        const want = overlaps(
          { box: qbox(...a.from), circle: a.circle },
          { box: qbox(...b.from), circle: b.circle },
          touching,
        );
        if (want) seen.overlaps++;
        for (const m of [1, k]) {
          const [ax, ay, ar] = centre(a.from, m);
          const got =
            a.circle && b.circle
              ? circlesOverlap(ax, ay, ar, ...centre(b.from, m), touching)
              : a.circle
                ? circleBoxOverlap(ax, ay, ar, ...(b.from.map((v) => v * m) as Box4), touching)
                : circleBoxOverlap(...centre(b.from, m), ...(a.from.map((v) => v * m) as Box4), touching);
          expect(got, `scaled by ${m}`).toBe(want);
        }
        // And the pair finders' own test, on the items in a tree.
        seen.inTree++;
        const tree = new LooseQuadtree({ width: 64, height: 64, maxDepth: 2, touching });
        [a, b].forEach((p, id) => {
          tree.insert(id, ...(p.from.map((v) => v * k) as Box4));
          if (p.circle) tree.setShape(id, Shape.Circle);
        });
        tree.step();
        expect(tree.current.count, `in a tree, scaled by ${k}`).toBe(want ? 1 : 0);
      }),
      { seed: 53, numRuns: 4000 },
    );
    expect(seen.later).toBeGreaterThan(150);
    expect(seen.overlaps).toBeGreaterThan(100);
    expect(seen.inTree).toBeGreaterThan(600);
  });
});

describe('query numbers nearer 0 than float32 holds', () => {
  // Queries count a number nearer 0 than float32's smallest normal (2^-126) as 0: then no
  // square of the geometry loses its digits, and no scaled arithmetic is needed.
  for (const touching of [false, true]) {
    it(`count as 0 (touching ${touching})`, () => {
      const t = new LooseQuadtree({ width: 64, height: 64, touching });
      t.insert(1, 0, 0, 1, 1);
      t.insert(2, -1, -1, 0, 0);
      t.insert(3, 2 ** -140, 0, 2 ** -140, 0);
      t.setShape(3, Shape.Circle);
      const answer = (ask: (out: number[]) => unknown): number[] => {
        const out: number[] = [];
        ask(out);
        return out.sort((a, b) => a - b);
      };
      for (const tiny of [5.65844319475698e-162, 1e-300, 2 ** -127, -(2 ** -130)]) {
        expect(answer((o) => t.queryCircle(tiny, tiny, Math.abs(tiny), o))).toEqual(
          answer((o) => t.queryPoint(0, 0, o)),
        );
        expect(answer((o) => t.queryRect(tiny, tiny, 1, 1, o))).toEqual(answer((o) => t.queryRect(0, 0, 1, 1, o)));
        expect(answer((o) => t.nearest(0, tiny, 3, Math.abs(tiny), o))).toEqual(
          answer((o) => t.nearest(0, 0, 3, 0, o)),
        );
        const hit = { id: -1, distance: 0 };
        t.raycast(-5, tiny, 1, tiny, 10, hit);
        // Along y = 0: the edges of items 1 and 2, and the point 3, met only with touching.
        expect([hit.id, hit.distance]).toEqual(touching ? [2, 4] : [-1, Infinity]);
        const sweep = { id: -1, toi: 0, normalX: 0, normalY: 0 };
        expect(t.sweepBox(2, 2, 3, 3, tiny, tiny, sweep)).toBe(false);
      }
      // Numbers from the smallest normal up stay: this circle holds the point 3 a radius's half below its centre.
      expect(answer((o) => t.queryCircle(2 ** -140, 2 ** -126, 2 ** -125, o))).toContain(3);
    });
  }
});

describe('a circle of radius 0 is a point', () => {
  // The rule: a point overlaps a shape whose open interior holds it (the closed shape, with
  // `touching`), as a box of no size does. So two points overlap only when touching and equal.
  for (const touching of [false, true]) {
    it(`pairs (touching ${touching}): inside a box or a circle, on their edges, at another point`, () => {
      const tree = new LooseQuadtree({ width: 256, height: 256, touching });
      const point = (id: number, x: number, y: number, circle = true) => {
        tree.insert(id, x, y, x, y);
        if (circle) tree.setShape(id, Shape.Circle);
      };
      tree.insert(1, 0, 0, 10, 10); // a box
      tree.insert(2, 20, 0, 30, 10); // a circle, centre (25, 5), radius 5
      tree.setShape(2, Shape.Circle);
      point(3, 5, 5); // inside the box
      point(4, 10, 2); // on the box's edge
      point(5, 25, 7); // inside the circle
      point(6, 30, 5); // on the circle
      point(7, 5, 5); // at point 3
      point(8, 25, 7, false); // a box of no size at point 5
      point(9, 40, 40); // alone
      tree.step();
      const pairs: string[] = [];
      for (let i = 0; i < tree.current.count; i++) pairs.push(`${tree.current.a[i]}-${tree.current.b[i]}`);
      const strict = ['1-3', '1-7', '2-5', '2-8'];
      expect(pairs.sort()).toEqual((touching ? [...strict, '1-4', '2-6', '3-7', '5-8'] : strict).sort());
      // Queries: a circle of radius 0 is the point query.
      const at: [number, number, number[], number[]][] = [
        [5, 5, [1], [1, 3, 7]],
        [10, 2, [], [1, 4]],
        [25, 7, [2], [2, 5, 8]],
        [30, 5, [], [2, 6]],
        [40, 40, [], [9]],
      ];
      for (const [x, y, strictIds, touchingIds] of at) {
        const p: number[] = [],
          c: number[] = [];
        tree.queryPoint(x, y, p);
        tree.queryCircle(x, y, 0, c);
        expect(
          p.sort((u, v) => u - v),
          `point at ${x},${y}`,
        ).toEqual(touching ? touchingIds : strictIds);
        expect(
          c.sort((u, v) => u - v),
          `circle of radius 0 at ${x},${y}`,
        ).toEqual(p);
      }
      validateTree(tree);
    });
  }

  it('in every query and pair, exactly as a box of no size at its centre, swept or not', () => {
    const item = fc.record({
      x: fc.integer({ min: 0, max: 6 }),
      y: fc.integer({ min: 0, max: 6 }),
      s: fc.constantFrom(0, 0, 1, 2, 3),
      circle: fc.boolean(),
      swept: fc.boolean(),
      dx: fc.integer({ min: -8, max: 8 }),
      dy: fc.integer({ min: -8, max: 8 }),
    });
    let points = 0,
      pointPairs = 0,
      pointHits = 0;
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 2, maxLength: 30 }),
        fc.nat(),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        (items, pick, i, j, touching) => {
          // Tree `round` has the points as circles of radius 0; tree `square` as boxes of no size.
          const trees = [false, true].map(() => new LooseQuadtree({ width: 64, height: 64, maxDepth: 3, touching }));
          const [round, square] = trees;
          const box = (it: (typeof items)[number], moved: boolean): Box4 => {
            const x = it.x * 4 + (moved ? it.dx : 0),
              y = it.y * 4 + (moved ? it.dy : 0);
            return [x, y, x + it.s * 2, y + it.s * 2];
          };
          items.forEach((it, id) => {
            for (const tree of trees) {
              tree.insert(id, ...box(it, false));
              if (it.circle && (tree === round || it.s > 0)) tree.setShape(id, Shape.Circle);
              if (it.swept) tree.setSwept(id, true);
            }
            if (it.circle && it.s === 0) points++;
          });
          for (const tree of trees) tree.step();
          items.forEach((it, id) => {
            for (const tree of trees) tree.move(id, ...box(it, true));
          });
          for (const tree of trees) tree.step();
          const pairsOf = (tree: LooseQuadtree) => {
            const got: string[] = [];
            for (let i = 0; i < tree.current.count; i++) {
              const a = tree.current.a[i],
                b = tree.current.b[i];
              got.push(`${a}-${b}@${tree.timeOfImpact(a, b)}`);
            }
            return got;
          };
          const pairs = pairsOf(round);
          expect(pairs).toEqual(pairsOf(square));
          for (let i = 0; i < round.current.count; i++) {
            const a = items[round.current.a[i]],
              b = items[round.current.b[i]];
            if ((a.circle && a.s === 0) || (b.circle && b.s === 0)) pointPairs++;
          }
          // Queries at a point: the point query, a circle of radius 0, a rectangle of no size and
          // nearest within 0 find the same items, in both trees.
          // At an item's corner, the middle of a side or its centre, where it is now.
          const [x0, y0, x1, y1] = box(items[pick % items.length], true);
          const x = x0 + ((x1 - x0) * i) / 2,
            y = y0 + ((y1 - y0) * j) / 2;
          const sets = trees.flatMap((tree) => {
            const p: number[] = [],
              c: number[] = [],
              r: number[] = [],
              n: number[] = [];
            tree.queryPoint(x, y, p);
            tree.queryCircle(x, y, 0, c);
            tree.queryRect(x, y, x, y, r);
            tree.nearest(x, y, 1000, 0, n);
            return [p, c, r, n].map((ids) => ids.sort((u, v) => u - v));
          });
          for (const s of sets) expect(s).toEqual(sets[0]);
          pointHits += sets[0].length;
          // Other queries see points the same way in both trees.
          const hit: SweepHit = { id: -1, toi: 0 };
          const answers = trees.map((tree) => {
            const near: number[] = [],
              dists: number[] = [],
              ray: number[] = [],
              circle: number[] = [];
            tree.nearest(x, y, 1000, 6, near);
            tree.raycastAll(x, y, 1, 0, 40, ray, dists);
            tree.queryCircle(x, y, 5, circle);
            const swept = tree.sweepBox(x, y, x, y, 9, -7, hit) ? { ...hit } : null;
            return { near: near.sort((u, v) => u - v), ray, dists, circle: circle.sort((u, v) => u - v), swept };
          });
          expect(answers[0]).toEqual(answers[1]);
          for (const tree of trees) validateTree(tree);
        },
      ),
      { seed: 52, numRuns: 400 },
    );
    expect(points).toBeGreaterThan(200);
    expect(pointPairs).toBeGreaterThan(50);
    expect(pointHits).toBeGreaterThan(100);
  });
});

describe('contact: the cases it decides by rule', () => {
  const c = out();
  const contact = (s: number[], shapes: number) => {
    contactOf(new Float64Array(s), shapes, c);
    return { nx: c.nx, ny: c.ny, depth: c.depth, x: c.x, y: c.y };
  };

  it('boxes whose centres coincide part by the least push; +x only between equal pushes', () => {
    // Two equal 10 x 4 boxes: 10 to part along x, 4 along y.
    expect(contact([0, 0, 10, 4, 0, 0, 10, 4], 0)).toMatchObject({ nx: 0, ny: 1, depth: 4 });
    expect(contact([0, 0, 4, 10, 0, 0, 4, 10], 0)).toMatchObject({ nx: 1, ny: 0, depth: 4 });
    // Equal squares, and a 10 x 4 box across a 4 x 10 one: equal pushes, +x.
    expect(contact([0, 0, 6, 6, 0, 0, 6, 6], 0)).toMatchObject({ nx: 1, ny: 0, depth: 6 });
    expect(contact([0, 3, 10, 7, 3, 0, 7, 10], 0)).toMatchObject({ nx: 1, ny: 0, depth: 7 });
  });

  it('a circle centred in a box leaves by the nearest side; equally near sides by the normal +x, -x, +y, -y', () => {
    // Radius 2 at the centre of a 10 x 10 box: every side 5 away, so normal +x either way round.
    expect(contact([3, 3, 7, 7, 0, 0, 10, 10], A_CIRCLE)).toEqual({ nx: 1, ny: 0, depth: 7, x: 0, y: 5 });
    expect(contact([0, 0, 10, 10, 3, 3, 7, 7], B_CIRCLE)).toEqual({ nx: 1, ny: 0, depth: 7, x: 10, y: 5 });
    // A 10 x 4 box: the sides along x are nearer, so it leaves along y: normal +y either way round.
    expect(contact([3, 0, 7, 4, 0, 0, 10, 4], A_CIRCLE)).toEqual({ nx: 0, ny: 1, depth: 4, x: 5, y: 0 });
    expect(contact([0, 0, 10, 4, 3, 0, 7, 4], B_CIRCLE)).toEqual({ nx: 0, ny: 1, depth: 4, x: 5, y: 4 });
    // Off centre, the one nearest side, whichever is the circle: a leaves against the normal.
    expect(contact([5, 3, 9, 7, 0, 0, 10, 10], A_CIRCLE)).toEqual({ nx: -1, ny: 0, depth: 5, x: 10, y: 5 });
    expect(contact([0, 0, 10, 10, 5, 3, 9, 7], B_CIRCLE)).toEqual({ nx: 1, ny: 0, depth: 5, x: 10, y: 5 });
  });

  it('the tree gives the same, and names both ids of a pair it does not have', () => {
    const tree = new LooseQuadtree({ width: 256, height: 256 });
    tree.insert(1, 0, 0, 10, 10);
    tree.insert(2, 3, 3, 7, 7);
    tree.setShape(2, Shape.Circle);
    tree.step();
    expect(tree.contact(1, 2, c)).toMatchObject({ nx: 1, ny: 0, depth: 7, x: 10, y: 5 });
    expect(tree.contact(2, 1, c)).toMatchObject({ nx: 1, ny: 0, depth: 7, x: 0, y: 5 });
    expect(() => tree.contact(2, 7, c)).toThrow(
      'bitecs-quadtree: contact of items 2 and 7: they are not a pair after the last step (item 7 is not in the tree)',
    );
    expect(() => tree.contact(7, 8, c)).toThrow(
      'bitecs-quadtree: contact of items 7 and 8: they are not a pair after the last step (item 7 is not in the tree)',
    );
  });
});

describe('timeOfImpact of items that are not a swept pair', () => {
  it('0 for a pair without a swept item, -1 for any two items that are not a pair', () => {
    const tree = new LooseQuadtree({ width: 256, height: 256 });
    tree.insert(1, 0, 0, 10, 10);
    tree.insert(2, 5, 5, 15, 15);
    tree.insert(3, 100, 100, 110, 110);
    tree.insert(4, 200, 0, 204, 4);
    tree.setSwept(4, true);
    tree.step();
    expect(tree.timeOfImpact(1, 2)).toBe(0);
    expect(tree.timeOfImpact(2, 1)).toBe(0);
    expect(tree.timeOfImpact(1, 3)).toBe(-1);
    expect(tree.timeOfImpact(3, 4)).toBe(-1);
    expect(tree.timeOfImpact(1, 1)).toBe(-1);
    // A pair that ended at the last step is not a pair: -1, as forEachPair gives its exit.
    tree.move(2, 50, 50, 60, 60);
    tree.step();
    expect(tree.exited.count).toBe(1);
    expect(tree.timeOfImpact(1, 2)).toBe(-1);
    // A swept item's pair: when it first touched (its bottom reaches y 100 at 0.96).
    tree.move(4, 96, 100, 100, 104);
    tree.step();
    expect(tree.timeOfImpact(3, 4)).toBeCloseTo(0.96, 12);
    tree.move(4, 0, 200, 4, 204); // away from it
    tree.step();
    expect(tree.timeOfImpact(3, 4)).toBe(-1);
    // An item removed since the step (the lists still hold its pairs), or never inserted: no pair.
    tree.move(4, 101, 101, 105, 105);
    tree.step();
    tree.remove(4);
    expect([tree.entered.count, tree.timeOfImpact(3, 4), tree.timeOfImpact(1, 9)]).toEqual([1, -1, -1]);
    expect(() => tree.timeOfImpact(1, -1)).toThrow('bitecs-quadtree: id must be a non-negative integer (got -1)');
  });
});
