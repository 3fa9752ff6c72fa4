import { describe, expect, it } from 'vitest';
import { PairBuffer } from '../../src/core/lists/PairBuffer.js';
import { PairRadix } from '../../src/core/lists/radix.js';
import { comparePairs } from '../../src/core/lists/order.js';
import { mulberry32 } from './helpers.js';

/** A random pair list: ids below `maxId` (a < b), priorities from `priorities`, runs of one a of any length. */
function randomList(next: () => number, n: number, maxId: number, priorities: number[], withBorn: boolean) {
  const list = new PairBuffer(16, withBorn);
  for (let i = 0; i < n; i++) {
    const a = Math.floor(next() * (maxId - 1));
    const b = a + 1 + Math.floor(next() * Math.min(maxId - a - 1, next() < 0.5 ? 4 : maxId));
    list.push(a, b, priorities[Math.floor(next() * priorities.length)]);
    if (withBorn) list.born[i] = i;
  }
  return list;
}

describe('the pair sort', () => {
  it('orders by priority descending, a, b, moving start steps and a side column with their pairs', () => {
    const next = mulberry32(20261207);
    const sorter = new PairRadix();
    for (let round = 0; round < 300; round++) {
      const n = Math.floor(next() * (round % 10 === 0 ? 5000 : 200));
      // Few ids for the pairs (a bucket per id) and ids past 2^20 (11-bit passes).
      const maxId = next() < 0.5 ? 2 + Math.floor(next() * 50) : 2 + Math.floor(next() * 3_000_000);
      const priorities = next() < 0.3 ? [77] : [0, 10, 63, 64, 128, 191, 192, 255];
      const withBorn = next() < 0.5;
      const list = randomList(next, n, maxId, priorities, withBorn);
      const side = next() < 0.5 ? Uint8Array.from({ length: list.a.length }, (_, i) => i & 255) : null;
      // Distinct pairs, as every list the core sorts: the first of each kept, and what it carries.
      const seen = new Set<string>();
      const expected: number[][] = [];
      const kept = new PairBuffer(16, withBorn);
      const keptSide: number[] = [];
      for (let i = 0; i < list.count; i++) {
        const key = `${list.a[i]},${list.b[i]}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const row = [list.priority[i], list.a[i], list.b[i], withBorn ? list.born[i] : -1, side?.[i] ?? -1];
        expected.push(row);
        kept.push(row[1], row[2], row[0]);
        if (withBorn) kept.born[kept.count - 1] = row[3];
        keptSide.push(row[4]);
      }
      const keptSideColumn = side === null ? null : Uint8Array.from(keptSide);
      expected.sort((p, q) => comparePairs(p[0], p[1], p[2], q[0], q[1], q[2]));
      sorter.sort(kept, keptSideColumn, !withBorn && side === null && next() < 0.5);
      const got: number[][] = [];
      for (let i = 0; i < kept.count; i++) {
        got.push([kept.priority[i], kept.a[i], kept.b[i], withBorn ? kept.born[i] : -1, keptSideColumn?.[i] ?? -1]);
      }
      expect(got).toEqual(expected);
    }
  });
});
