import { addComponent, addEntity, createWorld, query, type World } from 'bitecs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addQuadtree,
  Bounds,
  Collider,
  Collision,
  forEachPair,
  getQuadtree,
  getStats,
  onCollision,
  Phase,
  Position,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeSyncSystem,
  queryCircle,
  queryRect,
  restoreWorld,
  saveWorld,
  Static,
  WorldSnapshot,
  type PairVisitor,
  validateTree,
} from '../../src/index.js';
import { Rng } from './helpers.js';

const gc = (globalThis as { gc?: () => void }).gc;

const N = 1000;
const SIDE = 700;
/** Growth of the JS heap allowed over the measured run. */
const BOUND = 1 << 20;

function heapUsed(): number {
  for (let i = 0; i < 4; i++) gc!();
  return process.memoryUsage().heapUsed;
}

/**
 * A constant population bouncing around: pairs begin and end every frame, handlers run
 * under a budget (so backlogs and stay cursors are used), the fast path and queries read
 * into reused arrays. Everything per frame lives in typed arrays and reused objects.
 */
class Game {
  readonly world: World;
  private readonly vx = new Float64Array(N + 1);
  private readonly vy = new Float64Array(N + 1);
  private readonly ids: number[] = [];
  private readonly out: number[] = [];
  checksum = 0;
  private readonly visit: PairVisitor = (a, b, phase) => {
    this.checksum = (this.checksum + a + b * phase) | 0;
  };

  constructor(pairEntities: boolean) {
    const rng = new Rng(pairEntities ? 7 : 8);
    this.world = addQuadtree(createWorld(), {
      width: SIDE,
      height: SIDE,
      pairEntities,
      dispatch: { maxCalls: 200, minCalls: 8 },
    });
    for (let i = 0; i < N; i++) {
      const eid = addEntity(this.world);
      Position.x[eid] = rng.next() * SIDE;
      Position.y[eid] = rng.next() * SIDE;
      Bounds.width[eid] = 2 + rng.int(14);
      Bounds.height[eid] = 2 + rng.int(14);
      Collider.layer[eid] = 1 << (eid & 3);
      Collider.mask[eid] = -1;
      Collider.priority[eid] = (eid * 37) & 255;
      addComponent(this.world, eid, Position);
      addComponent(this.world, eid, Bounds);
      addComponent(this.world, eid, Collider);
      if (i % 10 === 0) addComponent(this.world, eid, Static);
      this.vx[eid] = (rng.next() - 0.5) * 6;
      this.vy[eid] = (rng.next() - 0.5) * 6;
      this.ids.push(eid);
    }
    onCollision(
      this.world,
      (a, b) => {
        this.checksum = (this.checksum + a - b) | 0;
      },
      { priority: 230, phases: Phase.Enter | Phase.Exit },
    );
    onCollision(
      this.world,
      (a, b, phase) => {
        this.checksum = (this.checksum + a * phase + b) | 0;
      },
      { priority: 20, layer: 1 | 2, other: 4 | 8 },
    );
  }

  frame(): void {
    const { world, vx, vy, ids } = this;
    for (let i = 0; i < ids.length; i++) {
      const eid = ids[i];
      if (i % 10 === 0) continue;
      let x = Position.x[eid] + vx[eid];
      let y = Position.y[eid] + vy[eid];
      if (x < 0 || x > SIDE) {
        vx[eid] = -vx[eid];
        x += 2 * vx[eid];
      }
      if (y < 0 || y > SIDE) {
        vy[eid] = -vy[eid];
        y += 2 * vy[eid];
      }
      Position.x[eid] = x;
      Position.y[eid] = y;
    }
    quadtreeDispatchSystem(quadtreeCollisionSystem(quadtreeSyncSystem(world)));
    forEachPair(world, this.visit, Phase.All, 100);
    this.checksum += queryRect(world, 100, 100, 300, 300, this.out);
    this.checksum += queryCircle(world, 600, 600, 150, this.out);
    this.checksum += query(world, [Collision]).length;
  }
}

describe('steady-state allocation (needs node --expose-gc)', () => {
  beforeAll(() => {
    // Measured, never skipped: vite.config.ts runs the unit project with --expose-gc.
    if (gc === undefined)
      throw new Error('global.gc is undefined: run the vitest workers with --expose-gc (see vite.config.ts)');
  });

  for (const pairEntities of [false, true]) {
    it(`a 1k-entity world, pair entities ${pairEntities ? 'on' : 'off'}, does not grow the heap over 3000 frames`, () => {
      const game = new Game(pairEntities);
      for (let k = 0; k < 300; k++) game.frame();
      const before = heapUsed();
      for (let k = 0; k < 3000; k++) game.frame();
      const growth = heapUsed() - before;
      validateTree(getQuadtree(game.world));
      const stats = getStats(game.world);
      expect(stats.entered + stats.exited).toBeGreaterThan(0);
      expect(stats.handlerCalls).toBeGreaterThan(0);
      expect(stats.pairEntities).toBe(pairEntities ? stats.pairs + stats.exited : 0);
      expect(game.checksum).not.toBe(0);
      expect(growth, `heap grew by ${growth} bytes`).toBeLessThan(BOUND);
    });
  }

  it('a world saved every frame into a ring with saveWorld, and restored now and then, does not grow the heap over 3000 frames', () => {
    const game = new Game(true);
    const ring = Array.from({ length: 8 }, () => new WorldSnapshot());
    let f = 0;
    const play = (): void => {
      saveWorld(game.world, ring[f % 8]);
      game.frame();
      // Back three frames and on again: the frames run again from a restore.
      if (++f % 10 === 0) {
        restoreWorld(game.world, ring[(f - 3) % 8]);
        f -= 3;
      }
    };
    for (let k = 0; k < 300; k++) play();
    const before = heapUsed();
    for (let k = 0; k < 3000; k++) play();
    const growth = heapUsed() - before;
    validateTree(getQuadtree(game.world));
    expect(game.checksum).not.toBe(0);
    expect(growth, `heap grew by ${growth} bytes`).toBeLessThan(BOUND);
  });
});
