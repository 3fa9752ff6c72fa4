import { addComponent, addEntity, createWorld, query, removeComponent, removeEntity, type World } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addQuadtree,
  Bounds,
  Collider,
  Collision,
  createQuadtreeComponents,
  forEachPair,
  getQuadtree,
  Phase,
  Position,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  queryRect,
  type QuadtreeComponents,
  validateTree,
} from '../../src/index.js';
import { overlaps, Rng } from './helpers.js';

// Two worlds in one process (a server and a client, a rollback copy), each on its own set of
// components: entity ids overlap, and each world's pairs and queries are those of its own
// values, against brute force.

const SIDE = 400;

/** One world, its own components and the entities alive in it. */
class Game {
  readonly c: QuadtreeComponents = createQuadtreeComponents();
  readonly world: World = addQuadtree(createWorld(), { ...this.c, width: SIDE, height: SIDE });
  readonly alive = new Set<number>();

  constructor(readonly rng: Rng) {}

  spawn(): number {
    const { c, rng } = this;
    const eid = addEntity(this.world, c.position, c.bounds, c.collider);
    this.place(eid);
    c.bounds.width[eid] = rng.range(4, 40);
    c.bounds.height[eid] = rng.range(4, 40);
    c.collider.layer[eid] = 1 << rng.int(3);
    c.collider.mask[eid] = rng.chance(0.2) ? 1 : -1;
    c.collider.priority[eid] = rng.int(256);
    this.alive.add(eid);
    return eid;
  }

  place(eid: number): void {
    this.c.position.x[eid] = this.rng.range(0, SIDE);
    this.c.position.y[eid] = this.rng.range(0, SIDE);
  }

  remove(eid: number): void {
    removeEntity(this.world, eid);
    this.alive.delete(eid);
  }

  /** Pairs (a < b) by brute force over this world's own values. */
  brutePairs(): string[] {
    const { position: p, bounds: b, collider: k } = this.c;
    const ids = [...this.alive].sort((x, y) => x - y);
    const out: string[] = [];
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const [x, y] = [ids[i], ids[j]];
        const filter = (k.mask[x] & k.layer[y]) !== 0 && (k.mask[y] & k.layer[x]) !== 0;
        const hit = overlaps(p.x[x], p.y[x], b.width[x], b.height[x], p.x[y], p.y[y], b.width[y], b.height[y], false);
        if (filter && hit) out.push(`${x}-${y}`);
      }
    }
    return out;
  }

  bruteRect(x: number, y: number, w: number, h: number): number[] {
    const { position: p, bounds: b } = this.c;
    return [...this.alive]
      .filter((e) => overlaps(p.x[e], p.y[e], b.width[e], b.height[e], x, y, w, h, false))
      .sort((u, v) => u - v);
  }

  frame(): void {
    quadtreeCollisionSystem(quadtreeSyncSystem(this.world));
  }
}

function pairsOf(world: World): string[] {
  const out: string[] = [];
  forEachPair(world, (a, b) => void out.push(`${a}-${b}`), Phase.Enter | Phase.Stay);
  return out.sort();
}

/** Pairs as the world's pair entities carry them, in its own Collision. */
function pairEntitiesOf(world: World, c: QuadtreeComponents): string[] {
  const C = c.collision;
  return [...query(world, [C])]
    .filter((pe) => C.phase[pe] !== Phase.Exit)
    .map((pe) => `${C.a[pe]}-${C.b[pe]}`)
    .sort();
}

describe('two worlds, each on its own components', () => {
  it('createQuadtreeComponents gives a fresh set each call, none of them the defaults', () => {
    const [x, y] = [createQuadtreeComponents(), createQuadtreeComponents()];
    const defaults = [Position, Bounds, Collider, Collision];
    const stores = [x, y].flatMap((s) => [s.position, s.bounds, s.collider, s.collision]);
    expect(new Set([...defaults, ...stores]).size).toBe(defaults.length + stores.length);
    const arrays = stores.flatMap((s) => Object.values(s) as unknown[]);
    expect(new Set(arrays).size).toBe(arrays.length);
  });

  for (const seed of [1, 2, 3]) {
    it(`same entity ids, independent pairs and queries (seed ${seed})`, () => {
      const rng = new Rng(seed);
      const games = [new Game(new Rng(seed * 7 + 1)), new Game(new Rng(seed * 7 + 2))];
      for (let i = 0; i < 60; i++) for (const g of games) g.spawn();
      // The worlds number their entities alike: each id names an entity in both.
      expect([...games[0].alive]).toEqual([...games[1].alive]);
      for (let frame = 0; frame < 40; frame++) {
        for (const g of games) {
          for (const eid of g.alive) if (rng.chance(0.3)) g.place(eid);
          // Deaths and births: bitECS hands the dead ids to the next entities.
          for (const eid of [...g.alive]) if (rng.chance(0.05)) g.remove(eid);
          while (g.alive.size < 60) g.spawn();
          if (rng.chance(0.3)) {
            // A collider leaves an entity: its values return to the defaults in this world's store only.
            const eid = rng.pick([...g.alive]);
            removeComponent(g.world, eid, g.c.collider);
            expect([g.c.collider.layer[eid], g.c.collider.mask[eid], g.c.collider.priority[eid]]).toEqual([1, -1, 128]);
            addComponent(g.world, eid, g.c.collider);
          }
          g.frame();
        }
        for (const g of games) {
          validateTree(getQuadtree(g.world));
          const pairs = g.brutePairs().sort();
          expect(pairsOf(g.world)).toEqual(pairs);
          expect(pairEntitiesOf(g.world, g.c)).toEqual(pairs);
          const [x, y, w, h] = [rng.range(0, SIDE), rng.range(0, SIDE), rng.range(10, 150), rng.range(10, 150)];
          const out: number[] = [];
          queryRect(g.world, x - w * 0.5, y - h * 0.5, x + w * 0.5, y + h * 0.5, out);
          expect(out.sort((u, v) => u - v)).toEqual(g.bruteRect(x, y, w, h));
        }
      }
      // The default components were never written.
      expect([Position.x.length, Bounds.width.length, Collider.layer.length, Collision.a.length]).toEqual([0, 0, 0, 0]);
    });
  }
});
