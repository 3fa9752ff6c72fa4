// @vitest-environment happy-dom
import { addComponent, addEntity, createWorld, removeComponent, removeEntity } from 'bitecs';
import { Particle, ParticleContainer, Sprite, Texture } from 'pixi.js';
import { describe, expect, it } from 'vitest';
import { LooseQuadtree } from '../../src/core/index.js';
import { addQuadtree, Bounds, getQuadtree, Position, quadtreeSyncSystem } from '../../src/ecs/index.js';
import {
  forgetRemoved,
  ParticleCuller,
  SpriteCuller,
  type Cullable,
  type Forgetting,
  type PositionSource,
} from '../../src/pixi/index.js';
import { mulberry32 } from '../core/helpers.js';

/** Items 1..n on a row, 10 apart, each 5 wide: the view (x0, x1) takes the ids whose x is in it. */
function row(n: number): LooseQuadtree {
  const tree = new LooseQuadtree({ width: 4096, height: 64 });
  for (let id = 1; id <= n; id++) tree.insert(id, id * 10, 0, id * 10 + 5, 5);
  return tree;
}

/** Positions for ids 0..n-1: x = 1000 + id, y = 2000 + id. */
function positions(n: number): PositionSource {
  return {
    x: Float64Array.from({ length: n }, (_, id) => 1000 + id),
    y: Float64Array.from({ length: n }, (_, id) => 2000 + id),
  };
}

const visible = (c: { visibleIds: Int32Array; visibleCount: number }): number[] =>
  Array.from(c.visibleIds.subarray(0, c.visibleCount));

describe('placeVisible', () => {
  it('moves the sprites in view to their positions and leaves the others where they were', () => {
    const tree = row(10);
    const culler = new SpriteCuller<Sprite>();
    const sprites: Sprite[] = [];
    for (let id = 1; id <= 10; id++) culler.set(id, (sprites[id] = new Sprite(Texture.WHITE)));
    culler.cull(tree, 0, 0, 37, 10); // ids 1..3
    expect(culler.placeVisible(positions(16))).toBe(3);
    for (let id = 1; id <= 10; id++) {
      expect([sprites[id].x, sprites[id].y]).toEqual(id <= 3 ? [1000 + id, 2000 + id] : [0, 0]);
    }
    // A sprite deleted since the cull is not placed; the positions are read anew each call.
    culler.delete(2);
    const moved = positions(16);
    (moved.x as Float64Array)[1] = -5;
    (moved.x as Float64Array)[2] = -6;
    expect(culler.placeVisible(moved)).toBe(2);
    expect([sprites[1].x, sprites[2].x, sprites[3].x]).toEqual([-5, 1002, 1003]);
  });

  it("writes each particle in the container its own id's position, sorted or not", () => {
    for (const sortById of [false, true]) {
      const tree = row(10);
      const container = new ParticleContainer<Particle>({ dynamicProperties: { position: true } });
      const culler = new ParticleCuller(container, { sortById });
      for (let id = 10; id >= 1; id--) culler.set(id, new Particle(Texture.WHITE));
      expect(culler.cull(tree, 25, 0, 67, 10)).toBe(4); // ids 3..6
      expect(culler.placeVisible(positions(16))).toBe(4);
      container.particleChildren.forEach((p, i) => {
        const id = culler.visibleIds[i];
        expect([p.x, p.y]).toEqual([1000 + id, 2000 + id]);
        expect(culler.get(id)).toBe(p);
      });
      expect(visible(culler).sort()).toEqual([3, 4, 5, 6]);
    }
  });

  it('reads the ECS Position, after the game has moved its entities', () => {
    const world = addQuadtree(createWorld(), { width: 512, height: 512 });
    const culler = new SpriteCuller<Sprite>();
    const eids: number[] = [];
    for (let i = 0; i < 4; i++) {
      const eid = addEntity(world, Position, Bounds);
      Position.x[eid] = 40 + 100 * i;
      Position.y[eid] = 50;
      Bounds.width[eid] = Bounds.height[eid] = 10;
      culler.set(eid, new Sprite(Texture.WHITE));
      eids.push(eid);
    }
    quadtreeSyncSystem(world);
    culler.cull(getQuadtree(world), 0, 0, 200, 100);
    // A push-out after the sync: the sprite shows where the entity is now, not where the tree saw it.
    Position.x[eids[1]] += 3;
    expect(culler.placeVisible(Position)).toBe(2);
    expect(eids.map((e) => culler.get(e)!.x)).toEqual([40, 143, 0, 0]);
  });

  it('is typed for objects with x and y only', () => {
    const culler = new SpriteCuller();
    culler.set(1, { culled: true });
    // @ts-expect-error -- a SpriteCuller of bare Cullables has nothing to place.
    expect(culler.placeVisible(positions(2))).toBe(0);
    const typed: SpriteCuller<Cullable & { x: number; y: number }> = new SpriteCuller();
    expect(typed.placeVisible(positions(2))).toBe(0);
    // A union of both cullers (a list of them, say) can place.
    const cullers = [typed, new ParticleCuller(new ParticleContainer<Particle>())];
    for (const c of cullers) expect(c.placeVisible(positions(2))).toBe(0);
  });

  it('names a position store without x or y arrays', () => {
    const sprites = new SpriteCuller<Sprite>();
    const particles = new ParticleCuller(new ParticleContainer<Particle>());
    expect(() => sprites.placeVisible({ x: [] } as unknown as PositionSource)).toThrow(
      'bitecs-quadtree: SpriteCuller.placeVisible needs a position store with x and y arrays, such as Position (got [object Object])',
    );
    expect(() => particles.placeVisible(undefined as unknown as PositionSource)).toThrow(
      'bitecs-quadtree: ParticleCuller.placeVisible needs a position store with x and y arrays, such as Position (got undefined)',
    );
  });
});

describe('set(id, object, inView): newborns drawn the frame they are born', () => {
  it('shows a sprite at once, keeps it through the next cull, then culls it by the tree', () => {
    const tree = row(4);
    const culler = new SpriteCuller<Sprite>();
    for (let id = 1; id <= 4; id++) culler.set(id, new Sprite(Texture.WHITE));
    culler.cull(tree, 0, 0, 27, 10); // ids 1, 2
    // Born after the sync at x 1000: the tree does not hold it.
    const spark = new Sprite(Texture.WHITE);
    culler.set(50, spark, true);
    expect(spark.culled).toBe(false);
    expect(visible(culler)).toEqual([1, 2, 50]);
    expect(culler.placeVisible(positions(64))).toBe(3);
    expect(spark.x).toBe(1050);
    // This frame's cull does not find it, and keeps it.
    expect(culler.cull(tree, 0, 0, 27, 10)).toBe(3);
    expect([spark.culled, culler.shown, culler.hidden]).toEqual([false, 0, 0]);
    expect(visible(culler)).toEqual([1, 2, 50]);
    // The next sync put it in the tree, out of view: culled.
    tree.insert(50, 1000, 0, 1005, 5);
    culler.cull(tree, 0, 0, 27, 10);
    expect([spark.culled, culler.hidden]).toEqual([true, 1]);
    expect(visible(culler)).toEqual([1, 2]);
  });

  it('culls at the second cull a newborn the tree never took, and keeps one the tree finds in view', () => {
    const tree = row(4);
    const culler = new SpriteCuller<Sprite>();
    const held = new Sprite(Texture.WHITE);
    const born = new Sprite(Texture.WHITE);
    culler.set(60, held, true);
    culler.set(61, born, true);
    culler.set(61, born, true); // twice: listed once
    expect(visible(culler)).toEqual([60, 61]);
    culler.cull(tree, 0, 0, 100, 10);
    expect([held.culled, born.culled]).toEqual([false, false]);
    tree.insert(61, 50, 0, 55, 5);
    expect(culler.cull(tree, 0, 0, 100, 10)).toBe(1);
    expect([held.culled, born.culled]).toEqual([true, false]);
    expect([culler.shown, culler.hidden]).toEqual([0, 1]);
    // Deleted before any cull: nothing kept.
    const gone = new Sprite(Texture.WHITE);
    culler.set(62, gone, true);
    culler.delete(62);
    expect(culler.cull(tree, 0, 0, 100, 10)).toBe(1);
    expect(visible(culler)).toEqual([61]);
  });

  it('matches the tree and the newborns of the frame on a random scene', () => {
    const rnd = mulberry32(45);
    const tree = new LooseQuadtree({ width: 1000, height: 1000 });
    const culler = new SpriteCuller<Sprite>();
    const sprites = new Map<number, Sprite>();
    const boxes = new Map<number, [number, number]>();
    let nextId = 1;
    let born: number[] = [];
    for (let frame = 0; frame < 40; frame++) {
      // The sync: last frame's newborns enter the tree.
      for (const id of born)
        tree.insert(id, boxes.get(id)![0], boxes.get(id)![1], boxes.get(id)![0] + 4, boxes.get(id)![1] + 4);
      born = [];
      for (let k = 0; k < 10; k++) {
        const id = nextId++;
        boxes.set(id, [rnd() * 996, rnd() * 996]);
        const s = new Sprite(Texture.WHITE);
        sprites.set(id, s);
        // Born after the sync, half of them said to be in view.
        const inView = rnd() < 0.5;
        culler.set(id, s, inView);
        born.push(id);
        expect(s.culled).toBe(!inView);
      }
      const x = rnd() * 700;
      const y = rnd() * 700;
      culler.cull(tree, x, y, x + 300, y + 300);
      const said = new Set(born.filter((id) => !sprites.get(id)!.culled));
      for (const [id, s] of sprites) {
        const [bx, by] = boxes.get(id)!;
        const inTree = tree.has(id);
        const want = inTree ? bx < x + 300 && x < bx + 4 && by < y + 300 && y < by + 4 : said.has(id);
        expect(s.culled, `sprite ${id} in frame ${frame}`).toBe(!want);
      }
      expect(culler.visibleCount).toBe([...sprites.values()].filter((s) => !s.culled).length);
    }
  });

  it('puts a particle in the container at once, after the ones found, and once only', () => {
    const tree = row(4);
    const container = new ParticleContainer<Particle>();
    const culler = new ParticleCuller(container);
    const particles: Particle[] = [];
    for (let id = 1; id <= 4; id++) culler.set(id, (particles[id] = new Particle(Texture.WHITE)));
    culler.cull(tree, 0, 0, 27, 10);
    particles[50] = new Particle(Texture.WHITE);
    container._childrenDirty = false;
    culler.set(50, particles[50], true);
    culler.set(50, particles[50], true);
    expect(container._childrenDirty).toBe(true);
    const shown = () => container.particleChildren.map((p) => particles.indexOf(p));
    expect(shown()).toEqual([1, 2, 50]);
    expect(visible(culler)).toEqual([1, 2, 50]);
    culler.placeVisible(positions(64));
    expect(particles[50].x).toBe(1050);
    // Kept by this frame's cull, then found by the tree: listed once.
    expect(culler.cull(tree, 0, 0, 27, 10)).toBe(3);
    expect(shown()).toEqual([1, 2, 50]);
    tree.insert(50, 12, 0, 14, 5);
    culler.set(51, (particles[51] = new Particle(Texture.WHITE)), true);
    expect(culler.cull(tree, 0, 0, 27, 10)).toBe(4);
    expect(shown().sort((a, b) => a - b)).toEqual([1, 2, 50, 51]);
    // 51 never entered the tree: gone at the second cull.
    expect(culler.cull(tree, 0, 0, 27, 10)).toBe(3);
    expect(shown().sort((a, b) => a - b)).toEqual([1, 2, 50]);
  });

  it('does not keep a newborn set again out of view or deleted', () => {
    const tree = row(1);
    const container = new ParticleContainer<Particle>();
    const culler = new ParticleCuller(container);
    const p = new Particle(Texture.WHITE);
    culler.set(7, p, true);
    culler.set(7, p);
    culler.set(8, new Particle(Texture.WHITE), true);
    culler.delete(8);
    expect(culler.cull(tree, 0, 0, 100, 10)).toBe(0);
    expect(container.particleChildren).toEqual([]);
  });

  it('names an inView that is not a boolean', () => {
    expect(() => new SpriteCuller<Sprite>().set(3, new Sprite(), 1 as unknown as boolean)).toThrow(
      'bitecs-quadtree: inView for id 3 must be true or false (got 1)',
    );
    expect(() =>
      new ParticleCuller(new ParticleContainer()).set(4, new Particle(Texture.WHITE), 'yes' as unknown as boolean),
    ).toThrow('bitecs-quadtree: inView for id 4 must be true or false (got "yes")');
  });
});

describe('forgetRemoved', () => {
  function scene() {
    const world = addQuadtree(createWorld(), { width: 512, height: 512 });
    const spawn = (x: number): number => {
      const eid = addEntity(world, Position, Bounds);
      Position.x[eid] = x;
      Position.y[eid] = 10;
      Bounds.width[eid] = Bounds.height[eid] = 4;
      return eid;
    };
    return { world, spawn };
  }

  it('forgets an entity removed from the world or from the tree, hides its sprite and hands it over', () => {
    const { world, spawn } = scene();
    const culler = new SpriteCuller<Sprite>();
    const forgotten: [number, Sprite][] = [];
    const stop = forgetRemoved(world, culler, (eid, sprite) => forgotten.push([eid, sprite]));
    const a = spawn(20);
    const b = spawn(40);
    const c = spawn(60);
    const sprites = [a, b, c].map((eid) => {
      const s = new Sprite(Texture.WHITE);
      culler.set(eid, s);
      return s;
    });
    quadtreeSyncSystem(world);
    expect(culler.cull(getQuadtree(world), 0, 0, 100, 100)).toBe(3);
    removeEntity(world, a);
    removeComponent(world, b, Bounds);
    expect(forgotten).toEqual([
      [a, sprites[0]],
      [b, sprites[1]],
    ]);
    expect([culler.get(a), culler.get(b), culler.get(c)]).toEqual([undefined, undefined, sprites[2]]);
    expect(sprites.map((s) => s.culled)).toEqual([true, true, false]);
    expect(culler.size).toBe(1);
    // bitECS gives the id to the next entity at once: its new sprite is its own.
    const d = spawn(80);
    expect(d).toBe(a);
    const fresh = new Sprite(Texture.WHITE);
    culler.set(d, fresh);
    quadtreeSyncSystem(world);
    expect(culler.cull(getQuadtree(world), 0, 0, 100, 100)).toBe(2);
    expect(fresh.culled).toBe(false);
    // An entity the culler does not hold is ignored; once stopped, nothing is forgotten.
    removeEntity(world, spawn(90));
    stop();
    removeEntity(world, c);
    expect(forgotten.length).toBe(2);
    expect(culler.get(c)).toBe(sprites[2]);
    // Bounds given back: a new start, registered again by the game.
    addComponent(world, b, Bounds);
    expect(culler.get(b)).toBeUndefined();
  });

  it("drops a removed particle from the container at the next cull, without the game's help", () => {
    const { world, spawn } = scene();
    const container = new ParticleContainer<Particle>();
    const culler = new ParticleCuller(container);
    forgetRemoved(world, culler);
    const eids = [spawn(20), spawn(40)];
    for (const eid of eids) culler.set(eid, new Particle(Texture.WHITE));
    quadtreeSyncSystem(world);
    culler.cull(getQuadtree(world), 0, 0, 100, 100);
    const kept = culler.get(eids[1]);
    removeEntity(world, eids[0]);
    quadtreeSyncSystem(world);
    expect(culler.cull(getQuadtree(world), 0, 0, 100, 100)).toBe(1);
    expect(container.particleChildren).toEqual([kept]);
  });

  it('names a world without a quadtree, something that is not a culler, and an onForget that is no function', () => {
    const culler = new SpriteCuller();
    expect(() => forgetRemoved(createWorld(), culler)).toThrow(
      'bitecs-quadtree: this world has no quadtree: call addQuadtree(world) first',
    );
    const world = addQuadtree(createWorld());
    expect(() => forgetRemoved(world, {} as Forgetting<object>)).toThrow(
      'bitecs-quadtree: forgetRemoved needs a SpriteCuller or ParticleCuller (got [object Object])',
    );
    expect(() => forgetRemoved(world, null as unknown as Forgetting<object>)).toThrow(
      'bitecs-quadtree: forgetRemoved needs a SpriteCuller or ParticleCuller (got null)',
    );
    expect(() => forgetRemoved(world, culler, 'destroy' as unknown as () => void)).toThrow(
      'bitecs-quadtree: forgetRemoved onForget must be a function (got "destroy")',
    );
  });
});
