import { describe, expect, it, vi } from 'vitest';
import { LooseQuadtree, validateTree } from '../../src/core/index.js';

// A far id makes the id map (4 bytes an id) grow to cover it. Running out of memory for real would
// take gigabytes, so the growth helper refuses sizes past a threshold the way an engine that
// cannot allocate does: with a RangeError.
const REFUSE_ABOVE = 1 << 22;
vi.mock('../../src/core/grow.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/core/grow.js')>();
  return {
    ...actual,
    grow: (a: Parameters<typeof actual.grow>[0], size: number, fill?: number) => {
      if (size > REFUSE_ABOVE) throw new RangeError('Array buffer allocation failed');
      return actual.grow(a, size, fill);
    },
  };
});

describe('per-id growth', () => {
  it('turns an allocation failure into an error naming the id and maxId, and the index stays usable', () => {
    const tree = new LooseQuadtree({ width: 100, height: 100 });
    tree.insert(1, 0, 0, 10, 10);
    let message = '';
    try {
      tree.insert(6_000_000, 0, 0, 10, 10);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toBe(
      'bitecs-quadtree: id 6000000 needs per-id arrays for 8388608 ids (about 32 MB at 4 ' +
        'bytes an id), which could not be allocated (maxId 16777216): keep ids dense, or lower option maxId to ' +
        'refuse such ids up front',
    );
    expect(tree.has(6_000_000)).toBe(false);
    expect(tree.size).toBe(1);
    tree.insert(2, 5, 5, 15, 15);
    tree.step();
    validateTree(tree);
    expect(tree.current.count).toBe(1);
  });
});
