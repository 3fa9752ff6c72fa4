import {
  addComponent,
  addEntity,
  createWorld,
  entityExists,
  hasComponent,
  query,
  removeComponent,
  removeEntity,
} from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addQuadtree,
  Bounds,
  Collider,
  Collision,
  forEachPair,
  getQuadtree,
  getStats,
  hasQuadtree,
  markColliderChanged,
  markMoved,
  Phase,
  Position,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  queryCircle,
  queryNearest,
  queryPoint,
  queryRect,
  raycast,
  raycastAll,
  removeQuadtree,
  Static,
  type RayHit,
  validateTree,
} from '../../src/index.js';
import { Scene } from './scene.js';

function pairs(scene: Scene, phases: number = Phase.All): string[] {
  const out: string[] = [];
  forEachPair(
    scene.world,
    (a, b, phase) => {
      out.push(`${a}-${b}:${phase}`);
    },
    phases,
  );
  return out;
}

function collisions(scene: Scene): string[] {
  return [...query(scene.world, [Collision])]
    .map((pe) => `${Collision.a[pe]}-${Collision.b[pe]}:${Collision.phase[pe]}@${Collision.startedAt[pe]}`)
    .sort();
}

describe('sync', () => {
  it('reads values when the system runs, not when the components are added', () => {
    const scene = new Scene();
    const eid = addEntity(scene.world);
    addComponent(scene.world, eid, Position);
    addComponent(scene.world, eid, Bounds);
    // Written after addComponent: the onAdd observer has already fired.
    Position.x[eid] = 50;
    Position.y[eid] = 60;
    Bounds.width[eid] = 10;
    Bounds.height[eid] = 20;
    expect(getStats(scene.world).queued).toBe(1);
    quadtreeSyncSystem(scene.world);
    expect(getQuadtree(scene.world).getBox(eid, { minX: 0, minY: 0, maxX: 0, maxY: 0 })).toEqual({
      minX: 45,
      minY: 50,
      maxX: 55,
      maxY: 70,
    });
    expect(getStats(scene.world)).toMatchObject({ inserted: 1, entities: 1, queued: 0 });
  });

  it('picks up entities that had Position and Bounds before the plugin was added', () => {
    const world = createWorld();
    const eid = addEntity(world);
    addComponent(world, eid, Position);
    addComponent(world, eid, Bounds);
    Position.x[eid] = Position.y[eid] = 5;
    Bounds.width[eid] = Bounds.height[eid] = 2;
    addQuadtree(world);
    quadtreeSyncSystem(world);
    const out: number[] = [];
    expect(queryPoint(world, 5, 5, out)).toBe(1);
    expect(out).toEqual([eid]);
  });

  it('scans moved entities and counts them; unchanged ones cost a comparison only', () => {
    const scene = new Scene();
    const ids = [scene.spawn(10, 10), scene.spawn(100, 100), scene.spawn(200, 200)];
    scene.frame();
    scene.move(ids[1], 300, 300);
    Bounds.width[ids[2]] = 30;
    scene.frame();
    expect(getStats(scene.world)).toMatchObject({ scanned: 3, dirty: 2, inserted: 0 });
    scene.frame();
    expect(getStats(scene.world)).toMatchObject({ scanned: 3, dirty: 0 });
    expect(getQuadtree(scene.world).stats.moved).toBe(0);
  });

  it('never scans Static entities: their moves need markMoved', () => {
    const scene = new Scene();
    const wall = scene.spawn(100, 100, 20, 20, undefined, true);
    scene.frame();
    expect(getStats(scene.world)).toMatchObject({ static: 1, scanned: 0 });
    scene.move(wall, 500, 500);
    scene.frame();
    const out: number[] = [];
    expect(queryPoint(scene.world, 100, 100, out)).toBe(1);
    markMoved(scene.world, wall);
    scene.frame();
    expect(queryPoint(scene.world, 100, 100, out)).toBe(0);
    expect(queryPoint(scene.world, 500, 500, out)).toBe(1);
  });

  it("with detect: 'mark', sees only marked entities", () => {
    const scene = new Scene({ detect: 'mark' });
    const a = scene.spawn(10, 10);
    const b = scene.spawn(200, 200);
    scene.frame();
    scene.move(a, 200, 200);
    scene.frame();
    expect(pairs(scene)).toEqual([]);
    markMoved(scene.world, a);
    markMoved(scene.world, a);
    markMoved(scene.world, 999);
    scene.frame();
    expect(pairs(scene)).toEqual([`${a}-${b}:${Phase.Enter}`]);
    expect(getStats(scene.world)).toMatchObject({ scanned: 1, dirty: 1 });
  });

  it('static pairs: walls never pair with walls, and do with movers', () => {
    const scene = new Scene();
    const w1 = scene.spawn(100, 100, 50, 50, undefined, true);
    const w2 = scene.spawn(110, 110, 50, 50, undefined, true);
    const m = scene.spawn(120, 120, 5, 5);
    scene.frame();
    expect(pairs(scene).sort()).toEqual([`${w1}-${m}:${Phase.Enter}`, `${w2}-${m}:${Phase.Enter}`].sort());
    removeComponent(scene.world, w2, Static);
    scene.frame();
    expect(pairs(scene, Phase.Enter)).toEqual([`${w1}-${w2}:${Phase.Enter}`]);
  });

  it('sees Collider writes after markColliderChanged, and Collider added or removed by itself', () => {
    const scene = new Scene();
    const a = scene.spawn(10, 10, 10, 10, { layer: 1, mask: 1 });
    const b = scene.spawn(12, 12, 10, 10, { layer: 2, mask: 2 });
    scene.frame();
    expect(pairs(scene)).toEqual([]);
    Collider.mask[a] = 3;
    Collider.mask[b] = 3;
    scene.frame();
    expect(pairs(scene)).toEqual([]);
    markColliderChanged(scene.world, a);
    markColliderChanged(scene.world, b);
    scene.frame();
    expect(pairs(scene)).toEqual([`${a}-${b}:${Phase.Enter}`]);
    removeComponent(scene.world, b, Collider);
    Collider.mask[a] = 2;
    markColliderChanged(scene.world, a);
    scene.frame();
    // b has the default layer 1 now, which a's mask 2 excludes.
    expect(pairs(scene)).toEqual([`${a}-${b}:${Phase.Exit}`]);
  });

  it('updates the priority of a lasting pair entity when a collider changes', () => {
    const scene = new Scene();
    const a = scene.spawn(10, 10, 10, 10, { priority: 200 });
    scene.spawn(12, 12, 10, 10, { priority: 250 });
    scene.frame();
    const [pe] = query(scene.world, [Collision]);
    expect(Collision.priority[pe]).toBe(200);
    Collider.priority[a] = 40;
    markColliderChanged(scene.world, a);
    scene.frame();
    expect(Collision.priority[pe]).toBe(40);
    expect(Collision.phase[pe]).toBe(Phase.Stay);
  });
});

describe('removal and recycled ids', () => {
  it('a removed entity leaves the tree at once; its pair entity shows Exit for one frame, then goes', () => {
    const scene = new Scene();
    const a = scene.spawn(10, 10);
    const b = scene.spawn(12, 12);
    scene.frame();
    expect(collisions(scene)).toEqual([`${a}-${b}:${Phase.Enter}@1`]);
    scene.frame();
    expect(collisions(scene)).toEqual([`${a}-${b}:${Phase.Stay}@1`]);
    removeEntity(scene.world, b);
    const out: number[] = [];
    expect(queryRect(scene.world, 0, 0, 50, 50, out)).toBe(1);
    scene.frame();
    expect(collisions(scene)).toEqual([`${a}-${b}:${Phase.Exit}@1`]);
    scene.frame();
    expect(collisions(scene)).toEqual([]);
    expect(getStats(scene.world).pairEntities).toBe(0);
  });

  it('an id removed and reused in the same frame is a new entity: old pairs exit, new ones enter', () => {
    const scene = new Scene();
    const a = scene.spawn(10, 10);
    const b = scene.spawn(12, 12);
    scene.frame();
    scene.frame();
    removeEntity(scene.world, b);
    const c = scene.spawn(14, 14);
    expect(c).toBe(b);
    scene.frame();
    expect(pairs(scene)).toEqual([`${a}-${b}:${Phase.Exit}`, `${a}-${c}:${Phase.Enter}`]);
    expect(collisions(scene)).toEqual([`${a}-${b}:${Phase.Enter}@3`, `${a}-${b}:${Phase.Exit}@1`]);
    validateTree(getQuadtree(scene.world));
  });

  it('stripping Position or Bounds ends the pairs; adding it back starts new ones', () => {
    const scene = new Scene({ pairEntities: false });
    const a = scene.spawn(10, 10);
    const b = scene.spawn(12, 12);
    scene.frame();
    removeComponent(scene.world, b, Bounds);
    addComponent(scene.world, b, Bounds);
    scene.frame();
    expect(pairs(scene)).toEqual([`${a}-${b}:${Phase.Exit}`, `${a}-${b}:${Phase.Enter}`]);
    removeComponent(scene.world, a, Position, Bounds);
    scene.frame();
    expect(pairs(scene)).toEqual([`${a}-${b}:${Phase.Exit}`]);
    expect(getStats(scene.world).entities).toBe(1);
  });

  it('never touches a pair entity the game removed, even once its id is reused', () => {
    const scene = new Scene();
    const a = scene.spawn(10, 10);
    scene.spawn(12, 12);
    scene.frame();
    const [pe] = query(scene.world, [Collision]);
    removeEntity(scene.world, pe);
    const mine = addEntity(scene.world);
    expect(mine).toBe(pe);
    scene.move(a, 500, 500);
    scene.frame();
    scene.frame();
    expect(entityExists(scene.world, mine)).toBe(true);
    expect(hasComponent(scene.world, mine, Collision)).toBe(false);
    expect(getStats(scene.world).pairEntities).toBe(0);
  });
});

describe('the world API', () => {
  it('answers spatial queries with entity ids into caller arrays, filtered by layer', () => {
    const scene = new Scene();
    const a = scene.spawn(100, 100, 20, 20, { layer: 1 });
    const b = scene.spawn(200, 100, 20, 20, { layer: 2 });
    const c = scene.spawn(300, 100, 20, 20, { layer: 4 });
    scene.frame();
    const ids: number[] = [7, 7, 7, 7, 7];
    const dist: number[] = [];
    expect(queryRect(scene.world, 0, 0, 250, 250, ids)).toBe(2);
    expect(ids.sort()).toEqual([a, b].sort());
    expect(queryCircle(scene.world, 300, 100, 15, ids)).toBe(1);
    expect(ids).toEqual([c]);
    expect(queryPoint(scene.world, 200, 100, ids, 1)).toBe(0);
    const hit: RayHit = { id: 0, distance: 0 };
    expect(raycast(scene.world, 0, 100, 1, 0, 1000, hit)).toBe(true);
    expect(hit).toEqual({ id: a, distance: 90 });
    expect(raycast(scene.world, 0, 100, 1, 0, 1000, hit, 6)).toBe(true);
    expect(hit.id).toBe(b);
    expect(raycastAll(scene.world, 0, 100, 1, 0, 1000, ids, dist)).toBe(3);
    expect(ids).toEqual([a, b, c]);
    expect(dist).toEqual([90, 190, 290]);
    expect(queryNearest(scene.world, 260, 100, 2, 1000, ids, dist)).toBe(2);
    expect(ids).toEqual([c, b]);
    expect(dist).toEqual([30, 50]);
  });

  it("accepts the game's own components, typed arrays included", () => {
    const Pos = { x: new Float32Array(64), y: new Float32Array(64) };
    const Size = { width: new Float32Array(64), height: new Float32Array(64) };
    const Hit = {
      a: new Uint32Array(64),
      b: new Uint32Array(64),
      priority: new Uint8Array(64),
      phase: new Uint8Array(64),
      startedAt: new Uint32Array(64),
    };
    const world = addQuadtree(createWorld(), { position: Pos, bounds: Size, collision: Hit });
    const spawn = (x: number) => {
      const eid = addEntity(world, Pos, Size);
      Pos.x[eid] = x;
      Pos.y[eid] = 0.1;
      Size.width[eid] = Size.height[eid] = 1.3;
      return eid;
    };
    const a = spawn(0.1);
    const b = spawn(1.2);
    quadtreeCollisionSystem(quadtreeSyncSystem(world));
    const [pe] = query(world, [Hit]);
    expect([Hit.a[pe], Hit.b[pe], Hit.phase[pe]]).toEqual([a, b, Phase.Enter]);
    expect(query(world, [Collision])).toHaveLength(0);
    Pos.x[b] = 5;
    quadtreeCollisionSystem(quadtreeSyncSystem(world));
    expect(Hit.phase[pe]).toBe(Phase.Exit);
  });

  it('removeQuadtree removes the pair entities and stops observing', () => {
    const scene = new Scene();
    scene.spawn(10, 10);
    scene.spawn(12, 12);
    scene.frame();
    expect(query(scene.world, [Collision])).toHaveLength(1);
    removeQuadtree(scene.world);
    expect(query(scene.world, [Collision])).toHaveLength(0);
    expect(hasQuadtree(scene.world)).toBe(false);
    scene.spawn(50, 50);
    expect(() => getQuadtree(scene.world)).toThrow(/^bitecs-quadtree: this world has no quadtree/);
    addQuadtree(scene.world);
    quadtreeSyncSystem(scene.world);
    expect(getStats(scene.world).entities).toBe(3);
  });

  it('keeps stats per frame: pairs by phase and tier, nodes, timings', () => {
    const scene = new Scene();
    scene.spawn(10, 10, 10, 10, { priority: 255 });
    scene.spawn(12, 12, 10, 10, { priority: 200 });
    scene.spawn(300, 300, 10, 10, { priority: 10 });
    scene.spawn(302, 302, 10, 10, { priority: 10 });
    scene.frame();
    const stats = getStats(scene.world);
    expect(stats).toMatchObject({ frame: 1, entities: 4, pairs: 2, entered: 2, stayed: 0, exited: 0, pairEntities: 2 });
    expect([...stats.enteredByTier]).toEqual([1, 0, 0, 1]);
    expect(stats.nodesLive).toBeGreaterThan(1);
    expect(stats.syncMs).toBeGreaterThanOrEqual(0);
    expect(stats.collisionMs).toBeGreaterThanOrEqual(0);
    expect(stats.dispatchMs).toBeGreaterThanOrEqual(0);
    scene.frame();
    expect(stats).toMatchObject({ frame: 2, entered: 0, stayed: 2 });
    expect([...stats.stayedByTier]).toEqual([1, 0, 0, 1]);
  });

  it('the fast path walks a priority window', () => {
    const scene = new Scene({ pairEntities: false });
    const p = [250, 200, 150, 100, 50];
    const ids = p.map((priority, i) => [
      scene.spawn(100 * i, 0, 10, 10, { priority }),
      scene.spawn(100 * i + 2, 0, 10, 10, { priority: 255 }),
    ]);
    scene.frame();
    const seen: number[] = [];
    const count = forEachPair(
      scene.world,
      (_a, _b, _phase, priority) => {
        seen.push(priority);
      },
      Phase.All,
      60,
      210,
    );
    expect(count).toBe(3);
    expect(seen).toEqual([200, 150, 100]);
    let first = 0;
    forEachPair(scene.world, (a) => {
      first = a;
      return false;
    });
    expect(first).toBe(ids[0][0]);
  });
});
