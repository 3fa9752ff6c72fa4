import { describe, expect, it } from 'vitest';
import { PairBuffer, BORN } from '../../src/core/lists/PairBuffer.js';
import { LooseQuadtree } from '../../src/core/index.js';

describe('pair buffers', () => {
  it('hold only the columns they use', () => {
    const list = new PairBuffer(16, BORN);
    list.push(1, 2, 3, 99);
    list.reserve(100);
    expect([list.born[0], list.born.length >= 100, list.was.length]).toEqual([99, true, 0]);
  });

  it('give memory back after 64 steps in a row under a quarter of their room, not before', () => {
    const list = new PairBuffer(16, BORN);
    list.reserve(10_000);
    const room = list.a.length;
    list.count = 100;
    for (let i = 0; i < 63; i++) list.trim();
    expect(list.a.length).toBe(room);
    list.count = 5000; // a busy step starts the wait again
    list.trim();
    list.count = 100;
    for (let i = 0; i < 63; i++) list.trim();
    expect(list.a.length).toBe(room);
    list.trim();
    expect([list.a.length, list.born.length]).toEqual([150, 150]);
  });

  it("keep the exits' lists in a steady scene: no reallocation from step to step", () => {
    // 6,000 boxes that jitter about their places: thousands of pairs begin and end every step.
    const tree = new LooseQuadtree({ width: 4096, height: 4096 });
    const n = 6000;
    let seed = 5;
    const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const place = (i: number): void => {
      const x = (i % 100) * 20 + random() * 12;
      const y = Math.floor(i / 100) * 20 + random() * 12;
      tree.move(i, x, y, x + 19, y + 19);
    };
    for (let i = 0; i < n; i++) tree.insert(i, 0, 0, 1, 1);
    const arrays = new Set<unknown>();
    let most = 0;
    for (let f = 0; f < 200; f++) {
      for (let i = 0; i < n; i++) place(i);
      tree.step();
      if (f >= 150) {
        arrays.add(tree.exited.a);
        most = Math.max(most, tree.stats.exited);
      }
    }
    expect(most).toBeGreaterThan(4096);
    // Two lists trade places every step; the same two arrays throughout.
    expect(arrays.size).toBeLessThanOrEqual(2);
  });
});
