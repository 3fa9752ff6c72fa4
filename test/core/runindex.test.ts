import { describe, expect, it } from 'vitest';
import { LooseQuadtree, restoreTree, saveTree, validateTree, type QuadtreeSnapshot } from '../../src/core/index.js';
import {
  anyDetached,
  Rng,
  shapeDistance,
  shapeHasPoint,
  shapeInCircle,
  shapeInRect,
  sorted,
  stored,
  type ModelItem,
} from './helpers.js';

const WALL = 1;
const DUST = 2;

/** Queries that read a detached run through its cells (see RunIndex) so far. */
function indexedRuns(tree: LooseQuadtree): number {
  const engine = (tree as unknown as { queries: { runIndexes: ({ builtMoves: number } | null)[] } }).queries;
  return engine.runIndexes.filter((index) => index !== null && index.builtMoves >= 0).length;
}

/**
 * Queries over a detached class (dust that moves every step) between moves, inserts, removals,
 * collider changes, steps, restores and clears, several after each change so that the run's
 * cells are built and then read: every answer is compared with brute force over the model.
 */
class RunQueries {
  readonly tree: LooseQuadtree;
  readonly model = new Map<number, ModelItem>();
  readonly rng: Rng;
  readonly side = 2000;
  private saved: { snap: QuadtreeSnapshot; model: Map<number, ModelItem> } | null = null;
  queries = 0;

  constructor(
    seed: number,
    readonly touching: boolean,
  ) {
    this.rng = new Rng(seed);
    this.tree = new LooseQuadtree({ width: this.side, height: this.side, touching });
    for (let id = 0; id < 3000; id++) this.add(id, id < 40 ? WALL : DUST);
    this.tree.step();
  }

  private add(id: number, layer: number): void {
    const s = layer === WALL ? 20 + this.rng.int(200) : 1 + this.rng.int(6);
    const x = this.rng.range(-50, this.side);
    const y = this.rng.range(-50, this.side);
    this.tree.insert(id, x, y, x + s, y + s);
    const mask = layer === WALL ? DUST : WALL;
    this.tree.setCollider(id, layer, mask, layer === WALL ? 255 : 10);
    const [minX, minY, maxX, maxY] = stored([x, y, x + s, y + s]);
    this.model.set(id, { minX, minY, maxX, maxY, layer, mask, priority: 0, isStatic: false });
  }

  private move(id: number): void {
    const it = this.model.get(id)!;
    const far = this.rng.chance(0.02);
    // Mostly a little, now and then far off (outside the world too) or grown: the run's cells and reach change.
    const dx = far ? this.rng.range(-3000, 3000) : this.rng.range(-8, 8);
    const dy = far ? this.rng.range(-3000, 3000) : this.rng.range(-8, 8);
    const grow = this.rng.chance(0.01) ? this.rng.range(0, 300) : 0;
    const box = stored([it.minX + dx, it.minY + dy, it.maxX + dx + grow, it.maxY + dy + grow]);
    this.tree.move(id, ...box);
    [it.minX, it.minY, it.maxX, it.maxY] = box;
  }

  round(): void {
    const rng = this.rng;
    const dust = [...this.model.keys()].filter((id) => this.model.get(id)!.layer === DUST);
    const action = rng.int(10);
    if (action < 5) {
      // Most of the dust, or a few (a query between moves of a few must see them).
      const share = rng.chance(0.8) ? 0.9 : 0.01;
      for (const id of dust) if (rng.chance(share)) this.move(id);
    } else if (action === 5) {
      for (let i = 0; i < 20; i++) {
        const id = dust[rng.int(dust.length)];
        if (!this.model.has(id)) continue;
        this.tree.remove(id);
        this.model.delete(id);
        // Some come back at once, taking their old place in the run.
        if (rng.chance(0.5)) this.add(id, DUST);
      }
      for (let i = 0; i < 20; i++) {
        const id = 3000 + rng.int(2000);
        if (!this.model.has(id)) this.add(id, DUST);
      }
    } else if (action === 6) {
      // Dust that becomes a wall leaves the run (a hole), and back.
      const id = rng.pick(dust);
      this.tree.setCollider(id, WALL, DUST, 255);
      Object.assign(this.model.get(id)!, { layer: WALL, mask: DUST });
    } else if (action === 7) {
      const saved = this.saved;
      if (saved === null) {
        this.saved = { snap: saveTree(this.tree), model: structuredClone(this.model) };
      } else {
        restoreTree(this.tree, saved.snap);
        this.model.clear();
        for (const [id, it] of structuredClone(saved.model)) this.model.set(id, it);
        this.saved = null;
      }
    } else if (action === 8 && rng.chance(0.1)) {
      this.tree.clear();
      this.model.clear();
      this.saved = null;
      for (let id = 0; id < 3000; id++) this.add(id, id < 40 ? WALL : DUST);
    } else {
      this.tree.step();
    }
    // Enough that the run's cells are built (see RunIndex) and read in most rounds.
    for (let q = 0; q < 8; q++) this.check();
    validateTree(this.tree);
  }

  private check(): void {
    const { rng, touching } = this;
    const x = rng.range(-200, this.side + 200);
    const y = rng.range(-200, this.side + 200);
    const w = rng.chance(0.1) ? rng.range(0, 4000) : rng.range(0, 150);
    const mask = rng.pick([DUST, DUST | WALL, -1]);
    const items = [...this.model].filter(([, it]) => (it.layer & mask) !== 0);
    const out: number[] = [];
    const kind = rng.int(4);
    let expected: number[];
    if (kind === 0) {
      this.tree.queryRect(x, y, x + w, y + w * 0.7, out, mask);
      expected = items.filter(([, it]) => shapeInRect(it, x, y, x + w, y + w * 0.7, touching)).map(([id]) => id);
    } else if (kind === 1) {
      this.tree.queryCircle(x, y, w * 0.5, out, mask);
      expected = items.filter(([, it]) => shapeInCircle(it, x, y, w * 0.5, touching)).map(([id]) => id);
    } else if (kind === 2) {
      this.tree.queryPoint(x, y, out, mask);
      expected = items.filter(([, it]) => shapeHasPoint(it, x, y, touching)).map(([id]) => id);
    } else {
      this.tree.nearest(x, y, 6, w, out, null, mask);
      const near = items
        .map(([id, it]) => [id, shapeDistance(it, x, y, w, touching)])
        .filter(([, d]) => d >= 0)
        .sort((a, b) => a[1] - b[1] || a[0] - b[0])
        .slice(0, 6);
      expect(out).toEqual(near.map(([id]) => id));
      this.queries++;
      return;
    }
    expect(sorted(out)).toEqual(sorted(expected));
    this.queries++;
  }
}

/** Moves the dust's class counted since the last step (class 0, the first made). */
function movesOf(tree: LooseQuadtree): number {
  return (tree as unknown as { tree: { classes: { moved: Int32Array } } }).tree.classes.moved[0];
}

/** Dust at random places, a burst big enough to be detached at once; returns the model's boxes by id. */
function scatter(tree: LooseQuadtree, rng: Rng, from: number, count: number): Map<number, ModelItem> {
  const model = new Map<number, ModelItem>();
  for (let id = from; id < from + count; id++) {
    const x = rng.range(0, 1990);
    const y = rng.range(0, 1990);
    tree.insert(id, x, y, x + 4, y + 4);
    tree.setCollider(id, DUST, WALL, 10);
    const [minX, minY, maxX, maxY] = stored([x, y, x + 4, y + 4]);
    model.set(id, { minX, minY, maxX, maxY, layer: DUST, mask: WALL, priority: 0, isStatic: false });
  }
  return model;
}

/** Every id whose box meets each of a grid of rectangles, by the tree and by brute force. */
function sweepQueries(tree: LooseQuadtree, model: Map<number, ModelItem>): [number[][], number[][]] {
  const got: number[][] = [];
  const want: number[][] = [];
  for (let x = 0; x < 2000; x += 250) {
    for (let y = 0; y < 2000; y += 250) {
      const out: number[] = [];
      tree.queryRect(x, y, x + 250, y + 250, out);
      got.push(sorted(out));
      want.push(
        sorted([...model].filter(([, it]) => shapeInRect(it, x, y, x + 250, y + 250, false)).map(([id]) => id)),
      );
    }
  }
  return [got, want];
}

describe('queries over a detached run read its cells', () => {
  it('a run laid out anew by a step (its holes dropped) is read anew, though its class counts no move', () => {
    const rng = new Rng(7);
    const tree = new LooseQuadtree({ width: 2000, height: 2000 });
    const model = scatter(tree, rng, 0, 4000);
    tree.step();
    expect(anyDetached(tree)).toBe(true);
    sweepQueries(tree, model); // the cells are built at the second query
    for (let id = 0; id < 4000; id += 2) {
      tree.remove(id);
      model.delete(id);
    }
    // All move, so the class stays detached; the step drops the holes, and the places move.
    for (const [id, it] of model) {
      const box = stored([it.minX + 1, it.minY, it.maxX + 1, it.maxY]);
      tree.move(id, ...box);
      [it.minX, it.minY, it.maxX, it.maxY] = box;
    }
    tree.step();
    expect(anyDetached(tree)).toBe(true);
    expect(movesOf(tree)).toBe(0);
    const [got, want] = sweepQueries(tree, model);
    expect(got).toEqual(want);
  });

  it('a restored run is read anew, though its class counts as many moves as when its cells were built', () => {
    const rng = new Rng(8);
    const tree = new LooseQuadtree({ width: 2000, height: 2000 });
    const model = scatter(tree, rng, 0, 4000);
    tree.step();
    const snap = saveTree(tree);
    const savedModel = structuredClone(model);
    for (const [id, it] of model) {
      const box = stored([it.minX + 300, it.minY - 200, it.maxX + 300, it.maxY - 200]);
      tree.move(id, ...box);
      [it.minX, it.minY, it.maxX, it.maxY] = box;
    }
    tree.step();
    sweepQueries(tree, model); // cells built with no move counted since the step, as at the save
    restoreTree(tree, snap);
    const [got, want] = sweepQueries(tree, savedModel);
    expect(got).toEqual(want);
  });

  it('a cleared and refilled run is read anew, though its class counts as many moves as before', () => {
    const rng = new Rng(9);
    const tree = new LooseQuadtree({ width: 2000, height: 2000 });
    // 5,024 placed at once count 5,024 moves: the first 1,024 as the class is detached, then each.
    scatter(tree, rng, 0, 5024);
    tree.flush();
    expect(anyDetached(tree)).toBe(true);
    const moves = movesOf(tree);
    sweepQueries(tree, new Map()); // cells built for the first burst
    tree.clear();
    // Cleared, 4,000 ids placed again count 5,024 too: ids that were in the run before count their move again.
    const model = scatter(tree, rng, 0, 4000);
    tree.flush();
    expect(movesOf(tree)).toBe(moves);
    const [got, want] = sweepQueries(tree, model);
    expect(got).toEqual(want);
  });

  for (const touching of [false, true]) {
    it(`answer as brute force after every kind of change, the cells built and read (touching ${touching})`, () => {
      const run = new RunQueries(touching ? 41 : 40, touching);
      let detachedRounds = 0;
      for (let i = 0; i < 120; i++) {
        run.round();
        if (anyDetached(run.tree)) detachedRounds++;
      }
      expect(detachedRounds).toBeGreaterThan(50);
      expect(indexedRuns(run.tree)).toBeGreaterThan(0);
      expect(run.queries).toBe(960);
    });
  }
});
