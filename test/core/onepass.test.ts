import { describe, expect, it } from 'vitest';
import { LooseQuadtree, validateTree } from '../../src/core/index.js';
import { readPairs } from './helpers.js';

/**
 * The one-pass step (most items moved, no budget) finds every pair again and merges them with
 * the current list, the only record of the pairs. These cases walk the transitions the random
 * oracle reaches only by chance: removal, re-insertion under the same id, priority changes and
 * per-item questions between one-pass steps, and the switch back to the movers' steps.
 */

/** Ten boxes in a row, each overlapping its neighbours: pairs (i, i + 1). */
function row(): LooseQuadtree {
  const tree = new LooseQuadtree({ width: 1000, height: 1000 });
  for (let i = 0; i < 10; i++) tree.insert(i, 100 + i * 10, 100, 112 + i * 10, 110);
  tree.step();
  return tree;
}

/** Nudges every item by dx (so the next step takes the one-pass path). */
function nudgeAll(tree: LooseQuadtree, dx: number, skip: number[] = []): void {
  for (let i = 0; i < 10; i++) {
    if (skip.includes(i) || !tree.has(i)) continue;
    tree.move(i, 100 + i * 10 + dx, 100, 112 + i * 10 + dx, 110);
  }
}

function onePassStep(tree: LooseQuadtree): void {
  tree.step();
  expect(tree.stats.moved).toBe(tree.size);
  validateTree(tree);
}

const chain = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => [from + k, from + k + 1, 128]);

describe('one-pass steps and the pair list', () => {
  it('a removal between one-pass steps ends its pairs in the next step, and at once for pairStartedAt', () => {
    const tree = row();
    nudgeAll(tree, 1);
    onePassStep(tree);
    expect(readPairs(tree.current)).toEqual(chain(0, 9));
    tree.remove(4);
    validateTree(tree);
    expect(tree.pairStartedAt(3, 4)).toBe(-1);
    expect(tree.pairStartedAt(5, 6)).toBe(1);
    nudgeAll(tree, 2);
    onePassStep(tree);
    expect(readPairs(tree.exited)).toEqual([
      [3, 4, 128],
      [4, 5, 128],
    ]);
    expect(readPairs(tree.entered)).toEqual([]);
    expect(readPairs(tree.current)).toEqual([...chain(0, 3), ...chain(5, 9)]);
  });

  it('an id removed and inserted again in the same place is a new pair: exit and entry', () => {
    for (const nextOnePass of [true, false]) {
      const tree = row();
      nudgeAll(tree, 1);
      onePassStep(tree);
      tree.remove(4);
      tree.insert(4, 141, 100, 153, 110);
      expect(tree.pairStartedAt(3, 4)).toBe(-1);
      // Either every item moves again (one pass) or only the new one is checked (per item).
      if (nextOnePass) nudgeAll(tree, 2, [4]);
      tree.step();
      validateTree(tree);
      expect(tree.stats.moved).toBe(nextOnePass ? 10 : 1);
      expect(readPairs(tree.exited)).toEqual([
        [3, 4, 128],
        [4, 5, 128],
      ]);
      expect(readPairs(tree.entered)).toEqual([
        [3, 4, 128],
        [4, 5, 128],
      ]);
      expect(readPairs(tree.current)).toEqual(chain(0, 9));
      expect(tree.pairStartedAt(3, 4)).toBe(tree.stepCount);
      expect(tree.pairStartedAt(5, 6)).toBe(1);
    }
  });

  it('a priority change before a one-pass step re-sorts the pairs; an ending pair reports its old priority', () => {
    const tree = row();
    tree.setCollider(5, 1, -1, 200);
    tree.setCollider(6, 1, -1, 250);
    tree.setCollider(2, 1, -1, 10);
    nudgeAll(tree, 1);
    onePassStep(tree);
    expect(readPairs(tree.current)).toEqual([
      [5, 6, 200],
      ...chain(0, 1),
      [3, 4, 128],
      [4, 5, 128],
      [6, 7, 128],
      [7, 8, 128],
      [8, 9, 128],
      [1, 2, 10],
      [2, 3, 10],
    ]);
    // 6 drops to 0 and leaves 7 behind; 5 rises.
    tree.setCollider(6, 1, -1, 0);
    tree.setCollider(5, 1, -1, 255);
    nudgeAll(tree, 2, [7]);
    tree.move(7, 300, 300, 310, 310);
    onePassStep(tree);
    expect(readPairs(tree.exited)).toEqual([
      [6, 7, 128],
      [7, 8, 128],
    ]);
    expect(readPairs(tree.current)).toEqual([
      [0, 1, 128],
      [3, 4, 128],
      [4, 5, 128],
      [8, 9, 128],
      [1, 2, 10],
      [2, 3, 10],
      [5, 6, 0],
    ]);
    expect(tree.pairStartedAt(5, 6)).toBe(1);
    expect(tree.pairStartedAt(4, 5)).toBe(1);
  });

  it('pairsOf and a per-item step after one-pass steps see the same pairs', () => {
    const tree = row();
    nudgeAll(tree, 1);
    onePassStep(tree);
    nudgeAll(tree, 2);
    onePassStep(tree);
    const out: number[] = [];
    expect(tree.pairsOf(4, out)).toBe(2);
    expect([...out].sort((x, y) => x - y)).toEqual([3, 5]);
    validateTree(tree);
    // One mover: a per-item step, which needs the pair lists.
    tree.move(9, 500, 500, 510, 510);
    tree.step();
    validateTree(tree);
    expect(tree.stats.moved).toBe(1);
    expect(readPairs(tree.exited)).toEqual([[8, 9, 128]]);
    expect(readPairs(tree.current)).toEqual(chain(0, 8));
    expect(tree.pairStartedAt(0, 1)).toBe(1);
  });

  it('clear between one-pass steps ends every pair in the next step', () => {
    const tree = row();
    nudgeAll(tree, 1);
    onePassStep(tree);
    tree.clear();
    validateTree(tree);
    tree.step();
    validateTree(tree);
    expect(readPairs(tree.exited)).toEqual(chain(0, 9));
    expect(tree.current.count).toBe(0);
  });
});
