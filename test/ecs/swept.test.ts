import { addComponent, addEntity, createWorld, query, removeComponent, type World } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addQuadtree,
  Bounds,
  Collision,
  forEachPair,
  getQuadtree,
  Phase,
  Position,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  Swept,
  sweepBox,
  timeOfImpact,
  type CollisionStore,
  validateTree,
} from '../../src/index.js';

/** A bullet (4x4) and a thin wall (2x40) in front of it. */
function setup(
  pairEntities = true,
  options: { sweptTag?: object; collision?: CollisionStore } = {},
): { world: World; bullet: number; wall: number } {
  const world = addQuadtree(createWorld(), { width: 1000, height: 1000, pairEntities, ...options });
  return { world, bullet: addBox(world, 102, 102, 4, 4), wall: addBox(world, 121, 110, 2, 40) };
}

/** An entity with a box centred at (x, y). */
function addBox(world: World, x: number, y: number, width: number, height: number): number {
  const e = addEntity(world);
  addComponent(world, e, Position);
  addComponent(world, e, Bounds);
  Position.x[e] = x;
  Position.y[e] = y;
  Bounds.width[e] = width;
  Bounds.height[e] = height;
  return e;
}

function frame(world: World): void {
  quadtreeSyncSystem(world);
  quadtreeCollisionSystem(world);
}

/** Moves the bullet 40 px right in one frame: over the wall. */
function jump(world: World, bullet: number): void {
  Position.x[bullet] += 40;
  frame(world);
}

describe('Swept entities', () => {
  it('timeOfImpact and sweepBox answer on the world, entity ids in and out', () => {
    const { world, bullet, wall } = setup(false);
    addComponent(world, bullet, Swept);
    frame(world);
    jump(world, bullet);
    expect(timeOfImpact(world, bullet, wall)).toBeCloseTo(0.4, 12);
    expect(timeOfImpact(world, wall, bullet)).toBeCloseTo(0.4, 12);
    // A 4x4 box from (100, 100) moved 40 px right meets the wall at the same time.
    const hit = { id: 0, toi: 0 };
    expect(sweepBox(world, 100, 100, 104, 104, 40, 0, hit)).toBe(true);
    expect(hit.id).toBe(wall);
    expect(hit.toi).toBeCloseTo(0.4, 12);
    expect(sweepBox(world, 100, 100, 104, 104, 0, 40, hit)).toBe(false);
    expect(hit.id).toBe(-1);
    expect(() => sweepBox(world, 100, 100, 104, 104, NaN, 0, hit)).toThrow(/bitecs-quadtree: .*dx.*NaN/);
  });

  it('a Swept bullet hits the wall it jumps over: a pair entity with its time of impact', () => {
    const { world, bullet, wall } = setup();
    addComponent(world, bullet, Swept);
    frame(world);
    jump(world, bullet);
    const pairs = query(world, [Collision]);
    expect(pairs.length).toBe(1);
    const pe = pairs[0];
    expect([Collision.a[pe], Collision.b[pe], Collision.phase[pe]]).toEqual([bullet, wall, Phase.Enter]);
    // The bullet's front edge (x 104 + 40 t) reaches the wall (x 120) at t = 0.4.
    expect(Collision.toi[pe]).toBeCloseTo(0.4, 12);
    const seen: number[][] = [];
    forEachPair(world, (a, b, phase, _p, toi) => {
      seen.push([a, b, phase, toi]);
    });
    expect(seen).toEqual([[bullet, wall, Phase.Enter, expect.closeTo(0.4, 12)]]);
    // The next frame it has left the wall behind: the pair exits.
    jump(world, bullet);
    expect(Collision.phase[pe]).toBe(Phase.Exit);
    seen.length = 0;
    forEachPair(world, (a, b, phase, _p, toi) => {
      seen.push([a, b, phase, toi]);
    });
    expect(seen).toEqual([[bullet, wall, Phase.Exit, -1]]);
  });

  it('without the tag the same bullet tunnels (the control), and removing the tag turns sweeping off', () => {
    const { world, bullet } = setup();
    frame(world);
    jump(world, bullet);
    expect(query(world, [Collision]).length).toBe(0);
    addComponent(world, bullet, Swept);
    frame(world);
    expect(getQuadtree(world).isSwept(bullet)).toBe(true);
    removeComponent(world, bullet, Swept);
    frame(world);
    expect(getQuadtree(world).isSwept(bullet)).toBe(false);
    validateTree(getQuadtree(world));
  });

  it("takes the game's own tag, and a Collision store without toi", () => {
    const Bullet = {};
    const MyCollision = {
      a: [] as number[],
      b: [] as number[],
      priority: [] as number[],
      phase: [] as number[],
      startedAt: [] as number[],
    };
    const { world, bullet } = setup(true, { sweptTag: Bullet, collision: MyCollision });
    addComponent(world, bullet, Bullet);
    frame(world);
    jump(world, bullet);
    expect(query(world, [MyCollision]).length).toBe(1);
  });

  it('a swept pair overlapping from the start reports toi 0; a Swept entity leaving and re-entering the tree is swept again', () => {
    const { world, bullet, wall } = setup(false);
    Position.x[bullet] = 121;
    addComponent(world, bullet, Swept);
    frame(world);
    const tois: number[] = [];
    forEachPair(world, (_a, _b, _phase, _p, toi) => {
      tois.push(toi);
    });
    expect(tois).toEqual([0]);
    removeComponent(world, wall, Bounds);
    removeComponent(world, bullet, Position);
    removeComponent(world, bullet, Bounds);
    frame(world);
    const tree = getQuadtree(world);
    expect(tree.has(bullet)).toBe(false);
    validateTree(tree);
    addComponent(world, bullet, Position);
    addComponent(world, bullet, Bounds);
    Position.x[bullet] = 300;
    frame(world);
    expect(tree.isSwept(bullet)).toBe(true);
    validateTree(tree);
  });
});
