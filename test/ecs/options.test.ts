import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addQuadtree,
  getQuadtree,
  getStats,
  hasQuadtree,
  setDispatchBudget,
  setStepBudget,
  type BudgetOptions,
  type QuadtreeWorldOptions,
  validateTree,
} from '../../src/index.js';
import { Rng } from './helpers.js';
import { Scene } from './scene.js';

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
const loose = <T>(o: object) => o as T;

describe('addQuadtree option keys', () => {
  it('refuses a misspelled option of the plugin or of the tree, and leaves the world without a quadtree', () => {
    const world = createWorld();
    expect(thrown(() => addQuadtree(world, loose<QuadtreeWorldOptions>({ pairEntites: false })))).toBe(
      'bitecs-quadtree: unknown option "pairEntites" (did you mean "pairEntities"?)',
    );
    expect(thrown(() => addQuadtree(world, loose<QuadtreeWorldOptions>({ widht: 10 })))).toBe(
      'bitecs-quadtree: unknown option "widht" (did you mean "width"?)',
    );
    expect(hasQuadtree(world)).toBe(false);
  });

  it('refuses unknown keys of the budget and dispatch options, and of setStepBudget and setDispatchBudget', () => {
    expect(thrown(() => addQuadtree(createWorld(), { budget: loose({ budgte: 1 }) }))).toBe(
      'bitecs-quadtree: unknown budget option "budgte" (valid: maxPairTests, maxMs, minChecksPerTier)',
    );
    expect(thrown(() => addQuadtree(createWorld(), { dispatch: loose({ maxCall: 10 }) }))).toBe(
      'bitecs-quadtree: unknown dispatch option "maxCall" (did you mean "maxCalls"?)',
    );
    const world = addQuadtree(createWorld());
    expect(thrown(() => setDispatchBudget(world, loose({ minCall: 2 })))).toBe(
      'bitecs-quadtree: unknown dispatch option "minCall" (did you mean "minCalls"?)',
    );
    expect(thrown(() => setStepBudget(world, loose<BudgetOptions>({ maxPairTest: 2 })))).toBe(
      'bitecs-quadtree: unknown budget option "maxPairTest" (did you mean "maxPairTests"?)',
    );
    expect(thrown(() => setStepBudget(world, null as unknown as BudgetOptions))).toBe(
      'bitecs-quadtree: budget options must be an object (got null)',
    );
  });

  it('hands the tree options to the tree and keeps the plugin options', () => {
    const world = addQuadtree(createWorld(), {
      width: 300,
      height: 200,
      maxDepth: 2,
      touching: true,
      pairEntities: false,
    });
    const tree = getQuadtree(world);
    expect([tree.width, tree.height, tree.maxDepth, tree.touching]).toEqual([300, 200, 2, true]);
  });
});

describe('the budget option', () => {
  it("the world's stats repeat what the budget rationed and what it cut", () => {
    const scene = new Scene({ budget: { maxPairTests: 10, minChecksPerTier: 2 }, pairEntities: false });
    const rng = new Rng(4);
    const eids: number[] = [];
    for (let i = 0; i < 60; i++)
      eids.push(scene.spawn(rng.range(0, 200), rng.range(0, 200), 30, 30, { priority: 100 }));
    for (let frame = 0; frame < 5; frame++) {
      for (const eid of eids) scene.move(eid, rng.range(0, 200), rng.range(0, 200));
      scene.frame();
      const tree = getQuadtree(scene.world).stats;
      const stats = getStats(scene.world);
      expect([stats.pairTests, stats.budgetedTests, stats.deferred]).toEqual([
        tree.pairTests,
        tree.budgetedTests,
        tree.deferred,
      ]);
      expect(stats.budgetedTests).toBeGreaterThan(0);
      expect(stats.deferred).toBeGreaterThan(0);
    }
  });

  it('setStepBudget sets and lifts the budget of the next steps; a refused one changes nothing', () => {
    const scene = new Scene({ pairEntities: false });
    const rng = new Rng(4);
    const eids: number[] = [];
    for (let i = 0; i < 60; i++)
      eids.push(scene.spawn(rng.range(0, 200), rng.range(0, 200), 30, 30, { priority: 100 }));
    const frame = (): number => {
      for (const eid of eids) scene.move(eid, rng.range(0, 200), rng.range(0, 200));
      scene.frame();
      return getStats(scene.world).deferred;
    };
    expect(frame()).toBe(0);
    setStepBudget(scene.world, { maxPairTests: 10, minChecksPerTier: 2 });
    expect(frame()).toBeGreaterThan(0);
    expect(getStats(scene.world).budgetedTests).toBeGreaterThan(0);
    // Refused: the budget in force stays.
    expect(thrown(() => setStepBudget(scene.world, { maxPairTests: 10, maxMs: -1 }))).toMatch(
      /^bitecs-quadtree: .*maxMs.*\(got -1\)/,
    );
    expect(frame()).toBeGreaterThan(0);
    setStepBudget(scene.world, {});
    expect(frame()).toBe(0);
    expect(getStats(scene.world).budgetedTests).toBe(0);
    validateTree(getQuadtree(scene.world));
    expect(thrown(() => setStepBudget(createWorld(), {}))).toMatch(/this world has no quadtree/);
  });
});
