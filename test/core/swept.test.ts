import { describe, expect, it } from 'vitest';
import { LooseQuadtree, sweptContact, type SweepHit, validateTree } from '../../src/core/index.js';
import {
  anyDetached,
  comparePairs,
  pairAllowed,
  readPairs,
  Rng,
  type Box,
  type ModelItem,
  type Pair,
} from './helpers.js';

/**
 * Swept items checked against an independent model: exact rational arithmetic over the
 * critical times of the motion (integer coordinates), not the library's slab method.
 */

/** Long runs (see `npm run fuzz`): `ORACLE_STEPS` steps per scenario, `ORACLE_SEED` shifts the seeds. */
const LONG_STEPS = Number(process.env.ORACLE_STEPS ?? 0);
const SEED_SHIFT = Number(process.env.ORACLE_SEED ?? 0);

interface Path {
  from: Box;
  to: Box;
}

/** A fraction p / q with q > 0 (all values here are small integers, exact in doubles). */
type Frac = [p: number, q: number];

function lessFrac(x: Frac, y: Frac): boolean {
  return x[0] * y[1] < y[0] * x[1];
}

/** Box coordinate at time t = p / q, times q (exact for integer boxes). */
function at(v0: number, v1: number, t: Frac): number {
  return v0 * t[1] + (v1 - v0) * t[0];
}

/** Whether the interpolated boxes overlap at time t, under the rule. */
function overlapAt(a: Path, b: Path, t: Frac, touching: boolean): boolean {
  const lt = (x: number, y: number): boolean => (touching ? x <= y : x < y);
  return (
    lt(at(a.from.minX, a.to.minX, t), at(b.from.maxX, b.to.maxX, t)) &&
    lt(at(b.from.minX, b.to.minX, t), at(a.from.maxX, a.to.maxX, t)) &&
    lt(at(a.from.minY, a.to.minY, t), at(b.from.maxY, b.to.maxY, t)) &&
    lt(at(b.from.minY, b.to.minY, t), at(a.from.maxY, a.to.maxY, t))
  );
}

/**
 * First contact of two paths as an exact fraction, or null. The overlap of each pair of edges
 * changes only where a linear function crosses 0: between those times (and 0 and 1) the answer
 * is constant, so testing each critical time and the midpoint after it finds the earliest.
 */
function exactToi(a: Path, b: Path, touching: boolean): Frac | null {
  const times: Frac[] = [
    [0, 1],
    [1, 1],
  ];
  const edges: [number, number, number, number][] = [
    [a.from.minX - b.from.maxX, a.to.minX - b.to.maxX, 0, 0],
    [b.from.minX - a.from.maxX, b.to.minX - a.to.maxX, 0, 0],
    [a.from.minY - b.from.maxY, a.to.minY - b.to.maxY, 0, 0],
    [b.from.minY - a.from.maxY, b.to.minY - a.to.maxY, 0, 0],
  ];
  for (const [c, e] of edges) {
    const k = e - c;
    if (k === 0) continue;
    const t: Frac = k > 0 ? [-c, k] : [c, -k];
    if (t[0] >= 0 && t[0] <= t[1]) times.push(t);
  }
  times.sort((x, y) => (lessFrac(x, y) ? -1 : lessFrac(y, x) ? 1 : 0));
  for (let i = 0; i < times.length; i++) {
    if (overlapAt(a, b, times[i], touching)) return times[i];
    if (i + 1 < times.length && lessFrac(times[i], times[i + 1])) {
      const mid: Frac = [
        times[i][0] * times[i + 1][1] + times[i + 1][0] * times[i][1],
        2 * times[i][1] * times[i + 1][1],
      ];
      if (overlapAt(a, b, mid, touching)) return times[i];
    }
  }
  return null;
}

function path(x0: number, y0: number, x1: number, y1: number, dx: number, dy: number): Path {
  return {
    from: { minX: x0, minY: y0, maxX: x1, maxY: y1 },
    to: { minX: x0 + dx, minY: y0 + dy, maxX: x1 + dx, maxY: y1 + dy },
  };
}

function libraryToi(a: Path, b: Path, touching: boolean): number {
  const s = new Float64Array(17);
  s.set([
    a.from.minX,
    a.from.minY,
    a.from.maxX,
    a.from.maxY,
    a.to.minX,
    a.to.minY,
    a.to.maxX,
    a.to.maxY,
    b.from.minX,
    b.from.minY,
    b.from.maxX,
    b.from.maxY,
    b.to.minX,
    b.to.minY,
    b.to.maxX,
    b.to.maxY,
  ]);
  return sweptContact(s, touching) ? s[16] : -1;
}

/** Moves a square box up to `reach` each way, kept inside [0, side], and tells the tree. */
function wander(tree: LooseQuadtree, rng: Rng, id: number, b: Box, reach: number, side: number): void {
  const w = b.maxX - b.minX;
  b.minX = Math.max(0, Math.min(side - w, b.minX + rng.int(2 * reach + 1) - reach));
  b.minY = Math.max(0, Math.min(side - w, b.minY + rng.int(2 * reach + 1) - reach));
  b.maxX = b.minX + w;
  b.maxY = b.minY + w;
  tree.move(id, b.minX, b.minY, b.maxX, b.maxY);
}

function fracValue(t: Frac | null): number {
  return t === null ? -1 : t[0] / t[1];
}

describe('the swept-box test', () => {
  const still = (x0: number, y0: number, x1: number, y1: number): Path => path(x0, y0, x1, y1, 0, 0);

  it('catches a box passing through a thin wall, at its first contact', () => {
    const bullet = path(100, 100, 104, 104, 40, 0);
    const wall = still(120, 90, 122, 130);
    expect(libraryToi(bullet, wall, false)).toBeCloseTo(0.4, 12);
    expect(libraryToi(wall, bullet, false)).toBeCloseTo(0.4, 12);
  });

  it('reports 0 for boxes that overlap at the start, and -1 for boxes that never meet', () => {
    expect(libraryToi(path(0, 0, 10, 10, 50, 0), still(5, 5, 20, 20), false)).toBe(0);
    expect(libraryToi(path(0, 0, 10, 10, 50, 0), still(0, 30, 100, 40), false)).toBe(-1);
  });

  it('tells a corner graze apart under the two rules', () => {
    // The moving box's corner runs exactly along the wall's corner line.
    const a = path(0, 0, 10, 10, 20, 20);
    const b = still(20, 0, 30, 10);
    expect(libraryToi(a, b, false)).toBe(-1);
    expect(libraryToi(a, b, true)).toBeCloseTo(0.5, 12);
    // Edge contact reached only at the end of the move.
    expect(libraryToi(path(0, 0, 10, 10, 10, 0), still(20, 0, 30, 10), false)).toBe(-1);
    expect(libraryToi(path(0, 0, 10, 10, 10, 0), still(20, 0, 30, 10), true)).toBe(1);
  });

  it('uses relative motion for two moving boxes: crossing bullets meet, parallel ones do not', () => {
    expect(libraryToi(path(0, 0, 2, 2, 100, 100), path(100, 0, 102, 2, -100, 100), false)).toBeCloseTo(0.49, 12);
    expect(libraryToi(path(0, 0, 2, 2, 100, 0), path(0, 5, 2, 7, 100, 0), true)).toBe(-1);
  });

  it('reduces to the plain overlap test for boxes that do not move', () => {
    const rng = new Rng(3);
    for (let i = 0; i < 2000; i++) {
      const a = still(rng.int(20), rng.int(20), 0, 0);
      a.from.maxX = a.to.maxX = a.from.minX + rng.int(8);
      a.from.maxY = a.to.maxY = a.from.minY + rng.int(8);
      const b = still(rng.int(20), rng.int(20), 0, 0);
      b.from.maxX = b.to.maxX = b.from.minX + rng.int(8);
      b.from.maxY = b.to.maxY = b.from.minY + rng.int(8);
      for (const touching of [false, true]) {
        const lt = (x: number, y: number): boolean => (touching ? x <= y : x < y);
        const overlap =
          lt(a.from.minX, b.from.maxX) &&
          lt(b.from.minX, a.from.maxX) &&
          lt(a.from.minY, b.from.maxY) &&
          lt(b.from.minY, a.from.maxY);
        expect(libraryToi(a, b, touching)).toBe(overlap ? 0 : -1);
      }
    }
  });

  it('agrees with the exact model on random moves, resizes included (both rules)', () => {
    const rng = new Rng(11);
    const randomPath = (): Path => {
      const x = rng.int(40),
        y = rng.int(40),
        w = rng.int(12),
        h = rng.int(12);
      const to = { minX: x + rng.int(61) - 30, minY: y + rng.int(61) - 30, maxX: 0, maxY: 0 };
      to.maxX = to.minX + (rng.chance(0.8) ? w : rng.int(12));
      to.maxY = to.minY + (rng.chance(0.8) ? h : rng.int(12));
      return { from: { minX: x, minY: y, maxX: x + w, maxY: y + h }, to };
    };
    let hits = 0;
    for (let i = 0; i < 20000; i++) {
      const a = randomPath();
      const b = rng.chance(0.5)
        ? randomPath()
        : (() => {
            const p = randomPath();
            p.to = { ...p.from };
            return p;
          })();
      for (const touching of [false, true]) {
        const want = exactToi(a, b, touching);
        const got = libraryToi(a, b, touching);
        if (want !== null) hits++;
        expect(got, JSON.stringify({ a, b, touching })).toBeCloseTo(fracValue(want), 12);
      }
    }
    expect(hits).toBeGreaterThan(5000);
  });
});

/** A world of swept and still items, stepped with random moves and checked against the model every step. */
class SweptRun {
  readonly tree: LooseQuadtree;
  private readonly rng: Rng;
  private readonly items = new Map<number, ModelItem>();
  /** Start of each swept item's path (where the last step left it). */
  private readonly from = new Map<number, Box>();
  private readonly lastPath = new Map<number, Path>();
  private nextId = 1;
  compared = 0;
  passedThrough = 0;

  constructor(
    seed: number,
    readonly touching: boolean,
    readonly side = 512,
  ) {
    this.rng = new Rng(seed);
    this.tree = new LooseQuadtree({ width: side, height: side, touching, maxDepth: 5 });
  }

  private randomBox(): Box {
    const rng = this.rng;
    const w = rng.int(rng.chance(0.2) ? 40 : 10);
    const h = rng.int(rng.chance(0.2) ? 40 : 10);
    const x = rng.int(this.side - w),
      y = rng.int(this.side - h);
    return { minX: x, minY: y, maxX: x + w, maxY: y + h };
  }

  add(swept: boolean): void {
    const rng = this.rng;
    const id = this.nextId++;
    const box = this.randomBox();
    const item: ModelItem = {
      ...box,
      layer: 1 << rng.int(3),
      mask: rng.chance(0.7) ? -1 : 1 << rng.int(3),
      priority: rng.int(256),
      isStatic: !swept && rng.chance(0.2),
    };
    this.items.set(id, item);
    if (rng.chance(0.5)) this.tree.insert(id, box.minX, box.minY, box.maxX, box.maxY);
    else this.tree.insert(id, box.minX, box.minY, box.maxX, box.maxY);
    this.tree.setCollider(id, item.layer, item.mask, item.priority);
    if (item.isStatic) this.tree.setStatic(id, true);
    if (swept) {
      this.tree.setSwept(id, true);
      this.from.set(id, { ...box });
    }
  }

  /** One frame: a random share moves (so every kind of step runs), swept items far. */
  frame(share: number): void {
    const rng = this.rng;
    for (const [id, item] of this.items) {
      if (item.isStatic || !rng.chance(share)) continue;
      const swept = this.from.has(id);
      const reach = swept ? 120 : 6;
      const dx = rng.int(2 * reach + 1) - reach,
        dy = rng.int(2 * reach + 1) - reach;
      const w = item.maxX - item.minX,
        h = item.maxY - item.minY;
      item.minX = Math.max(0, Math.min(this.side - w, item.minX + dx));
      item.minY = Math.max(0, Math.min(this.side - h, item.minY + dy));
      item.maxX = item.minX + w;
      item.maxY = item.minY + h;
      this.tree.move(id, item.minX, item.minY, item.maxX, item.maxY);
    }
    if (rng.chance(0.05)) this.add(rng.chance(0.5));
    if (rng.chance(0.03) && this.items.size > 4) this.removeOne();
    if (rng.chance(0.03)) this.toggleOne();
    this.tree.step();
    validateTree(this.tree);
    this.check();
    for (const [id, from] of this.from) {
      const item = this.items.get(id)!;
      this.lastPath.set(id, {
        from: { ...from },
        to: { minX: item.minX, minY: item.minY, maxX: item.maxX, maxY: item.maxY },
      });
      this.from.set(id, { minX: item.minX, minY: item.minY, maxX: item.maxX, maxY: item.maxY });
    }
  }

  private removeOne(): void {
    const ids = [...this.items.keys()];
    const id = ids[this.rng.int(ids.length)];
    this.tree.remove(id);
    this.items.delete(id);
    this.from.delete(id);
    this.lastPath.delete(id);
  }

  private toggleOne(): void {
    const ids = [...this.items.keys()].filter((id) => !this.items.get(id)!.isStatic);
    if (ids.length === 0) return;
    const id = ids[this.rng.int(ids.length)];
    const item = this.items.get(id)!;
    const swept = !this.from.has(id);
    this.tree.setSwept(id, swept);
    if (swept) this.from.set(id, { minX: item.minX, minY: item.minY, maxX: item.maxX, maxY: item.maxY });
    else this.from.delete(id);
    expect(this.tree.isSwept(id)).toBe(swept);
  }

  private pathOf(id: number): Path {
    const item = this.items.get(id)!;
    const to = { minX: item.minX, minY: item.minY, maxX: item.maxX, maxY: item.maxY };
    return { from: this.from.get(id) ?? to, to };
  }

  /** The pair set, each pair's time of impact, a rect query and a sweepBox against the model. */
  private check(): void {
    const ids = [...this.items.keys()].sort((x, y) => x - y);
    const want: Pair[] = [];
    const tois = new Map<string, number>();
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const p = this.items.get(ids[i])!,
          q = this.items.get(ids[j])!;
        if (!pairAllowed(p, q)) continue;
        const t = exactToi(this.pathOf(ids[i]), this.pathOf(ids[j]), this.touching);
        if (t === null) continue;
        want.push([ids[i], ids[j], Math.min(p.priority, q.priority)]);
        tois.set(`${ids[i]},${ids[j]}`, t[0] / t[1]);
        const a = this.pathOf(ids[i]).to,
          b = this.pathOf(ids[j]).to;
        const lt = (x: number, y: number): boolean => (this.touching ? x <= y : x < y);
        if (!(lt(a.minX, b.maxX) && lt(b.minX, a.maxX) && lt(a.minY, b.maxY) && lt(b.minY, a.maxY)))
          this.passedThrough++;
      }
    }
    want.sort(comparePairs);
    expect(readPairs(this.tree.current)).toEqual(want);
    for (const [a, b] of want) {
      const swept = this.from.has(a) || this.from.has(b);
      expect(this.tree.timeOfImpact(a, b), `toi of (${a}, ${b})`).toBeCloseTo(swept ? tois.get(`${a},${b}`)! : 0, 12);
    }
    this.compared += want.length;
    // Queries see swept items where they are, not their paths.
    const q = this.randomBox();
    const got: number[] = [];
    this.tree.queryRect(q.minX, q.minY, q.maxX, q.maxY, got);
    const lt = (x: number, y: number): boolean => (this.touching ? x <= y : x < y);
    const inRect = ids.filter((id) => {
      const b = this.items.get(id)!;
      return lt(b.minX, q.maxX) && lt(q.minX, b.maxX) && lt(b.minY, q.maxY) && lt(q.minY, b.maxY);
    });
    expect(got.sort((x, y) => x - y)).toEqual(inRect);
    // sweepBox: the first item met by a moving box, ties by id.
    const dx = this.rng.int(201) - 100,
      dy = this.rng.int(201) - 100;
    const hit: SweepHit = { id: -1, toi: 0 };
    const mover: Path = { from: q, to: { minX: q.minX + dx, minY: q.minY + dy, maxX: q.maxX + dx, maxY: q.maxY + dy } };
    let best: Frac | null = null;
    let bestId = -1;
    for (const id of ids) {
      const b = this.pathOf(id).to;
      const t = exactToi(mover, { from: b, to: b }, this.touching);
      if (t !== null && (best === null || lessFrac(t, best))) {
        best = t;
        bestId = id;
      }
    }
    expect(this.tree.sweepBox(q.minX, q.minY, q.maxX, q.maxY, dx, dy, hit)).toBe(bestId >= 0);
    expect(hit.id).toBe(bestId);
    if (best !== null) expect(hit.toi).toBeCloseTo(best[0] / best[1], 12);
  }
}

describe('swept items against the exact model', () => {
  for (const touching of [false, true]) {
    it(`every step's pairs and times of impact, few movers to all (touching ${touching})`, () => {
      const run = new SweptRun((touching ? 21 : 20) + SEED_SHIFT, touching);
      for (let i = 0; i < 60; i++) run.add(i % 3 === 0);
      const shares = [0.02, 0.1, 0.7, 1];
      const steps = LONG_STEPS > 0 ? LONG_STEPS : 240;
      for (let step = 0; step < steps; step++) run.frame(shares[(step >> 4) % shares.length]);
      expect(run.compared).toBeGreaterThan(500);
      // The scenario does exercise what the feature is for.
      expect(run.passedThrough).toBeGreaterThan(20);
      console.log(
        `oracle counts swept ${JSON.stringify({ steps, pairsCompared: run.compared, passedThrough: run.passedThrough })}`,
      );
    });
  }

  it('bullets against a big class that moves whole (detached, joined by the probe grid)', () => {
    const side = 1024;
    const tree = new LooseQuadtree({ width: side, height: side });
    const rng = new Rng(5);
    const DUST = 1,
      BULLET = 2;
    const boxes = new Map<number, Box>();
    const from = new Map<number, Box>();
    for (let id = 1; id <= 1400; id++) {
      const x = rng.int(side - 4),
        y = rng.int(side - 4);
      const b = { minX: x, minY: y, maxX: x + 3, maxY: y + 3 };
      boxes.set(id, b);
      tree.insert(id, b.minX, b.minY, b.maxX, b.maxY);
      tree.setCollider(id, DUST, BULLET, 10);
    }
    for (let id = 2000; id < 2030; id++) {
      const x = rng.int(side - 4),
        y = rng.int(side - 4);
      const b = { minX: x, minY: y, maxX: x + 2, maxY: y + 2 };
      boxes.set(id, b);
      from.set(id, { ...b });
      tree.insert(id, b.minX, b.minY, b.maxX, b.maxY);
      tree.setCollider(id, BULLET, DUST, 200);
      tree.setSwept(id, true);
    }
    let passedThrough = 0;
    let detachedSeen = false;
    for (let step = 0; step < 40; step++) {
      for (const [id, b] of boxes) wander(tree, rng, id, b, from.has(id) ? 90 : 3, side);
      tree.step();
      detachedSeen ||= anyDetached(tree);
      const want: Pair[] = [];
      for (const [bullet, start] of from) {
        const pb: Path = { from: start, to: boxes.get(bullet)! };
        for (let dust = 1; dust <= 1400; dust++) {
          const d = boxes.get(dust)!;
          const t = exactToi(pb, { from: d, to: d }, false);
          if (t === null) continue;
          want.push([dust, bullet, 10]);
          const e = pb.to;
          if (!(e.minX < d.maxX && d.minX < e.maxX && e.minY < d.maxY && d.minY < e.maxY)) passedThrough++;
        }
      }
      want.sort(comparePairs);
      expect(readPairs(tree.current)).toEqual(want);
      validateTree(tree);
      for (const [id] of from) from.set(id, { ...boxes.get(id)! });
    }
    expect(detachedSeen).toBe(true);
    expect(passedThrough).toBeGreaterThan(10);
  });

  // Swept is not part of a class's key: bullets that filter like the crowd share its class,
  // which is then detached with them in it. Their pairs within the class come from the grid's
  // self-join, and those with a class of static walls from the probe (fewer walls) or the join.
  for (const partners of [30, 1400]) {
    it(`swept items inside a detached class that pairs with itself, and ${partners} static walls`, () => {
      const side = 1024;
      const CROWD = 1,
        WALL = 2;
      const touching = partners > 100;
      const tree = new LooseQuadtree({ width: side, height: side, touching });
      const rng = new Rng(11 + partners + SEED_SHIFT);
      const boxes = new Map<number, Box>();
      const from = new Map<number, Box>();
      const priority = new Map<number, number>();
      const crowd = 1400;
      for (let id = 1; id <= crowd + partners; id++) {
        const w = id <= crowd ? 3 : 6;
        const x = rng.int(side - w),
          y = rng.int(side - w);
        const b = { minX: x, minY: y, maxX: x + w, maxY: y + w };
        boxes.set(id, b);
        tree.insert(id, b.minX, b.minY, b.maxX, b.maxY);
        const p = id <= crowd ? 10 + (id % 3) : 50;
        priority.set(id, p);
        if (id <= crowd) tree.setCollider(id, CROWD, CROWD | WALL, p);
        else {
          tree.setCollider(id, WALL, CROWD, p);
          tree.setStatic(id, true);
        }
        if (id <= crowd && id % 35 === 0) {
          tree.setSwept(id, true);
          from.set(id, { ...b });
        }
      }
      let detachedSeen = false;
      let passedThrough = 0;
      // Long runs cap it: the brute force here is over 2,800 items a step.
      const steps = LONG_STEPS > 0 ? Math.min(LONG_STEPS, 100) : 30;
      for (let step = 0; step < steps; step++) {
        // The crowd moves every step (so its class is detached); the walls stay put.
        for (let id = 1; id <= crowd; id++) wander(tree, rng, id, boxes.get(id)!, from.has(id) ? 60 : 3, side);
        tree.step();
        detachedSeen ||= anyDetached(tree);
        const want: Pair[] = [];
        const pathOf = (id: number): Path => {
          const start = from.get(id);
          return { from: start ?? boxes.get(id)!, to: boxes.get(id)! };
        };
        for (let a = 1; a <= crowd + partners; a++) {
          for (let b = a + 1; b <= crowd + partners; b++) {
            if (a > crowd) continue;
            const pa = pathOf(a),
              pb = pathOf(b);
            // Paths whose covering boxes are apart never meet (a cheap filter for the exact test).
            if (
              Math.max(pa.from.maxX, pa.to.maxX) < Math.min(pb.from.minX, pb.to.minX) ||
              Math.max(pb.from.maxX, pb.to.maxX) < Math.min(pa.from.minX, pa.to.minX) ||
              Math.max(pa.from.maxY, pa.to.maxY) < Math.min(pb.from.minY, pb.to.minY) ||
              Math.max(pb.from.maxY, pb.to.maxY) < Math.min(pa.from.minY, pa.to.minY)
            )
              continue;
            const t = exactToi(pa, pb, touching);
            if (t === null) continue;
            want.push([a, b, Math.min(priority.get(a)!, priority.get(b)!)]);
            if (from.has(a) || from.has(b)) {
              expect(tree.timeOfImpact(a, b)).toBeCloseTo(fracValue(t), 12);
              if (exactToi({ from: pa.to, to: pa.to }, { from: pb.to, to: pb.to }, touching) === null) passedThrough++;
            }
          }
        }
        want.sort(comparePairs);
        expect(readPairs(tree.current)).toEqual(want);
        validateTree(tree);
        for (const [id] of from) from.set(id, { ...boxes.get(id)! });
      }
      expect(detachedSeen).toBe(true);
      expect(passedThrough).toBeGreaterThan(5);
    });
  }
});

describe('swept items: the API', () => {
  it('a bullet that jumps over a wall enters and exits; getBox and queries see where it is', () => {
    const t = new LooseQuadtree({ width: 1000, height: 1000 });
    t.insert(1, 100, 100, 104, 104);
    t.insert(2, 120, 90, 122, 130);
    t.setSwept(1, true);
    t.step();
    expect(t.current.count).toBe(0);
    t.move(1, 140, 100, 144, 104);
    t.step();
    expect(t.entered.count).toBe(1);
    expect(t.timeOfImpact(1, 2)).toBeCloseTo(0.4, 12);
    const box = t.getBox(1, { minX: 0, minY: 0, maxX: 0, maxY: 0 });
    expect(box).toEqual({ minX: 140, minY: 100, maxX: 144, maxY: 104 });
    // The path the step tested, and where along it the bullet first touched the wall.
    const from = { minX: 0, minY: 0, maxX: 0, maxY: 0 },
      to = { ...from };
    t.move(1, 150, 100, 154, 104);
    t.getPath(1, from, to);
    expect(from).toEqual({ minX: 100, minY: 100, maxX: 104, maxY: 104 });
    expect(to).toEqual({ minX: 140, minY: 100, maxX: 144, maxY: 104 });
    const toi = t.timeOfImpact(1, 2);
    expect(from.maxX + toi * (to.maxX - from.maxX)).toBeCloseTo(120, 9);
    t.getPath(2, from, to);
    expect(from).toEqual({ minX: 120, minY: 90, maxX: 122, maxY: 130 });
    expect(to).toEqual(from);
    expect(() => t.getPath(7, from, to)).toThrow(/bitecs-quadtree: .*7/);
    t.move(1, 140, 100, 144, 104);
    const ids: number[] = [];
    expect(t.queryRect(110, 95, 125, 110, ids)).toBe(1);
    expect(ids).toEqual([2]);
    t.step();
    expect(t.exited.count).toBe(1);
    expect(t.current.count).toBe(0);
    t.setSwept(1, false);
    expect(t.isSwept(1)).toBe(false);
    t.step();
    validateTree(t);
  });

  it('an unswept bullet tunnels through the same wall (the control)', () => {
    const t = new LooseQuadtree({ width: 1000, height: 1000 });
    t.insert(1, 100, 100, 104, 104);
    t.insert(2, 120, 90, 122, 130);
    t.step();
    t.move(1, 140, 100, 144, 104);
    t.step();
    expect(t.entered.count).toBe(0);
  });

  it('refuses bad input, naming item, field and value, and changes nothing', () => {
    const t = new LooseQuadtree();
    t.insert(1, 0, 0, 4, 4);
    expect(() => t.setSwept(7, true)).toThrow(
      'bitecs-quadtree: setSwept of unknown item 7 (never inserted, or removed already)',
    );
    expect(() => t.setSwept(1, 1 as unknown as boolean)).toThrow(
      "bitecs-quadtree: item 1's swept flag must be true or false (got 1)",
    );
    expect(t.isSwept(1)).toBe(false);
    expect(() => t.timeOfImpact(1, 0.5)).toThrow('bitecs-quadtree: id must be a non-negative integer (got 0.5)');
    const hit: SweepHit = { id: 5, toi: 5 };
    expect(() => t.sweepBox(0, 0, 4, 4, NaN, 0, hit)).toThrow(
      'bitecs-quadtree: sweep dx must be a finite number (got NaN)',
    );
    expect(() => t.sweepBox(0, 0, 4, 4, 0, 1e300, hit)).toThrow(
      "bitecs-quadtree: sweep dy 1e+300 is past float32's range (±3.4e38)",
    );
    expect(() => t.sweepBox(1e300, 0, 1.7e300, 4, 1, 0, hit)).toThrow(
      "bitecs-quadtree: query minX 1e+300 is past float32's range (±3.4e38)",
    );
    expect(() => t.sweepBox(4, 0, 0, 4, 1, 0, hit)).toThrow(/minX 4 > maxX 0/);
    expect(hit).toEqual({ id: 5, toi: 5 });
    validateTree(t);
  });

  it('a removed swept item leaves no path behind; its id can come back unswept', () => {
    const t = new LooseQuadtree();
    t.insert(1, 0, 0, 4, 4);
    t.setSwept(1, true);
    t.move(1, 50, 0, 54, 4);
    t.remove(1);
    validateTree(t);
    t.insert(1, 0, 0, 4, 4);
    expect(t.isSwept(1)).toBe(false);
    t.step();
    validateTree(t);
  });
});
