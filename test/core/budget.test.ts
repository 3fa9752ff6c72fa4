import { describe, expect, it } from 'vitest';
import { LooseQuadtree, tierOf, validateTree } from '../../src/core/index.js';
import { brutePairs, hashPairs, pairKey, readPairs, Rng, sorted, type ModelItem } from './helpers.js';

const TIER_PRIORITY = [255, 150, 100, 10];

function modelItem(box: number[], priority = 128): ModelItem {
  return { minX: box[0], minY: box[1], maxX: box[2], maxY: box[3], layer: 1, mask: -1, priority, isStatic: false };
}

/** Moves each item of the model with probability p to a new box from `box`, in tree and model alike. */
function moveSome(tree: LooseQuadtree, model: Map<number, ModelItem>, rng: Rng, p: number, box: () => number[]): void {
  for (const [id, item] of model) {
    if (!rng.chance(p)) continue;
    const b = box();
    tree.move(id, b[0], b[1], b[2], b[3]);
    [item.minX, item.minY, item.maxX, item.maxY] = b;
  }
}

/** Partners of every item by brute force, sorted. */
function bruteRows(model: Map<number, ModelItem>): Map<number, number[]> {
  const rows = new Map<number, number[]>();
  for (const id of model.keys()) rows.set(id, []);
  for (const [a, b] of brutePairs(model, false)) {
    rows.get(a)!.push(b);
    rows.get(b)!.push(a);
  }
  for (const row of rows.values()) row.sort((x, y) => x - y);
  return rows;
}

/**
 * A grid of partners that never move, and one mover per partner overlapping only it: a
 * mover's pair begins exactly in the step that checks the mover.
 */
function partnerScene(n: number, minChecksPerTier: number, tierOfMover: (i: number) => number) {
  const tree = new LooseQuadtree({ width: 4096, height: 4096 });
  const cell = (i: number) => [(i % 64) * 60, Math.floor(i / 64) * 60];
  for (let i = 0; i < n; i++) {
    const [x, y] = cell(i);
    tree.insert(i, x, y, x + 10, y + 10);
    tree.setCollider(i, 1, -1, 255);
  }
  tree.step();
  tree.setBudget({ maxPairTests: 0, minChecksPerTier });
  const base = tree.stepCount;
  for (let i = 0; i < n; i++) {
    const [x, y] = cell(i);
    // Queued, so the collider is in place before the item is first marked dirty.
    tree.insert(10_000 + i, x + 5, y + 5, x + 15, y + 15);
    tree.setCollider(10_000 + i, 1, -1, TIER_PRIORITY[tierOfMover(i)]);
  }
  return { tree, base };
}

describe('budget', () => {
  it('checks each deferred item exactly when its queue position says: floor(p / minChecksPerTier) + 1 steps', () => {
    for (const min of [1, 3, 32]) {
      const n = 400;
      const tierOfMover = (i: number) => (i * 7) % 4;
      const { tree, base } = partnerScene(n, min, tierOfMover);
      const position = new Array<number>(n);
      const counts = [0, 0, 0, 0];
      for (let i = 0; i < n; i++) position[i] = counts[tierOfMover(i)]++;
      const checkedIn = new Array<number>(n).fill(-1);
      let deferredSeen = 0;
      for (let k = 1; checkedIn.includes(-1); k++) {
        expect(k).toBeLessThan(n + 2);
        const stats = tree.step();
        validateTree(tree);
        deferredSeen = Math.max(deferredSeen, stats.deferred);
        let expectedDeferred = 0;
        for (let t = 1; t < 4; t++) expectedDeferred += Math.max(0, counts[t] - min * k);
        expect(stats.deferred).toBe(expectedDeferred);
        for (let i = 0; i < n; i++) {
          if (checkedIn[i] === -1 && tree.pairStartedAt(i, 10_000 + i) !== -1) checkedIn[i] = k;
        }
      }
      expect(deferredSeen).toBeGreaterThan(0);
      for (let i = 0; i < n; i++) {
        const tier = tierOfMover(i);
        const bound = tier === 0 ? 1 : Math.floor(position[i] / min) + 1;
        expect(checkedIn[i], `mover ${i} (tier ${tier}, position ${position[i]}, min ${min})`).toBeLessThanOrEqual(
          bound,
        );
        // maxPairTests 0 leaves exactly minChecksPerTier per lower tier: the bound is met exactly.
        expect(checkedIn[i]).toBe(bound);
        expect(tree.pairStartedAt(i, 10_000 + i)).toBe(base + bound);
      }
      expect(readPairs(tree.current)).toEqual(
        Array.from({ length: n }, (_, i) => [i, 10_000 + i, TIER_PRIORITY[tierOfMover(i)]]).sort(
          (p, q) => q[2] - p[2] || p[0] - q[0],
        ),
      );
    }
  });

  it('minChecksPerTier is clamped to at least 1', () => {
    const { tree } = partnerScene(10, 0, () => 2);
    tree.step();
    expect(tree.stats.moved).toBe(1);
    expect(tree.stats.deferred).toBe(9);
  });

  it('maxMs 0 also leaves exactly minChecksPerTier per lower tier (checked every 32 movers)', () => {
    const { tree } = partnerScene(200, 32, () => 1);
    tree.setBudget({ maxMs: 0, minChecksPerTier: 32 });
    expect(tree.step().moved).toBe(32);
    expect(tree.stats.deferred).toBe(168);
  });

  it('tier 0 movers are checked fully every step, even with maxPairTests 0', () => {
    const rng = new Rng(11);
    const tree = new LooseQuadtree({ width: 1024, height: 1024 });
    const model = new Map<number, ModelItem>();
    const box = () => {
      const x = rng.int(400);
      const y = rng.int(400);
      return [x, y, x + 4 + rng.int(40), y + 4 + rng.int(40)];
    };
    for (let id = 0; id < 600; id++) {
      const b = box();
      const priority = id < 40 ? 200 + (id % 56) : TIER_PRIORITY[1 + (id % 3)];
      tree.insert(id, b[0], b[1], b[2], b[3]);
      tree.setCollider(id, 1, -1, priority);
      model.set(id, modelItem(b, priority));
    }
    tree.step();
    tree.setBudget({ maxPairTests: 0, minChecksPerTier: 2 });
    let deferred = 0;
    for (let step = 0; step < 60; step++) {
      for (let id = 0; id < 600; id++) {
        if (id >= 40 && !rng.chance(0.3)) continue;
        const b = box();
        tree.move(id, b[0], b[1], b[2], b[3]);
        Object.assign(model.get(id)!, modelItem(b, model.get(id)!.priority));
      }
      const stats = tree.step();
      validateTree(tree);
      deferred += stats.deferred;
      const out: number[] = [];
      const rows = bruteRows(model);
      // Every pair of a tier-0 mover matches brute force, whoever the partner.
      for (let id = 0; id < 40; id++) {
        tree.pairsOf(id, out);
        expect(sorted(out), `tier-0 item ${id} at step ${step}`).toEqual(rows.get(id));
      }
    }
    expect(deferred).toBeGreaterThan(0);
  });

  it('an item raised to tier 0 while already queued in a lower tier is still checked in the next step', () => {
    // The usual order of a game: insert, then give the item its collider.
    const tree = new LooseQuadtree({ budget: { maxPairTests: 0, minChecksPerTier: 1 } });
    for (let i = 0; i < 10; i++) tree.insert(i, i * 50, 0, i * 50 + 10, 10);
    tree.insert(100, 500, 500, 510, 510);
    tree.insert(101, 505, 505, 515, 515);
    tree.setCollider(100, 1, -1, 255);
    tree.setCollider(101, 1, -1, 255);
    tree.step();
    expect(readPairs(tree.current)).toEqual([[100, 101, 255]]);
  });

  it('serves each lower tier in FIFO order, exactly as a model queue predicts (random moves, maxPairTests 0)', () => {
    for (const min of [1, 4]) {
      const rng = new Rng(100 + min);
      const tree = new LooseQuadtree({ width: 512, height: 512 });
      const model = new Map<number, ModelItem>();
      const n = 250;
      const box = () => {
        const x = rng.int(200);
        const y = rng.int(200);
        return [x, y, x + rng.int(30), y + rng.int(30)];
      };
      for (let id = 0; id < n; id++) {
        const b = box();
        const priority = TIER_PRIORITY[rng.int(4)] - rng.int(10);
        tree.insert(id, b[0], b[1], b[2], b[3]);
        tree.setCollider(id, 1, -1, priority);
        model.set(id, modelItem(b, priority));
      }
      tree.step();
      tree.setBudget({ maxPairTests: 0, minChecksPerTier: min });
      const queues: number[][] = [[], [], [], []];
      const dirty = new Set<number>();
      let maxDeferred = 0;
      for (let step = 0; step < 150; step++) {
        const moves = rng.int(30);
        for (let k = 0; k < moves; k++) {
          const id = rng.int(n);
          const b = box();
          const item = model.get(id)!;
          if (b[0] === item.minX && b[1] === item.minY && b[2] === item.maxX && b[3] === item.maxY) continue;
          tree.move(id, b[0], b[1], b[2], b[3]);
          [item.minX, item.minY, item.maxX, item.maxY] = b;
          if (!dirty.has(id)) {
            dirty.add(id);
            queues[tierOf(item.priority)].push(id);
          }
        }
        const checked = new Set<number>(queues[0].splice(0));
        for (let t = 1; t < 4; t++) for (const id of queues[t].splice(0, min)) checked.add(id);
        for (const id of checked) dirty.delete(id);
        const stats = tree.step();
        validateTree(tree);
        expect(stats.moved).toBe(checked.size);
        expect(stats.deferred).toBe(dirty.size);
        maxDeferred = Math.max(maxDeferred, dirty.size);
        const out: number[] = [];
        const rows = bruteRows(model);
        for (const id of checked) {
          tree.pairsOf(id, out);
          expect(sorted(out), `checked item ${id}`).toEqual(rows.get(id));
        }
        // Only checked items can start or end pairs.
        for (const [a, b] of [...readPairs(tree.entered), ...readPairs(tree.exited)]) {
          expect(checked.has(a) || checked.has(b), `pair ${a},${b}`).toBe(true);
        }
      }
      expect(maxDeferred).toBeGreaterThan(min);
    }
  });

  it('converges to brute force once movement stops, within the documented number of steps', () => {
    const rng = new Rng(7);
    const min = 3;
    const tree = new LooseQuadtree({
      x: -100,
      y: 50,
      width: 800,
      height: 300,
      budget: { maxPairTests: 60, minChecksPerTier: min },
    });
    const model = new Map<number, ModelItem>();
    const box = () => {
      const x = -100 + rng.int(300);
      const y = 50 + rng.int(200);
      return [x, y, x + rng.int(25), y + rng.int(25)];
    };
    for (let id = 0; id < 300; id++) {
      const b = box();
      const priority = rng.int(256);
      tree.insert(id * 3, b[0], b[1], b[2], b[3]);
      tree.setCollider(id * 3, 1, -1, priority);
      model.set(id * 3, modelItem(b, priority));
    }
    let sawDeferred = false;
    for (let step = 0; step < 40; step++) {
      moveSome(tree, model, rng, 0.5, box);
      sawDeferred ||= tree.step().deferred > 0;
      validateTree(tree);
    }
    expect(sawDeferred).toBe(true);
    expect(readPairs(tree.current)).not.toEqual(brutePairs(model, false));
    // The longest lower-tier queue holds at most every item; each step takes at least `min` from it.
    const bound = Math.floor((model.size - 1) / min) + 1;
    let steps = 0;
    while (tree.stats.deferred > 0) {
      tree.step();
      validateTree(tree);
      steps++;
      expect(steps).toBeLessThanOrEqual(bound);
    }
    // One more step: nothing is dirty, so nothing changes.
    const before = readPairs(tree.current);
    tree.step();
    expect(tree.stats.moved).toBe(0);
    expect(readPairs(tree.current)).toEqual(before);
    expect(before).toEqual(brutePairs(model, false));
  });

  it('with no budget (or after setBudget({})) the pairs equal brute force every step', () => {
    const rng = new Rng(3);
    const tree = new LooseQuadtree({ width: 300, height: 300, budget: { maxPairTests: 0, minChecksPerTier: 1 } });
    tree.setBudget({});
    const model = new Map<number, ModelItem>();
    const box = () => {
      const x = rng.int(300);
      const y = rng.int(300);
      return [x, y, x + rng.int(40), y + rng.int(40)];
    };
    for (let id = 0; id < 200; id++) {
      const b = box();
      tree.insert(id, b[0], b[1], b[2], b[3]);
      const priority = rng.int(256);
      tree.setCollider(id, 1, -1, priority);
      model.set(id, modelItem(b, priority));
    }
    for (let step = 0; step < 60; step++) {
      moveSome(tree, model, rng, 0.4, box);
      const stats = tree.step();
      expect(stats.deferred).toBe(0);
      expect(readPairs(tree.current)).toEqual(brutePairs(model, false));
    }
  });

  it('is deterministic: the same seeded scenario gives the same pair lists every step', () => {
    const run = (seed: number) => {
      const rng = new Rng(seed);
      const tree = new LooseQuadtree({ width: 640, height: 480, budget: { maxPairTests: 80, minChecksPerTier: 2 } });
      const live: number[] = [];
      const trace: number[] = [];
      const box = () => {
        const x = rng.int(300);
        const y = rng.int(300);
        return [x, y, x + rng.int(30), y + rng.int(30)] as const;
      };
      for (let step = 0; step < 150; step++) {
        for (let k = rng.int(20); k > 0; k--) {
          const r = rng.next();
          if (live.length < 50 || r < 0.2) {
            let id = rng.int(2000);
            while (live.includes(id)) id = rng.int(2000);
            if (rng.chance(0.5)) tree.insert(id, ...box());
            else tree.insert(id, ...box());
            live.push(id);
          } else if (r < 0.3) {
            const id = live.splice(rng.int(live.length), 1)[0];
            tree.remove(id);
          } else if (r < 0.4) {
            tree.setCollider(rng.pick(live), 1 << rng.int(2), rng.pick([-1, 1, 2, 3]), rng.int(256));
          } else if (r < 0.45) {
            tree.setStatic(rng.pick(live), rng.chance(0.5));
          } else {
            tree.move(rng.pick(live), ...box());
          }
        }
        const stats = tree.step();
        validateTree(tree);
        trace.push(
          hashPairs(tree.current),
          hashPairs(tree.entered),
          hashPairs(tree.exited),
          stats.deferred,
          stats.pairTests,
          stats.moved,
        );
      }
      return trace;
    };
    const first = run(42);
    expect(run(42)).toEqual(first);
    // The trace is sensitive: another seed gives another one.
    expect(run(43)).not.toEqual(first);
    expect(first.filter((_, i) => i % 6 === 3).some((d) => d > 0)).toBe(true);
  });

  it('stats.deferred counts each waiting item once', () => {
    // Removed and re-inserted while waiting: the item is queued twice but waits once.
    const { tree } = partnerScene(20, 1, () => 1);
    tree.step();
    expect(tree.stats.deferred).toBe(19);
    const box = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
    tree.getBox(10_019, box);
    tree.remove(10_019);
    tree.insert(10_019, box.minX, box.minY, box.maxX, box.maxY);
    tree.step();
    expect(tree.stats.deferred).toBe(18);
    expect(new Set(readPairs(tree.current).map((p) => pairKey(p[0], p[1]))).size).toBe(tree.current.count);
  });

  describe('stats.budgetedTests and stats.deferred tell what the budget rationed and what it cut', () => {
    /** 200 random items of the given priorities, 40% of them moving each step; the stats of every step. */
    function play(budget: { maxPairTests?: number; minChecksPerTier?: number }, priority: (rng: Rng) => number) {
      const rng = new Rng(11);
      const tree = new LooseQuadtree({ width: 300, height: 300, budget });
      const model = new Map<number, ModelItem>();
      const box = () => {
        const x = rng.int(300);
        const y = rng.int(300);
        return [x, y, x + rng.int(40), y + rng.int(40)];
      };
      for (let id = 0; id < 200; id++) {
        const b = box();
        tree.insert(id, b[0], b[1], b[2], b[3]);
        const p = priority(rng);
        tree.setCollider(id, 1, -1, p);
        model.set(id, modelItem(b, p));
      }
      const steps: { tests: number; budgeted: number; deferred: number }[] = [];
      for (let step = 0; step < 30; step++) {
        moveSome(tree, model, rng, 0.4, box);
        const stats = tree.step();
        steps.push({ tests: stats.pairTests, budgeted: stats.budgetedTests, deferred: stats.deferred });
      }
      return steps;
    }
    const anyTier = (rng: Rng) => rng.int(256);
    const tight = { maxPairTests: 40, minChecksPerTier: 4 };

    it('both read 0 without a budget', () => {
      const steps = play({}, anyTier);
      expect(steps.every((s) => s.budgeted === 0 && s.deferred === 0)).toBe(true);
      expect(steps.every((s) => s.tests > 0)).toBe(true);
    });

    it('under a budget that cuts, every test of the lower tiers counts, and deferred counts the items cut', () => {
      // Tier 1 alone: every test is rationed.
      const lower = play(tight, () => 150);
      expect(lower.every((s) => s.budgeted === s.tests)).toBe(true);
      expect(lower.every((s) => s.deferred > 0 && s.budgeted > 0)).toBe(true);
      // Tiers mixed: tier 0's tests are made whatever the budget, and are not counted.
      const mixed = play(tight, anyTier);
      expect(mixed.every((s) => s.budgeted > 0 && s.budgeted < s.tests && s.deferred > 0)).toBe(true);
      // Tier 0 alone: nothing to ration, nothing cut.
      const top = play(tight, () => 255);
      expect(top.every((s) => s.budgeted === 0 && s.deferred === 0 && s.tests > 0)).toBe(true);
    });

    it('under a budget that is never spent, deferred stays 0: it cut nothing', () => {
      const steps = play({ maxPairTests: 1e9 }, () => 150);
      expect(steps.every((s) => s.deferred === 0 && s.budgeted === s.tests)).toBe(true);
    });

    it('counts the tests of a class checked in shares, and its members left waiting', () => {
      const rng = new Rng(5);
      const tree = new LooseQuadtree({
        width: 2000,
        height: 2000,
        budget: { maxPairTests: 100, minChecksPerTier: 64 },
      });
      const place = (id: number, size: number, moving = false) => {
        const x = rng.range(0, 2000);
        const y = rng.range(0, 2000);
        if (moving) tree.move(id, x, y, x + size, y + size);
        else tree.insert(id, x, y, x + size, y + size);
      };
      for (let id = 0; id < 100; id++) {
        place(id, 40);
        tree.setCollider(id, 1, -1, 250);
      }
      // Dust: tier 3, a mask without its own layer, so a class checked in shares.
      for (let id = 100; id < 2100; id++) {
        place(id, 3);
        tree.setCollider(id, 2, 1, 10);
      }
      let waited = false;
      for (let step = 0; step < 20; step++) {
        for (let id = 100; id < 2100; id++) place(id, 3, true);
        const stats = tree.step();
        expect(stats.budgetedTests).toBeLessThanOrEqual(stats.pairTests);
        if (step > 2) {
          expect(stats.deferred).toBeGreaterThan(1000);
          expect(stats.budgetedTests).toBeGreaterThan(0);
          waited = true;
        }
      }
      expect(waited).toBe(true);
    });
  });
});
