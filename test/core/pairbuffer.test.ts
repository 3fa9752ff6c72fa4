import { describe, expect, it } from 'vitest';
import { PairBuffer } from '../../src/core/lists/PairBuffer.js';
import { LooseQuadtree } from '../../src/core/index.js';
import { readPairs } from './helpers.js';

describe('pair buffers', () => {
  it('hold start steps only when they are the current list', () => {
    const list = new PairBuffer(16);
    list.push(1, 2, 3);
    list.born[0] = 99;
    list.reserve(100);
    const found = new PairBuffer(16, false);
    found.push(1, 2, 3);
    found.reserve(100);
    expect([list.born[0], list.born.length >= 100, found.born.length]).toEqual([99, true, 0]);
  });

  it("hold the pairs' old priorities only in steps that change them, and give the room back", () => {
    // A row of 6,000 boxes, each overlapping the next: 5,999 pairs.
    const tree = new LooseQuadtree({ width: 65536, height: 64 });
    const n = 6000;
    for (let i = 0; i < n; i++) tree.insert(i, 10 * i, 0, 10 * i + 12, 10);
    tree.step();
    const lists = (tree as unknown as { broadphase: { lists: { was: Uint8Array } } }).broadphase.lists;
    expect(lists.was.length).toBe(0);
    // 2, 3 and 4 go up, and 2 leaves: (2, 3) ends with the priority it had, not 200.
    for (const id of [2, 3, 4]) tree.setCollider(id, 1, -1, 200);
    tree.move(2, 0, 1000, 10, 1010);
    tree.step();
    expect(lists.was.length).toBeGreaterThanOrEqual(n - 1);
    expect(readPairs(tree.exited)).toEqual([
      [1, 2, 128],
      [2, 3, 128],
    ]);
    expect(readPairs(tree.current).slice(0, 2)).toEqual([
      [3, 4, 200],
      [0, 1, 128],
    ]);
    for (let f = 0; f < 63; f++) tree.step();
    expect(lists.was.length).toBeGreaterThanOrEqual(n - 1);
    tree.step();
    expect(lists.was.length).toBe(0);
  });

  it('give memory back after 64 steps in a row under a quarter of their room, not before', () => {
    const list = new PairBuffer(16);
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
    expect([list.a.length, list.born.length]).toEqual([125, 125]);
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
