import { describe, expect, it } from 'vitest';
import { LooseQuadtree, validateTree } from '../../src/core/index.js';
import { readPairs } from './helpers.js';

/**
 * The questions asked about one item's pairs between steps (`pairsOf`, `pairStartedAt`,
 * `timeOfImpact`) are answered from the pair list of the last step, grouped by item when first
 * asked. Between two steps, removals, re-insertions, priority changes and a clear happen
 * in random order, and every answer is checked against that list: a pair with an item removed
 * since is gone, every other listed pair keeps the step it began in.
 */
describe('per-item pair questions between steps', () => {
  for (const seed of [1, 2, 3]) {
    it(`match the last step's list through removals, priority changes and clears (seed ${seed})`, () => {
      let s = seed * 7919;
      const random = (): number => (s = (s * 16807) % 2147483647) / 2147483647;
      const tree = new LooseQuadtree({ width: 512, height: 512 });
      const live = new Set<number>();
      const put = (id: number): void => {
        const x = random() * 480;
        const y = random() * 480;
        tree.insert(id, x, y, x + 8 + random() * 24, y + 8 + random() * 24);
        live.add(id);
      };
      for (let id = 0; id < 400; id++) put(id);
      const out: number[] = [];
      let asked = 0;
      for (let step = 0; step < 60; step++) {
        tree.step();
        validateTree(tree);
        const pairs = readPairs(tree.current);
        const born = new Map(pairs.map(([a, b]) => [`${a},${b}`, tree.pairStartedAt(a, b)]));
        const gone = new Set<number>();
        // Changes since the step, then questions, twice, so answers come both before and
        // after the first grouping of the list.
        for (let round = 0; round < 2; round++) {
          for (let k = 0; k < 20; k++) {
            const id = Math.floor(random() * 500);
            const what = random();
            if (live.has(id) && what < 0.3) {
              tree.remove(id);
              live.delete(id);
              gone.add(id);
            } else if (!live.has(id) && what < 0.6) {
              put(id);
              if (born.size > 0) gone.add(id); // a new item: the old id's pairs ended
            } else if (live.has(id)) {
              tree.setCollider(id, 1, -1, Math.floor(random() * 256));
            } else {
              const x = random() * 480;
              tree.insert(id, x, x, x + 10, x + 10);
              live.add(id);
              gone.add(id);
            }
          }
          if (step % 20 === 19 && round === 1) {
            tree.clear();
            for (const id of live) gone.add(id);
            live.clear();
            for (let id = 0; id < 50; id++) put(id);
          }
          for (const [a, b] of pairs) {
            const ended = gone.has(a) || gone.has(b);
            expect(tree.pairStartedAt(a, b)).toBe(ended ? -1 : born.get(`${a},${b}`));
            if (live.has(a) && live.has(b)) expect(tree.timeOfImpact(b, a)).toBe(ended ? -1 : 0);
          }
          for (const id of live) {
            if (random() > 0.2) continue;
            tree.pairsOf(id, out);
            const expected = gone.has(id)
              ? []
              : pairs
                  .filter(([a, b]) => (a === id || b === id) && !gone.has(a) && !gone.has(b))
                  .map(([a, b]) => (a === id ? b : a));
            expect([...out].sort((x, y) => x - y)).toEqual(expected.sort((x, y) => x - y));
            asked++;
          }
        }
      }
      expect(asked).toBeGreaterThan(1000);
    });
  }
});
