// @vitest-environment happy-dom
import { Container, Particle, ParticleContainer, Sprite, Texture } from 'pixi.js';
import { describe, expect, it } from 'vitest';
import { LooseQuadtree } from '../../src/core/index.js';
import { ParticleCuller, SpriteCuller } from '../../src/pixi/index.js';
import { mulberry32 } from '../core/helpers.js';

/**
 * A stand-in sprite that counts the culler's writes to `culled`. `visible` belongs to the
 * game: a write to it throws, so a culler that touches it fails the test; the game changes it
 * through {@link FakeSprite.gameSets}.
 */
class FakeSprite {
  writes = 0;
  private c = false;
  private v = true;
  get culled(): boolean {
    return this.c;
  }
  set culled(value: boolean) {
    this.c = value;
    this.writes++;
  }
  get visible(): boolean {
    return this.v;
  }
  set visible(_value: boolean) {
    throw new Error("the culler wrote `visible`, which is the game's");
  }
  gameSets(visible: boolean): void {
    this.v = visible;
  }
}

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** A random scene that moves, removes and re-adds items, with the boxes kept beside the tree. */
class Scene {
  readonly tree: LooseQuadtree;
  readonly boxes = new Map<number, Box>();
  readonly layers = new Map<number, number>();
  constructor(
    readonly rnd: () => number,
    readonly width: number,
    readonly height: number,
  ) {
    this.tree = new LooseQuadtree({ x: -50, y: 20, width, height, maxDepth: 7 });
  }
  randomBox(): Box {
    // Some items outside the world, some zero-size, some large.
    const x = -50 - 0.2 * this.width + this.rnd() * 1.4 * this.width;
    const y = 20 - 0.2 * this.height + this.rnd() * 1.4 * this.height;
    const r = this.rnd();
    const w = r < 0.1 ? 0 : r < 0.95 ? this.rnd() * 20 : this.rnd() * 300;
    const h = r < 0.1 ? 0 : this.rnd() * 20;
    return { minX: x, minY: y, maxX: x + w, maxY: y + h };
  }
  add(id: number): void {
    const b = this.randomBox();
    this.boxes.set(id, b);
    this.tree.insert(id, b.minX, b.minY, b.maxX, b.maxY);
    const layer = 1 << Math.floor(this.rnd() * 3);
    this.layers.set(id, layer);
    this.tree.setCollider(id, layer, -1, 128);
  }
  move(id: number): void {
    const b = this.boxes.get(id)!;
    const dx = (this.rnd() - 0.5) * 80;
    const dy = (this.rnd() - 0.5) * 80;
    const n = { minX: b.minX + dx, minY: b.minY + dy, maxX: b.maxX + dx, maxY: b.maxY + dy };
    this.boxes.set(id, n);
    this.tree.move(id, n.minX, n.minY, n.maxX, n.maxY);
  }
  remove(id: number): void {
    this.boxes.delete(id);
    this.layers.delete(id);
    this.tree.remove(id);
  }
  /** Brute force: strict overlap with the view grown by the margin, layer in the mask. */
  inView(id: number, v: Box, margin: number, mask: number): boolean {
    const b = this.boxes.get(id);
    if (!b || (this.layers.get(id)! & mask) === 0) return false;
    return b.minX < v.maxX + margin && v.minX - margin < b.maxX && b.minY < v.maxY + margin && v.minY - margin < b.maxY;
  }
  randomView(): Box {
    const w = this.rnd() * this.width * 0.6;
    const h = this.rnd() * this.height * 0.6;
    const x = -50 - 0.1 * this.width + this.rnd() * this.width;
    const y = 20 - 0.1 * this.height + this.rnd() * this.height;
    return { minX: x, minY: y, maxX: x + w, maxY: y + h };
  }
}

describe('SpriteCuller', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`culls exactly the sprites out of view, by brute force, on random scene ${seed}`, () => {
      const rnd = mulberry32(seed);
      const scene = new Scene(rnd, 800 + rnd() * 1200, 300 + rnd() * 900);
      const margin = seed === 2 ? 12.5 : 0;
      const mask = seed === 3 ? 0b101 : -1;
      const culler = new SpriteCuller<FakeSprite>({ margin, mask });
      const sprites = new Map<number, FakeSprite>();
      const ids: number[] = [];
      const free: number[] = [];
      let nextId = 1;
      const spawn = () => {
        // Removed ids come back last-removed-first, as in bitECS.
        const id = free.length > 0 && rnd() < 0.7 ? free.pop()! : nextId++;
        scene.add(id);
        ids.push(id);
        // Some items have no sprite (walls drawn otherwise): the culler ignores them.
        if (rnd() < 0.9) {
          const s = new FakeSprite();
          sprites.set(id, s);
          // The game hides some sprites itself (pooled, blinking).
          if (rnd() < 0.2) s.gameSets(false);
          culler.set(id, s);
          expect(s.culled).toBe(true);
        }
      };
      for (let i = 0; i < 400; i++) spawn();
      for (let frame = 0; frame < 60; frame++) {
        for (let k = 0; k < 40; k++) scene.move(ids[Math.floor(rnd() * ids.length)]);
        for (let k = 0; k < 5; k++) {
          const at = Math.floor(rnd() * ids.length);
          const id = ids[at];
          ids.splice(at, 1);
          scene.remove(id);
          free.push(id);
          if (sprites.has(id)) {
            culler.delete(id);
            sprites.delete(id);
          }
        }
        for (let k = 0; k < 5; k++) spawn();
        // Blinking: the game flips some sprites between culls.
        for (const s of sprites.values()) if (rnd() < 0.05) s.gameSets(!s.visible);
        const gameVisible = new Map([...sprites].map(([id, s]) => [id, s.visible]));
        scene.tree.step();
        const v = scene.randomView();
        const writesBefore = [...sprites.values()].reduce((n, s) => n + s.writes, 0);
        const count = culler.cull(scene.tree, v.minX, v.minY, v.maxX, v.maxY);
        let expected = 0;
        for (const [id, s] of sprites) {
          const want = scene.inView(id, v, margin, mask);
          expect(s.culled, `sprite ${id} in frame ${frame}`).toBe(!want);
          expect(s.visible, `the game's flag of sprite ${id} in frame ${frame}`).toBe(gameVisible.get(id));
          if (want) expected++;
        }
        expect(count).toBe(expected);
        expect(culler.visibleCount).toBe(expected);
        expect(culler.size).toBe(sprites.size);
        expect(culler.culledCount).toBe(sprites.size - expected);
        expect(culler.culledCount).toBe([...sprites.values()].filter((s) => s.culled).length);
        const shownIds = culler.visibleIds.slice(0, count);
        expect(new Set(shownIds).size).toBe(count);
        for (const id of shownIds) expect(sprites.get(id)!.culled).toBe(false);
        // Flags are written only when they change.
        const writes = [...sprites.values()].reduce((n, s) => n + s.writes, 0) - writesBefore;
        expect(writes).toBe(culler.shown + culler.hidden);
      }
    });
  }

  it('culls a re-registered id from scratch and forgets deleted ones', () => {
    const tree = new LooseQuadtree({ width: 100, height: 100 });
    tree.insert(1, 10, 10, 20, 20);
    const culler = new SpriteCuller<FakeSprite>();
    const a = new FakeSprite();
    culler.set(1, a);
    expect(culler.cull(tree, 0, 0, 50, 50)).toBe(1);
    expect(a.culled).toBe(false);
    // The id is recycled for a new entity with a new sprite.
    const b = new FakeSprite();
    culler.set(1, b);
    expect(b.culled).toBe(true);
    culler.cull(tree, 0, 0, 50, 50);
    expect(b.culled).toBe(false);
    expect(culler.get(1)).toBe(b);
    expect(culler.delete(1)).toBe(true);
    expect(culler.delete(1)).toBe(false);
    expect(culler.cull(tree, 0, 0, 50, 50)).toBe(0);
    expect(b.culled).toBe(false);
    culler.set(1, b);
    culler.cull(tree, 60, 60, 90, 90);
    expect(b.culled).toBe(true);
    expect([a.visible, b.visible]).toEqual([true, true]);
  });

  it('leaves a sprite the game hid hidden through culls in and out of view', () => {
    const tree = new LooseQuadtree({ width: 100, height: 100 });
    tree.insert(1, 10, 10, 20, 20);
    const culler = new SpriteCuller<FakeSprite>();
    const ship = new FakeSprite();
    ship.gameSets(false);
    culler.set(1, ship);
    for (const [minX, culled] of [
      [0, false],
      [0, false],
      [50, true],
      [0, false],
    ] as const) {
      culler.cull(tree, minX, 0, minX + 40, 40);
      expect([ship.visible, ship.culled]).toEqual([false, culled]);
    }
    // Shown again by the game while in view: drawn (visible and not culled) with no cull in between.
    ship.gameSets(true);
    expect([ship.visible, ship.culled]).toEqual([true, false]);
    culler.cull(tree, 50, 0, 90, 40);
    expect([ship.visible, ship.culled]).toEqual([true, true]);
  });

  it('drives the culled flag of real PixiJS sprites and leaves visible to the game', () => {
    const tree = new LooseQuadtree({ width: 1000, height: 1000 });
    const stage = new Container({ isRenderGroup: true });
    const culler = new SpriteCuller<Sprite>();
    for (let id = 1; id <= 100; id++) {
      const x = (id % 10) * 100 + 50;
      const y = Math.floor(id / 10) * 100 + 50;
      tree.insert(id, x - 10, y - 10, x + 10, y + 10);
      const sprite = stage.addChild(new Sprite(Texture.WHITE));
      culler.set(id, sprite);
    }
    expect(stage.children.every((c) => c.culled && c.visible)).toBe(true);
    // Hidden by the game (a pooled bullet), in the middle of the view.
    culler.get(43)!.visible = false;
    // The view covers columns 2..4 of rows 3..5: nine sprites.
    expect(culler.cull(tree, 200, 300, 500, 600)).toBe(9);
    for (let id = 1; id <= 100; id++) {
      const col = id % 10;
      const row = Math.floor(id / 10);
      const sprite = culler.get(id)!;
      expect(sprite.culled).toBe(!(col >= 2 && col <= 4 && row >= 3 && row <= 5));
      expect(sprite.visible).toBe(id !== 43);
    }
    // Panning right by a column lets three in and culls three.
    culler.cull(tree, 300, 300, 600, 600);
    expect([culler.shown, culler.hidden]).toEqual([3, 3]);
    expect(culler.get(43)!.visible).toBe(false);
  });

  it('grows its tables for large ids', () => {
    const tree = new LooseQuadtree({ width: 100, height: 100 });
    const culler = new SpriteCuller<FakeSprite>();
    const s = new FakeSprite();
    tree.insert(5000, 1, 1, 2, 2);
    culler.set(5000, s);
    expect(culler.cull(tree, 0, 0, 10, 10)).toBe(1);
    expect(s.culled).toBe(false);
  });

  it('names the bad argument', () => {
    const culler = new SpriteCuller();
    const tree = new LooseQuadtree();
    expect(() => culler.set(-1, { culled: false })).toThrow(
      'bitecs-quadtree: cull id must be a non-negative integer (got -1)',
    );
    expect(() => culler.set(3, undefined as unknown as FakeSprite)).toThrow(
      'bitecs-quadtree: object for id 3 must be an object (got undefined)',
    );
    expect(() => culler.cull(tree, 10, 0, 0, 10)).toThrow(
      'bitecs-quadtree: cull view must have min <= max (got 10, 0, 0, 10)',
    );
    expect(() => culler.cull(tree, NaN, 0, 0, 10)).toThrow(/got NaN/);
  });
});

describe('ParticleCuller', () => {
  for (const seed of [11, 12]) {
    it(`fills particleChildren with exactly the particles in view on random scene ${seed}`, () => {
      const rnd = mulberry32(seed);
      const scene = new Scene(rnd, 1000, 700);
      const container = new ParticleContainer({ dynamicProperties: { position: true } });
      const sortById = seed === 12;
      const culler = new ParticleCuller(container, { sortById });
      const particles = new Map<number, Particle>();
      const ids: number[] = [];
      for (let id = 1; id <= 500; id++) {
        scene.add(id);
        ids.push(id);
        const p = new Particle(Texture.WHITE);
        particles.set(id, p);
        culler.set(id, p);
      }
      expect(container.particleChildren).toEqual([]);
      for (let frame = 0; frame < 40; frame++) {
        for (let k = 0; k < 50; k++) scene.move(ids[Math.floor(rnd() * ids.length)]);
        if (frame % 10 === 5) {
          const id = ids.pop()!;
          scene.remove(id);
          culler.delete(id);
          particles.delete(id);
        }
        scene.tree.step();
        container._childrenDirty = false;
        const v = scene.randomView();
        const count = culler.cull(scene.tree, v.minX, v.minY, v.maxX, v.maxY);
        const want = [...particles].filter(([id]) => scene.inView(id, v, 0, -1)).map(([, p]) => p);
        expect(count).toBe(want.length);
        expect(culler.size).toBe(particles.size);
        expect([culler.visibleCount, culler.culledCount]).toEqual([want.length, particles.size - want.length]);
        expect(new Set(container.particleChildren)).toEqual(new Set(want));
        expect(container.particleChildren.length).toBe(want.length);
        if (sortById) expect(container.particleChildren).toEqual(want);
        container.particleChildren.forEach((p, i) => expect(particles.get(culler.visibleIds[i])).toBe(p));
        // The same view again changes nothing, so the container is not marked for a re-upload.
        container._childrenDirty = false;
        culler.cull(scene.tree, v.minX, v.minY, v.maxX, v.maxY);
        expect(container._childrenDirty).toBe(false);
      }
    });
  }

  it('drops a deleted particle, takes a re-registered one and follows the view', () => {
    const tree = new LooseQuadtree({ width: 100, height: 100 });
    const container = new ParticleContainer();
    const culler = new ParticleCuller(container, { sortById: true });
    // Particles 1..4 in a row, 20 apart; Particle objects compare equal, so compare by index.
    const particles: Particle[] = [];
    for (let id = 1; id <= 4; id++) {
      tree.insert(id, id * 20, 0, id * 20 + 10, 10);
      particles[id] = new Particle(Texture.WHITE);
      culler.set(id, particles[id]);
    }
    const shown = () => container.particleChildren.map((p) => particles.findIndex((q) => q === p));
    const ids = () => Array.from(culler.visibleIds.subarray(0, culler.visibleCount));

    expect(culler.cull(tree, 0, 0, 55, 20)).toBe(2);
    expect(shown()).toEqual([1, 2]);
    // Deleted while in view: gone from the container at the next cull, the other stays.
    expect(culler.delete(1)).toBe(true);
    expect(culler.delete(1)).toBe(false);
    expect(culler.get(1)).toBeUndefined();
    expect(culler.cull(tree, 0, 0, 55, 20)).toBe(1);
    expect(shown()).toEqual([2]);
    expect(ids()).toEqual([2]);
    // The id comes back with a new particle: that one is drawn.
    particles[5] = new Particle(Texture.WHITE);
    culler.set(1, particles[5]);
    culler.cull(tree, 0, 0, 55, 20);
    expect(shown()).toEqual([5, 2]);
    expect(ids()).toEqual([1, 2]);
    // Panning right: the particles now in view, and only they.
    expect(culler.cull(tree, 45, 0, 100, 20)).toBe(3);
    expect(shown()).toEqual([2, 3, 4]);
    expect(culler.cull(tree, 75, 0, 100, 20)).toBe(1);
    expect(shown()).toEqual([4]);
    culler.clear();
    expect(container.particleChildren).toEqual([]);
    expect(culler.cull(tree, 0, 0, 100, 100)).toBe(0);
  });
});

describe('both cullers', () => {
  /** Items 1..n on a row, 10 apart, layer 1 for odd ids and 2 for even ones. */
  function row(n: number): LooseQuadtree {
    const tree = new LooseQuadtree({ width: 16384, height: 64 });
    for (let id = 1; id <= n; id++) {
      tree.insert(id, id * 10, 0, id * 10 + 5, 5);
      tree.setCollider(id, id % 2 === 1 ? 1 : 2, -1, 128);
    }
    return tree;
  }

  it('count the registered objects (size), now, through set, replace, delete and clear', () => {
    const sprites = new SpriteCuller<FakeSprite>();
    const particles = new ParticleCuller(new ParticleContainer<Particle>());
    for (const culler of [sprites, particles] as const) {
      const add = (id: number) => {
        if (culler instanceof SpriteCuller) culler.set(id, new FakeSprite());
        else culler.set(id, new Particle(Texture.WHITE));
      };
      expect(culler.size).toBe(0);
      add(1);
      add(2);
      add(7);
      expect(culler.size).toBe(3);
      add(2); // a new object for an id already registered
      expect(culler.size).toBe(3);
      expect(culler.delete(7)).toBe(true);
      expect(culler.delete(7)).toBe(false);
      expect(culler.size).toBe(2);
      culler.clear();
      expect(culler.size).toBe(0);
      add(3);
      expect(culler.size).toBe(1);
    }
  });

  it('count the objects in view and out of view at the last cull; shown and hidden count its changes', () => {
    const tree = row(10);
    const culler = new SpriteCuller<FakeSprite>();
    const particles = new ParticleCuller(new ParticleContainer<Particle>());
    // Ids 1..8 have objects; 11 has one but no item, so it is never in view.
    for (const id of [1, 2, 3, 4, 5, 6, 7, 8, 11]) {
      culler.set(id, new FakeSprite());
      particles.set(id, new Particle(Texture.WHITE));
    }
    // The view takes items 1..4 (x 10..45), then 3..6.
    for (const c of [culler, particles]) {
      expect(c.cull(tree, 0, 0, 47, 10)).toBe(4);
      expect([c.visibleCount, c.culledCount]).toEqual([4, 5]);
    }
    expect([culler.shown, culler.hidden]).toEqual([4, 0]);
    for (const c of [culler, particles]) {
      c.cull(tree, 27, 0, 67, 10);
      expect([c.visibleCount, c.culledCount]).toEqual([4, 5]);
    }
    // Two entered and two left: the totals did not move.
    expect([culler.shown, culler.hidden]).toEqual([2, 2]);
    // A mask of layer 2 leaves the odd ids out: culled, and counted so.
    for (const c of [culler, particles]) {
      c.mask = 2;
      c.cull(tree, 27, 0, 67, 10);
      expect([c.visibleCount, c.culledCount]).toEqual([2, 7]);
      expect(Array.from(c.visibleIds.subarray(0, c.visibleCount)).sort()).toEqual([4, 6]);
    }
    expect([culler.shown, culler.hidden]).toEqual([0, 2]);
    // Set and delete since a cull change the size only; the next cull counts again.
    culler.delete(4);
    culler.set(12, new FakeSprite());
    expect([culler.size, culler.visibleCount, culler.culledCount]).toEqual([9, 2, 7]);
    culler.cull(tree, 27, 0, 67, 10);
    expect([culler.size, culler.visibleCount, culler.culledCount]).toEqual([9, 1, 8]);
    culler.clear();
    particles.clear();
    for (const c of [culler, particles]) expect([c.size, c.visibleCount, c.culledCount]).toEqual([0, 0, 0]);
    expect([culler.shown, culler.hidden]).toEqual([0, 0]);
  });

  it('give the ids in view as an Int32Array, the same one from cull to cull until more are in view than it holds', () => {
    const tree = row(1000);
    const culler = new SpriteCuller<FakeSprite>();
    const particles = new ParticleCuller(new ParticleContainer<Particle>(), { sortById: true });
    for (let id = 1; id <= 1000; id++) {
      culler.set(id, new FakeSprite());
      particles.set(id, new Particle(Texture.WHITE));
    }
    for (const c of [culler, particles]) {
      c.cull(tree, 0, 0, 100, 10);
      const ids = c.visibleIds;
      expect(ids).toBeInstanceOf(Int32Array);
      c.cull(tree, 200, 0, 400, 10);
      expect(c.visibleIds).toBe(ids);
      // All 1,000 in view: more than the first array holds.
      expect(c.cull(tree, 0, 0, 16384, 10)).toBe(1000);
      expect(c.visibleIds.length).toBeGreaterThanOrEqual(1000);
      expect(Array.from(c.visibleIds.subarray(0, 1000)).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 1000 }, (_, i) => i + 1),
      );
      // And back to a few: the grown array stays, its first entries the ones in view.
      const grown = c.visibleIds;
      expect(c.cull(tree, 0, 0, 35, 10)).toBe(3);
      expect(c.visibleIds).toBe(grown);
      expect(Array.from(c.visibleIds.subarray(0, 3)).sort()).toEqual([1, 2, 3]);
    }
    // The sprites agree with the list after the shrink: only 1..3 drawn.
    expect([...Array(1000).keys()].filter((i) => !culler.get(i + 1)!.culled)).toEqual([0, 1, 2]);
  });
});

describe("the cullers' mask", () => {
  const SHIP = 1,
    ENEMY = 2,
    SPARK = 4;

  /** 3,000 sparks over the world (a detached class once they all move), 40 enemies and a ship. */
  function world(): LooseQuadtree {
    const tree = new LooseQuadtree({ width: 1024, height: 1024 });
    const rnd = mulberry32(7);
    for (let id = 100; id < 3100; id++) {
      const x = rnd() * 1000,
        y = rnd() * 1000;
      tree.insert(id, x, y, x + 3, y + 3);
      tree.setCollider(id, SPARK, 0, 10);
    }
    for (let id = 1; id <= 40; id++) {
      tree.insert(id, id * 25, 500, id * 25 + 10, 510);
      tree.setCollider(id, ENEMY, SHIP, 128);
    }
    tree.insert(50, 300, 300, 320, 320);
    tree.setCollider(50, SHIP, ENEMY, 128);
    return tree;
  }

  /** The tree with the mask of each query recorded. */
  function spy(tree: LooseQuadtree): { tree: LooseQuadtree; masks: number[] } {
    const masks: number[] = [];
    const query = tree.queryRect.bind(tree);
    tree.queryRect = (minX, minY, maxX, maxY, out, mask) => {
      masks.push(mask ?? -1);
      return query(minX, minY, maxX, maxY, out, mask);
    };
    return { tree, masks };
  }

  it("walks only the layers of its objects by default ('auto'), and finds what mask -1 finds", () => {
    const { tree, masks } = spy(world());
    const auto = new SpriteCuller<FakeSprite>();
    const all = new SpriteCuller<FakeSprite>({ mask: -1 });
    // An object for an id the tree does not hold yet: its layer is learned once it is there.
    for (const id of [50, ...Array.from({ length: 40 }, (_, i) => i + 1), 3200]) {
      auto.set(id, new FakeSprite());
      all.set(id, new FakeSprite());
    }
    expect(auto.mask).toBe('auto');
    auto.cull(tree, 0, 0, 600, 600);
    expect(masks.pop()).toBe(SHIP | ENEMY);
    all.cull(tree, 0, 0, 600, 600);
    expect(masks.pop()).toBe(-1);
    expect([...auto.visibleIds.subarray(0, auto.visibleCount)].sort()).toEqual(
      [...all.visibleIds.subarray(0, all.visibleCount)].sort(),
    );
    expect(auto.visibleCount).toBeGreaterThan(20);
    // Item 3200 arrives as a spark: its layer joins the mask at the next cull.
    tree.insert(3200, 10, 10, 12, 12);
    tree.setCollider(3200, SPARK, 0, 10);
    auto.cull(tree, 0, 0, 600, 600);
    expect(masks.pop()).toBe(SHIP | ENEMY | SPARK);
    expect(auto.visibleCount).toBe(all.visibleCount + 1);
    // clear forgets the layers with the objects.
    auto.clear();
    auto.set(50, new FakeSprite());
    auto.cull(tree, 0, 0, 600, 600);
    expect(masks.pop()).toBe(SHIP);
  });

  it('a ParticleCuller learns its particles layer; a tree without getCollider is walked whole', () => {
    const { tree, masks } = spy(world());
    const culler = new ParticleCuller(new ParticleContainer<Particle>());
    for (let id = 100; id < 200; id++) culler.set(id, new Particle(Texture.WHITE));
    culler.cull(tree, 0, 0, 1000, 1000);
    expect(masks.pop()).toBe(SPARK);
    expect(culler.visibleCount).toBe(100);
    const bare = { queryRect: tree.queryRect.bind(tree) };
    const sprites = new SpriteCuller<FakeSprite>();
    sprites.set(50, new FakeSprite());
    sprites.cull(bare, 0, 0, 600, 600);
    expect(masks.pop()).toBe(-1);
    expect(sprites.visibleCount).toBe(1);
  });

  it('refuses a mask that is not a 32-bit mask or auto, naming it', () => {
    for (const mask of ['all', 2 ** 40, 1.5, NaN]) {
      expect(() => new SpriteCuller({ mask: mask as number })).toThrow(
        `bitecs-quadtree: cull mask must be a 32-bit mask or 'auto' (got ${typeof mask === 'string' ? `"${mask}"` : String(mask)})`,
      );
      expect(() => new ParticleCuller(new ParticleContainer<Particle>(), { mask: mask as number })).toThrow(
        'cull mask must be',
      );
    }
  });
});
