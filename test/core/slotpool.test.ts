import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SlotPool } from '../../src/core/store/SlotPool.js';

/** A region handed out by the pool, with the values its slots were filled with. */
interface Region {
  start: number;
  size: number;
  first: number;
}

function fill(pool: SlotPool, r: Region): void {
  for (let i = 0; i < r.size; i++) {
    const s = r.start + i;
    const v = r.first + i;
    pool.id[s] = v;
    pool.collider[s] = -v;
    for (let k = 0; k < 4; k++) pool.box[4 * s + k] = v + k / 4;
  }
}

/**
 * Builds a layout by handing regions out, freeing some (later ones fill the holes), then
 * compacts it in the order given, each region cut to `room` of its slots.
 */
function compact(sizes: number[], freed: boolean[], order: number[], cut: number[]): void {
  const pool = new SlotPool(16);
  const live: Region[] = [];
  let next = 1;
  for (let i = 0; i < sizes.length; i++) {
    const start = pool.alloc(sizes[i]);
    const r = { start, size: pool.allocated, first: next };
    next += r.size;
    fill(pool, r);
    if (freed[i]) pool.free(r.start, r.size);
    else live.push(r);
  }
  const placed: { r: Region; room: number; at: number }[] = [];
  pool.beginCompact();
  for (const k of order) {
    if (k >= live.length || placed.some((p) => p.r === live[k])) continue;
    const r = live[k];
    const room = Math.max(1, r.size - (cut[k] % r.size));
    placed.push({ r, room, at: pool.place(r.start, room) });
  }
  pool.endCompact();
  let end = 0;
  for (const { r, room, at } of placed) {
    expect(at).toBe(end);
    end += room;
    for (let i = 0; i < room; i++) {
      const s = at + i;
      const v = r.first + i;
      expect(pool.id[s], `slot ${s} of the region from ${r.start}`).toBe(v);
      expect(pool.collider[s]).toBe(-v);
      for (let k = 0; k < 4; k++) expect(pool.box[4 * s + k]).toBe(v + k / 4);
    }
  }
  expect(pool.used).toBe(end);
}

describe('SlotPool compaction', () => {
  it('moves every region to its new place whole, whichever way and however far it moves', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 60 }),
        fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
        fc.array(fc.nat({ max: 59 }), { minLength: 0, maxLength: 120 }),
        fc.array(fc.nat({ max: 8 }), { minLength: 60, maxLength: 60 }),
        (sizes, freed, order, cut) => compact(sizes, freed, order, cut),
      ),
      { numRuns: 400 },
    );
  });

  it('moves a layout that drifts up, with regions back from the end and from holes', () => {
    // Every region placed in its old order one slot further up, then the last few first.
    const sizes = Array.from({ length: 40 }, (_, i) => 2 + (i % 5));
    const freed = sizes.map((_, i) => i % 7 === 3);
    const live = sizes.length - freed.filter(Boolean).length;
    const order = [live - 1, live - 2, ...Array.from({ length: live }, (_, i) => i)];
    compact(sizes, freed, order, new Array<number>(60).fill(0));
  });
});

describe('SlotPool gather', () => {
  it('puts the chosen slots of a region at its first places, in the order given', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 8 }),
        fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
        (room, before, keys) => {
          const pool = new SlotPool(16);
          pool.alloc(before + 1); // the region does not start at 0
          const start = pool.alloc(room);
          fill(pool, { start, size: pool.allocated, first: 1 });
          // A random subset of the region's slots, in a random order.
          const chosen = Array.from({ length: room }, (_, i) => i)
            .filter((i) => keys[i] % 3 !== 0)
            .sort((a, b) => keys[a] - keys[b] || a - b);
          pool.gather(
            start,
            room,
            Int32Array.from(chosen, (i) => start + i),
            chosen.length,
          );
          chosen.forEach((i, p) => {
            const s = start + p;
            expect(pool.id[s]).toBe(1 + i);
            expect(pool.collider[s]).toBe(-(1 + i));
            for (let k = 0; k < 4; k++) expect(pool.box[4 * s + k]).toBe(1 + i + k / 4);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
