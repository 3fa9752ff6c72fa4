import { describe, expect, it } from 'vitest';
import { LooseQuadtree, validateTree } from '../../src/core/index.js';
import { comparePairs, mulberry32, readPairs, type Pair } from './helpers.js';

/**
 * The movers' merge notes the places of the listed pairs with a moved side a chunk of 4,096
 * at a time. A scene with several chunks' worth a step, checked against a sweep-and-prune
 * reference: the pairs, and what entered and exited.
 */

type Boxes = Float64Array;

/** Every overlapping pair (strict), by sorting on minX and sweeping: priority is the lower one. */
function sweepPairs(box: Boxes, priority: Int32Array, n: number): Pair[] {
  const order = Array.from({ length: n }, (_, i) => i).sort((p, q) => box[4 * p] - box[4 * q]);
  const out: Pair[] = [];
  for (let s = 0; s < n; s++) {
    const p = order[s];
    for (let t = s + 1; t < n; t++) {
      const q = order[t];
      if (box[4 * q] >= box[4 * p + 2]) break;
      if (box[4 * p + 1] < box[4 * q + 3] && box[4 * q + 1] < box[4 * p + 3] && box[4 * p] < box[4 * q + 2])
        out.push([Math.min(p, q), Math.max(p, q), Math.min(priority[p], priority[q])]);
    }
  }
  return out.sort(comparePairs);
}

const key = (p: Pair): string => `${p[0]},${p[1]},${p[2]}`;

describe('the movers merge', () => {
  it('matches a reference across chunks of touched pairs, with two priorities', () => {
    const n = 6000;
    const random = mulberry32(91);
    const tree = new LooseQuadtree({ width: 4096, height: 4096 });
    const box = new Float64Array(4 * n);
    const priority = new Int32Array(n);
    const place = (i: number): void => {
      const x = (i % 100) * 20 + random() * 12;
      const y = Math.floor(i / 100) * 20 + random() * 12;
      box.set([x, y, x + 27, y + 27], 4 * i);
    };
    for (let i = 0; i < n; i++) {
      place(i);
      priority[i] = i % 3 === 0 ? 200 : 100;
      tree.insert(i, box[4 * i], box[4 * i + 1], box[4 * i + 2], box[4 * i + 3]);
      tree.setCollider(i, 1, 1, priority[i]);
    }
    tree.step();
    let before = sweepPairs(box, priority, n);
    expect(readPairs(tree.current)).toEqual(before);
    let mostTouched = 0;
    for (let step = 0; step < 12; step++) {
      // A third move: the movers' way (under half), most listed pairs touched.
      const moved = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        if (random() >= 1 / 3) continue;
        moved[i] = 1;
        place(i);
        tree.move(i, box[4 * i], box[4 * i + 1], box[4 * i + 2], box[4 * i + 3]);
      }
      tree.step();
      validateTree(tree);
      const after = sweepPairs(box, priority, n);
      expect(readPairs(tree.current)).toEqual(after);
      const was = new Set(before.map(key));
      const is = new Set(after.map(key));
      expect(readPairs(tree.entered)).toEqual(after.filter((p) => !was.has(key(p))));
      expect(readPairs(tree.exited)).toEqual(before.filter((p) => !is.has(key(p))));
      mostTouched = Math.max(mostTouched, before.filter((p) => moved[p[0]] === 1 || moved[p[1]] === 1).length);
      before = after;
    }
    // Several chunks of touched pairs a step.
    expect(mostTouched).toBeGreaterThan(2 * 4096);
  });
});
