import { describe, expect, it } from 'vitest';
import { LooseQuadtree, type QuadtreeOptions, validateTree } from '../../src/core/index.js';
import { Rng } from './helpers.js';

interface NodeInfo {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  depth: number;
  items: number;
}

function nodes(tree: LooseQuadtree): NodeInfo[] {
  const out: NodeInfo[] = [];
  tree.visitNodes((minX, minY, maxX, maxY, depth, items) => out.push({ minX, minY, maxX, maxY, depth, items }));
  return out;
}

/** A tree with one point item at the deepest level: the root plus 8 groups of 4 = 33 nodes. */
function deepItem(options: QuadtreeOptions = {}) {
  const tree = new LooseQuadtree({ maxDepth: 8, ...options });
  tree.insert(1, 100, 100, 100, 100);
  tree.step();
  return tree;
}

/** Steps until the emptied branch is freed; returns the number of steps it took. */
function stepsUntilFreed(tree: LooseQuadtree, limit = 1000): number {
  const live = tree.stats.nodesLive;
  for (let k = 1; k <= limit; k++) {
    const stats = tree.step();
    validateTree(tree);
    if (stats.nodesLive < live) return k;
    expect(stats.groupsCounting).toBeGreaterThan(0);
  }
  throw new Error('branch never freed');
}

/** Empties the deep item's branch for one step and fills it again: one reuse while counting. */
function reuseOnce(tree: LooseQuadtree): void {
  tree.remove(1);
  tree.step();
  tree.insert(1, 100, 100, 100, 100);
  tree.step();
}

/** Lifespans measured after 0, 1, ..., `reuses` reuses of the deep item's branch, each on a fresh tree. */
function spansAfterReuses(options: QuadtreeOptions, reuses: number): number[] {
  const spans: number[] = [];
  for (let n = 0; n <= reuses; n++) {
    const tree = deepItem(options);
    for (let r = 0; r < n; r++) reuseOnce(tree);
    tree.remove(1);
    spans.push(stepsUntilFreed(tree));
  }
  return spans;
}

describe('lifespan of empty branches', () => {
  it('an emptied branch counts down 8 frames by default and is freed at 0', () => {
    const tree = deepItem();
    expect(tree.stats.nodesLive).toBe(33);
    expect(tree.stats.groupsCounting).toBe(0);
    expect(nodes(tree)).toHaveLength(33);
    expect(Math.max(...nodes(tree).map((n) => n.depth))).toBe(8);
    tree.remove(1);
    for (let k = 1; k <= 7; k++) {
      const s = tree.step();
      validateTree(tree);
      expect([s.nodesLive, s.nodesFree, s.groupsCounting, s.groupsFreed], `frame ${k}`).toEqual([33, 0, 8, 0]);
      expect(nodes(tree)).toHaveLength(33);
    }
    const s = tree.step();
    validateTree(tree);
    expect([s.nodesLive, s.nodesFree, s.groupsCounting, s.groupsFreed]).toEqual([1, 32, 0, 8]);
    expect(nodes(tree)).toEqual([{ minX: -512, minY: -512, maxX: 1536, maxY: 1536, depth: 0, items: 0 }]);
  });

  it('tick() advances the countdown without a broadphase step', () => {
    const tree = deepItem();
    tree.remove(1);
    for (let k = 1; k <= 7; k++) {
      tree.tick();
      expect(nodes(tree), `tick ${k}`).toHaveLength(33);
    }
    tree.tick();
    validateTree(tree);
    expect(nodes(tree)).toHaveLength(1);
    // step() ticks once more (nothing left to free) and publishes the counters.
    const s = tree.step();
    expect([s.nodesLive, s.nodesFree, s.groupsCounting, s.groupsFreed]).toEqual([1, 32, 0, 8]);
  });

  it('only the branch that emptied counts down; shared ancestors stay', () => {
    const tree = new LooseQuadtree({ maxDepth: 8 });
    tree.insert(1, 100, 100, 100, 100);
    tree.insert(2, 900, 900, 900, 900);
    tree.step();
    // Root + the root's group + 7 private groups per item.
    expect(tree.stats.nodesLive).toBe(1 + 4 * 15);
    tree.remove(1);
    expect(tree.step().groupsCounting).toBe(7);
    expect(stepsUntilFreed(tree)).toBe(7);
    expect(tree.stats.nodesLive).toBe(33);
    expect(tree.stats.nodesFree).toBe(28);
    expect(tree.stats.groupsFreed).toBe(7);
    // The survivor's path is intact, with counts all the way down.
    const path = nodes(tree).filter((n) => n.items > 0);
    expect(path.map((n) => n.depth)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    for (const n of path) {
      expect(n.items).toBe(1);
      expect(n.minX <= 900 && 900 <= n.maxX && n.minY <= 900 && 900 <= n.maxY).toBe(true);
    }
  });

  it('a group reused while counting doubles its lifespan, capped at maxLifespan (64 by default)', () => {
    const tree = deepItem();
    const spans: number[] = [];
    for (let cycle = 0; cycle < 5; cycle++) {
      // Empty the branch, let it count a little, then fill it again.
      tree.remove(1);
      tree.step();
      tree.step();
      tree.insert(1, 100, 100, 100, 100);
      const s = tree.step();
      validateTree(tree);
      expect(s.groupsCounting).toBe(0);
      expect(s.nodesLive).toBe(33);
      expect(s.nodesFree).toBe(0);
    }
    tree.remove(1);
    spans.push(stepsUntilFreed(tree));
    expect(spans).toEqual([64]);
    expect(tree.stats.groupsFreed).toBe(8);
  });

  it('doubles 8, 16, 32, 64, 64 across successive reuses', () => {
    expect(spansAfterReuses({}, 4)).toEqual([8, 16, 32, 64, 64]);
  });

  it('honours configured lifespan and maxLifespan, clamped', () => {
    expect(spansAfterReuses({ lifespan: 3, maxLifespan: 10 }, 3)).toEqual([3, 6, 10, 10]);
    // lifespan is clamped to at least 1; maxLifespan to at least lifespan.
    expect(spansAfterReuses({ lifespan: 0 }, 0)).toEqual([1]);
    expect(spansAfterReuses({ lifespan: 5, maxLifespan: 2 }, 2)).toEqual([5, 5, 5]);
  });

  it('a freed group starts again from the base lifespan when it is reused', () => {
    const tree = deepItem();
    reuseOnce(tree);
    tree.remove(1);
    expect(stepsUntilFreed(tree)).toBe(16);
    // Same groups from the free list, fresh spans.
    tree.insert(1, 100, 100, 100, 100);
    tree.step();
    expect(tree.stats.nodesFree).toBe(0);
    tree.remove(1);
    expect(stepsUntilFreed(tree)).toBe(8);
  });

  it('freed groups are reused before the pool grows', () => {
    const tree = deepItem();
    const highWater = () => tree.stats.nodesLive + tree.stats.nodesFree;
    tree.remove(1);
    stepsUntilFreed(tree);
    expect(tree.stats.nodesFree).toBe(32);
    // A point elsewhere needs 8 new groups: all from the free list.
    tree.insert(2, 700, 300, 700, 300);
    tree.step();
    expect(tree.stats.nodesLive).toBe(33);
    expect(tree.stats.nodesFree).toBe(0);
    expect(highWater()).toBe(33);
    // A box of side 130 sits at depth 3 (depth 4's loose bounds are 128 wide): it needs the
    // shared root group plus 2 more.
    tree.remove(2);
    stepsUntilFreed(tree);
    tree.insert(3, 300, 700, 430, 830);
    tree.step();
    validateTree(tree);
    expect(tree.stats.nodesLive).toBe(1 + 4 * 3);
    expect(tree.stats.nodesFree).toBe(32 - 12);
    expect(highWater()).toBe(33);
    // Only when the free list runs dry does the pool grow.
    tree.insert(4, 100, 100, 100, 100);
    tree.insert(5, 900, 900, 900, 900);
    tree.step();
    expect(tree.stats.nodesFree).toBe(0);
    expect(highWater()).toBeGreaterThan(33);
  });

  it('a moving item leaves its old branch counting; coming back in time reuses it', () => {
    const tree = deepItem();
    // An anchor at depth 1 keeps the root's group alive, so only the branches below it expire.
    tree.insert(99, 600, 100, 1000, 400);
    tree.step();
    expect(tree.stats.nodesLive).toBe(33);
    tree.move(1, 900, 900, 900, 900);
    let s = tree.step();
    validateTree(tree);
    expect(s.groupsCounting).toBe(7);
    expect(s.nodesLive).toBe(1 + 4 * 15);
    tree.move(1, 100, 100, 100, 100);
    s = tree.step();
    // Back in the old branch (no new groups); the new branch is the one counting now.
    expect(s.nodesLive + s.nodesFree).toBe(1 + 4 * 15);
    expect(s.groupsCounting).toBe(7);
    // It began counting at the move; the step above took one frame of its 8.
    expect(stepsUntilFreed(tree)).toBe(7);
    expect(tree.stats.nodesLive).toBe(33);
    // The branch reused while counting now waits 16 frames.
    tree.remove(1);
    expect(stepsUntilFreed(tree)).toBe(16);
  });

  it('random churn: the pool stays bounded and every empty branch is eventually freed', () => {
    const rng = new Rng(9);
    const tree = new LooseQuadtree({ width: 1000, height: 300, x: -500, lifespan: 4, maxLifespan: 16 });
    const live = new Set<number>();
    let highWater = 0;
    for (let step = 0; step < 400; step++) {
      for (let k = 0; k < 10; k++) {
        const id = rng.int(200);
        if (live.has(id)) {
          if (rng.chance(0.5)) {
            tree.remove(id);
            live.delete(id);
          } else {
            const x = -500 + rng.int(1000);
            const y = rng.int(300);
            tree.move(id, x, y, x + rng.int(20), y + rng.int(20));
          }
        } else {
          const x = -500 + rng.int(1000);
          const y = rng.int(300);
          tree.insert(id, x, y, x + rng.int(20), y + rng.int(20));
          live.add(id);
        }
      }
      const s = tree.step();
      validateTree(tree);
      expect(nodes(tree)).toHaveLength(s.nodesLive);
      expect(nodes(tree)[0].items).toBe(live.size);
      if (step === 100) highWater = s.nodesLive + s.nodesFree;
      if (step > 100) expect(s.nodesLive + s.nodesFree).toBeLessThanOrEqual(highWater * 2);
    }
    expect(tree.stats.groupsFreed).toBeGreaterThan(0);
    for (const id of live) tree.remove(id);
    for (let k = 0; k < 17; k++) tree.step();
    validateTree(tree);
    expect(tree.stats.nodesLive).toBe(1);
    expect(tree.stats.groupsCounting).toBe(0);
    expect(nodes(tree)).toHaveLength(1);
  });
});
