import {
  addComponent,
  addEntity,
  createEntityIndex,
  createWorld,
  removeComponent,
  removeEntity,
  withVersioning,
} from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addQuadtree,
  Bounds,
  type CollisionHandlerOptions,
  Circle,
  Collider,
  forEachPair,
  getCollisionHandlers,
  getQuadtree,
  getStats,
  markColliderChanged,
  onCollision,
  Phase,
  Position,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeSyncSystem,
  queryCircle,
  queryNearest,
  queryPoint,
  queryRect,
  raycast,
  raycastAll,
  sweepBox,
  contact,
  validateTree,
} from '../../src/index.js';
import { Scene } from './scene.js';

function pairs(scene: Scene): string[] {
  const out: string[] = [];
  forEachPair(scene.world, (a, b, phase) => {
    out.push(`${a}-${b}:${phase}`);
  });
  return out;
}

/** Sync that must throw the message; the tree stays valid either way. */
function syncThrows(scene: Scene, message: RegExp): void {
  expect(() => quadtreeSyncSystem(scene.world)).toThrow(message);
  validateTree(getQuadtree(scene.world));
}

describe("bad component values with invalid: 'throw' (the default)", () => {
  const cases: [string, (eid: number) => void, RegExp][] = [
    ['NaN Position.x', (e) => (Position.x[e] = NaN), /entity \d+ has a non-finite Position\.x \(got NaN\)$/],
    [
      'infinite Position.y',
      (e) => (Position.y[e] = Infinity),
      /entity \d+ has a non-finite Position\.y \(got Infinity\)$/,
    ],
    ['negative Bounds.width', (e) => (Bounds.width[e] = -3), /entity \d+ has a negative Bounds\.width \(got -3\)$/],
    [
      '-Infinity Bounds.height',
      (e) => (Bounds.height[e] = -Infinity),
      /entity \d+ has a non-finite Bounds\.height \(got -Infinity\)$/,
    ],
    [
      'a box overflowing floating point',
      (e) => {
        Position.x[e] = 1.7e308;
        Bounds.width[e] = 1e308;
      },
      /entity \d+ has a box past float32's range \(Position\.x 1\.7e\+308, .*\): boxes are stored in float32, corners within ±3\.4028234663852886e\+38$/,
    ],
    [
      'a box past float32',
      (e) => {
        Position.x[e] = 3.4e38;
        Bounds.width[e] = 1e37;
      },
      /entity \d+ has a box past float32's range \(Position\.x 3\.4e\+38, Position\.y [^,]+, Bounds\.width 1e\+37, /,
    ],
    [
      'Collider.layer 0',
      (e) => {
        Collider.layer[e] = 0;
        addComponent(getWorld(), e, Collider);
      },
      /entity \d+ has Collider\.layer 0: it would match no mask \(got 0\)$/,
    ],
    [
      'Collider.priority 300',
      (e) => {
        Collider.priority[e] = 300;
        addComponent(getWorld(), e, Collider);
      },
      /entity \d+ has a Collider\.priority outside the integers 0\.\.255 \(got 300\)$/,
    ],
    [
      'a Circle whose Bounds are not square',
      (e) => {
        addComponent(getWorld(), e, Circle);
        Bounds.height[e] = 8;
      },
      /entity \d+ is a Circle but its Bounds are not square \(Bounds\.width 10, Bounds\.height 8\): a circle is inscribed in its box, diameter Bounds\.width$/,
    ],
    [
      'Collider.mask 1.5',
      (e) => {
        Collider.mask[e] = 1.5;
        addComponent(getWorld(), e, Collider);
      },
      /entity \d+ has a Collider\.mask that is not a 32-bit integer \(got 1\.5\)$/,
    ],
  ];
  let current: Scene;
  const getWorld = () => current.world;

  for (const [name, spoil, message] of cases) {
    it(`${name}: thrown naming entity, field and value, at insert and on a later change`, () => {
      // At insert. (The default components are shared by every world: clear what earlier cases left.)
      Collider.layer.length = Collider.mask.length = Collider.priority.length = 0;
      current = new Scene();
      const good = current.spawn(10, 10);
      const bad = current.spawn(12, 12);
      spoil(bad);
      syncThrows(current, new RegExp(`^bitecs-quadtree: ${message.source.replace('\\d+', String(bad))}`));
      expect(getStats(current.world)).toMatchObject({ entities: 1, held: 1 });
      // The sync finished its work: the good entity is in, and pairs can run.
      quadtreeCollisionSystem(current.world);
      expect(pairs(current)).toEqual([]);
      // Every frame while the value stays bad.
      syncThrows(current, message);
      // Repaired: back in the tree, paired, no error.
      Position.x[bad] = 12;
      Position.y[bad] = 12;
      Bounds.width[bad] = Bounds.height[bad] = 10;
      Collider.layer[bad] = 1;
      Collider.mask[bad] = -1;
      Collider.priority[bad] = 128;
      current.frame();
      expect(pairs(current)).toEqual([`${good}-${bad}:${Phase.Enter}`]);
      // On a later change: the entity leaves the tree, its pairs end.
      spoil(bad);
      if (name.startsWith('Collider')) markColliderChanged(current.world, bad);
      syncThrows(current, message);
      quadtreeCollisionSystem(current.world);
      expect(pairs(current)).toEqual([`${good}-${bad}:${Phase.Exit}`]);
      expect(getStats(current.world)).toMatchObject({ entities: 1, held: 1 });
    });
  }

  it('a value never written is named as undefined, with a hint', () => {
    const scene = new Scene();
    const eid = addEntity(scene.world);
    (Position.x as (number | undefined)[])[eid] = undefined;
    addComponent(scene.world, eid, Position);
    addComponent(scene.world, eid, Bounds);
    Position.y[eid] = 0;
    Bounds.width[eid] = Bounds.height[eid] = 1;
    syncThrows(
      scene,
      new RegExp(
        `^bitecs-quadtree: entity ${eid} has a non-finite Position\\.x \\(got undefined\\): write Position and Bounds before the sync system runs$`,
      ),
    );
  });

  it('Bounds without Position, and Position taken away from a boxed entity', () => {
    const scene = new Scene();
    const eid = addEntity(scene.world);
    addComponent(scene.world, eid, Bounds);
    syncThrows(scene, new RegExp(`^bitecs-quadtree: entity ${eid} has Bounds but no Position`));
    syncThrows(scene, /has Bounds but no Position/);
    removeComponent(scene.world, eid, Bounds);
    quadtreeSyncSystem(scene.world);
    expect(getStats(scene.world).held).toBe(0);
    const other = scene.spawn(10, 10);
    scene.frame();
    removeComponent(scene.world, other, Position);
    syncThrows(scene, new RegExp(`^bitecs-quadtree: entity ${other} has Bounds but no Position`));
    addComponent(scene.world, other, Position);
    scene.frame();
    expect(getStats(scene.world)).toMatchObject({ entities: 1, held: 0 });
    // Position added and removed again between two syncs: bitECS does not tell of an entity
    // joining again the query of Bounds alone before it has left it.
    removeComponent(scene.world, other, Position);
    syncThrows(scene, /has Bounds but no Position/);
    addComponent(scene.world, other, Position);
    removeComponent(scene.world, other, Position);
    syncThrows(scene, new RegExp(`^bitecs-quadtree: entity ${other} has Bounds but no Position`));
    addComponent(scene.world, other, Position);
    scene.frame();
    expect(getStats(scene.world)).toMatchObject({ entities: 1, held: 0 });
  });

  it('an entity id beyond maxId', () => {
    const scene = new Scene({ maxId: 4 });
    for (let i = 1; i <= 3; i++) scene.spawn(10 * i, 0);
    scene.frame();
    const far = scene.spawn(0, 0);
    expect(far).toBe(4);
    syncThrows(scene, /^bitecs-quadtree: entity 4 is past the id limit: ids must be below 4 \(raise option maxId\)$/);
    expect(getStats(scene.world)).toMatchObject({ entities: 3, held: 1 });
    removeEntity(scene.world, far);
    scene.frame();
    expect(getStats(scene.world).held).toBe(0);
  });
});

describe("bad component values with invalid: 'skip'", () => {
  it('holds the entity out silently, counts it, and puts it back once valid', () => {
    const scene = new Scene({ invalid: 'skip', maxId: 16 });
    const a = scene.spawn(10, 10);
    const b = scene.spawn(12, 12);
    const c = scene.spawn(14, 14);
    scene.frame();
    expect(pairs(scene)).toHaveLength(3);
    Position.x[b] = NaN;
    Bounds.width[c] = -1;
    scene.frame();
    expect(pairs(scene)).toEqual([`${a}-${b}:${Phase.Exit}`, `${a}-${c}:${Phase.Exit}`, `${b}-${c}:${Phase.Exit}`]);
    expect(getStats(scene.world)).toMatchObject({ entities: 1, held: 2 });
    for (let i = 0; i < 3; i++) scene.frame();
    Position.x[b] = 12;
    scene.frame();
    expect(pairs(scene)).toEqual([`${a}-${b}:${Phase.Enter}`]);
    expect(getStats(scene.world)).toMatchObject({ entities: 2, held: 1 });
    removeEntity(scene.world, c);
    scene.frame();
    expect(getStats(scene.world)).toMatchObject({ entities: 2, held: 0 });
    validateTree(getQuadtree(scene.world));
  });

  it('counts Bounds without Position and ids beyond maxId', () => {
    const scene = new Scene({ invalid: 'skip', maxId: 3 });
    const lone = addEntity(scene.world);
    addComponent(scene.world, lone, Bounds);
    scene.spawn(0, 0);
    const far = scene.spawn(5, 5);
    expect(far).toBe(3);
    scene.frame();
    expect(getStats(scene.world)).toMatchObject({ entities: 1, held: 2 });
    Position.x[lone] = Position.y[lone] = 0;
    Bounds.width[lone] = Bounds.height[lone] = 4;
    addComponent(scene.world, lone, Position);
    scene.frame();
    expect(getStats(scene.world)).toMatchObject({ entities: 2, held: 1 });
  });
});

describe('misuse of the API', () => {
  it('refuses bad worlds and options with a clear error', () => {
    const world = createWorld();
    addQuadtree(world);
    expect(() => addQuadtree(world)).toThrow(/^bitecs-quadtree: this world already has a quadtree/);
    expect(() => addQuadtree({})).toThrow(/^bitecs-quadtree: addQuadtree expects a bitECS world/);
    expect(() => addQuadtree(createWorld(createEntityIndex(withVersioning(8))))).toThrow(
      /^bitecs-quadtree: versioned entity indexes are not supported: bitecs 0\.4\.0 reports live entities as removed/,
    );
    expect(() => addQuadtree(createWorld(), { invalid: 'ignore' as 'skip' })).toThrow(
      /option invalid must be 'throw' or 'skip' \(got "ignore"\)/,
    );
    expect(() => addQuadtree(createWorld(), { detect: 'poll' as 'scan' })).toThrow(
      /option detect must be 'scan' or 'mark' \(got "poll"\)/,
    );
    expect(() => addQuadtree(createWorld(), { pairEntities: 'no' as unknown as boolean })).toThrow(
      /option pairEntities must be true or false \(got "no"\)/,
    );
    expect(() => addQuadtree(createWorld(), { maxDepth: '6' as unknown as number })).toThrow(
      /^bitecs-quadtree: option maxDepth must be a number \(got "6"\)/,
    );
    expect(() => addQuadtree(createWorld(), { position: { x: [] } as never })).toThrow(
      /option position has no y array/,
    );
    expect(() => addQuadtree(createWorld(), { width: -5 })).toThrow(
      /^bitecs-quadtree: option width must be positive \(got -5\)/,
    );
    expect(() => addQuadtree(createWorld(), { dispatch: { maxMs: NaN } })).toThrow(
      /dispatch\.maxMs must be >= 0 \(got NaN\)/,
    );
  });

  it('systems and functions on a world without the plugin say so', () => {
    const world = createWorld();
    const message = /^bitecs-quadtree: this world has no quadtree: call addQuadtree\(world\) first$/;
    expect(() => quadtreeSyncSystem(world)).toThrow(message);
    expect(() => quadtreeCollisionSystem(world)).toThrow(message);
    expect(() => quadtreeDispatchSystem(world)).toThrow(message);
    expect(() => forEachPair(world, () => {})).toThrow(message);
  });

  it('the query wrappers refuse bad masks and inverted rectangles, and change nothing', () => {
    const scene = new Scene();
    const a = scene.spawn(10, 10);
    scene.spawn(14, 14);
    scene.frame();
    const w = scene.world;
    const out: number[] = [];
    const dist: number[] = [];
    const hit = { id: -1, distance: 0 };
    const masked: [string, (mask: number) => unknown][] = [
      ['queryRect', (m) => queryRect(w, 0, 0, 20, 20, out, m)],
      ['queryCircle', (m) => queryCircle(w, 10, 10, 5, out, m)],
      ['queryPoint', (m) => queryPoint(w, 10, 10, out, m)],
      ['raycast', (m) => raycast(w, 0, 10, 1, 0, 50, hit, m)],
      ['raycastAll', (m) => raycastAll(w, 0, 10, 1, 0, 50, out, dist, m)],
      ['queryNearest', (m) => queryNearest(w, 0, 0, 2, 100, out, dist, m)],
    ];
    for (const [name, query] of masked) {
      expect(() => query(NaN), name).toThrow(/^bitecs-quadtree: query mask must be a 32-bit integer \(got NaN\)$/);
      expect(() => query(1.5), name).toThrow(/^bitecs-quadtree: query mask must be a 32-bit integer \(got 1\.5\)$/);
      expect(query(-1), name).toBeTruthy();
    }
    expect(() => queryRect(w, 20, 0, 0, 20, out)).toThrow(/^bitecs-quadtree: query rectangle has minX 20 > maxX 0/);
    // Numbers past float32's range, where boxes are stored, are refused as the core's queries refuse them.
    const past = (what: string) => `bitecs-quadtree: ${what} 1e+300 is past float32's range (±3.4e38)`;
    expect(() => queryRect(w, 0, 0, 1e300, 20, out)).toThrow(past('query maxX'));
    expect(() => queryCircle(w, 10, 10, 1e300, out)).toThrow(past('circle radius'));
    expect(() => queryPoint(w, 1e300, 10, out)).toThrow(past('point x'));
    expect(() => raycast(w, 0, 1e300, 1, 0, 50, hit)).toThrow(past('ray origin y'));
    expect(() => raycastAll(w, 0, 10, 1, 0, 1e300, out, dist)).toThrow(past('ray maxDistance'));
    expect(() => queryNearest(w, 0, 0, 2, 1e300, out, dist)).toThrow(past('maxDistance'));
    expect(() => sweepBox(w, 0, 0, 1, 1, 1e300, 0, { id: -1, toi: 0 })).toThrow(past('sweep dx'));
    expect(queryNearest(w, 0, 0, 2, Infinity, out, dist)).toBe(2);
    validateTree(getQuadtree(w));
    expect(queryPoint(w, 8, 8, out)).toBe(1);
    expect(out).toEqual([a]);
  });

  it('the query wrappers refuse a missing output argument, naming the function, the parameter and the value', () => {
    const scene = new Scene();
    scene.spawn(10, 10);
    scene.spawn(14, 14);
    scene.frame();
    const w = scene.world;
    // Plain JavaScript may leave the output out: the casts stand for such a call.
    const none = undefined as never;
    const array = (call: string, param: string, got: string, kind = 'an array') =>
      `bitecs-quadtree: ${call} writes its answer into ${param}, which must be ${kind} the caller owns (got ${got})`;
    expect(() => queryRect(w, 0, 0, 20, 20, none)).toThrow(array('queryRect', 'out', 'undefined'));
    // No hits: the core would have failed on setting the length instead.
    expect(() => queryRect(w, 500, 500, 520, 520, none)).toThrow(array('queryRect', 'out', 'undefined'));
    expect(() => queryCircle(w, 10, 10, 5, none)).toThrow(array('queryCircle', 'out', 'undefined'));
    expect(() => queryPoint(w, 10, 10, null as never)).toThrow(array('queryPoint', 'out', 'null'));
    expect(() => queryPoint(w, 10, 10, new Int32Array(4) as never)).toThrow(
      array('queryPoint', 'out', 'an Int32Array'),
    );
    expect(() => raycast(w, 0, 10, 1, 0, 50, none)).toThrow(array('raycast', 'hit', 'undefined', 'an object'));
    expect(() => raycastAll(w, 0, 10, 1, 0, 50, none, none)).toThrow(array('raycastAll', 'outIds', 'undefined'));
    expect(() => raycastAll(w, 0, 10, 1, 0, 50, [], none)).toThrow(array('raycastAll', 'outDistances', 'undefined'));
    expect(() => queryNearest(w, 0, 0, 2, 100, none)).toThrow(array('queryNearest', 'outIds', 'undefined'));
    expect(() => queryNearest(w, 0, 0, 2, 100, [], 7 as never)).toThrow(
      array('queryNearest', 'outDistances', '7', 'an array or null'),
    );
    expect(() => sweepBox(w, 0, 0, 1, 1, 10, 10, none)).toThrow(array('sweepBox', 'hit', 'undefined', 'an object'));
    expect(() => contact(w, 1, 2, none)).toThrow(array('contact', 'out', 'undefined', 'an object'));
    expect(() => forEachPair(w, none)).toThrow(
      'bitecs-quadtree: forEachPair calls visit for each pair, which must be a function (got undefined)',
    );
    // The outputs that may be left out still may.
    expect(queryNearest(w, 0, 0, 2, 100, [])).toBe(2);
    validateTree(getQuadtree(w));
  });

  it('refuses bad handler options', () => {
    const scene = new Scene();
    const fn = () => {};
    expect(() => onCollision(scene.world, fn, { priority: 256 })).toThrow(
      /handler priority must be an integer 0\.\.255 \(got 256\)/,
    );
    expect(() => onCollision(scene.world, fn, { layer: 0 })).toThrow(/handler layer is 0: it would match no entity/);
    expect(() => onCollision(scene.world, fn, { other: 2 ** 33 })).toThrow(/handler other must be a 32-bit integer/);
    expect(() => onCollision(scene.world, fn, { phases: 8 })).toThrow(/handler phases must be bits of Phase/);
    expect(() => onCollision(scene.world, 5 as never)).toThrow(/onCollision expects a function \(got 5\)/);
  });

  it('refuses unknown handler option keys, naming the closest valid one', () => {
    const scene = new Scene();
    const fn = () => {};
    const loose = (o: object) => o as CollisionHandlerOptions;
    expect(() => onCollision(scene.world, fn, loose({ phaze: Phase.Enter }))).toThrow(
      'bitecs-quadtree: unknown handler option "phaze" (did you mean "phases"?)',
    );
    expect(() => onCollision(scene.world, fn, loose({ layer: 1, priorty: 200 }))).toThrow(
      'bitecs-quadtree: unknown handler option "priorty" (did you mean "priority"?)',
    );
    expect(() => onCollision(scene.world, fn, loose({ team: 2 }))).toThrow(
      'bitecs-quadtree: unknown handler option "team" (valid: layer, other, priority, phases)',
    );
    expect(() => onCollision(scene.world, fn, null as never)).toThrow(
      'bitecs-quadtree: handler options must be an object (got null)',
    );
    expect(getCollisionHandlers(scene.world)).toEqual([]);
  });
});
