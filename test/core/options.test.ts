import { describe, expect, it } from 'vitest';
import { LooseQuadtree, type BudgetOptions, type QuadtreeOptions } from '../../src/core/index.js';

/** The message of the error `call` throws. */
function thrown(call: () => unknown): string {
  try {
    call();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a throw');
}

// Plain JavaScript passes any object: the casts stand for a game written without types.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- T names the options type the plain object stands in for
const loose = <T = QuadtreeOptions>(o: object) => o as T;

describe('option keys', () => {
  it('refuses a misspelled option of the constructor, naming it and the closest valid one', () => {
    expect(thrown(() => new LooseQuadtree(loose({ widht: 10 })))).toBe(
      'bitecs-quadtree: unknown option "widht" (did you mean "width"?)',
    );
    expect(thrown(() => new LooseQuadtree(loose({ width: 100, budgte: { maxPairTests: 5 } })))).toBe(
      'bitecs-quadtree: unknown option "budgte" (did you mean "budget"?)',
    );
    expect(thrown(() => new LooseQuadtree(loose({ maxdepth: 4 })))).toBe(
      'bitecs-quadtree: unknown option "maxdepth" (did you mean "maxDepth"?)',
    );
  });

  it('lists the valid keys when no key is close', () => {
    expect(thrown(() => new LooseQuadtree(loose({ colour: 'red' })))).toBe(
      'bitecs-quadtree: unknown option "colour" (valid: x, y, width, height, maxDepth, touching, lifespan, ' +
        'maxLifespan, maxId, budget)',
    );
  });

  it('refuses unknown keys of the budget option and of setBudget, and a budget that is not an object', () => {
    expect(thrown(() => new LooseQuadtree({ budget: loose<BudgetOptions>({ maxPairTest: 10 }) }))).toBe(
      'bitecs-quadtree: unknown budget option "maxPairTest" (did you mean "maxPairTests"?)',
    );
    const tree = new LooseQuadtree();
    expect(thrown(() => tree.setBudget(loose<BudgetOptions>({ maxMS: 2 })))).toBe(
      'bitecs-quadtree: unknown budget option "maxMS" (did you mean "maxMs"?)',
    );
    expect(thrown(() => tree.setBudget(null as unknown as object))).toBe(
      'bitecs-quadtree: budget options must be an object (got null)',
    );
  });

  it('accepts every documented option, and a refused budget changes nothing', () => {
    const tree = new LooseQuadtree({
      x: 0,
      y: 0,
      width: 100,
      height: 50,
      maxDepth: 3,
      touching: true,
      lifespan: 4,
      maxLifespan: 8,
      maxId: 100,
      budget: { maxPairTests: 10, maxMs: 5, minChecksPerTier: 2 },
    });
    for (let id = 0; id < 40; id++) tree.insert(id, id, 0, id + 10, 10);
    expect(() => tree.setBudget(loose<BudgetOptions>({ maxPairTests: 1, minChecks: 1 }))).toThrow(
      'did you mean "minChecksPerTier"?',
    );
    tree.step();
    // The constructor's budget holds: 10 tests, the minimum share of each tier beyond them.
    expect(tree.stats.waitBound).toBeGreaterThan(0);
    tree.setBudget({});
    tree.step();
    expect(tree.stats.waitBound).toBe(0);
  });
});
