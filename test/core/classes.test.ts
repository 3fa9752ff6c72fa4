import { describe, expect, it } from 'vitest';
import { LooseQuadtree, validateTree } from '../../src/core/index.js';
import type { SpatialTree } from '../../src/core/placement/SpatialTree.js';
import { brutePairs, comparePairs, pairKey, readPairs, Rng, sorted, type ModelItem, type Pair } from './helpers.js';

const WALL = 1;
const ACTOR = 2;
const DUST = 4;

/** The tree's collision classes, for checking that a run reached the cases it exists for. */
function classesOf(tree: LooseQuadtree): SpatialTree['classes'] {
  return (tree as unknown as { tree: SpatialTree }).tree.classes;
}

/**
 * A particle storm small enough for brute force: dust that pairs with walls and actors but
 * not with itself (big enough to be detached), actors, static walls, and a few items with
 * random colliders (more keys than classes: the mixed class). Steps where everything moves
 * alternate with steps where a few move, queries, collider and static changes, removals,
 * re-insertions, items leaving the world and budgets, and every step is compared with brute force.
 */
class StormRun {
  readonly tree: LooseQuadtree;
  readonly model = new Map<number, ModelItem>();
  readonly rng: Rng;
  private prev: Pair[] = [];
  private removed = new Set<number>();
  private budget = false;
  readonly seen = {
    detachedSteps: 0,
    mixed: 0,
    onePass: 0,
    movers: 0,
    classChanges: 0,
    queries: 0,
    entered: 0,
    exited: 0,
  };

  /** `crowd`: the particles pair with each other too (a detached class joined with itself). */
  constructor(
    seed: number,
    readonly touching: boolean,
    readonly crowd = false,
    readonly side = 1600,
  ) {
    this.rng = new Rng(seed);
    this.tree = new LooseQuadtree({ width: side, height: side, touching });
    let id = 0;
    for (let i = 0; i < 1300; i++)
      this.add(id++, DUST, WALL | ACTOR | (crowd ? DUST : 0), 20, false, 2 + this.rng.int(crowd ? 12 : 5));
    for (let i = 0; i < 60; i++) this.add(id++, ACTOR, WALL | ACTOR | DUST, 200, false, 16 + this.rng.int(20));
    for (let i = 0; i < 40; i++) this.add(id++, WALL, ACTOR | DUST, 255, true, 0);
    const masks = [1, 2, 3, 5, 6, 7, 9, 12, 15, -1, 0, 24];
    for (let i = 0; i < 40; i++)
      this.add(
        id++,
        1 << this.rng.int(5),
        this.rng.pick(masks),
        this.rng.int(256),
        this.rng.chance(0.2),
        4 + this.rng.int(20),
      );
  }

  private add(id: number, layer: number, mask: number, priority: number, isStatic: boolean, size: number): void {
    const w = isStatic ? (this.rng.chance(0.5) ? 10 : 120) : size;
    const h = isStatic ? (w === 10 ? 120 : 10) : size;
    const x = this.rng.range(0, this.side - w);
    const y = this.rng.range(0, this.side - h);
    const item: ModelItem = { minX: x, minY: y, maxX: x + w, maxY: y + h, layer, mask, priority, isStatic };
    this.model.set(id, item);
    this.tree.insert(id, x, y, x + w, y + h);
    this.tree.setCollider(id, layer, mask, priority);
    if (isStatic) this.tree.setStatic(id, true);
  }

  private moveItem(id: number, item: ModelItem, far: boolean): void {
    let dx = this.rng.range(-6, 6);
    let dy = this.rng.range(-6, 6);
    if (far) {
      // Out of the world and back: the root's loose bounds keep the outside count exact.
      dx = item.minX > this.side ? -2 * this.side : 2 * this.side;
      dy = this.rng.range(-3, 3);
    }
    item.minX += dx;
    item.maxX += dx;
    item.minY += dy;
    item.maxY += dy;
    this.tree.move(id, item.minX, item.minY, item.maxX, item.maxY);
  }

  step(): void {
    const rng = this.rng;
    const all = rng.chance(0.8);
    for (const [id, item] of this.model) {
      if (item.isStatic || !(all ? rng.chance(0.95) : rng.chance(0.01))) continue;
      this.moveItem(id, item, rng.chance(0.002));
    }
    for (let k = rng.int(4); k > 0; k--) this.change();
    if (rng.chance(0.06)) this.checkQueries();
    if (rng.chance(0.03)) {
      this.budget = !this.budget;
      this.tree.setBudget(this.budget ? { maxPairTests: 200, minChecksPerTier: 4 } : {});
    }
    // A detached class is in no node: the step must join it from its records.
    const detachedBefore = classesOf(this.tree).detached.some((d) => d === 1);
    const stats = this.tree.step();
    if (detachedBefore) this.seen.detachedSteps++;
    if (stats.moved === this.tree.size) this.seen.onePass++;
    else this.seen.movers++;
    if (classesOf(this.tree).size[classesOf(this.tree).size.length - 1] > 0) this.seen.mixed++;
    this.check();
  }

  /** A collider, static or membership change on a random item. */
  private change(): void {
    const rng = this.rng;
    const ids = [...this.model.keys()];
    const id = ids[rng.int(ids.length)];
    const item = this.model.get(id)!;
    const r = rng.next();
    if (r < 0.4) {
      // Dust becomes an actor and back: the item changes class, deferred or not.
      const toActor = item.layer === DUST;
      item.layer = toActor ? ACTOR : DUST;
      item.mask = toActor ? WALL | ACTOR | DUST : WALL | ACTOR | (this.crowd ? DUST : 0);
      item.priority = toActor ? 200 : 20;
      this.tree.setCollider(id, item.layer, item.mask, item.priority);
      this.seen.classChanges++;
    } else if (r < 0.55) {
      item.isStatic = !item.isStatic;
      this.tree.setStatic(id, item.isStatic);
    } else if (r < 0.8) {
      this.tree.remove(id);
      this.model.delete(id);
      this.removed.add(id);
      if (rng.chance(0.5)) {
        this.tree.insert(id, item.minX, item.minY, item.maxX, item.maxY);
        this.tree.setCollider(id, item.layer, item.mask, item.priority);
        if (item.isStatic) this.tree.setStatic(id, true);
        this.model.set(id, item);
      }
    } else {
      this.moveItem(id, item, rng.chance(0.3));
    }
  }

  private check(): void {
    const tree = this.tree;
    validateTree(tree);
    const current = readPairs(tree.current);
    const entered = readPairs(tree.entered);
    const exited = readPairs(tree.exited);
    const touchesRemoved = (p: Pair) => this.removed.has(p[0]) || this.removed.has(p[1]);
    if (!this.budget) {
      const expected = brutePairs(this.model, this.touching);
      expect(current).toEqual(expected);
      const prevKeys = new Set(this.prev.map((p) => pairKey(p[0], p[1])));
      const curKeys = new Set(expected.map((p) => pairKey(p[0], p[1])));
      expect(entered).toEqual(
        expected.filter((p) => !prevKeys.has(pairKey(p[0], p[1])) || touchesRemoved(p)).sort(comparePairs),
      );
      expect(exited).toEqual(
        this.prev.filter((p) => !curKeys.has(pairKey(p[0], p[1])) || touchesRemoved(p)).sort(comparePairs),
      );
    }
    this.seen.entered += entered.length;
    this.seen.exited += exited.length;
    this.prev = current;
    this.removed = new Set();
  }

  /** Queries between steps read every class, deferred ones included. */
  private checkQueries(): void {
    const x = this.rng.range(0, this.side);
    const y = this.rng.range(0, this.side);
    const out: number[] = [];
    this.tree.queryRect(x, y, x + 200, y + 150, out, DUST | ACTOR);
    const expected = [...this.model]
      .filter(
        ([, it]) =>
          (it.layer & (DUST | ACTOR)) !== 0 &&
          (this.touching
            ? it.minX <= x + 200 && x <= it.maxX && it.minY <= y + 150 && y <= it.maxY
            : it.minX < x + 200 && x < it.maxX && it.minY < y + 150 && y < it.maxY),
      )
      .map(([id]) => id);
    expect(sorted(out)).toEqual(sorted(expected));
    // A visitor that stops the walk stops it inside a class's run too.
    const stopAt = 1 + (expected.length >> 1);
    let calls = 0;
    const visited = this.tree.visitRect(x, y, x + 200, y + 150, () => ++calls < stopAt, DUST | ACTOR);
    expect(visited).toBe(Math.min(stopAt, expected.length));
    // The nearest items by box distance, ties by id, from the runs as from the nodes.
    const near = [...this.model]
      .filter(([, it]) => (it.layer & (DUST | ACTOR)) !== 0)
      .map(([id, it]) => [id, Math.hypot(Math.max(it.minX - x, 0, x - it.maxX), Math.max(it.minY - y, 0, y - it.maxY))])
      .sort((a, b) => a[1] - b[1] || a[0] - b[0])
      .slice(0, 5);
    const ids: number[] = [];
    this.tree.nearest(x, y, 5, Infinity, ids, null, DUST | ACTOR);
    expect(ids).toEqual(near.map(([id]) => id));
    this.seen.queries++;
  }
}

describe('collision classes', () => {
  for (const touching of [false, true]) {
    it(`a detached particle class matches brute force through every kind of step (touching ${touching})`, () => {
      const run = new StormRun(touching ? 12 : 11, touching);
      for (let i = 0; i < 160; i++) run.step();
      expect(run.seen.detachedSteps).toBeGreaterThan(15);
      expect(run.seen.movers).toBeGreaterThan(10);
      expect(run.seen.mixed).toBeGreaterThan(0);
      expect(run.seen.classChanges).toBeGreaterThan(20);
      expect(run.seen.queries).toBeGreaterThan(5);
      expect(run.seen.entered).toBeGreaterThan(100);
      expect(run.seen.exited).toBeGreaterThan(100);
    }, 120_000);
  }

  for (const touching of [false, true]) {
    it(`a detached crowd that pairs with itself matches brute force through every kind of step (touching ${touching})`, () => {
      const run = new StormRun(touching ? 14 : 13, touching, true);
      for (let i = 0; i < 120; i++) run.step();
      expect(run.seen.detachedSteps).toBeGreaterThan(15);
      expect(run.seen.movers).toBeGreaterThan(10);
      expect(run.seen.entered).toBeGreaterThan(1000);
      expect(run.seen.exited).toBeGreaterThan(1000);
    }, 120_000);
  }

  it('pairs dust only with walls and actors: dust never meets dust, walls never meet walls', () => {
    const tree = new LooseQuadtree({ width: 100, height: 100 });
    tree.insert(1, 10, 10, 20, 20);
    tree.insert(2, 12, 12, 22, 22);
    tree.insert(3, 15, 15, 30, 30);
    tree.insert(4, 0, 0, 40, 16);
    tree.insert(5, 0, 0, 16, 40);
    tree.setCollider(1, DUST, WALL | ACTOR, 20);
    tree.setCollider(2, DUST, WALL | ACTOR, 20);
    tree.setCollider(3, ACTOR, WALL | ACTOR | DUST, 200);
    tree.setCollider(4, WALL, ACTOR | DUST, 255);
    tree.setCollider(5, WALL, ACTOR | DUST, 255);
    tree.setStatic(4, true);
    tree.setStatic(5, true);
    tree.step();
    expect(readPairs(tree.current)).toEqual([
      [3, 4, 200],
      [3, 5, 200],
      [1, 3, 20],
      [1, 4, 20],
      [1, 5, 20],
      [2, 3, 20],
      [2, 4, 20],
      [2, 5, 20],
    ]);
    // Items of a class whose mask leaves out its own layer, and static items, are never tested together.
    const tests = tree.stats.pairTests;
    expect(tests).toBeLessThan(10);
  });
});

describe('a class placed in one burst (a level loading)', () => {
  /** `n` boxes of one collider, some overlapping, inserted at once or queued; returns the model. */
  function load(tree: LooseQuadtree, n: number, first: number, queued: boolean): Map<number, ModelItem> {
    const rng = new Rng(first + n);
    const items = new Map<number, ModelItem>();
    for (let id = first; id < first + n; id++) {
      const x = rng.next() * 2000,
        y = rng.next() * 2000,
        s = 4 + rng.next() * 20;
      if (queued) tree.insert(id, x, y, x + s, y + s);
      else tree.insert(id, x, y, x + s, y + s);
      items.set(id, {
        minX: x,
        minY: y,
        maxX: x + s,
        maxY: y + s,
        layer: 1,
        mask: -1,
        priority: 128,
        isStatic: false,
      });
    }
    return items;
  }

  /** The model with each box as the tree stores it (float32). */
  function rounded(items: Map<number, ModelItem>): Map<number, ModelItem> {
    const f = Math.fround;
    for (const p of items.values()) [p.minX, p.minY, p.maxX, p.maxY] = [f(p.minX), f(p.minY), f(p.maxX), f(p.maxY)];
    return items;
  }

  for (const queued of [false, true]) {
    it(`is laid out as one run before its first step, ${queued ? 'queued' : 'inserted'}; pairs as brute force finds them`, () => {
      const tree = new LooseQuadtree({ width: 2048, height: 2048 });
      const items = rounded(load(tree, 3000, 0, queued));
      tree.flush();
      expect(classesOf(tree).detached[0]).toBe(1);
      validateTree(tree);
      tree.step();
      validateTree(tree);
      expect(readPairs(tree.current).sort(comparePairs)).toEqual(brutePairs(items, false));
    });
  }

  it('a burst under the threshold, or under half its class, stays in the nodes', () => {
    const tree = new LooseQuadtree({ width: 2048, height: 2048 });
    const items = rounded(load(tree, 1000, 0, false));
    tree.step();
    expect(classesOf(tree).detached[0]).toBe(0);
    for (const [id, p] of rounded(load(tree, 500, 1000, false))) items.set(id, p);
    tree.step();
    // Then 1,100 more: under half the class of 2,600.
    for (const [id, p] of rounded(load(tree, 1100, 1500, false))) items.set(id, p);
    tree.step();
    expect(classesOf(tree).detached[0]).toBe(0);
    validateTree(tree);
    expect(readPairs(tree.current).sort(comparePairs)).toEqual(brutePairs(items, false));
  });
});
