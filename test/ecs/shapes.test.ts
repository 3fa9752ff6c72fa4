import { addComponent, addEntity, removeComponent } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  Bounds,
  Circle,
  contact,
  forEachPair,
  getQuadtree,
  getStats,
  onCollision,
  Phase,
  Position,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  queryCircle,
  Shape,
  Swept,
  timeOfImpact,
  type Contact,
  validateTree,
} from '../../src/index.js';
import { anyDetached } from '../core/helpers.js';
import { Scene } from './scene.js';

function pairCount(scene: Scene): number {
  let n = 0;
  forEachPair(scene.world, () => {
    n++;
  });
  return n;
}

describe('Circle entities', () => {
  it('pair as circles while tagged: the corners of their boxes do not touch', () => {
    const scene = new Scene();
    // Boxes of 10 whose corners overlap by 1; the circles inside are far apart.
    const a = scene.spawn(100, 100);
    const b = scene.spawn(109, 109);
    scene.frame();
    expect(pairCount(scene)).toBe(1);
    addComponent(scene.world, a, Circle);
    scene.frame();
    expect(getQuadtree(scene.world).shapeOf(a)).toBe(Shape.Circle);
    // Exit this frame, nothing the next.
    expect(pairCount(scene)).toBe(1);
    scene.frame();
    expect(pairCount(scene)).toBe(0);
    removeComponent(scene.world, a, Circle);
    scene.frame();
    expect(getQuadtree(scene.world).shapeOf(a)).toBe(Shape.Box);
    expect(pairCount(scene)).toBe(1);
    expect(b).toBeGreaterThan(a);
  });

  it("a game's own circle tag", () => {
    const Round = {};
    const scene = new Scene({ circleTag: Round });
    const a = scene.spawn(100, 100);
    addComponent(scene.world, a, Round);
    scene.frame();
    expect(getQuadtree(scene.world).shapeOf(a)).toBe(Shape.Circle);
  });

  it('a round particle of a big moving class that stops being square is held, named, and put back when square', () => {
    const scene = new Scene({ invalid: 'throw' });
    const ids: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const eid = scene.spawn(20 + (i % 60) * 16, 20 + Math.floor(i / 60) * 16, 4, 4);
      addComponent(scene.world, eid, Circle);
      ids.push(eid);
    }
    for (let f = 0; f < 4; f++) {
      for (const eid of ids) Position.x[eid] += 1;
      scene.frame();
    }
    // Detached: the sync stores the class's boxes in one loop, which must stop at the bad one.
    expect(anyDetached(getQuadtree(scene.world))).toBe(true);
    const bad = ids[1234];
    for (const eid of ids) Position.x[eid] += 1;
    Bounds.height[bad] = 5;
    expect(() => quadtreeSyncSystem(scene.world)).toThrow(
      `bitecs-quadtree: entity ${bad} is a Circle but its Bounds are not square (Bounds.width 4, Bounds.height 5)`,
    );
    validateTree(getQuadtree(scene.world));
    expect(getStats(scene.world)).toMatchObject({ entities: 2999, held: 1 });
    quadtreeCollisionSystem(scene.world);
    Bounds.height[bad] = 4;
    scene.frame();
    expect(getStats(scene.world)).toMatchObject({ entities: 3000, held: 0 });
  });
});

describe('contact in the ECS', () => {
  it('gives the push-out of a pair and names the entities of a non-pair', () => {
    const scene = new Scene();
    const ship = scene.spawn(100, 100, 20, 20);
    addComponent(scene.world, ship, Circle);
    const wall = scene.spawn(125, 100, 40, 200);
    const far = scene.spawn(500, 500);
    scene.frame();
    const out: Contact = { nx: 0, ny: 0, depth: 0, x: 0, y: 0 };
    // The ship's circle reaches x 110; the wall starts at 105: 5 deep, straight along +x.
    expect(contact(scene.world, ship, wall, out)).toMatchObject({ nx: 1, ny: 0, depth: 5, x: 105, y: 100 });
    expect(() => contact(scene.world, ship, far, out)).toThrow(
      `bitecs-quadtree: contact of entities ${ship} and ${far}: they are not a pair after the last step (an exit ends the pair: read contacts in enter and stay handlers)`,
    );
    const stray = addEntity(scene.world);
    expect(() => contact(scene.world, ship, stray, out)).toThrow(
      `bitecs-quadtree: contact of entities ${ship} and ${stray}: they are not a pair after the last step (entity ${stray} is not in the tree)`,
    );
  });
});

describe('contact reads where the entities are now', () => {
  /** 2,000 sparks 1 px into a wall's left face (tier 3), pushed out by contact in a handler, as the docs do. */
  function sparksInWall(budget: boolean): { scene: Scene; sparks: number[]; pushes: number[] } {
    const scene = new Scene({
      width: 4096,
      height: 4096,
      pairEntities: false,
      budget: budget ? { maxPairTests: 0, minChecksPerTier: 64 } : undefined,
    });
    scene.spawn(1500, 2000, 1000, 4000, { layer: 1, mask: 2, priority: 255 }, true);
    const sparks: number[] = [];
    for (let i = 0; i < 2000; i++) sparks.push(scene.spawn(998, 2 + i * 2, 6, 2, { layer: 2, mask: 1, priority: 10 }));
    const hit: Contact = { nx: 0, ny: 0, depth: 0, x: 0, y: 0 };
    const pushes: number[] = [];
    onCollision(
      scene.world,
      (spark, wall) => {
        contact(scene.world, spark, wall, hit);
        Position.x[spark] -= hit.nx * hit.depth;
        Position.y[spark] -= hit.ny * hit.depth;
        if (hit.depth > 0) pushes.push(spark);
      },
      { layer: 2, other: 1, phases: Phase.Enter | Phase.Stay },
    );
    return { scene, sparks, pushes };
  }

  for (const budget of [false, true]) {
    it(`a spark pushed out of a wall stays out${budget ? ', waiting under a step budget' : ''}`, () => {
      const { scene, sparks, pushes } = sparksInWall(budget);
      for (let f = 0; f < 6; f++) scene.frame();
      if (budget) expect(getStats(scene.world).deferred).toBeGreaterThan(1000);
      // Each spark was pushed once, by its 1 px, to rest against the wall's face at x 997.
      expect(new Set(pushes).size).toBe(pushes.length);
      expect(pushes.length).toBe(sparks.length);
      for (const eid of sparks) expect(Position.x[eid]).toBe(997);
    });
  }
});

describe('shapes at their edges in the ECS', () => {
  it('a Circle of size 0 is a point: it pairs inside a wall, and a circle query of radius 0 finds the wall', () => {
    const scene = new Scene();
    const wall = scene.spawn(100, 100, 40, 40);
    const spark = scene.spawn(110, 90, 0, 0);
    addComponent(scene.world, spark, Circle);
    const edge = scene.spawn(120, 100, 0, 0);
    addComponent(scene.world, edge, Circle);
    scene.frame();
    const pairs: string[] = [];
    forEachPair(scene.world, (a, b) => {
      pairs.push(`${a}-${b}`);
    });
    // Inside the open wall it pairs; on its edge only under `touching`.
    expect(pairs).toEqual([`${wall}-${spark}`]);
    const ids: number[] = [];
    queryCircle(scene.world, 110, 90, 0, ids);
    expect(ids.sort((u, v) => u - v)).toEqual([wall]);
  });

  it('timeOfImpact: 0 for a pair without a Swept entity, -1 for two entities that are not a pair', () => {
    const scene = new Scene();
    const a = scene.spawn(100, 100);
    const b = scene.spawn(105, 100);
    const c = scene.spawn(300, 300);
    addComponent(scene.world, c, Swept);
    scene.frame();
    expect(timeOfImpact(scene.world, a, b)).toBe(0);
    expect(timeOfImpact(scene.world, a, c)).toBe(-1);
    scene.move(b, 500, 500);
    scene.frame();
    expect(timeOfImpact(scene.world, a, b)).toBe(-1);
  });
});
