import { describe, expect, it } from 'vitest';
import { LooseQuadtree } from '../../src/core/index.js';

const gc = (globalThis as { gc?: () => void }).gc;

/** Bytes held in array buffers now, after full collections. */
function arrayBytes(): number {
  for (let i = 0; i < 4; i++) gc!();
  return process.memoryUsage().arrayBuffers;
}

describe('memory follows the items (needs node --expose-gc)', () => {
  it('a far id costs the id map, not a record per id below it: id 16,000,000 beside id 1', () => {
    expect(gc, 'run with node --expose-gc (the unit project sets it)').toBeTypeOf('function');
    const before = arrayBytes();
    const tree = new LooseQuadtree({ width: 1024, height: 1024 });
    tree.insert(1, 0, 0, 10, 10);
    tree.insert(16_000_000, 5, 5, 15, 15);
    tree.step();
    expect(tree.current.count).toBe(1);
    const hits: number[] = [];
    expect(tree.queryRect(0, 0, 20, 20, hits)).toBe(2);
    tree.move(16_000_000, 500, 500, 510, 510);
    tree.step();
    expect(tree.exited.count).toBe(1);
    tree.remove(16_000_000);
    tree.insert(16_000_001, 0, 0, 4, 4);
    tree.step();
    tree.validate();
    expect(tree.current.count).toBe(1);
    const grown = arrayBytes() - before;
    // 4 bytes an id for the map and a few bits an id for the step's sets: about 72 MB.
    expect(grown, `${(grown / 2 ** 20).toFixed(1)} MB`).toBeLessThan(80 * 2 ** 20);
    expect(tree.size).toBe(2);
  });

  it('records follow the items: 20,000 inserted and removed over and over hold no more than 20,000 records', () => {
    const tree = new LooseQuadtree({ width: 4096, height: 4096 });
    // Ids spread over a wide range, as recycled and versioned ids can be.
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 20_000; i++)
        tree.insert(round * 20_000 + i, i % 4000, (i * 7) % 4000, (i % 4000) + 3, ((i * 7) % 4000) + 3);
      tree.step();
      for (let i = 0; i < 20_000; i++) tree.remove(round * 20_000 + i);
      tree.step();
      tree.validate();
    }
    const probe = new LooseQuadtree({ width: 4096, height: 4096 });
    for (let i = 0; i < 20_000; i++) probe.insert(i, i % 4000, (i * 7) % 4000, (i % 4000) + 3, ((i * 7) % 4000) + 3);
    // The id map spans 100,000 ids; the records, the 20,000 live at a time.
    expect(recordsOf(tree)).toBe(recordsOf(probe));
  });
});

function recordsOf(tree: LooseQuadtree): number {
  return (tree as unknown as { tree: { items: { f64: Float64Array } } }).tree.items.f64.length / 8;
}
