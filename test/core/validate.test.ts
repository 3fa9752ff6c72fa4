import { describe, expect, it } from 'vitest';
import { LooseQuadtree, Shape, validateTree } from '../../src/core/index.js';

/** A small tree with items in nodes, a circle, a swept item and pairs, all valid after a step. */
function sample(): LooseQuadtree {
  const tree = new LooseQuadtree({ width: 256, height: 256 });
  for (let i = 0; i < 40; i++) {
    const x = (i * 37) % 240,
      y = (i * 91) % 240;
    tree.insert(i, x, y, x + 12, y + 12);
  }
  tree.setShape(3, Shape.Circle);
  tree.setSwept(5, true);
  tree.step();
  tree.move(5, 30, 30, 42, 42);
  tree.step();
  validateTree(tree);
  return tree;
}

describe('validateTree', () => {
  // Each damage, done to a valid tree's internals, must be found and named: the oracles trust a silent validate.
  const damages: [string, (tree: LooseQuadtree) => void, string | RegExp][] = [
    ['a slot naming another item', (t) => (t.tree.slots.id[t.tree.items.slotOf(7)] = 8), 'item 8'],
    ['a subtree count', (t) => t.tree.nodes.total[0]++, 'node 0 counts'],
    [
      'a class count',
      (t) => t.tree.classes.size[t.tree.items.classOf(9)]++,
      /class \d+ counts \d+ items, (lists|holds) \d+/,
    ],
    [
      'a circle whose box is not square',
      (t) => (t.tree.slots.box[4 * t.tree.items.slotOf(3) + 2] += 5),
      'item 3 is a circle but its box is',
    ],
    [
      'a swept box off its path',
      (t) => (t.tree.slots.box[4 * t.tree.items.slotOf(5)] += 50),
      'swept item 5 has a box that does not cover its path',
    ],
    [
      'pairs out of order',
      (t) => {
        const cur = t.current;
        [cur.a[0], cur.a[1], cur.b[0], cur.b[1]] = [cur.a[1], cur.a[0], cur.b[1], cur.b[0]];
      },
      'out of order',
    ],
  ];
  for (const [what, damage, named] of damages) {
    it(`finds ${what}`, () => {
      const tree = sample();
      expect(tree.current.count).toBeGreaterThan(1);
      damage(tree);
      expect(() => validateTree(tree)).toThrow(/^bitecs-quadtree: validate: /);
      expect(() => validateTree(tree)).toThrow(named);
    });
  }
});
