import { removeEntity } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  Bounds,
  forEachPair,
  getQuadtree,
  getStats,
  Phase,
  Position,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  queryRect,
  saveQuadtree,
  restoreQuadtree,
  type QuadtreeWorldOptions,
  validateTree,
} from '../../src/index.js';
import { anyDetached } from '../core/helpers.js';
import { Scene } from './scene.js';

const WALL = 1;
const DUST = 2;

/**
 * A row of walls and 2,000 dust particles that meet walls but not each other, all drifting
 * right: a big class that mostly moves, so it is detached and the sync stores its boxes in one
 * loop (see src/ecs/storeCentres.ts). Particle `i` sits on wall `i % 40` for the first frames.
 */
function dustScene(options: QuadtreeWorldOptions = {}): { scene: Scene; dust: number[]; walls: number[] } {
  const scene = new Scene({ width: 4096, height: 4096, ...options });
  const walls: number[] = [];
  for (let i = 0; i < 40; i++) walls.push(scene.spawn(50 + i * 100, 50, 40, 40, { layer: WALL, mask: DUST }, true));
  const dust: number[] = [];
  for (let i = 0; i < 2000; i++) {
    dust.push(scene.spawn(50 + (i % 40) * 100, 50 + Math.floor(i / 40) * 60, 4, 4, { layer: DUST, mask: WALL }));
  }
  for (let f = 0; f < 4; f++) drift(scene, dust);
  return { scene, dust, walls };
}

function drift(scene: Scene, dust: number[]): void {
  for (const eid of dust) Position.x[eid] += 0.25;
  scene.frame();
}

function pairsOf(scene: Scene, eid: number): string[] {
  const out: string[] = [];
  forEachPair(
    scene.world,
    (a, b, phase) => {
      if (a === eid || b === eid) out.push(`${a}-${b}:${phase}`);
    },
    Phase.Enter | Phase.Stay | Phase.Exit,
  );
  return out;
}

describe('a big class of moving particles, detached from the tree', () => {
  it('is stored by the sync, which counts the moves as dirty', () => {
    const { scene, dust } = dustScene();
    expect(anyDetached(getQuadtree(scene.world))).toBe(true);
    for (const eid of dust) Position.x[eid] += 0.25;
    quadtreeSyncSystem(scene.world);
    expect(getStats(scene.world).dirty).toBe(dust.length);
    quadtreeCollisionSystem(scene.world);
    expect(getStats(scene.world).dirty).toBe(dust.length);
    // Nothing moved: nothing dirty.
    quadtreeCollisionSystem(quadtreeSyncSystem(scene.world));
    expect(getStats(scene.world).dirty).toBe(0);
    validateTree(getQuadtree(scene.world));
  });

  it('queries, boxes and saves between the sync and the collision system see the Positions the sync read', () => {
    const { scene, dust } = dustScene();
    const runner = dust[1234];
    Position.x[runner] = 3000;
    Position.y[runner] = 3000;
    quadtreeSyncSystem(scene.world);
    const tree = getQuadtree(scene.world);
    const found: number[] = [];
    queryRect(scene.world, 2990, 2990, 3010, 3010, found);
    expect(found).toEqual([runner]);
    Position.x[runner] = 3100;
    quadtreeSyncSystem(scene.world);
    expect(tree.getBox(runner, { minX: 0, minY: 0, maxX: 0, maxY: 0 })).toEqual({
      minX: 3098,
      minY: 2998,
      maxX: 3102,
      maxY: 3002,
    });
    // A save between the two systems holds the boxes the sync read, whatever the game's
    // Positions do after it.
    Position.x[runner] = 3500;
    quadtreeSyncSystem(scene.world);
    const snapshot = saveQuadtree(scene.world);
    quadtreeCollisionSystem(scene.world);
    const pairs = pairsOf(scene, runner);
    Position.x[runner] = 100;
    restoreQuadtree(scene.world, snapshot);
    quadtreeCollisionSystem(scene.world);
    expect(pairsOf(scene, runner)).toEqual(pairs);
    queryRect(scene.world, 3490, 2990, 3510, 3010, found);
    expect(found).toEqual([runner]);
    validateTree(tree);
  });

  it('a NaN Position is thrown by the sync naming entity, field and value; the entity is held', () => {
    const { scene, dust, walls } = dustScene();
    const bad = dust[1];
    expect(pairsOf(scene, bad)).toEqual([`${walls[1]}-${bad}:${Phase.Stay}`]);
    Position.x[bad] = NaN;
    for (const eid of dust) Position.x[eid] += 0.25;
    // The sync finishes its work (every other particle moved), then throws.
    expect(() => quadtreeSyncSystem(scene.world)).toThrow(
      `bitecs-quadtree: entity ${bad} has a non-finite Position.x (got NaN)`,
    );
    expect(getStats(scene.world).dirty).toBe(dust.length - 1);
    expect(() => quadtreeCollisionSystem(scene.world)).not.toThrow();
    validateTree(getQuadtree(scene.world));
    expect(getStats(scene.world)).toMatchObject({ entities: 2039, held: 1 });
    // The step finished its work: the pair ended.
    expect(pairsOf(scene, bad)).toEqual([`${walls[1]}-${bad}:${Phase.Exit}`]);
    // Held: the sync re-reads it, and names it again while the value stays bad.
    expect(() => quadtreeSyncSystem(scene.world)).toThrow(`entity ${bad} has a non-finite Position.x (got NaN)`);
    quadtreeCollisionSystem(scene.world);
    expect(pairsOf(scene, bad)).toEqual([]);
    // Repaired: back in the tree and paired again.
    Position.x[bad] = 152;
    drift(scene, []);
    expect(pairsOf(scene, bad)).toEqual([`${walls[1]}-${bad}:${Phase.Enter}`]);
    expect(getStats(scene.world)).toMatchObject({ entities: 2040, held: 0 });
  });

  it('a class emptied and refilled between the systems is not read from the components', () => {
    const { scene, dust } = dustScene();
    for (const eid of dust) Position.x[eid] += 0.25;
    quadtreeSyncSystem(scene.world);
    for (const eid of dust) removeEntity(scene.world, eid);
    // Items of the same collider put in through the core (as a tile layer puts its own): the
    // class is in the tree now, and nothing read the boxes before the step.
    const tree = getQuadtree(scene.world);
    for (let i = 0; i < 50; i++) {
      tree.boxIn.set([40 + i * 10, 40, 44 + i * 10, 44]);
      tree.queueChecked(100_000 + i, DUST, WALL, 128, false);
    }
    quadtreeCollisionSystem(scene.world);
    validateTree(tree);
    const box = tree.getBox(100_010, { minX: 0, minY: 0, maxX: 0, maxY: 0 });
    expect(box).toEqual({ minX: 140, minY: 40, maxX: 144, maxY: 44 });
  });

  it("with invalid: 'skip' a bad Bounds is held silently and counted", () => {
    const { scene, dust } = dustScene({ invalid: 'skip' });
    Bounds.width[dust[5]] = -1;
    Bounds.height[dust[6]] = NaN;
    drift(scene, dust);
    expect(getStats(scene.world)).toMatchObject({ entities: 2038, held: 2 });
    validateTree(getQuadtree(scene.world));
    Bounds.width[dust[5]] = 4;
    Bounds.height[dust[6]] = 4;
    drift(scene, dust);
    expect(getStats(scene.world)).toMatchObject({ entities: 2040, held: 0 });
  });
});

describe('which system reports a bad value of a particle (docs: bad input)', () => {
  /** 40 static walls and 2,000 dust particles of tier 3, just spawned: no frame run yet. */
  function freshDust(options: QuadtreeWorldOptions = {}): { scene: Scene; dust: number[] } {
    const scene = new Scene({ width: 4096, height: 4096, pairEntities: false, ...options });
    for (let i = 0; i < 40; i++)
      scene.spawn(50 + i * 100, 50, 40, 40, { layer: WALL, mask: DUST, priority: 255 }, true);
    const dust: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const x = 50 + (i % 40) * 100;
      dust.push(scene.spawn(x, 50 + Math.floor(i / 40) * 60, 4, 4, { layer: DUST, mask: WALL, priority: 10 }));
    }
    return { scene, dust };
  }

  /** Runs frames with every particle drifting; `bad` gets a NaN x in frame `at`. Returns who threw in which frame. */
  function thrownBy(scene: Scene, dust: number[], bad: number, at: number, frames: number): string[] {
    const log: string[] = [];
    for (let f = 0; f < frames; f++) {
      for (const eid of dust) Position.x[eid] += 0.25;
      if (f === at) Position.x[bad] = NaN;
      try {
        quadtreeSyncSystem(scene.world);
      } catch {
        log.push(`${f} sync`);
      }
      try {
        quadtreeCollisionSystem(scene.world);
      } catch {
        log.push(`${f} collision`);
      }
    }
    return log;
  }

  it('the sync reads a big class in its first steps and once it is detached', () => {
    for (const at of [0, 1, 2, 5]) {
      const { scene, dust } = freshDust();
      expect(thrownBy(scene, dust, dust[7], at, at + 1), `NaN in frame ${at}`).toEqual([`${at} sync`]);
    }
  });

  it("under a step budget a waiting particle's bad value is thrown by the sync when its share comes", () => {
    const { scene, dust } = freshDust({ budget: { maxPairTests: 0, minChecksPerTier: 64 } });
    thrownBy(scene, dust, -1, -1, 5); // five frames with nothing bad: most particles wait
    const stats = getStats(scene.world);
    expect(stats.deferred).toBeGreaterThan(1000);
    const bound = stats.waitBound;
    const log = thrownBy(scene, dust, dust[900], 0, bound + 2);
    // Not in the frame it was written, nor by the collision system: by the sync, within the wait bound.
    const first = Number(log[0].split(' ')[0]);
    expect(log[0]).toBe(`${first} sync`);
    expect(first).toBeGreaterThan(1);
    expect(first).toBeLessThanOrEqual(bound);
    expect(log.some((l) => l.endsWith('collision'))).toBe(false);
    validateTree(getQuadtree(scene.world));
  });
});
