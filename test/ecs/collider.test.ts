import { addComponent, addEntity, createWorld, Not, query, removeComponent, removeEntity } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addQuadtree,
  Bounds,
  Collider,
  DEFAULT_COLLIDER,
  forEachPair,
  markColliderChanged,
  Phase,
  Position,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  type ColliderStore,
} from '../../src/index.js';
import { Scene } from './scene.js';

function pairKeys(world: object): string[] {
  const out: string[] = [];
  forEachPair(world, (a, b, phase) => {
    out.push(`${a}-${b}:${phase}`);
  });
  return out;
}

describe('Collider of a recycled id', () => {
  it('starts from the defaults: removeEntity gives the plugin Collider its defaults back', () => {
    const scene = new Scene();
    const a = scene.spawn(10, 10, 10, 10, { layer: 4, mask: 4, priority: 7 });
    removeEntity(scene.world, a);
    expect([Collider.layer[a], Collider.mask[a], Collider.priority[a]]).toEqual([
      DEFAULT_COLLIDER.layer,
      DEFAULT_COLLIDER.mask,
      DEFAULT_COLLIDER.priority,
    ]);
    // bitECS hands the id to the next entity at once.
    const b = addEntity(scene.world, Position, Bounds, Collider);
    expect(b).toBe(a);
    Position.x[b] = 10;
    Position.y[b] = 10;
    Bounds.width[b] = 10;
    Bounds.height[b] = 10;
    const c = scene.spawn(12, 12);
    scene.frame();
    // Layer 1, mask all, priority 128: it pairs with a default entity, at the default priority.
    const out: number[] = [];
    forEachPair(scene.world, (x, y, _phase, priority) => {
      out.push(x, y, priority);
    });
    expect(out).toEqual([b, c, 128]);
  });

  it('sees a Collider added and removed again between two frames, and resets it', () => {
    const scene = new Scene();
    const a = scene.spawn(10, 10);
    const b = scene.spawn(12, 12);
    scene.frame();
    expect(pairKeys(scene.world)).toEqual([`${a}-${b}:${Phase.Enter}`]);
    // Added and removed twice: bitECS leaves a removed entity in a query until a commit, and
    // the second removal must be seen as well as the first.
    for (let round = 0; round < 2; round++) {
      addComponent(scene.world, a, Collider);
      Collider.layer[a] = 4;
      Collider.mask[a] = 4;
      Collider.priority[a] = 7;
      removeComponent(scene.world, a, Collider);
      expect([Collider.layer[a], Collider.mask[a], Collider.priority[a]]).toEqual([
        DEFAULT_COLLIDER.layer,
        DEFAULT_COLLIDER.mask,
        DEFAULT_COLLIDER.priority,
      ]);
    }
    scene.frame();
    expect(pairKeys(scene.world)).toEqual([`${a}-${b}:${Phase.Stay}`]);
    // Added for good: its filter takes effect at the next frame.
    addComponent(scene.world, a, Collider);
    Collider.layer[a] = 4;
    Collider.mask[a] = 4;
    scene.frame();
    expect(pairKeys(scene.world)).toEqual([`${a}-${b}:${Phase.Exit}`]);
  });

  it('keeps the fields a new entity was given before its Collider was added', () => {
    const scene = new Scene();
    const a = scene.spawn(10, 10, 10, 10, { layer: 4, mask: 4 });
    scene.spawn(12, 12);
    scene.frame();
    expect(Collider.layer[a]).toBe(4);
    expect(pairKeys(scene.world)).toEqual([]);
  });

  it('tells a new entity from a Collider removed, whatever queries the game made first', () => {
    // The game's own queries of the same components, made before the plugin's: bitECS then
    // tells them of each change before the plugin's.
    const world = createWorld();
    query(world, [Position, Bounds]);
    query(world, [Position, Bounds, Not(Collider)]);
    addQuadtree(world, { width: 1024, height: 1024 });
    const spawn = (x: number, layer?: number): number => {
      const eid = addEntity(world);
      Position.x[eid] = x;
      Position.y[eid] = 10;
      Bounds.width[eid] = 10;
      Bounds.height[eid] = 10;
      // Every field written first, then the components added.
      if (layer !== undefined) {
        Collider.layer[eid] = layer;
        Collider.mask[eid] = layer;
      }
      addComponent(world, eid, Position);
      addComponent(world, eid, Bounds);
      if (layer !== undefined) addComponent(world, eid, Collider);
      return eid;
    };
    const a = spawn(10, 4);
    const b = spawn(12);
    quadtreeCollisionSystem(quadtreeSyncSystem(world));
    expect(pairKeys(world)).toEqual([]);
    removeComponent(world, a, Collider);
    expect(Collider.layer[a]).toBe(DEFAULT_COLLIDER.layer);
    quadtreeCollisionSystem(quadtreeSyncSystem(world));
    expect(pairKeys(world)).toEqual([`${a}-${b}:${Phase.Enter}`]);
  });

  it("leaves the game's own query of colliderless entities to bitECS: a loop adding Colliders over it sees every entity", () => {
    const scene = new Scene();
    const ids = [10, 30, 50, 70, 90].map((x) => scene.spawn(x, 10));
    scene.frame();
    // The same terms as the plugin's Collider watch, whose members the plugin drops at once.
    const colliderless = query(scene.world, [Position, Bounds, Not(Collider)]);
    const seen: number[] = [];
    for (const eid of colliderless) {
      seen.push(eid);
      addComponent(scene.world, eid, Collider);
    }
    expect(seen.sort((x, y) => x - y)).toEqual(ids);
  });

  it('leaves a game-supplied collider store alone', () => {
    const own: ColliderStore = { layer: [], mask: [], priority: [] };
    const scene = new Scene({ collider: own });
    const eid = addEntity(scene.world);
    own.layer[eid] = 4;
    own.mask[eid] = 4;
    own.priority[eid] = 7;
    removeEntity(scene.world, eid);
    expect([own.layer[eid], own.mask[eid], own.priority[eid]]).toEqual([4, 4, 7]);
  });

  it('keeps the old filter until markColliderChanged: a direct write fires nothing', () => {
    const scene = new Scene();
    const a = scene.spawn(10, 10, 10, 10, { layer: 1, mask: 1 });
    const b = scene.spawn(12, 12, 10, 10, { layer: 1, mask: 1 });
    scene.frame();
    expect(pairKeys(scene.world)).toEqual([`${a}-${b}:${Phase.Enter}`]);
    Collider.mask[a] = 0;
    scene.frame();
    expect(pairKeys(scene.world)).toEqual([`${a}-${b}:${Phase.Stay}`]);
    markColliderChanged(scene.world, a);
    scene.frame();
    expect(pairKeys(scene.world)).toEqual([`${a}-${b}:${Phase.Exit}`]);
  });
});
