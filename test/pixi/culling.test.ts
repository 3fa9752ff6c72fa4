// @vitest-environment happy-dom
import { Container, Particle, ParticleContainer, Sprite, Texture } from 'pixi.js';
import { describe, expect, it } from 'vitest';
import { LooseQuadtree } from '../../src/core/index.js';
import { ParticleCuller, SpriteCuller } from '../../src/pixi/index.js';
import { mulberry32 } from '../core/helpers.js';

/** A stand-in sprite that counts writes to `visible`. */
class FakeSprite {
  writes = 0;
  private v = true;
  get visible(): boolean {
    return this.v;
  }
  set visible(value: boolean) {
    this.v = value;
    this.writes++;
  }
}

interface Box { minX: number; minY: number; maxX: number; maxY: number }

/** A random scene that moves, removes and re-adds items, with the boxes kept beside the tree. */
class Scene {
  readonly tree: LooseQuadtree;
  readonly boxes = new Map<number, Box>();
  readonly layers = new Map<number, number>();
  constructor(readonly rnd: () => number, readonly width: number, readonly height: number) {
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
    it(`matches a brute-force visibility check on random scene ${seed}`, () => {
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
          culler.set(id, s);
          expect(s.visible).toBe(false);
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
        scene.tree.step();
        const v = scene.randomView();
        const writesBefore = [...sprites.values()].reduce((n, s) => n + s.writes, 0);
        const count = culler.cull(scene.tree, v.minX, v.minY, v.maxX, v.maxY);
        let expected = 0;
        for (const [id, s] of sprites) {
          const want = scene.inView(id, v, margin, mask);
          expect(s.visible, `sprite ${id} in frame ${frame}`).toBe(want);
          if (want) expected++;
        }
        expect(count).toBe(expected);
        expect(culler.visibleCount).toBe(expected);
        const shownIds = culler.visibleIds.slice(0, count);
        expect(new Set(shownIds).size).toBe(count);
        for (const id of shownIds) expect(sprites.get(id)!.visible).toBe(true);
        // Flags are written only when they change.
        const writes = [...sprites.values()].reduce((n, s) => n + s.writes, 0) - writesBefore;
        expect(writes).toBe(culler.shown + culler.hidden);
      }
    });
  }

  it('shows a re-registered id from scratch and forgets deleted ones', () => {
    const tree = new LooseQuadtree({ width: 100, height: 100 });
    tree.insert(1, 10, 10, 20, 20);
    const culler = new SpriteCuller<FakeSprite>();
    const a = new FakeSprite();
    culler.set(1, a);
    expect(culler.cull(tree, 0, 0, 50, 50)).toBe(1);
    expect(a.visible).toBe(true);
    // The id is recycled for a new entity with a new sprite.
    const b = new FakeSprite();
    culler.set(1, b);
    expect(b.visible).toBe(false);
    culler.cull(tree, 0, 0, 50, 50);
    expect(b.visible).toBe(true);
    expect(culler.get(1)).toBe(b);
    expect(culler.delete(1)).toBe(true);
    expect(culler.delete(1)).toBe(false);
    expect(culler.cull(tree, 0, 0, 50, 50)).toBe(0);
    expect(b.visible).toBe(true);
    culler.set(1, b);
    culler.cull(tree, 60, 60, 90, 90);
    expect(b.visible).toBe(false);
  });

  it('drives the visible flag of real PixiJS sprites', () => {
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
    expect(stage.children.every((c) => !c.visible)).toBe(true);
    // The view covers columns 2..4 of rows 3..5: nine sprites.
    expect(culler.cull(tree, 200, 300, 500, 600)).toBe(9);
    for (let id = 1; id <= 100; id++) {
      const col = id % 10;
      const row = Math.floor(id / 10);
      expect(culler.get(id)!.visible).toBe(col >= 2 && col <= 4 && row >= 3 && row <= 5);
    }
    // Panning right by a column shows three and hides three.
    culler.cull(tree, 300, 300, 600, 600);
    expect([culler.shown, culler.hidden]).toEqual([3, 3]);
  });

  it('grows its tables for large ids', () => {
    const tree = new LooseQuadtree({ width: 100, height: 100 });
    const culler = new SpriteCuller<FakeSprite>();
    const s = new FakeSprite();
    tree.insert(5000, 1, 1, 2, 2);
    culler.set(5000, s);
    expect(culler.cull(tree, 0, 0, 10, 10)).toBe(1);
    expect(s.visible).toBe(true);
  });

  it('names the bad argument', () => {
    const culler = new SpriteCuller();
    const tree = new LooseQuadtree();
    expect(() => culler.set(-1, { visible: true })).toThrow('bitecs-quadtree: cull id must be a non-negative integer (got -1)');
    expect(() => culler.set(3, undefined as unknown as FakeSprite)).toThrow('bitecs-quadtree: object for id 3 must be an object (got undefined)');
    expect(() => culler.cull(tree, 10, 0, 0, 10)).toThrow('bitecs-quadtree: cull view must have min <= max (got 10, 0, 0, 10)');
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
});
