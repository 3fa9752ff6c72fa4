import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isSquare, STORED } from '../../src/core/errors.js';
import {
  boxesOverlap,
  circleBoxOverlap,
  LooseQuadtree,
  pointBoxDistanceSq,
  pointInBox,
  rayBoxDistance,
  Shape,
  tierOf,
  type RayHit,
  validateTree,
} from '../../src/core/index.js';
import {
  brutePairs,
  comparePairs,
  pairKey,
  readPairs,
  Rng,
  shapeDistance,
  shapeHasPoint,
  shapeInCircle,
  shapeInRect,
  shapeRayDistance,
  shapesOverlap,
  sorted,
  stored,
  type ModelItem,
  type Pair,
} from './helpers.js';

/** One world shape and random mix. Coordinates are multiples of `quantum` so exact ties happen. */
interface Scenario {
  name: string;
  seed: number;
  steps: number;
  population: number;
  x: number;
  y: number;
  width: number;
  height: number;
  maxDepth: number;
  touching: boolean;
  maxId: number;
  quantum: number;
  /** Switch a random budget on and off now and then (pairs are then exact only without one). */
  budgets?: boolean;
  /** Now and then put items, radii and ranges out to 3.4e38 (float32's edge, the stored boxes' and queries'), or tiny. */
  huge?: boolean;
}

/**
 * Long runs: `ORACLE_STEPS=20000` sets the steps of every scenario and turns on budgets and
 * huge coordinates in all of them; `ORACLE_SEED=n` shifts every seed (see `npm run fuzz`).
 */
const LONG_STEPS = Number(process.env.ORACLE_STEPS ?? 0);
const SEED_SHIFT = Number(process.env.ORACLE_SEED ?? 0);
const LONG = LONG_STEPS > 0;

const PRIORITIES = [0, 1, 63, 64, 100, 127, 128, 129, 191, 192, 200, 255];
const MASKS = [-1, -1, -1, 0, 1, 2, 3, 5, 0xf, 0xffffffff, (1 << 31) | 1, 6];
const QUERY_MASKS = [undefined, undefined, -1, 1, 2, 6, 1 << 31, 0];

/**
 * Drives a LooseQuadtree and a plain model (a Map of boxes) with the same random operations
 * and checks, after every step, the pair lists and every query kind against brute force.
 */
class OracleRun {
  readonly tree: LooseQuadtree;
  readonly model = new Map<number, ModelItem>();
  private readonly rng: Rng;
  private readonly s: Scenario;
  private readonly pending = new Set<number>();
  private removedSinceStep = new Set<number>();
  private recentlyRemoved: number[] = [];
  private prev: Pair[] = [];
  private readonly ids: number[] = [];
  private readonly dists: number[] = [];
  private readonly hit: RayHit = { id: -1, distance: 0 };
  /** The budget in force, or null. */
  private budget: { maxPairTests: number; minChecksPerTier: number } | null = null;
  /** Counters that prove the run reached the cases it is meant to cover. */
  readonly seen = {
    pairs: 0,
    entered: 0,
    exited: 0,
    reentered: 0,
    outside: 0,
    rayHits: 0,
    rayTies: 0,
    nearestTies: 0,
    edgeOnlyPairs: 0,
    flushed: 0,
    rectHits: 0,
    clears: 0,
    fullPasses: 0,
    queriesAfterMoveMost: 0,
    budgetSteps: 0,
    deferred: 0,
    budgetLifts: 0,
    hugeItems: 0,
    circlePairs: 0,
    circleTangents: 0,
    circleHits: 0,
    notSquare: 0,
  };
  /** What the run did and checked, for the long-run summary. */
  readonly counts = { steps: 0, ops: 0, moves: 0, pairsCompared: 0, queries: 0, validations: 0 };
  /** Step in which each current pair began. */
  private born = new Map<string, number>();

  constructor(s: Scenario) {
    this.s = s;
    this.rng = new Rng(s.seed);
    this.tree = new LooseQuadtree({
      x: s.x,
      y: s.y,
      width: s.width,
      height: s.height,
      maxDepth: s.maxDepth,
      touching: s.touching,
      maxId: s.maxId,
    });
  }

  run(): void {
    for (let i = 0; i < this.s.steps; i++) {
      if (this.s.budgets && this.rng.chance(0.04)) this.toggleBudget();
      if (this.rng.chance(0.01) || i === this.s.steps >> 1) this.clearAll();
      const ops = this.rng.int(14);
      for (let k = 0; k < ops; k++) this.randomOp();
      this.counts.ops += ops;
      // Now and then most items move at once: the step then takes its one-pass path.
      if (this.rng.chance(0.2)) {
        this.moveMost();
        // A query right after catches the tree up with all those moves in one pass; more
        // changes (removals of just-moved items among them) may follow before the step.
        if (this.rng.chance(0.5)) {
          this.checkQueries(1);
          this.seen.queriesAfterMoveMost++;
          for (let k = this.rng.int(4); k > 0; k--) this.randomOp();
        }
      }
      this.stepAndCheck();
      if (this.tree.stats.moved > 0 && this.tree.stats.moved === this.tree.size) this.seen.fullPasses++;
      this.checkQueries(4);
      if (i % 16 === 0) this.checkContent();
    }
  }

  /**
   * A random budget, or none. With one, lower-tier movers wait their turn and their pairs keep
   * their last state; priority changes land on waiting items. Lifting it must make the next
   * step exact again, with no pair ending and beginning anew that never stopped overlapping.
   */
  private toggleBudget(): void {
    if (this.budget === null) {
      this.budget = { maxPairTests: this.rng.pick([0, 0, 10, 50, 400]), minChecksPerTier: 1 + this.rng.int(4) };
      this.tree.setBudget(this.budget);
    } else {
      this.budget = null;
      this.tree.setBudget({});
      this.seen.budgetLifts++;
    }
  }

  /**
   * Makes an item a circle or a box again. A box that is not square cannot be a circle: the
   * tree refuses, naming the item and both sizes, and keeps it a box.
   */
  private toggleShape(id: number, item: ModelItem): void {
    const tree = this.tree;
    if (item.circle) {
      tree.setShape(id, Shape.Box);
      item.circle = false;
    } else if (!isSquare(item.minX, item.minY, item.maxX, item.maxY, STORED) && !this.rng.chance(0.3)) {
      this.seen.notSquare++;
      expect(() => tree.setShape(id, Shape.Circle)).toThrow(`bitecs-quadtree: item ${id} is a circle but its box is`);
      expect(tree.shapeOf(id)).toBe(Shape.Box);
    } else {
      // Made square first, then round.
      const box: [number, number, number, number] = [
        item.minX,
        item.minY,
        item.maxX,
        item.minY + (item.maxX - item.minX),
      ];
      tree.move(id, ...box);
      [item.minX, item.minY, item.maxX, item.maxY] = stored(box);
      tree.setShape(id, Shape.Circle);
      item.circle = true;
    }
    expect(tree.shapeOf(id)).toBe(item.circle ? Shape.Circle : Shape.Box);
  }

  private snap(v: number): number {
    const q = this.s.quantum;
    return Math.round(v / q) * q;
  }

  private randomBox(): [number, number, number, number] {
    const { x, y, width: W, height: H } = this.s;
    const rng = this.rng;
    const r = rng.next();
    let cx = rng.range(x, x + W);
    let cy = rng.range(y, y + H);
    if (this.s.huge && rng.chance(0.05)) {
      // Far out in float space, to the edge of float32's range (boxes are stored in float32).
      this.seen.hugeItems++;
      const at = () => rng.pick([-1, 1]) * rng.pick([1e30, 3e35, 3.4e38, rng.range(1e20, 3.3e38)]);
      const minX = this.snap(rng.chance(0.7) ? at() : cx);
      const minY = this.snap(rng.chance(0.7) ? at() : cy);
      return [minX, minY, minX + this.snap(rng.range(0, 50)), minY + this.snap(rng.range(0, 50))];
    }
    if (rng.chance(0.4)) {
      // A crowded corner of the world, so pairs are plentiful.
      cx = rng.range(x + W * 0.1, x + W * 0.3);
      cy = rng.range(y + H * 0.1, y + H * 0.4);
    }
    let w: number;
    let h: number;
    if (r < 0.5) {
      w = rng.range(0, W / 25);
      h = rng.range(0, H / 12);
    } else if (r < 0.6) {
      // Points and lines.
      w = rng.chance(0.5) ? 0 : rng.range(0, W / 20);
      h = w !== 0 || rng.chance(0.5) ? 0 : rng.range(0, H / 10);
    } else if (r < 0.72) {
      w = rng.range(0, W / 3);
      h = rng.range(0, H / 3);
    } else if (r < 0.77) {
      // Bigger than the world.
      const side = Math.max(W, H);
      w = rng.range(1.05, 3) * side;
      h = rng.range(1.05, 3) * side;
    } else if (r < 0.84) {
      // Far outside: about a million units away on one or both axes.
      if (rng.chance(0.7)) cx += rng.pick([-1, 1]) * rng.range(1e5, 2e6);
      if (rng.chance(0.7)) cy += rng.pick([-1, 1]) * rng.range(1e5, 2e6);
      w = rng.range(0, 50);
      h = rng.range(0, 50);
    } else {
      // Straddling (or just beyond) an edge of the world.
      if (rng.chance(0.5)) cx = rng.pick([x, x + W]) + rng.range(-30, 30);
      else cy = rng.pick([y, y + H]) + rng.range(-30, 30);
      w = rng.range(0, 80);
      h = rng.range(0, 80);
    }
    const minX = this.snap(cx - w / 2);
    const minY = this.snap(cy - h / 2);
    return [minX, minY, minX + this.snap(w), minY + this.snap(h)];
  }

  private freeId(): number {
    const rng = this.rng;
    if (this.recentlyRemoved.length > 0 && rng.chance(0.3)) {
      const i = rng.int(this.recentlyRemoved.length);
      const id = this.recentlyRemoved[i];
      this.recentlyRemoved.splice(i, 1);
      if (!this.model.has(id)) return id;
    }
    for (;;) {
      // Sparse ids, now and then right at the top of the id range.
      const id = rng.chance(0.03) ? this.s.maxId - 1 - rng.int(3) : rng.int(this.s.population * 8);
      if (!this.model.has(id)) return id;
    }
  }

  private anyId(): number {
    const keys = [...this.model.keys()];
    return keys[this.rng.int(keys.length)];
  }

  /** Moves about 80% of the items by a small step, the way a frame of a game does. */
  private moveMost(): void {
    for (const [id, item] of this.model) {
      if (!this.rng.chance(0.8)) continue;
      const dx = this.snap(this.rng.range(-4, 4) * this.s.quantum * 4);
      const dy = this.snap(this.rng.range(-4, 4) * this.s.quantum * 4);
      const box: [number, number, number, number] = [item.minX + dx, item.minY + dy, item.maxX + dx, item.maxY + dy];
      // A circle moves by its centre and radius, as a game moves one: its box read back has float32
      // corners, and moving on from one again and again would add up their roundings.
      if (item.circle) box[3] = box[1] + (box[2] - box[0]);
      this.tree.move(id, ...box);
      [item.minX, item.minY, item.maxX, item.maxY] = stored(box);
      this.counts.moves++;
    }
  }

  private randomOp(): void {
    const rng = this.rng;
    const tree = this.tree;
    const model = this.model;
    const fill = model.size / this.s.population;
    const r = rng.next();
    if (model.size === 0 || r < 0.25 * (1.5 - fill)) {
      const id = this.freeId();
      const box = this.randomBox();
      const circle = rng.chance(0.25);
      if (circle) box[3] = box[1] + (box[2] - box[0]);
      const item: ModelItem = {
        minX: Math.fround(box[0]),
        minY: Math.fround(box[1]),
        maxX: Math.fround(box[2]),
        maxY: Math.fround(box[3]),
        layer: 1,
        mask: -1,
        priority: 128,
        isStatic: false,
        circle,
      };
      tree.insert(id, ...box);
      this.pending.add(id);
      if (circle) tree.setShape(id, Shape.Circle);
      model.set(id, item);
      return;
    }
    const id = this.anyId();
    const item = model.get(id)!;
    if (r < 0.55) {
      let box: [number, number, number, number];
      const kind = rng.next();
      if (kind < 0.45) {
        const dx = this.snap(rng.range(-8, 8) * this.s.quantum * 4);
        const dy = this.snap(rng.range(-8, 8) * this.s.quantum * 4);
        box = [item.minX + dx, item.minY + dy, item.maxX + dx, item.maxY + dy];
      } else if (kind < 0.7) {
        box = this.randomBox();
      } else if (kind < 0.9) {
        const other = this.randomBox();
        box = [item.minX, item.minY, item.minX + (other[2] - other[0]), item.minY + (other[3] - other[1])];
      } else {
        box = [item.minX, item.minY, item.maxX, item.maxY];
      }
      // A circle stays square (a move that is not is refused: see the shape op below).
      if (item.circle) box[3] = box[1] + (box[2] - box[0]);
      tree.move(id, ...box);
      [item.minX, item.minY, item.maxX, item.maxY] = stored(box);
    } else if (r < 0.68) {
      tree.remove(id);
      model.delete(id);
      this.pending.delete(id);
      this.removedSinceStep.add(id);
      this.recentlyRemoved.push(id);
      if (rng.chance(0.25)) {
        // Straight back in, same frame: its pairs exit and enter again.
        const box = rng.chance(0.5) ? ([item.minX, item.minY, item.maxX, item.maxY] as const) : this.randomBox();
        tree.insert(id, ...box);
        this.pending.add(id);
        model.set(id, {
          minX: Math.fround(box[0]),
          minY: Math.fround(box[1]),
          maxX: Math.fround(box[2]),
          maxY: Math.fround(box[3]),
          layer: 1,
          mask: -1,
          priority: 128,
          isStatic: false,
          circle: false,
        });
      }
    } else if (r < 0.82) {
      const layer = rng.chance(0.05) ? 1 << 31 : 1 << rng.int(4);
      const mask = rng.pick(MASKS);
      const priority = rng.pick(PRIORITIES);
      tree.setCollider(id, layer, mask, priority);
      item.layer = layer | 0;
      item.mask = mask | 0;
      item.priority = priority;
    } else if (r < 0.86) {
      const isStatic = rng.chance(0.5);
      tree.setStatic(id, isStatic);
      item.isStatic = isStatic;
    } else if (r < 0.9) {
      this.toggleShape(id, item);
    } else if (r < 0.95) {
      expect(tree.flush()).toBe(this.pending.size);
      this.seen.flushed += this.pending.size;
      this.pending.clear();
    } else {
      // A query between steps sees every change so far, pending inserts included.
      this.checkQueries(1);
    }
  }

  /** clear(): every item leaves; their pairs exit in the next step. */
  private clearAll(): void {
    this.tree.clear();
    for (const id of this.model.keys()) {
      this.removedSinceStep.add(id);
      this.recentlyRemoved.push(id);
    }
    this.model.clear();
    this.pending.clear();
    this.seen.clears++;
    expect(this.tree.size).toBe(0);
    validateTree(this.tree);
  }

  /** Items whose box leaves the root's loose bounds: the cell of side max(w, h) grown by half. */
  private expectedOutside(): number {
    const { x, y, width, height } = this.s;
    const side = Math.max(width, height);
    const lo = [x - side / 2, y - side / 2];
    const hi = [lo[0] + 2 * side, lo[1] + 2 * side];
    let n = 0;
    for (const it of this.model.values()) {
      if (!(it.minX >= lo[0] && it.maxX <= hi[0] && it.minY >= lo[1] && it.maxY <= hi[1])) n++;
    }
    return n;
  }

  private stepAndCheck(): void {
    const tree = this.tree;
    const stats = tree.step();
    this.pending.clear();
    this.counts.steps++;
    this.counts.validations++;
    expect(() => validateTree(tree)).not.toThrow();

    const expected = brutePairs(this.model, this.s.touching);
    const current = readPairs(tree.current);
    const removed = this.removedSinceStep;
    const touchesRemoved = (p: Pair) => removed.has(p[0]) || removed.has(p[1]);
    const prevKeys = new Set(this.prev.map((p) => pairKey(p[0], p[1])));
    this.counts.pairsCompared += expected.length;
    if (this.budget !== null) {
      this.checkBudgetStep(expected, current, touchesRemoved);
      return;
    }
    expect(current).toEqual(expected);

    const curKeys = new Set(expected.map((p) => pairKey(p[0], p[1])));
    const expEntered = expected
      .filter((p) => !prevKeys.has(pairKey(p[0], p[1])) || touchesRemoved(p))
      .sort(comparePairs);
    const expExited = this.prev
      .filter((p) => !curKeys.has(pairKey(p[0], p[1])) || touchesRemoved(p))
      .sort(comparePairs);
    expect(readPairs(tree.entered)).toEqual(expEntered);
    expect(readPairs(tree.exited)).toEqual(expExited);
    // A pair keeps the step it began in for as long as it lasts.
    this.noteStarts(expEntered, expExited, curKeys);
    for (const [a, b] of expected) expect(tree.pairStartedAt(b, a)).toBe(this.born.get(pairKey(a, b)));
    for (const [a, b] of expExited.slice(0, 5))
      if (!curKeys.has(pairKey(a, b))) expect(tree.pairStartedAt(a, b)).toBe(-1);
    expect(stats.outside).toBe(this.expectedOutside());

    expect(stats.pairs).toBe(expected.length);
    expect(stats.entered).toBe(expEntered.length);
    expect(stats.exited).toBe(expExited.length);
    expect(stats.stayed).toBe(expected.length - expEntered.length);
    expect(stats.items).toBe(this.model.size);
    expect(tree.pending).toBe(0);
    expect(stats.deferred).toBe(0);
    expect(tree.size).toBe(this.model.size);
    const byTier = (list: Pair[], tier: number) => list.filter((p) => tierOf(p[2]) === tier).length;
    for (let t = 0; t < 4; t++) {
      expect(stats.enteredByTier[t]).toBe(byTier(expEntered, t));
      expect(stats.exitedByTier[t]).toBe(byTier(expExited, t));
      expect(stats.stayedByTier[t]).toBe(byTier(expected, t) - byTier(expEntered, t));
    }

    this.seen.pairs += expected.length;
    this.seen.entered += expEntered.length;
    this.seen.exited += expExited.length;
    this.seen.reentered += expEntered.filter((p) => prevKeys.has(pairKey(p[0], p[1]))).length;
    this.seen.outside += stats.outside;
    for (const [a, b] of expected) {
      const p = this.model.get(a)!;
      const q = this.model.get(b)!;
      if (p.circle || q.circle) this.seen.circlePairs++;
      if (this.s.touching && !shapesOverlap(p, q, false)) {
        this.seen.edgeOnlyPairs++;
        if (p.circle || q.circle) this.seen.circleTangents++;
      }
    }
    this.checkContacts(expected);
    this.prev = expected;
    this.removedSinceStep = new Set();
  }

  /**
   * A step under a budget: waiting items keep their pairs as they were, so the list is not
   * brute force. What must hold: the list is the last one minus the exits plus the entries;
   * every entry overlaps now and every exit does not (or an id left); a pair both exits and
   * enters only when an id left and came back; start steps carry over.
   */
  private checkBudgetStep(expected: Pair[], current: Pair[], touchesRemoved: (p: Pair) => boolean): void {
    const tree = this.tree;
    const entered = readPairs(tree.entered);
    const exited = readPairs(tree.exited);
    const truth = new Map(expected.map((p) => [pairKey(p[0], p[1]), p[2]]));
    for (const p of entered) expect(truth.get(pairKey(p[0], p[1])), `entered ${p.join(',')}`).toBe(p[2]);
    for (const p of exited)
      if (!touchesRemoved(p)) expect(truth.has(pairKey(p[0], p[1])), `exited ${p.join(',')}`).toBe(false);
    const exitKeys = new Set(exited.map((p) => pairKey(p[0], p[1])));
    for (const p of entered)
      if (exitKeys.has(pairKey(p[0], p[1]))) expect(touchesRemoved(p), `exit and entry ${p.join(',')}`).toBe(true);
    const enterKeys = new Set(entered.map((p) => pairKey(p[0], p[1])));
    const carried = this.prev.filter((p) => !exitKeys.has(pairKey(p[0], p[1])) && !enterKeys.has(pairKey(p[0], p[1])));
    const listed = new Set(current.map((p) => pairKey(p[0], p[1])));
    expect(listed.size).toBe(current.length);
    expect(sorted(current.map((p) => p[0] * 1e6 + p[1]))).toEqual(
      sorted([...carried, ...entered].map((p) => p[0] * 1e6 + p[1])),
    );
    this.noteStarts(entered, exited, listed);
    for (const [a, b] of current) expect(tree.pairStartedAt(a, b)).toBe(this.born.get(pairKey(a, b)));
    expect(tree.stats.pairs).toBe(current.length);
    this.seen.budgetSteps++;
    this.seen.deferred += tree.stats.deferred;
    this.prev = current;
    this.removedSinceStep = new Set();
  }

  /**
   * The contact of a few current pairs: a unit normal and a depth such that moving the first
   * item back by the depth (and a hair, for rounding) leaves the two apart.
   */
  private checkContacts(pairs: Pair[]): void {
    const out = { nx: 0, ny: 0, depth: 0, x: 0, y: 0 };
    for (let i = 0; i < Math.min(pairs.length, 4); i++) {
      const [b, a] = pairs[this.rng.int(pairs.length)];
      this.tree.contact(a, b, out);
      const p = this.model.get(a)!,
        q = this.model.get(b)!;
      expect(Math.hypot(out.nx, out.ny)).toBeCloseTo(1, 12);
      expect(out.depth).toBeGreaterThanOrEqual(0);
      const big = Math.max(...[p.minX, p.minY, p.maxX, p.maxY, q.minX, q.minY, q.maxX, q.maxY].map(Math.abs));
      const push = out.depth + 1e-9 * (big + out.depth) + 1e-12;
      if (!(push < Infinity)) continue;
      const dx = -out.nx * push,
        dy = -out.ny * push;
      const moved: ModelItem = { ...p, minX: p.minX + dx, minY: p.minY + dy, maxX: p.maxX + dx, maxY: p.maxY + dy };
      expect(shapesOverlap(moved, q, false), `contact of ${a} and ${b}: ${JSON.stringify(out)}`).toBe(false);
    }
  }

  /** Start steps: entries begin now; exits that are not listed any more are forgotten. */
  private noteStarts(entered: Pair[], exited: Pair[], listed: Set<string>): void {
    for (const [a, b] of entered) this.born.set(pairKey(a, b), this.tree.stepCount);
    for (const [a, b] of exited) if (!listed.has(pairKey(a, b))) this.born.delete(pairKey(a, b));
  }

  /** Boxes, membership and each item's pairs (`pairsOf`). */
  private checkContent(): void {
    const tree = this.tree;
    const box = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
    for (const [id, item] of this.model) {
      expect(tree.has(id)).toBe(true);
      tree.getBox(id, box);
      expect([box.minX, box.minY, box.maxX, box.maxY]).toEqual([item.minX, item.minY, item.maxX, item.maxY]);
    }
    for (const id of this.recentlyRemoved) expect(tree.has(id)).toBe(this.model.has(id));
    const out: number[] = [];
    for (const id of [...this.model.keys()].slice(0, 20)) {
      tree.pairsOf(id, out);
      const partners = this.prev.filter((p) => p[0] === id || p[1] === id).map((p) => (p[0] === id ? p[1] : p[0]));
      expect(sorted(out)).toEqual(sorted(partners));
    }
  }

  private candidates(mask: number | undefined): [number, ModelItem][] {
    const m = mask ?? -1;
    return [...this.model].filter(([, it]) => (it.layer & m) !== 0);
  }

  /** Ids of the items the mask accepts that `hit` keeps, ascending: a query's expected answer. */
  private expectedIds(mask: number | undefined, hit: (it: ModelItem) => boolean): number[] {
    const found = this.candidates(mask).filter(([, it]) => hit(it));
    this.seen.circleHits += found.filter(([, it]) => it.circle).length;
    return found.map(([id]) => id).sort((a, b) => a - b);
  }

  /** A coordinate pair that is often exactly on some item's edge or corner. */
  private randomPoint(): [number, number] {
    const rng = this.rng;
    if (this.model.size > 0 && rng.chance(0.5)) {
      const it = this.model.get(this.anyId())!;
      const px = rng.pick([it.minX, it.maxX, (it.minX + it.maxX) / 2, it.minX + this.s.quantum]);
      const py = rng.pick([it.minY, it.maxY, (it.minY + it.maxY) / 2, it.minY + this.s.quantum]);
      return [px, py];
    }
    const b = this.randomBox();
    return [b[0], b[1]];
  }

  checkQueries(rounds: number): void {
    // Every query places the pending inserts first.
    this.pending.clear();
    this.counts.queries += 5 * rounds;
    for (let i = 0; i < rounds; i++) {
      this.checkRect();
      this.checkCircle();
      this.checkPoint();
      this.checkRay();
      this.checkNearest();
    }
  }

  private checkRect(): void {
    const rng = this.rng;
    const tree = this.tree;
    const touching = this.s.touching;
    const mask = rng.pick(QUERY_MASKS);
    let q = this.randomBox();
    if (this.model.size > 0 && rng.chance(0.3)) {
      // Exactly an item's box, or the strip beside it: edges meet.
      const it = this.model.get(this.anyId())!;
      q = rng.chance(0.5) ? [it.minX, it.minY, it.maxX, it.maxY] : [it.maxX, it.minY, it.maxX + 10, it.maxY];
    }
    const expected = this.expectedIds(mask, (it) => shapeInRect(it, q[0], q[1], q[2], q[3], touching));
    const out = [-7, -7, -7];
    const n = tree.queryRect(q[0], q[1], q[2], q[3], out, mask);
    expect(n).toBe(expected.length);
    expect(sorted(out)).toEqual(expected);
    this.seen.rectHits += n;

    const visited: number[] = [];
    expect(
      tree.visitRect(
        q[0],
        q[1],
        q[2],
        q[3],
        (id) => {
          visited.push(id);
        },
        mask,
      ),
    ).toBe(expected.length);
    expect(sorted(visited)).toEqual(expected);
    // Returning false stops the walk right there.
    const stopAt = 1 + rng.int(expected.length + 1);
    let calls = 0;
    const hits = tree.visitRect(q[0], q[1], q[2], q[3], () => ++calls < stopAt, mask);
    expect(calls).toBe(Math.min(stopAt, expected.length));
    expect(hits).toBe(calls);
  }

  private checkCircle(): void {
    const rng = this.rng;
    const tree = this.tree;
    const mask = rng.pick(QUERY_MASKS);
    const [x, y] = this.randomPoint();
    const r =
      this.s.huge && rng.chance(0.1)
        ? rng.pick([1e30, 3e35, 3.4e38, 1e-200, 5e-320])
        : rng.chance(0.1)
          ? 0
          : this.snap(rng.range(0, Math.max(this.s.width, this.s.height) / 4));
    const expected = this.expectedIds(mask, (it) => shapeInCircle(it, x, y, r, this.s.touching));
    const out: number[] = [];
    expect(tree.queryCircle(x, y, r, out, mask)).toBe(expected.length);
    expect(sorted(out)).toEqual(expected);
    const visited: number[] = [];
    expect(
      tree.visitCircle(
        x,
        y,
        r,
        (id) => {
          visited.push(id);
          return true;
        },
        mask,
      ),
    ).toBe(expected.length);
    expect(sorted(visited)).toEqual(expected);
  }

  private checkPoint(): void {
    const rng = this.rng;
    const tree = this.tree;
    const mask = rng.pick(QUERY_MASKS);
    const [x, y] = this.randomPoint();
    const expected = this.expectedIds(mask, (it) => shapeHasPoint(it, x, y, this.s.touching));
    const out: number[] = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    expect(tree.queryPoint(x, y, out, mask)).toBe(expected.length);
    expect(sorted(out)).toEqual(expected);
    const visited: number[] = [];
    expect(
      tree.visitPoint(
        x,
        y,
        (id) => {
          visited.push(id);
        },
        mask,
      ),
    ).toBe(expected.length);
    expect(sorted(visited)).toEqual(expected);
  }

  private checkRay(): void {
    const rng = this.rng;
    const tree = this.tree;
    const mask = rng.pick(QUERY_MASKS);
    const [ox, oy] = this.randomPoint();
    const dir = rng.pick<[number, number]>([
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
      [1, 1],
      [-1, 1],
      [3, -4],
      [0, 7],
      [rng.int(11) - 5, rng.int(11) - 5],
      [rng.range(-1, 1), rng.range(-1, 1)],
    ]);
    if (dir[0] === 0 && dir[1] === 0) dir[0] = 1;
    const [dx, dy] = dir;
    const span = Math.max(this.s.width, this.s.height);
    const maxDistance = rng.pick([Infinity, 0, this.snap(rng.range(0, span)), this.snap(rng.range(0, 2 * span)), 3e6]);
    const len = Math.hypot(dx, dy);
    const ux = dx / len;
    const uy = dy / len;
    const expected = this.candidates(mask)
      .map(([id, it]) => [id, shapeRayDistance(it, ox, oy, ux, uy, maxDistance, this.s.touching)])
      .filter(([, t]) => t >= 0)
      .sort((p, q) => p[1] - q[1] || p[0] - q[0]);
    const n = tree.raycastAll(ox, oy, dx, dy, maxDistance, this.ids, this.dists, mask);
    expect(n).toBe(expected.length);
    expect(this.ids).toEqual(expected.map((e) => e[0]));
    expect(this.dists).toEqual(expected.map((e) => e[1]));

    const found = tree.raycast(ox, oy, dx, dy, maxDistance, this.hit, mask);
    expect(found).toBe(expected.length > 0);
    expect(this.hit.id).toBe(expected.length > 0 ? expected[0][0] : -1);
    expect(this.hit.distance).toBe(expected.length > 0 ? expected[0][1] : Infinity);
    this.seen.rayHits += expected.length;
    if (expected.length > 1 && expected[0][1] === expected[1][1]) this.seen.rayTies++;
  }

  private checkNearest(): void {
    const rng = this.rng;
    const tree = this.tree;
    const mask = rng.pick(QUERY_MASKS);
    const [x, y] = this.randomPoint();
    const k = rng.pick([0, 1, 1, 2, 3, 5, 8, 1000]);
    const span = Math.max(this.s.width, this.s.height);
    const maxDistance =
      this.s.huge && rng.chance(0.1)
        ? rng.pick([1e38, 3.4e38, 1e-200])
        : rng.pick([Infinity, 0, this.snap(rng.range(0, span / 4)), this.snap(rng.range(0, span))]);
    // In range means inside the circle of radius maxDistance (the rule circle queries use).
    const all = this.candidates(mask)
      .map(([id, it]) => [id, shapeDistance(it, x, y, maxDistance, this.s.touching)])
      .filter(([, d]) => d >= 0)
      .sort((p, q) => p[1] - q[1] || p[0] - q[0]);
    const expected = all.slice(0, k);
    const withDistances = rng.chance(0.7);
    const n = tree.nearest(x, y, k, maxDistance, this.ids, withDistances ? this.dists : null, mask);
    expect(n).toBe(expected.length);
    expect(this.ids).toEqual(expected.map((e) => e[0]));
    if (withDistances) expect(this.dists).toEqual(expected.map((e) => e[1]));
    if (expected.length > 1 && all.length > k && all[k][1] === expected[expected.length - 1][1])
      this.seen.nearestTies++;
  }
}

const BASE = { maxId: 1 << 15, quantum: 1 };

const SCENARIOS: Scenario[] = [
  {
    ...BASE,
    name: 'square world at the origin',
    seed: 1,
    steps: 420,
    population: 140,
    x: 0,
    y: 0,
    width: 1024,
    height: 1024,
    maxDepth: 8,
    touching: false,
    quantum: 4,
  },
  {
    ...BASE,
    name: 'wide world 1000x300 off the origin',
    seed: 2,
    steps: 420,
    population: 140,
    x: -300,
    y: 150,
    width: 1000,
    height: 300,
    maxDepth: 6,
    touching: false,
    quantum: 2,
  },
  {
    ...BASE,
    name: 'fractional coordinates, odd world',
    seed: 3,
    steps: 300,
    population: 120,
    x: 12.5,
    y: -7.25,
    width: 777,
    height: 333,
    maxDepth: 10,
    touching: false,
    quantum: 0.1,
  },
  {
    ...BASE,
    name: 'maxDepth 0 (everything in the root)',
    seed: 4,
    steps: 200,
    population: 60,
    x: 0,
    y: 0,
    width: 256,
    height: 512,
    maxDepth: 0,
    touching: false,
    quantum: 1,
  },
  {
    ...BASE,
    name: 'deep tree in a tiny world',
    seed: 5,
    steps: 200,
    population: 80,
    x: -32,
    y: -32,
    width: 64,
    height: 64,
    maxDepth: 20,
    touching: false,
    quantum: 0.25,
  },
  {
    ...BASE,
    name: 'budgets switched on and off, far items at up to 3.4e38',
    seed: 6,
    steps: 420,
    population: 140,
    x: 0,
    y: 0,
    width: 1024,
    height: 1024,
    maxDepth: 7,
    touching: false,
    quantum: 2,
    budgets: true,
    huge: true,
  },
];

/** What long runs add up, printed at the end for the fuzz script. */
const totals = {
  scenarios: 0,
  steps: 0,
  ops: 0,
  moves: 0,
  pairsCompared: 0,
  queries: 0,
  validations: 0,
  budgetSteps: 0,
  deferred: 0,
  budgetLifts: 0,
  hugeItems: 0,
  circlePairs: 0,
  circleTangents: 0,
  circleHits: 0,
};
afterAll(() => {
  if (LONG) console.log(`oracle counts core ${JSON.stringify(totals)}`);
});

describe('LooseQuadtree against a brute-force oracle', () => {
  for (const touching of [false, true]) {
    for (const base of SCENARIOS) {
      const s: Scenario = {
        ...base,
        touching,
        seed: base.seed + (touching ? 100 : 0) + SEED_SHIFT,
        ...(LONG ? { steps: LONG_STEPS, budgets: true, huge: true } : {}),
      };
      it(
        `${s.name}, touching ${touching} (seed ${s.seed}, ${s.steps} steps)`,
        () => {
          const run = new OracleRun(s);
          run.run();
          totals.scenarios++;
          for (const k of ['steps', 'ops', 'moves', 'pairsCompared', 'queries', 'validations'] as const)
            totals[k] += run.counts[k];
          for (const k of [
            'budgetSteps',
            'deferred',
            'budgetLifts',
            'hugeItems',
            'circlePairs',
            'circleTangents',
            'circleHits',
          ] as const)
            totals[k] += run.seen[k];
          if (s.budgets) {
            expect(run.seen.budgetSteps).toBeGreaterThan(10);
            expect(run.seen.deferred).toBeGreaterThan(0);
            expect(run.seen.budgetLifts).toBeGreaterThan(0);
          }
          if (s.huge) expect(run.seen.hugeItems).toBeGreaterThan(0);
          // The run must have reached the cases it exists for.
          expect(run.seen.pairs).toBeGreaterThan(s.steps);
          expect(run.seen.entered).toBeGreaterThan(50);
          expect(run.seen.exited).toBeGreaterThan(50);
          expect(run.seen.reentered).toBeGreaterThan(0);
          expect(run.seen.outside).toBeGreaterThan(0);
          expect(run.seen.rayHits).toBeGreaterThan(s.steps);
          expect(run.seen.rectHits).toBeGreaterThan(s.steps);
          expect(run.seen.flushed).toBeGreaterThan(0);
          if (touching) expect(run.seen.edgeOnlyPairs).toBeGreaterThan(0);
          expect(run.seen.circlePairs).toBeGreaterThan(s.steps / 4);
          expect(run.seen.circleHits).toBeGreaterThan(0);
          // Steps where most items moved took the one-pass path over every item.
          expect(run.seen.fullPasses).toBeGreaterThan(10);
          expect(run.seen.queriesAfterMoveMost).toBeGreaterThan(10);
          expect(run.seen.clears).toBeGreaterThan(0);
          // Branches emptied and expired along the way (there are none without depth).
          if (s.maxDepth > 0) expect(run.tree.stats.groupsFreed).toBeGreaterThan(0);
        },
        LONG ? 3_600_000 : 60_000,
      );
    }
  }

  it('reaches exact ties in rays and nearest (the tie rules are exercised)', () => {
    const run = new OracleRun({ ...SCENARIOS[0], seed: 77, steps: 150 });
    run.run();
    expect(run.seen.rayTies).toBeGreaterThan(0);
    expect(run.seen.nearestTies).toBeGreaterThan(0);
  });
});

describe('oracle: hand-made cases', () => {
  it('raycast breaks a tie at the same distance by the lower id, whatever the visit order', () => {
    for (const touching of [false, true]) {
      for (const order of [
        [3, 5],
        [5, 3],
      ]) {
        const tree = new LooseQuadtree({ touching });
        // Same size and centre row: both land in the same node; the later insert heads its list.
        tree.insert(order[0], 10, order[0] === 3 ? 2 : 0, 20, order[0] === 3 ? 8 : 10);
        tree.insert(order[1], 10, order[1] === 3 ? 2 : 0, 20, order[1] === 3 ? 8 : 10);
        const hit: RayHit = { id: -1, distance: -1 };
        expect(tree.raycast(0, 5, 1, 0, 100, hit)).toBe(true);
        expect(hit).toEqual({ id: 3, distance: 10 });
      }
    }
  });

  it('an item far outside the world is kept, found and paired', () => {
    const tree = new LooseQuadtree({ x: 100, y: -50, width: 1000, height: 300 });
    tree.insert(1, 1e6, 1e6, 1e6 + 10, 1e6 + 10);
    tree.insert(2, 1e6 + 5, 1e6 + 5, 1e6 + 20, 1e6 + 20);
    tree.insert(3, -1e6, 0, -1e6 + 1, 1);
    tree.step();
    validateTree(tree);
    expect(tree.stats.outside).toBe(3);
    expect(readPairs(tree.current)).toEqual([[1, 2, 128]]);
    const out: number[] = [];
    expect(tree.queryPoint(1e6 + 7, 1e6 + 7, out)).toBe(2);
    expect(tree.nearest(0, 0, 1, Infinity, out)).toBe(1);
    expect(out).toEqual([3]);
  });

  it('an item huge and outside that shrinks back into the root keeps the counters right', () => {
    // Root loose bounds of a 1024 world are [-512, 1536]; a 1000-wide box lives at depth 0.
    const tree = new LooseQuadtree();
    tree.insert(1, -2000, 0, -1000, 800);
    tree.step();
    expect(tree.stats.outside).toBe(1);
    tree.move(1, 0, 0, 1000, 800);
    validateTree(tree);
    tree.step();
    expect(tree.stats.outside).toBe(0);
    tree.move(1, -2000, 0, -1000, 800);
    validateTree(tree);
    tree.step();
    expect(tree.stats.outside).toBe(1);
  });

  it("touching: an item lying exactly on its node's loose edge is found by pairs and queries", () => {
    // Item 1: side 64, centre (128, 128): depth 4 (cell 64), cell (2, 2), loose bounds [96, 224].
    for (const touching of [false, true]) {
      const tree = new LooseQuadtree({ touching });
      tree.insert(1, 96, 96, 160, 160);
      tree.step();
      // Only the newcomer is checked: its walk must not prune item 1's node at the shared edge.
      tree.insert(2, 80, 100, 96, 110);
      tree.step();
      validateTree(tree);
      expect(readPairs(tree.current)).toEqual(touching ? [[1, 2, 128]] : []);
      const out: number[] = [];
      const dist: number[] = [];
      const n = touching ? 1 : 0;
      expect(tree.queryRect(0, 120, 96, 130, out)).toBe(n);
      expect(tree.queryPoint(96, 128, out)).toBe(touching ? 1 : 0);
      expect(tree.queryCircle(90, 128, 6, out)).toBe(n);
      expect(tree.raycastAll(0, 128, 1, 0, 96, out, dist)).toBe(n);
      expect(tree.nearest(128, 0, 5, 96, out, dist)).toBe(n);
      if (touching) expect(dist).toEqual([96]);
    }
  });

  it('every item in the root (maxDepth 0) moving in and out of the world', () => {
    const tree = new LooseQuadtree({ maxDepth: 0, width: 100, height: 100 });
    tree.insert(7, 10, 10, 20, 20);
    tree.move(7, 500, 500, 510, 510);
    validateTree(tree);
    tree.move(7, 10, 10, 20, 20);
    validateTree(tree);
    expect(tree.step().outside).toBe(0);
  });
});

describe('geometry helpers on hand-worked cases', () => {
  const unit = [0, 0, 10, 10] as const;

  it('boxesOverlap: strict by default, closed with touching', () => {
    const cases: [number[], boolean, boolean][] = [
      [[5, 5, 15, 15], true, true], // proper overlap
      [[10, 0, 20, 10], false, true], // shared edge
      [[10, 10, 20, 20], false, true], // shared corner
      [[11, 0, 20, 10], false, false], // apart
      [[2, 2, 3, 3], true, true], // contained
      [[-5, -5, 15, 15], true, true], // containing
      [[5, 5, 5, 5], true, true], // point inside
      [[10, 5, 10, 5], false, true], // point on an edge
      [[0, 0, 0, 0], false, true], // point on a corner
      [[0, 5, 10, 5], true, true], // line across the interior
      [[0, 0, 10, 0], false, true], // line on the top edge
      [[-5, 5, 15, 5], true, true], // line crossing through
    ];
    for (const [b, strict, closed] of cases) {
      expect(boxesOverlap(...unit, b[0], b[1], b[2], b[3], false)).toBe(strict);
      expect(boxesOverlap(b[0], b[1], b[2], b[3], ...unit, false)).toBe(strict);
      expect(boxesOverlap(...unit, b[0], b[1], b[2], b[3], true)).toBe(closed);
    }
    // Two equal points meet only under the closed rule.
    expect(boxesOverlap(3, 3, 3, 3, 3, 3, 3, 3, false)).toBe(false);
    expect(boxesOverlap(3, 3, 3, 3, 3, 3, 3, 3, true)).toBe(true);
  });

  it('pointBoxDistanceSq: 0 inside and on edges, squared euclidean outside', () => {
    expect(pointBoxDistanceSq(5, 5, ...unit)).toBe(0);
    expect(pointBoxDistanceSq(10, 3, ...unit)).toBe(0);
    expect(pointBoxDistanceSq(15, 5, ...unit)).toBe(25);
    expect(pointBoxDistanceSq(-3, 14, ...unit)).toBe(25);
    expect(pointBoxDistanceSq(5, -7, ...unit)).toBe(49);
    expect(pointBoxDistanceSq(0, 0, 3, 4, 3, 4)).toBe(25);
  });

  it('circleBoxOverlap: tangent circles only touch', () => {
    expect(circleBoxOverlap(0, 0, 5, 5, -1, 6, 1, false)).toBe(false); // tangent to a side
    expect(circleBoxOverlap(0, 0, 5, 5, -1, 6, 1, true)).toBe(true);
    expect(circleBoxOverlap(0, 0, 5, 3, 4, 10, 10, false)).toBe(false); // through the corner exactly
    expect(circleBoxOverlap(0, 0, 5, 3, 4, 10, 10, true)).toBe(true);
    expect(circleBoxOverlap(0, 0, 5, 3, 3, 10, 10, false)).toBe(true);
    expect(circleBoxOverlap(5, 5, 1, ...unit, false)).toBe(true); // centre inside
    expect(circleBoxOverlap(5, 5, 0, ...unit, false)).toBe(true); // zero radius: a point, inside the open box
    expect(circleBoxOverlap(5, 5, 0, ...unit, true)).toBe(true);
    expect(circleBoxOverlap(0, 5, 0, ...unit, false)).toBe(false); // a point on its edge: only touches
    expect(circleBoxOverlap(0, 5, 0, ...unit, true)).toBe(true);
    expect(circleBoxOverlap(0, 0, 5, 4, 0, 4, 0, false)).toBe(true); // point box inside
    expect(circleBoxOverlap(0, 0, 5, 6, 0, 6, 0, true)).toBe(false);
  });

  it('pointInBox: open box unless touching', () => {
    expect(pointInBox(5, 5, ...unit, false)).toBe(true);
    expect(pointInBox(0, 5, ...unit, false)).toBe(false);
    expect(pointInBox(0, 5, ...unit, true)).toBe(true);
    expect(pointInBox(10, 10, ...unit, false)).toBe(false);
    expect(pointInBox(10, 10, ...unit, true)).toBe(true);
    expect(pointInBox(10.000001, 5, ...unit, true)).toBe(false);
    expect(pointInBox(3, 3, 3, 3, 3, 3, false)).toBe(false);
    expect(pointInBox(3, 3, 3, 3, 3, 3, true)).toBe(true);
  });

  it('rayBoxDistance: entry distance, inside start, grazing, zero components, range limit', () => {
    const box = [10, 0, 20, 10] as const;
    const r = (
      ox: number,
      oy: number,
      dx: number,
      dy: number,
      max: number,
      touching: boolean,
      b: readonly number[] = box,
    ) => rayBoxDistance(ox, oy, dx, dy, max, b[0], b[1], b[2], b[3], touching);
    expect(r(0, 5, 1, 0, 100, false)).toBe(10);
    expect(r(0, 5, 1, 0, 100, true)).toBe(10);
    expect(r(0, 5, -1, 0, 100, false)).toBe(-1); // pointing away
    expect(r(0, 5, -1, 0, 100, true)).toBe(-1);
    // The range is open in the strict rule: a hit exactly at maxDistance misses.
    expect(r(0, 5, 1, 0, 10, false)).toBe(-1);
    expect(r(0, 5, 1, 0, 10, true)).toBe(10);
    expect(r(0, 5, 1, 0, 9.999, true)).toBe(-1);
    // Starting inside: distance 0, even with maxDistance 0.
    expect(r(15, 5, 1, 0, 100, false)).toBe(0);
    expect(r(15, 5, 0, -1, 0, false)).toBe(0);
    // Starting on the edge: pointing in hits at 0, pointing out misses unless touching.
    expect(r(10, 5, 1, 0, 100, false)).toBe(0);
    expect(r(10, 5, -1, 0, 100, false)).toBe(-1);
    expect(r(10, 5, -1, 0, 100, true)).toBe(0);
    // Grazing along the bottom and top edges (dy = 0).
    expect(r(0, 0, 1, 0, 100, false)).toBe(-1);
    expect(r(0, 0, 1, 0, 100, true)).toBe(10);
    expect(r(0, 10, 1, 0, 100, false)).toBe(-1);
    // Vertical rays (dx = 0): inside the slab, on its edge, outside it.
    expect(r(15, -10, 0, 1, 100, false)).toBe(10);
    expect(r(10, -10, 0, 1, 100, false)).toBe(-1);
    expect(r(10, -10, 0, 1, 100, true)).toBe(10);
    expect(r(25, -10, 0, 1, 100, true)).toBe(-1);
    // Through a corner only.
    const s = Math.SQRT1_2;
    expect(r(0, 20, s, -s, 100, false, unit)).toBe(-1);
    expect(r(0, 20, s, -s, 100, true, unit)).toBeCloseTo(10 * Math.SQRT2, 12);
    // Diagonal through the interior: enters at x = 10 (t = 10 * sqrt 2).
    expect(r(0, -5, s, s, 100, false)).toBeCloseTo(10 * Math.SQRT2, 12);
    // Zero-size boxes: a point is never hit strictly; a line across the ray is hit when closed.
    expect(r(0, 5, 1, 0, 100, false, [10, 5, 10, 5])).toBe(-1);
    expect(r(0, 5, 1, 0, 100, true, [10, 5, 10, 5])).toBe(10);
    expect(r(0, 5, 1, 0, 100, false, [10, 0, 10, 10])).toBe(-1);
    expect(r(0, 5, 1, 0, 100, true, [10, 0, 10, 10])).toBe(10);
  });

  it('properties: symmetry, strict implies touching, agreement between helpers (fast-check, fixed seed)', () => {
    const coord = fc.integer({ min: -20, max: 20 });
    const box = fc.tuple(coord, coord, fc.nat(15), fc.nat(15)).map(([x, y, w, h]) => [x, y, x + w, y + h] as const);
    fc.assert(
      fc.property(box, box, coord, coord, (a, b, px, py) => {
        for (const t of [false, true]) {
          expect(boxesOverlap(...a, ...b, t)).toBe(boxesOverlap(...b, ...a, t));
        }
        if (boxesOverlap(...a, ...b, false)) expect(boxesOverlap(...a, ...b, true)).toBe(true);
        // A point is a zero-size box: both helpers apply the same rule.
        for (const t of [false, true]) expect(pointInBox(px, py, ...a, t)).toBe(boxesOverlap(px, py, px, py, ...a, t));
        // A circle of radius 0 is the point under the closed rule.
        expect(circleBoxOverlap(px, py, 0, ...a, true)).toBe(pointInBox(px, py, ...a, true));
        // Horizontal ray hits iff the box's y-range contains the row (open or closed) and it lies ahead.
        const d = rayBoxDistance(px, py, 1, 0, Infinity, ...a, false);
        const expectHit = a[1] < py && py < a[3] && a[2] > px && a[0] < a[2];
        expect(d >= 0).toBe(expectHit);
        if (expectHit) expect(d).toBe(Math.max(0, a[0] - px));
      }),
      { seed: 20240501, numRuns: 2000 },
    );
  });
});
