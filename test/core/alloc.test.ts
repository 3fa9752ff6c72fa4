import { constants, PerformanceObserver } from 'node:perf_hooks';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  LooseQuadtree,
  QuadtreeSnapshot,
  Shape,
  type Contact,
  type RayHit,
  validateTree,
  saveTree,
  restoreTree,
} from '../../src/core/index.js';
import { mulberry32 } from './helpers.js';

const gc = (globalThis as { gc?: () => void }).gc;

const N = 5000;
const W = 2048;
const H = 2048;
/** Growth of the JS heap allowed over the measured run. */
const BOUND = 1 << 20;

/** Young-generation (scavenge) collections that happen while `run` executes. */
async function countMinorGcs(run: () => void): Promise<number> {
  let minor = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (
        (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ===
        constants.NODE_PERFORMANCE_GC_MINOR
      )
        minor++;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  gc!();
  run();
  // GC entries are delivered asynchronously.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  return minor;
}

/**
 * Young collections of `run` in steady state: the fewest of up to three runs, stopping at the
 * first within `limit`. On a loaded machine code may be compiled late and the first run make
 * garbage the compiled code does not; code that allocates per step exceeds it every run.
 */
async function steadyMinorGcs(run: () => void, limit: number): Promise<number> {
  let fewest = Infinity;
  for (let i = 0; i < 3 && fewest > limit; i++) fewest = Math.min(fewest, await countMinorGcs(run));
  return fewest;
}

function heapUsed(): number {
  for (let i = 0; i < 4; i++) gc!();
  return process.memoryUsage().heapUsed;
}

/**
 * A scene of N items bouncing in the world, with queries into reused arrays each step.
 * All state lives in typed arrays and a few reused objects, so the loop itself allocates
 * nothing that survives a step.
 */
class BouncingScene {
  // maxDepth 7: cells of 16 for items of 2-15, so moves keep relocating and branches keep
  // emptying and coming back (pool churn), at a cost per step that keeps the test short.
  readonly tree = new LooseQuadtree({ width: W, height: H, maxDepth: 7 });
  private readonly x = new Float64Array(N);
  private readonly y = new Float64Array(N);
  private readonly vx = new Float64Array(N);
  private readonly vy = new Float64Array(N);
  private readonly size = new Float64Array(N);
  private readonly random = mulberry32(2024);
  private readonly ids: number[] = [];
  private readonly dists: number[] = [];
  private readonly hit: RayHit = { id: -1, distance: 0 };
  private readonly contact: Contact = { nx: 0, ny: 0, depth: 0, x: 0, y: 0 };
  private visited = 0;
  private readonly visit = (): boolean => ++this.visited < 50;
  /** A checksum of what the queries and pairs returned, so none of it is dead code. */
  checksum = 0;

  constructor() {
    for (let i = 0; i < N; i++) {
      const s = 2 + Math.floor(this.random() * 12);
      this.size[i] = s;
      this.x[i] = this.random() * (W - s);
      this.y[i] = this.random() * (H - s);
      this.vx[i] = (this.random() - 0.5) * 8;
      this.vy[i] = (this.random() - 0.5) * 8;
      this.tree.insert(i, this.x[i], this.y[i], this.x[i] + s, this.y[i] + s);
      this.tree.setCollider(i, 1 << (i & 3), -1, (i * 37) & 255);
      // A third of them round: their pairs and queries take the exact circle tests.
      if (i % 3 === 0) this.tree.setShape(i, Shape.Circle);
    }
  }

  step(): void {
    const { tree, x, y, vx, vy, size } = this;
    for (let i = 0; i < N; i++) {
      const s = size[i];
      x[i] += vx[i];
      y[i] += vy[i];
      if (x[i] < 0 || x[i] + s > W) {
        vx[i] = -vx[i];
        x[i] += 2 * vx[i];
      }
      if (y[i] < 0 || y[i] + s > H) {
        vy[i] = -vy[i];
        y[i] += 2 * vy[i];
      }
      tree.move(i, x[i], y[i], x[i] + s, y[i] + s);
    }
    tree.step();
    const cur = tree.current;
    for (let i = 0; i < cur.count; i++) this.checksum = (this.checksum + cur.a[i] * 3 + cur.b[i]) | 0;
    for (let i = 0; i < Math.min(cur.count, 64); i++)
      this.checksum += tree.contact(cur.a[i], cur.b[i], this.contact).depth;
    const qx = this.random() * W;
    const qy = this.random() * H;
    this.checksum += tree.queryRect(qx, qy, qx + 150, qy + 150, this.ids);
    this.checksum += tree.queryCircle(qx, qy, 120, this.ids, 3);
    this.checksum += tree.queryPoint(qx, qy, this.ids);
    this.visited = 0;
    this.checksum += tree.visitRect(qx - 300, qy - 300, qx + 300, qy + 300, this.visit);
    tree.raycast(qx, qy, this.random() - 0.5, this.random() - 0.5, 800, this.hit);
    this.checksum += this.hit.id;
    this.checksum += tree.raycastAll(qx, qy, 1, this.random() - 0.5, 600, this.ids, this.dists);
    this.checksum += tree.nearest(qx, qy, 8, 200, this.ids, this.dists);
  }
}

describe('steady-state allocation (needs node --expose-gc)', () => {
  beforeAll(() => {
    // Measured, never skipped: vite.config.ts runs the unit project with --expose-gc.
    if (gc === undefined)
      throw new Error('global.gc is undefined: run the vitest workers with --expose-gc (see vite.config.ts)');
  });

  it('a 5k-item scene moving every step does not grow the heap over 3000 steps', () => {
    const scene = new BouncingScene();
    for (let k = 0; k < 200; k++) scene.step();
    const before = heapUsed();
    for (let k = 0; k < 3000; k++) scene.step();
    const growth = heapUsed() - before;
    validateTree(scene.tree);
    expect(scene.tree.stats.moved).toBe(N);
    expect(scene.tree.stats.pairs).toBeGreaterThan(0);
    expect(scene.checksum).not.toBe(0);
    expect(growth, `heap grew by ${growth} bytes`).toBeLessThan(BOUND);
  }, 300_000);

  it('makes next to no garbage: a handful of young-generation collections over 1500 steps', async () => {
    const scene = new BouncingScene();
    for (let k = 0; k < 300; k++) scene.step();
    const minor = await steadyMinorGcs(() => {
      for (let k = 0; k < 1500; k++) scene.step();
    }, 8);
    // The same counter sees a loop that does make garbage (the control).
    const control = await countMinorGcs(() => {
      let sum = 0;
      for (let k = 0; k < 1500; k++) sum += new Array<number>(2048).fill(k + 0.5).length;
      expect(sum).toBeGreaterThan(0);
    });
    expect(control).toBeGreaterThan(0);
    // Moves and steps make none; the queries a few hundred bytes now and then. A move that
    // boxed its four numbers (64 bytes x 5000 items x 1500 steps) would make dozens.
    expect(minor, `${minor} young-generation collections`).toBeLessThanOrEqual(8);
  }, 300_000);

  it('a rollback loop makes next to no garbage: a save every step into a ring of 8, a restore every 10', async () => {
    const scene = new BouncingScene();
    const ring = Array.from({ length: 8 }, () => new QuadtreeSnapshot());
    const loop = (steps: number): void => {
      for (let k = 0; k < steps; k++) {
        saveTree(scene.tree, ring[k & 7]);
        scene.step();
        if (k % 10 === 9) restoreTree(scene.tree, ring[(k - 4) & 7]);
      }
    };
    // Warm: the snapshots get their arrays, and the plan of the tree's state settles.
    loop(300);
    const minor = await steadyMinorGcs(() => loop(1000), 8);
    validateTree(scene.tree);
    expect(ring.every((snap) => snap.stepCount > 0)).toBe(true);
    // As the loop without snapshots (see above): a save or restore that allocated its arrays
    // again (a megabyte and more each) would make dozens.
    expect(minor, `${minor} young-generation collections`).toBeLessThanOrEqual(8);
  }, 300_000);

  it('control: the same measurement sees arrays retained by the loop', () => {
    const scene = new BouncingScene();
    for (let k = 0; k < 20; k++) scene.step();
    const kept: number[][] = [];
    const before = heapUsed();
    for (let k = 0; k < 200; k++) {
      scene.step();
      // 2048 doubles, about 16 KB per step: 3.2 MB in all.
      kept.push(new Array<number>(2048).fill(k + 0.5));
    }
    const growth = heapUsed() - before;
    expect(kept).toHaveLength(200);
    expect(growth).toBeGreaterThan(2 * BOUND);
  });
});
