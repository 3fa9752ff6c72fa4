import { describe, expect, it } from 'vitest';
import { LooseQuadtree, validateTree } from '../../src/core/index.js';
import {
  anyDetached,
  brutePairs,
  comparePairs,
  pairKey,
  readPairs,
  Rng,
  sorted,
  stored,
  type ModelItem,
  type Pair,
} from './helpers.js';

const WALL = 1;
const ACTOR = 2;
const DUST = 4;

/** The tree's collision classes, for checking that a run reached the cases it exists for. */
function classesOf(tree: LooseQuadtree): { detached: Uint8Array; end: Int32Array; size: Int32Array } {
  return (tree as unknown as { tree: { classes: { detached: Uint8Array; end: Int32Array; size: Int32Array } } }).tree
    .classes;
}

const LONG_STEPS = Number(process.env.ORACLE_STEPS ?? 0);
const SEED_SHIFT = Number(process.env.ORACLE_SEED ?? 0);

/**
 * Particle effects as a game makes them, against brute force: bursts of dust born around
 * random points, dying after a few dozen steps, their ids recycled at once (the last removed
 * first, as bitECS does), thousands of removals and re-inserts over a run; actors wandering;
 * static walls. Budgets are switched on and off on the way. Without a budget every step's
 * pairs, entries and exits equal brute force; with one, tier 0 is exact every step, and once
 * nothing moves, the pairs are exact again within the `waitBound` steps the stats promise.
 */
class ChurnRun {
  readonly tree: LooseQuadtree;
  readonly model = new Map<number, ModelItem>();
  private readonly rng: Rng;
  private readonly touching: boolean;
  private readonly side = 1400;
  /** Ids free for reuse, the last removed on top. */
  private readonly free: number[] = [];
  private nextId = 1;
  private readonly life = new Map<number, number>();
  private readonly velocity = new Map<number, [number, number]>();
  private prev: Pair[] = [];
  /** Ids removed since the last step (their pairs exit even if the id came back). */
  private removedSinceStep = new Set<number>();
  private budget: { maxPairTests: number; minChecksPerTier: number } | null = null;
  /** The true pair sets of the last steps, newest last (keys of recycled ids' old pairs dropped at removal). */
  private history: Set<string>[] = [];
  readonly seen = {
    maxBound: 0,
    steps: 0,
    budgeted: 0,
    exactAfterWait: 0,
    detachedSteps: 0,
    removed: 0,
    recycled: 0,
    queries: 0,
    holes: 0,
  };

  constructor(seed: number, touching: boolean) {
    this.rng = new Rng(seed + SEED_SHIFT);
    this.touching = touching;
    this.tree = new LooseQuadtree({ width: this.side, height: this.side, touching, maxDepth: 6 });
    for (let i = 0; i < 40; i++) {
      const long = this.rng.range(40, 160),
        thick = this.rng.range(6, 14);
      const w = i % 2 === 0 ? long : thick,
        h = i % 2 === 0 ? thick : long;
      const x = this.rng.range(0, this.side - w),
        y = this.rng.range(0, this.side - h);
      this.add({
        minX: x,
        minY: y,
        maxX: x + w,
        maxY: y + h,
        layer: WALL,
        mask: ACTOR | DUST,
        priority: 255,
        isStatic: true,
      });
    }
    for (let i = 0; i < 150; i++) {
      const s = this.rng.range(12, 30);
      const x = this.rng.range(0, this.side - s),
        y = this.rng.range(0, this.side - s);
      const id = this.add({
        minX: x,
        minY: y,
        maxX: x + s,
        maxY: y + s,
        layer: ACTOR,
        mask: WALL | ACTOR | DUST,
        priority: 230,
        isStatic: false,
      });
      this.velocity.set(id, [this.rng.range(-3, 3), this.rng.range(-3, 3)]);
    }
    while (this.life.size < 1300) this.burst();
  }

  private add(item: ModelItem): number {
    const id = this.free.length > 0 ? this.free.pop()! : this.nextId++;
    if (this.removedSinceStep.has(id)) this.seen.recycled++;
    [item.minX, item.minY, item.maxX, item.maxY] = stored([item.minX, item.minY, item.maxX, item.maxY]);
    this.model.set(id, item);
    this.tree.insert(id, item.minX, item.minY, item.maxX, item.maxY);
    this.tree.setCollider(id, item.layer, item.mask, item.priority);
    if (item.isStatic) this.tree.setStatic(id, true);
    return id;
  }

  /** A burst of dust around a random point, on the grid of quarter pixels so that edges touch. */
  private burst(): void {
    const cx = this.rng.range(0, this.side),
      cy = this.rng.range(0, this.side);
    for (let k = 40 + this.rng.int(80); k > 0; k--) {
      const s = 1 + this.rng.int(16) / 4;
      const x = Math.round((cx + this.rng.range(-30, 30)) * 4) / 4,
        y = Math.round((cy + this.rng.range(-30, 30)) * 4) / 4;
      const id = this.add({
        minX: x,
        minY: y,
        maxX: x + s,
        maxY: y + s,
        layer: DUST,
        mask: WALL | ACTOR,
        priority: 10 + this.rng.int(40),
        isStatic: false,
      });
      this.life.set(id, 5 + this.rng.int(40));
      this.velocity.set(id, [this.rng.int(13) / 4 - 1.5, this.rng.int(13) / 4 - 1.5]);
    }
  }

  private remove(id: number): void {
    this.tree.remove(id);
    this.model.delete(id);
    this.life.delete(id);
    this.velocity.delete(id);
    this.free.push(id);
    this.removedSinceStep.add(id);
    this.seen.removed++;
  }

  private move(id: number): void {
    const item = this.model.get(id)!;
    const [vx, vy] = this.velocity.get(id)!;
    // The model keeps the box as the tree stores it (float32 corners): pairs are those of the rounded boxes.
    [item.minX, item.minY, item.maxX, item.maxY] = stored([
      item.minX + vx,
      item.minY + vy,
      item.maxX + vx,
      item.maxY + vy,
    ]);
    this.tree.move(id, item.minX, item.minY, item.maxX, item.maxY);
  }

  /** One frame of the game: deaths, moves, births (into the ids just freed), maybe a budget change, the step. */
  frame(frozen: boolean): void {
    const rng = this.rng;
    if (!frozen) {
      for (const [id, left] of [...this.life]) {
        if (left <= 1) this.remove(id);
        else this.life.set(id, left - 1);
      }
      for (const id of this.velocity.keys()) if (rng.chance(0.9)) this.move(id);
      while (this.life.size < 1200 + rng.int(200)) this.burst();
    }
    this.tree.step();
    this.seen.steps++;
    if (anyDetached(this.tree)) this.seen.detachedSteps++;
    const C = classesOf(this.tree);
    for (let k = 0; k < C.end.length; k++) if (C.detached[k] === 1 && C.end[k] > C.size[k]) this.seen.holes++;
    validateTree(this.tree);
    this.check();
    if (rng.chance(0.05)) this.query();
  }

  /** Turns a random budget on, or the budget off. */
  switchBudget(on: boolean): void {
    this.budget = on
      ? { maxPairTests: this.rng.pick([0, 200, 2000]), minChecksPerTier: this.rng.pick([64, 128, 256]) }
      : null;
    this.tree.setBudget(this.budget ?? {});
  }

  private check(): void {
    const current = readPairs(this.tree.current);
    const expected = brutePairs(this.model, this.touching);
    // A removed id's old pairs were true of another item: forget them.
    for (const past of this.history)
      for (const key of past)
        if (this.removedSinceStep.has(+key.split(',')[0]) || this.removedSinceStep.has(+key.split(',')[1]))
          past.delete(key);
    this.history.push(new Set(expected.map((p) => pairKey(p[0], p[1]))));
    if (this.budget === null) {
      expect(current).toEqual(expected);
      this.checkEvents(expected);
    } else {
      // Tier 0 (actors and walls, priority 230 and up) is never cut.
      expect(current.filter((p) => p[2] >= 192)).toEqual(expected.filter((p) => p[2] >= 192));
      this.checkStaleness(current, expected);
      this.seen.budgeted++;
    }
    if (this.history.length > 128) this.history.shift();
    this.prev = current;
    this.removedSinceStep.clear();
  }

  /**
   * The budget's promise, step by step: a listed pair was true at some step within the wait
   * bound, and a true pair that is not listed began within it. (The bound the last step gave
   * covers this step's checks.)
   */
  private checkStaleness(current: Pair[], expected: Pair[]): void {
    const window = this.history.slice(-(this.bound + 1));
    const listed = new Set(current.map((p) => pairKey(p[0], p[1])));
    for (const p of current) {
      const key = pairKey(p[0], p[1]);
      expect(
        window.some((past) => past.has(key)),
        `listed pair ${key} was not true within ${this.bound} steps`,
      ).toBe(true);
    }
    for (const p of expected) {
      const key = pairKey(p[0], p[1]);
      if (listed.has(key)) continue;
      expect(
        window.some((past) => !past.has(key)),
        `pair ${key} true for ${this.bound} steps is not listed`,
      ).toBe(true);
    }
    // The promise made at any step since the item's last check covers it: keep the largest.
    this.bounds.push(this.tree.stats.waitBound);
    if (this.bounds.length > 64) this.bounds.shift();
    this.bound = Math.max(1, ...this.bounds);
    this.seen.maxBound = Math.max(this.seen.maxBound, this.bound);
  }

  /** The longest wait bound the budgeted steps gave so far (before the first: generous). */
  private bound = 64;
  private bounds: number[] = [];

  /** Entries and exits are the difference between this step's pairs and the last, counting recycled ids as new items. */
  private checkEvents(expected: Pair[]): void {
    const before = new Set(this.prev.map((p) => pairKey(p[0], p[1])));
    const now = new Set(expected.map((p) => pairKey(p[0], p[1])));
    const recycled = (p: Pair) => this.removedSinceStep.has(p[0]) || this.removedSinceStep.has(p[1]);
    const entered = expected.filter((p) => !before.has(pairKey(p[0], p[1])) || recycled(p));
    const exited = this.prev.filter((p) => !now.has(pairKey(p[0], p[1])) || recycled(p));
    expect(readPairs(this.tree.entered)).toEqual(entered);
    expect(sorted(readPairs(this.tree.exited).map((p) => p[0] * 100000 + p[1]))).toEqual(
      sorted(exited.map((p) => p[0] * 100000 + p[1])),
    );
  }

  /**
   * With a budget on, stops the game and steps until the wait the stats promise has passed:
   * every item waiting then has been checked, so the pairs are exact again.
   */
  waitOut(): void {
    if (this.budget === null) return;
    this.frame(true);
    for (let left = this.tree.stats.waitBound; left > 0; left--) this.frame(true);
    expect(readPairs(this.tree.current)).toEqual(brutePairs(this.model, this.touching).sort(comparePairs));
    this.seen.exactAfterWait++;
  }

  /** A rect query sees every item where the tree last placed it: exact without a budget. */
  private query(): void {
    if (this.budget !== null) return;
    const x = this.rng.range(0, this.side - 200),
      y = this.rng.range(0, this.side - 200);
    const out: number[] = [];
    this.tree.queryRect(x, y, x + 200, y + 200, out);
    const want = [...this.model]
      .filter(([, b]) =>
        this.touching
          ? b.minX <= x + 200 && x <= b.maxX && b.minY <= y + 200 && y <= b.maxY
          : b.minX < x + 200 && x < b.maxX && b.minY < y + 200 && y < b.maxY,
      )
      .map(([id]) => id);
    expect(sorted(out)).toEqual(sorted(want));
    this.seen.queries++;
  }
}

describe('churn: bursts, deaths and recycled ids at scale', () => {
  for (const touching of [false, true]) {
    it(`matches brute force through births, deaths and budgets (touching ${touching})`, () => {
      const run = new ChurnRun(touching ? 71 : 70, touching);
      const steps = LONG_STEPS > 0 ? LONG_STEPS : 160;
      // Budget on for the second and fourth quarter of every 160 frames (a new one each time).
      for (let f = 0; f < steps; f++) {
        if (f % 40 === 0) run.switchBudget(f % 80 === 40);
        run.frame(false);
        if (f % 80 === 79) run.waitOut();
      }
      // The run reached what it exists for.
      expect(run.seen.removed).toBeGreaterThan(3000);
      expect(run.seen.recycled).toBeGreaterThan(1000);
      expect(run.seen.detachedSteps).toBeGreaterThan(steps / 2);
      expect(run.seen.budgeted).toBeGreaterThan(10);
      expect(run.seen.exactAfterWait).toBeGreaterThan(0);
      expect(run.seen.holes).toBeGreaterThan(0);
      console.log('oracle counts churn', JSON.stringify(run.seen));
    }, 120_000);
  }
});
