import {
  $internal,
  addComponent,
  addEntity,
  addPrefab,
  asBuffer,
  createEntityIndex,
  createRelation,
  createWorld,
  entityExists,
  getEntityComponents,
  Not,
  noCommit,
  Or,
  query,
  registerComponents,
  removeComponent,
  removeEntity,
  withVersioning,
  type InternalWorld,
  type World,
} from 'bitecs';
import { f64 } from 'bitecs/serialization';
import { describe, expect, it } from 'vitest';
import {
  addQuadtree,
  Bounds,
  onCollision,
  Position,
  quadtreeFromBytes,
  quadtreeToBytes,
  restoreWorld,
  saveQuadtree,
  saveWorld,
  worldFromBytes,
  worldToBytes,
  WorldSnapshot,
} from '../../src/index.js';
import { Rng } from './helpers.js';

// saveWorld and restoreWorld against bitECS itself: two copies of a plain bitECS world run the
// same script; one of them now and then saves, runs other frames (other births, deaths,
// component changes, a query registered meanwhile) and restores. Then both run on, and every
// query's order, the ids handed out, the entities' components and every field must match.

/** A world of the script: typed, plain and whole-array components, tags, and queries of every kind. */
class Script {
  readonly world: World = createWorld();
  readonly a = { x: new Float32Array(4096), y: [] as number[] };
  readonly b = { hp: new Int32Array(4096) };
  readonly tag = {};
  readonly list: number[] = []; // a component that is itself the array
  /** Tagged as numbers, so saved by the typed copy: NaN, infinities and never-written ids (holes) must stay apart. */
  readonly c = { v: f64([]) };
  readonly prefab: number;

  constructor() {
    // Every component up front, in one order: a world that reads another's bytes needs the same.
    registerComponents(this.world, [this.a, this.b, this.tag, this.list, this.c]);
    this.prefab = addPrefab(this.world);
    addComponent(this.world, this.prefab, this.a);
    this.queries(); // registered before any save
  }

  /** The queries the script reads, plain and buffered, with Not and Or terms. */
  queries(): ArrayLike<number>[] {
    const w = this.world;
    return [
      query(w, [this.a]),
      query(w, [this.a, this.b]),
      query(w, [this.b, Not(this.tag)]),
      query(w, [Or(this.tag, this.list)]),
      query(w, [this.a, this.b], asBuffer),
    ];
  }

  /** One frame of random changes, drawn from `rng`; removals happen inside query loops, as games do. */
  frame(rng: Rng): void {
    const w = this.world;
    for (let k = rng.int(6); k > 0; k--) {
      const eid = addEntity(w);
      addComponent(w, eid, this.a);
      this.a.x[eid] = rng.next();
      this.a.y[eid] = rng.next();
      if (rng.next() < 0.6) {
        addComponent(w, eid, this.b);
        this.b.hp[eid] = rng.int(100);
      }
      if (rng.next() < 0.3) addComponent(w, eid, this.tag);
      if (rng.next() < 0.2) {
        addComponent(w, eid, this.list);
        this.list[eid] = rng.int(9);
      }
      if (rng.next() < 0.5) {
        addComponent(w, eid, this.c);
        const r = rng.next();
        this.c.v[eid] = r < 0.1 ? NaN : r < 0.15 ? Infinity : r < 0.2 ? -Infinity : r;
      }
    }
    for (const eid of query(w, [this.a])) {
      const r = rng.next();
      if (r < 0.08) removeEntity(w, eid);
      else if (r < 0.12) removeComponent(w, eid, this.b);
      else if (r < 0.16) addComponent(w, eid, this.tag);
      else this.a.x[eid] += 1;
    }
    // Removals left uncommitted at the frame's end: a nested query commits nothing.
    for (const eid of query(w, [this.b], noCommit)) if (rng.next() < 0.05) removeEntity(w, eid);
  }

  /** Everything a game can see: query orders, components, fields, and the ids handed out next (then undone). */
  view(): string {
    const w = this.world;
    const out: unknown[] = this.queries().map((q) => Array.from(q));
    const alive = Array.from(query(w, [this.a], noCommit));
    out.push(
      alive.map((eid) => [eid, getEntityComponents(w, eid).length, this.a.x[eid], this.a.y[eid], this.b.hp[eid]]),
    );
    out.push(alive.map((eid) => this.list[eid] ?? -1));
    // JSON would write NaN, infinities and holes alike.
    out.push(alive.map((eid) => `${eid in this.c.v}:${this.c.v[eid]}`));
    out.push([1, 2, 3, 4].map((eid) => entityExists(w, eid)));
    return JSON.stringify(out);
  }
}

describe('saveWorld and restoreWorld', () => {
  for (const [seed, viaBytes] of [
    [1, false],
    [2, false],
    [3, false],
    [4, true],
    [5, true],
  ] as const) {
    it(`bring a bitECS world back so that it runs on as if nothing had happened (seed ${seed}${viaBytes ? ', through bytes into a new world' : ''})`, () => {
      const straight = new Script();
      let rolled = new Script();
      const snap = new WorldSnapshot();
      // Each restore's bytes are written over the last's.
      let written: Uint8Array | undefined;
      let restores = 0;
      for (let f = 0; f < 200; f++) {
        if (f % 10 === 3) {
          saveWorld(rolled.world, snap);
          const detour = new Rng(seed * 1000 + f);
          for (let g = 0; g < 1 + detour.int(8); g++) rolled.frame(detour);
          if (f === 53) query(rolled.world, [rolled.a, Not(rolled.list)]); // registered after the save (a prefab would match)
          if (viaBytes) {
            // As another process would: a new world set up the same way takes the bytes.
            const next = new Script();
            written = worldToBytes(snap, written);
            expect(Buffer.compare(written, worldToBytes(snap)), `frame ${f}: bytes written over older ones`).toBe(0);
            restoreWorld(next.world, worldFromBytes(next.world, written));
            rolled = next;
          } else {
            restoreWorld(rolled.world, snap);
          }
          restores++;
        }
        const rng = new Rng(seed * 7 + f);
        straight.frame(rng);
        rolled.frame(new Rng(seed * 7 + f));
        expect(rolled.view(), `frame ${f}`).toBe(straight.view());
        // The next ids are the same: added and removed again on both.
        const ids = [straight, rolled].map((s) => {
          const e = [addEntity(s.world), addEntity(s.world)];
          for (const eid of e.slice().reverse()) removeEntity(s.world, eid);
          return e.join();
        });
        expect(ids[1], `frame ${f}`).toBe(ids[0]);
      }
      expect(restores).toBe(20);
      // A query registered after a save lists the restored entities that match it.
      const late = Array.from(query(rolled.world, [rolled.a, Not(rolled.list)])).sort((x, y) => x - y);
      const expected = Array.from(query(straight.world, [straight.a, Not(straight.list)])).sort((x, y) => x - y);
      expect(late).toEqual(expected);
    });
  }

  it('restores the collision state with the world, and refuses bad calls before changing anything', () => {
    const world = addQuadtree(createWorld(), { width: 100, height: 100 });
    for (let i = 0; i < 5; i++) {
      const eid = addEntity(world);
      addComponent(world, eid, Position);
      addComponent(world, eid, Bounds);
      Position.x[eid] = Position.y[eid] = 10 + i * 5;
      Bounds.width[eid] = Bounds.height[eid] = 8;
    }
    const snap = saveWorld(world);
    expect(snap.frame).toBe(0);
    expect(snap.entities).toBe(5);
    expect(snap.byteLength).toBeGreaterThan(0);
    removeEntity(world, 3);
    restoreWorld(world, snap);
    expect(entityExists(world, 3)).toBe(true);
    expect(Position.x[3]).toBe(20);

    expect(() => saveWorld({})).toThrow('saveWorld takes a bitECS world (got an Object)');
    expect(() => saveWorld(world, [] as unknown as WorldSnapshot)).toThrow(
      'saveWorld takes a snapshot to reuse, or nothing (got an Array)',
    );
    expect(() => restoreWorld(world, JSON.parse('{}') as WorldSnapshot)).toThrow(
      'restoreWorld takes a snapshot made by saveWorld (got an Object)',
    );
    expect(() => restoreWorld(world, new WorldSnapshot())).toThrow('holds nothing yet: pass it to saveWorld first');
    expect(() => restoreWorld(createWorld(), snap)).toThrow('restoreWorld of a snapshot saved from another world');
    const versioned = createWorld(createEntityIndex(withVersioning(8)));
    expect(() => saveWorld(versioned)).toThrow('saveWorld of a world made with withVersioning');
    const bare = createWorld();
    const bareSnap = saveWorld(bare);
    expect(bareSnap.frame).toBe(-1);
    addQuadtree(bare, { width: 10, height: 10 });
    expect(() => restoreWorld(bare, bareSnap)).toThrow('saved before the world had a quadtree');
    const related = createWorld();
    const ChildOf = createRelation();
    const parent = addEntity(related);
    addComponent(related, addEntity(related), ChildOf(parent));
    expect(() => saveWorld(related)).toThrow(/saveWorld: entity \d has a relation, and relations are not saved/);
    const unrelated = createWorld();
    const before = saveWorld(unrelated);
    addComponent(unrelated, addEntity(unrelated), ChildOf(addEntity(unrelated)));
    expect(() => restoreWorld(unrelated, before)).toThrow(/restoreWorld: entity \d has a relation/);

    // A refused restore leaves the world as it was.
    const eid = addEntity(world);
    const off = onCollision(world, () => {});
    expect(() => restoreWorld(world, snap)).toThrow(
      'restoreWorld: handlers were registered or removed since the save (0 then, 1 now)',
    );
    expect(entityExists(world, eid)).toBe(true);
    off();
    restoreWorld(world, snap);
    expect(entityExists(world, eid)).toBe(false);
    // As many handlers as at the save but other functions, as a hot reload registers them anew: said so.
    const first = onCollision(world, () => {});
    const withOne = saveWorld(world);
    first();
    const again = onCollision(world, () => {});
    expect(() => restoreWorld(world, withOne)).toThrow(
      'restoreWorld: the handlers are other functions than at the save (1, registered anew, as after a hot reload?)',
    );
    again();
  });
});

describe('a world snapshot as bytes: what reading it refuses', () => {
  it('refuses other components, bytes of another kind, a missing quadtree and values bytes cannot hold, registering nothing', () => {
    const saving = new Script();
    for (let f = 0; f < 5; f++) saving.frame(new Rng(f));
    const bytes = worldToBytes(saveWorld(saving.world));
    // Read into a world set up the same way, it restores.
    const same = new Script();
    restoreWorld(same.world, worldFromBytes(same.world, bytes));
    expect(same.view()).toBe(saving.view());

    const other = createWorld();
    registerComponents(other, [{ x: [] as number[] }]);
    expect(() => worldFromBytes(other, bytes)).toThrow(
      "bitecs-quadtree: worldFromBytes: component 1 of the saving world has fields x, y, this world's has fields x: " +
        'register the same components in the same order first (bitECS registerComponents)',
    );
    expect(() => worldFromBytes(createWorld(), bytes)).toThrow(
      "worldFromBytes: component 1 of the saving world has fields x, y, this world's is not registered",
    );
    expect(() => worldFromBytes({}, bytes)).toThrow('worldFromBytes takes a bitECS world (got an Object)');
    expect(() => worldFromBytes(same.world, new Uint8Array(40))).toThrow(
      'worldFromBytes: these 40 bytes are not a snapshot written as bytes by this library',
    );
    const tree = addQuadtree(createWorld(), { width: 64, height: 64 });
    const treeBytes = quadtreeToBytes(saveQuadtree(tree));
    expect(() => worldFromBytes(same.world, treeBytes)).toThrow(
      "worldFromBytes: these bytes hold a snapshot of a world's quadtree, not of a bitECS world",
    );
    expect(() => quadtreeFromBytes(tree, bytes)).toThrow(
      "quadtreeFromBytes: these bytes hold a snapshot of a bitECS world, not of a world's quadtree",
    );
    // A world with a quadtree, read into one without.
    const withTree = addQuadtree(createWorld(), { width: 64, height: 64 });
    const bare = createWorld();
    // The same components, registered in the same order, but no plugin.
    registerComponents(bare, [...(withTree as InternalWorld)[$internal].componentMap.keys()]);
    expect(() => worldFromBytes(bare, worldToBytes(saveWorld(withTree)))).toThrow(
      'worldFromBytes: the saving world had a quadtree and this one has none: add it first',
    );
    // Refused for its collision state (a handler more here): no query of the saving world is registered.
    const playing = addQuadtree(createWorld(), { width: 64, height: 64 });
    query(playing, [Position]);
    const fewerHandlers = worldToBytes(saveWorld(playing));
    const reading = addQuadtree(createWorld(), { width: 64, height: 64 });
    onCollision(reading, () => {});
    const queriesBefore = (reading as InternalWorld)[$internal].queries.size;
    expect(() => worldFromBytes(reading, fewerHandlers)).toThrow(
      'worldFromBytes: the snapshot was saved with other collision handlers (0 then, 1 here): register the same ' +
        'handlers and make the same tile layers on this world first',
    );
    expect((reading as InternalWorld)[$internal].queries.size).toBe(queriesBefore);
    expect(() => worldToBytes(new WorldSnapshot())).toThrow(
      'worldToBytes takes a snapshot saved by saveWorld (got a WorldSnapshot)',
    );
    expect(() => worldToBytes(saveWorld(reading), 'bytes' as unknown as Uint8Array)).toThrow(
      'worldToBytes takes bytes to write over, a Uint8Array, or nothing (got "bytes")',
    );
    const holder = createWorld();
    const named = { name: [] as unknown[] };
    addComponent(holder, addEntity(holder), named);
    named.name[1] = { first: 'Ada' };
    expect(() => worldToBytes(saveWorld(holder))).toThrow(
      'worldToBytes: component field name holds an Object; bytes hold numbers, strings, booleans, null and undefined',
    );
  });
});
