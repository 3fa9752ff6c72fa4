import { addComponent, addEntity, createWorld, removeComponent, removeEntity, type World } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addQuadtree,
  Bounds,
  Collider,
  forEachPair,
  getQuadtree,
  markColliderChanged,
  Phase,
  Position,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  queryRect,
  Static,
  validateTree,
} from '../../src/index.js';
import { overlaps, Rng } from './helpers.js';
import { anyDetached } from '../core/helpers.js';

const WALL = 1;
const ACTOR = 2;
const DUST = 4;

interface Body {
  x: number;
  y: number;
  w: number;
  h: number;
  layer: number;
  mask: number;
  priority: number;
  isStatic: boolean;
}

/**
 * A particle storm through the ECS, big enough for the dust class to be deferred: dust that
 * pairs with walls and actors but not with itself (or, in a crowd, with itself too), actors,
 * static walls. Frames where everything moves alternate with quiet ones, colliders change mid-
 * game (dust turns actor and back), walls come and go, entities are removed and spawned, and
 * every frame's pairs are compared with brute force.
 */
class StormGame {
  readonly world: World = createWorld();
  readonly bodies = new Map<number, Body>();
  readonly rng: Rng;
  readonly seen = { detached: 0, quiet: 0, changes: 0, pairs: 0 };

  constructor(
    seed: number,
    private readonly crowd: boolean,
    private readonly touching: boolean,
  ) {
    this.rng = new Rng(seed);
    addQuadtree(this.world, { width: 1600, height: 1600, touching, pairEntities: false });
    for (let i = 0; i < 1150; i++)
      this.spawn(DUST, WALL | ACTOR | (crowd ? DUST : 0), 20, false, 2 + this.rng.int(crowd ? 10 : 5));
    for (let i = 0; i < 50; i++) this.spawn(ACTOR, WALL | ACTOR | DUST, 200, false, 14 + this.rng.int(20));
    for (let i = 0; i < 30; i++) this.spawn(WALL, ACTOR | DUST, 255, true, 0);
  }

  private spawn(layer: number, mask: number, priority: number, isStatic: boolean, size: number): void {
    const w = isStatic ? (this.rng.chance(0.5) ? 10 : 140) : size;
    const h = isStatic ? (w === 10 ? 140 : 10) : size;
    const eid = addEntity(this.world);
    const b: Body = { x: this.rng.range(50, 1550), y: this.rng.range(50, 1550), w, h, layer, mask, priority, isStatic };
    this.bodies.set(eid, b);
    Position.x[eid] = b.x;
    Position.y[eid] = b.y;
    Bounds.width[eid] = w;
    Bounds.height[eid] = h;
    Collider.layer[eid] = layer;
    Collider.mask[eid] = mask;
    Collider.priority[eid] = priority;
    addComponent(this.world, eid, Position);
    addComponent(this.world, eid, Bounds);
    addComponent(this.world, eid, Collider);
    if (isStatic) addComponent(this.world, eid, Static);
  }

  frame(): void {
    const rng = this.rng;
    const quiet = rng.chance(0.25);
    if (quiet) this.seen.quiet++;
    for (const [eid, b] of this.bodies) {
      if (b.isStatic || !(quiet ? rng.chance(0.02) : rng.chance(0.97))) continue;
      b.x += rng.range(-5, 5);
      b.y += rng.range(-5, 5);
      Position.x[eid] = b.x;
      Position.y[eid] = b.y;
    }
    for (let k = rng.int(3); k > 0; k--) this.change();
    const detached = anyDetached(getQuadtree(this.world));
    quadtreeCollisionSystem(quadtreeSyncSystem(this.world));
    if (detached) this.seen.detached++;
    this.check();
    if (rng.chance(0.05)) this.query();
  }

  /** A mid-game change: a collider (a class change), the static tag, or an entity gone or new. */
  private change(): void {
    const rng = this.rng;
    const eids = [...this.bodies.keys()];
    const eid = eids[rng.int(eids.length)];
    const b = this.bodies.get(eid)!;
    const r = rng.next();
    if (r < 0.5 && !b.isStatic) {
      const toActor = b.layer === DUST;
      b.layer = toActor ? ACTOR : DUST;
      b.mask = toActor ? WALL | ACTOR | DUST : WALL | ACTOR | (this.crowd ? DUST : 0);
      b.priority = toActor ? 200 : 20;
      Collider.layer[eid] = b.layer;
      Collider.mask[eid] = b.mask;
      Collider.priority[eid] = b.priority;
      markColliderChanged(this.world, eid);
      this.seen.changes++;
    } else if (r < 0.65) {
      if (b.isStatic) removeComponent(this.world, eid, Static);
      else addComponent(this.world, eid, Static);
      b.isStatic = !b.isStatic;
    } else {
      removeEntity(this.world, eid);
      this.bodies.delete(eid);
      this.spawn(DUST, WALL | ACTOR | (this.crowd ? DUST : 0), 20, false, 3);
    }
  }

  private check(): void {
    const expected: string[] = [];
    const list = [...this.bodies].sort((p, q) => p[0] - q[0]);
    for (let i = 0; i < list.length; i++) {
      const [a, p] = list[i];
      for (let j = i + 1; j < list.length; j++) {
        const [b, q] = list[j];
        if ((p.layer & q.mask) === 0 || (q.layer & p.mask) === 0 || (p.isStatic && q.isStatic)) continue;
        if (overlaps(p.x, p.y, p.w, p.h, q.x, q.y, q.w, q.h, this.touching))
          expected.push(`${a}:${b}:${Math.min(p.priority, q.priority)}`);
      }
    }
    const got: string[] = [];
    forEachPair(
      this.world,
      (a, b, _phase, priority) => {
        got.push(`${a}:${b}:${priority}`);
      },
      Phase.Enter | Phase.Stay,
    );
    expect(got.sort()).toEqual(expected.sort());
    validateTree(getQuadtree(this.world));
    this.seen.pairs += got.length;
  }

  private query(): void {
    const x = this.rng.range(0, 1400);
    const y = this.rng.range(0, 1400);
    const out: number[] = [];
    queryRect(this.world, x, y, x + 200, y + 200, out, DUST);
    const expected = [...this.bodies]
      .filter(
        ([, b]) => (b.layer & DUST) !== 0 && overlaps(b.x, b.y, b.w, b.h, x + 100, y + 100, 200, 200, this.touching),
      )
      .map(([eid]) => eid);
    expect(out.sort((p, q) => p - q)).toEqual(expected.sort((p, q) => p - q));
  }
}

describe('collision classes through the ECS', () => {
  for (const [crowd, touching] of [
    [false, false],
    [true, true],
  ] as const) {
    it(`a ${crowd ? 'crowd that pairs with itself' : 'particle storm'} matches brute force frame by frame (touching ${touching})`, () => {
      const game = new StormGame(crowd ? 7 : 5, crowd, touching);
      for (let f = 0; f < 70; f++) game.frame();
      expect(game.seen.detached).toBeGreaterThan(10);
      expect(game.seen.quiet).toBeGreaterThan(5);
      expect(game.seen.changes).toBeGreaterThan(10);
      expect(game.seen.pairs).toBeGreaterThan(500);
    }, 120_000);
  }
});
