import { describe, expect, it } from 'vitest';
import { LooseQuadtree, Shape, validateTree } from '../../src/core/index.js';
import { readPairs } from './helpers.js';

/*
 * Boxes are stored in float32: each corner rounded to the nearest float32 as it is stored.
 * Pairs, queries and getBox are those of the rounded boxes; a move to the box already stored
 * (once rounded) changes nothing.
 */

const f = Math.fround;
const box = () => ({ minX: 0, minY: 0, maxX: 0, maxY: 0 });

describe('boxes stored in float32', () => {
  it('getBox gives each corner rounded to the nearest float32', () => {
    const tree = new LooseQuadtree({ width: 100, height: 100 });
    tree.insert(1, 0.1, 0.2, 10.7, 20.3);
    expect(tree.getBox(1, box())).toEqual({ minX: f(0.1), minY: f(0.2), maxX: f(10.7), maxY: f(20.3) });
    // Rounded to nearest, not outward: the minima round up here, the maxima down.
    expect([f(0.1) > 0.1, f(0.2) > 0.2, f(10.7) < 10.7, f(20.3) < 20.3]).toEqual([true, true, true, true]);
  });

  it('a move to the box it has once rounded changes nothing, on the fast path and the slow one', () => {
    const tree = new LooseQuadtree({ width: 100, height: 100 });
    tree.insert(1, 0.1, 0.1, 5.1, 5.1);
    tree.insert(2, 3.3, 3.3, 8.3, 8.3);
    tree.step();
    expect(tree.move(1, 0.1, 0.1, 5.1, 5.1)).toBe(false);
    // Numbers that differ in float64 but round to the same float32.
    expect(tree.move(1, 0.1 + 1e-12, 0.1, 5.1, 5.1 - 1e-12)).toBe(false);
    expect(tree.move(1, 0.1, 0.1, 5.1, 5.2)).toBe(true);
    expect(tree.move(1, 0.1, 0.1, 5.1, 5.2)).toBe(false);
    // A pending item (the slow path) likewise.
    tree.insert(3, 20.1, 20.1, 30.1, 30.1);
    expect(tree.move(3, 20.1, 20.1, 30.1, 30.1)).toBe(false);
    expect(tree.move(3, 20.1, 20.1, 30.1, 30.2)).toBe(true);
    tree.step();
    validateTree(tree);
  });

  it('pairs are those of the rounded boxes: under float32 rounding, apart and touching are one', () => {
    const gap = 1e-9; // far below float32's half step at 1 (6e-8)
    for (const touching of [false, true]) {
      const tree = new LooseQuadtree({ width: 10, height: 10, touching });
      tree.insert(1, 0, 0, 1, 1);
      tree.insert(2, 1 + gap, 0, 2, 1); // apart in float64, touching in float32
      tree.insert(3, 0, 2, 1 + gap, 3);
      tree.insert(4, 1, 2, 2, 3); // overlapping by `gap` in float64, touching in float32
      tree.step();
      expect(readPairs(tree.current).map(([a, b]) => [a, b])).toEqual(
        touching
          ? [
              [1, 2],
              [3, 4],
            ]
          : [],
      );
      const hits: number[] = [];
      expect(tree.queryPoint(1, 0.5, hits)).toBe(touching ? 2 : 0);
    }
  });

  it("a circle's box need be square only to within float32's rounding, far from the origin too", () => {
    const tree = new LooseQuadtree({ width: 100, height: 100 });
    // Centre (1e6 + 0.1, -3e6 + 0.3), radius 6.35: its corners round by up to 1/8 each.
    const [x, y, r] = [1e6 + 0.1, -3e6 + 0.3, 6.35];
    tree.insert(1, x - r, y - r, x + r, y + r);
    tree.setShape(1, Shape.Circle);
    const b = tree.getBox(1, box());
    expect(b.maxX - b.minX).not.toBe(b.maxY - b.minY);
    // Moved on from the box read back, as a game may: still a circle's box.
    expect(tree.move(1, b.minX + 0.5, b.minY - 0.25, b.maxX + 0.5, b.maxY - 0.25)).toBe(true);
    tree.step();
    validateTree(tree);
    // A box that is not square beyond that rounding is refused.
    expect(() => tree.move(1, x - r, y - r, x + r, y + r + 1)).toThrow(/item 1 is a circle but its box is/);
  });
});
