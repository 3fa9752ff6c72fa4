import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { circleBoxOverlap, LooseQuadtree, pointBoxDistance, Shape, validateTree } from '../../src/core/index.js';
import { queryNumber, readPairs, shapeInRect, shapesOverlap, stored } from './helpers.js';

/** True when the list holds the pair (a, b). */
function listed(list: LooseQuadtree['current'], a: number, b: number): boolean {
  for (let i = 0; i < list.count; i++) if (list.a[i] === a && list.b[i] === b) return true;
  return false;
}

describe('a priority change on an item the budget deferred', () => {
  /**
   * Items 1 and 2 overlap from step 1 on. Item 3 sits alone in tier 2 and moves, so it heads
   * the tier-2 queue; item 2 then drops to priority 100 and waits behind it. `far` extra
   * items that never move make the next steps movers' steps instead of one-pass ones.
   */
  function scene(far: number): LooseQuadtree {
    const t = new LooseQuadtree();
    t.insert(1, 0, 0, 10, 10);
    t.insert(2, 5, 5, 15, 15);
    t.insert(3, 500, 500, 510, 510);
    t.setCollider(3, 1, -1, 100);
    for (let i = 0; i < far; i++) t.insert(100 + i, 900, 20 * i, 905, 20 * i + 5);
    t.step();
    t.setBudget({ maxPairTests: 0, minChecksPerTier: 1 });
    for (let i = 0; i < 3; i++) t.step();
    expect(t.pairStartedAt(1, 2)).toBe(1);
    t.move(3, 501, 500, 511, 510);
    t.setCollider(2, 1, -1, 100);
    t.step();
    expect(t.stats.deferred).toBe(1);
    return t;
  }

  /** The pair never stopped overlapping: it must neither exit nor enter, and keep its start step. */
  function expectKept(t: LooseQuadtree): void {
    validateTree(t);
    expect(listed(t.exited, 1, 2)).toBe(false);
    expect(listed(t.entered, 1, 2)).toBe(false);
    expect(t.pairStartedAt(1, 2)).toBe(1);
  }

  const nextSteps: [string, number, (t: LooseQuadtree) => void][] = [
    ['budget lifted, one-pass step', 0, (t) => t.setBudget({})],
    ["budget lifted, movers' step", 20, (t) => t.setBudget({})],
    ["budget kept, movers' steps until it is checked", 20, () => {}],
    ['budget kept, then lifted for a one-pass step', 0, () => {}],
  ];

  for (const [name, far, change] of nextSteps) {
    it(`keeps the pair and gives it the new priority: ${name}`, () => {
      const t = scene(far);
      change(t);
      t.move(1, 1, 0, 11, 10);
      t.step();
      expectKept(t);
      // Under the budget the item may wait a few more steps; the pair keeps its state meanwhile.
      for (let k = 0; k < 4 && t.stats.deferred > 0; k++) {
        t.move(1, 1 + ((k + 1) & 1), 0, 11 + ((k + 1) & 1), 10);
        t.step();
        expectKept(t);
      }
      if (name.endsWith('lifted for a one-pass step')) {
        t.setBudget({});
        t.move(1, 3, 0, 13, 10);
        t.step();
        expectKept(t);
      }
      expect(t.stats.deferred).toBe(0);
      // Once checked, the pair takes the lower priority: 100.
      expect(readPairs(t.current)).toEqual([[1, 2, 100]]);
    });
  }

  it("an item whose priority changed while deferred, checked by a one-pass step after a movers' step", () => {
    const t = scene(0);
    // A step with the budget that checks item 2 but not 1 keeps the pair too.
    t.step();
    expectKept(t);
    t.setBudget({});
    t.move(1, 1, 0, 11, 10);
    t.move(2, 6, 5, 16, 15);
    t.step();
    expectKept(t);
    expect(readPairs(t.current)).toEqual([[1, 2, 100]]);
  });
});

describe('pending', () => {
  it('counts the ids waiting to be placed, not the removed ones', () => {
    const t = new LooseQuadtree();
    t.insert(5, 0, 0, 1, 1);
    expect(t.pending).toBe(1);
    t.remove(5);
    expect(t.pending).toBe(0);
    expect(t.size).toBe(0);
    t.insert(5, 0, 0, 1, 1);
    expect(t.pending).toBe(1);
    t.insert(6, 0, 0, 1, 1);
    expect(t.pending).toBe(2);
    expect(t.flush()).toBe(2);
    expect(t.pending).toBe(0);
    expect(t.size).toBe(2);
    validateTree(t);
  });

  it('stays right through clear and a step', () => {
    const t = new LooseQuadtree();
    t.insert(1, 0, 0, 1, 1);
    t.insert(2, 0, 0, 1, 1);
    t.remove(1);
    expect(t.pending).toBe(1);
    t.clear();
    expect(t.pending).toBe(0);
    t.insert(3, 0, 0, 1, 1);
    t.step();
    expect(t.pending).toBe(0);
    expect(t.size).toBe(1);
  });
});

describe('distances far from the origin and near it', () => {
  // Small integers times one power of two: every difference and square is exact in doubles, so
  // the exact answer is known (BigInt) at any scale. Up to 2^21 * 2^106 stays within float32's
  // range; down to 2^-126, the smallest number queries take (they count smaller ones as 0).
  const int = fc.integer({ min: -(2 ** 20), max: 2 ** 20 });
  const size = fc.integer({ min: 0, max: 2 ** 12 });
  const exponent = fc.constantFrom(0, 60, 100, 106, -60, -100, -120, -126);

  it('circleBoxOverlap and pointBoxDistance are exact at every scale in float32 range (fast-check, fixed seed)', () => {
    fc.assert(
      fc.property(int, int, int, int, size, size, fc.nat(2 ** 21), exponent, (x, y, bx, by, w, h, r, e) => {
        const s = 2 ** e;
        const dx = BigInt(x < bx ? bx - x : x > bx + w ? x - bx - w : 0);
        const dy = BigInt(y < by ? by - y : y > by + h ? y - by - h : 0);
        const d2 = dx * dx + dy * dy;
        const r2 = BigInt(r) * BigInt(r);
        const args = [x * s, y * s, r * s, bx * s, by * s, (bx + w) * s, (by + h) * s] as const;
        expect(circleBoxOverlap(...args, false)).toBe(d2 < r2);
        expect(circleBoxOverlap(...args, true)).toBe(d2 <= r2);
        expect(pointBoxDistance(x * s, y * s, bx * s, by * s, (bx + w) * s, (by + h) * s)).toBe(
          Math.sqrt(Number(d2)) * s,
        );
      }),
      { seed: 8081, numRuns: 3000 },
    );
  });

  it("the issue case: items at 1e38 and 3e38 are found by nearest and circle queries from float32's edge", () => {
    // Items and queries stand within float32's range (boxes are stored in float32).
    const [far, farther] = [Math.fround(1e38), Math.fround(3e38)];
    for (const touching of [false, true]) {
      const t = new LooseQuadtree({ touching });
      t.insert(1, 10, 10, 20, 20);
      t.insert(2, 1e38, 0, 1e38, 0);
      t.insert(3, 3e38, 0, 3e38, 0);
      const ids: number[] = [];
      const d: number[] = [];
      const hits: number[] = [];
      expect(t.nearest(0, 0, 3, Infinity, ids, d)).toBe(3);
      expect(ids).toEqual([1, 2, 3]);
      expect(d).toEqual([Math.hypot(10, 10), far, farther]);
      t.queryCircle(0, 0, 2e38, hits);
      expect(hits.sort()).toEqual([1, 2]);
      expect(t.nearest(0, 0, 3, 2e38, ids, d)).toBe(2);
      // Distances past float32's range too: about 4.8e38, 5.6e38 and 7.3e38.
      expect(t.nearest(-3.4e38, 3.4e38, 3, Infinity, ids, d)).toBe(3);
      expect(ids).toEqual([1, 2, 3]);
      const from = (x0: number, y0: number, x1: number, y1: number) =>
        pointBoxDistance(-3.4e38, 3.4e38, x0, y0, x1, y1);
      expect(d).toEqual([from(10, 10, 20, 20), from(far, 0, far, 0), from(farther, 0, farther, 0)]);
      expect(() => t.nearest(-1e300, 1e300, 1, Infinity, ids, d)).toThrow("point x -1e+300 is past float32's range");
    }
  });

  it('nearest: a box and a circle at one reported distance go by id (fuzz seed 271828)', () => {
    // From far away every distance rounds to one; the box's sum of squares and the circle's
    // squared distance once differed in their last bits, and the box won over a lower id.
    const t = new LooseQuadtree();
    t.insert(4, 660, 292, 660, 304);
    t.insert(15, 972, 408, 1020, 456);
    t.setShape(15, Shape.Circle);
    t.insert(57, 1044, 800, 1116, 864);
    const ids: number[] = [];
    const d: number[] = [];
    expect(t.nearest(-3e35, -3e35, 2, Infinity, ids, d)).toBe(2);
    expect(d[0]).toBe(d[1]);
    expect(ids).toEqual([4, 15]);
  });

  it('nearest and circle queries match brute force with items and queries out to ±3.4e38 and down to 1e-300 (fast-check, fixed seed)', () => {
    // Near the world, anywhere up to ±far, a few multiples of `step`, or tiny (queries count them as 0).
    const coords = (far: number, steps: number, step: number) =>
      fc.oneof(
        fc.double({ min: -100, max: 1100, noNaN: true }),
        fc.double({ min: -far, max: far, noNaN: true }),
        fc.integer({ min: -steps, max: steps }).map((k) => k * step),
        fc.double({ min: -1e-150, max: 1e-150, noNaN: true }),
        fc.integer({ min: -3, max: 3 }).map((k) => k * 1e-300),
      );
    const coord = coords(3.4e38, 3, 1e38);
    // Items within float32's range, where their boxes are stored.
    const itemCoord = coords(3.3e38, 3, 1e38);
    const item = fc.tuple(itemCoord, itemCoord, fc.oneof(fc.constant(0), fc.double({ min: 0, max: 50, noNaN: true })));
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 1, maxLength: 30 }),
        coord,
        coord,
        coord,
        fc.boolean(),
        (items, qx, qy, qr, touching) => {
          const t = new LooseQuadtree({ touching });
          items.forEach(([x, y, w], id) => t.insert(id, x, y, x + w, y + w));
          validateTree(t);
          const boxes = items.map(([x, y, w]) => stored([x, y, x + w, y + w]));
          const r = Math.abs(qr);
          const hits: number[] = [];
          t.queryCircle(qx, qy, r, hits);
          const [x, y, radius] = [qx, qy, r].map(queryNumber);
          const expectHits = boxes
            .map(([x0, y0, x1, y1], id) => [id, circleBoxOverlap(x, y, radius, x0, y0, x1, y1, touching)] as const)
            .filter(([, hit]) => hit)
            .map(([id]) => id);
          expect(hits.sort((a, b) => a - b)).toEqual(expectHits);
          const all = boxes
            .map(([x0, y0, x1, y1], id) => [id, pointBoxDistance(x, y, x0, y0, x1, y1)] as const)
            .filter(([id]) => expectHits.includes(id))
            .sort((p, q) => p[1] - q[1] || p[0] - q[0]);
          const ids: number[] = [];
          const dists: number[] = [];
          for (const k of [1, 3, 100]) {
            t.nearest(qx, qy, k, r, ids, dists);
            expect(ids).toEqual(all.slice(0, k).map((e) => e[0]));
            expect(dists).toEqual(all.slice(0, k).map((e) => e[1]));
          }
        },
      ),
      { seed: 4242, numRuns: 400 },
    );
  });
});

describe('a circle in a box square only to within rounding (fuzz seed 771207)', () => {
  /**
   * A circle's box may be a few float32 ulps off square. The circle is the one inscribed, its
   * radius the smaller half-side, so it never leaves the box where pairs and queries look for
   * it: taking the width as the diameter, a box a hair shorter than wide held a circle that
   * poked out below, and a rectangle touching it there was not found.
   */
  it('queries and pairs at the box edges answer as the inscribed circle (fast-check, fixed seed)', () => {
    const ulps = fc.integer({ min: -4, max: 4 });
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 400, noNaN: true }),
        fc.double({ min: 0.5, max: 60, noNaN: true }),
        ulps,
        fc.constantFrom(0, 1, 2, 3),
        ulps,
        fc.boolean(),
        (at, size, off, edge, slide, touching) => {
          const [minX, minY, maxX] = stored([at, at * 0.7, at + size]);
          // Taller or shorter than wide by a few ulps of float32.
          const maxY = Math.fround(minY + (maxX - minX) * (1 + off * 2 ** -23));
          const tree = new LooseQuadtree({ x: -10, y: -10, width: 1000, height: 1000, touching });
          tree.insert(1, minX, minY, maxX, maxY);
          try {
            tree.setShape(1, Shape.Circle);
          } catch {
            return; // past the rounding a square allows
          }
          const circle = { minX, minY, maxX, maxY, layer: 1, mask: -1, priority: 128, isStatic: false, circle: true };
          // A thin box along one edge of the circle's box, slid across it by a few ulps.
          const cx = minX * 0.5 + maxX * 0.5,
            cy = minY * 0.5 + maxY * 0.5;
          const d = slide * 2 ** -20 * (size + at);
          const rects = [
            [cx - 1, maxY + d, cx + 1, maxY + d + 5],
            [cx - 1, minY - d - 5, cx + 1, minY - d],
            [maxX + d, cy - 1, maxX + d + 5, cy + 1],
            [minX - d - 5, cy - 1, minX - d, cy + 1],
          ].map((r) => stored(r));
          const r = rects[edge];
          const out: number[] = [];
          tree.queryRect(r[0], r[1], r[2], r[3], out);
          expect(out.length).toBe(shapeInRect(circle, r[0], r[1], r[2], r[3], touching) ? 1 : 0);
          const wall = {
            minX: r[0],
            minY: r[1],
            maxX: r[2],
            maxY: r[3],
            layer: 1,
            mask: -1,
            priority: 128,
            isStatic: false,
          };
          tree.insert(2, r[0], r[1], r[2], r[3]);
          tree.step();
          expect(tree.current.count).toBe(shapesOverlap(circle, wall, touching) ? 1 : 0);
        },
      ),
      { seed: 771207, numRuns: 3000 },
    );
  });
});
