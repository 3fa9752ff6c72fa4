import {
  addComponent,
  addEntity,
  createWorld,
  query,
  registerComponents,
  removeComponent,
  removeEntity,
  type World,
} from 'bitecs';
import { f64 } from 'bitecs/serialization';
import { describe, expect, it } from 'vitest';
import {
  addQuadtree,
  addTileLayer,
  Circle,
  createQuadtreeComponents,
  forEachPair,
  getQuadtree,
  getStats,
  markColliderChanged,
  onCollision,
  Phase,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeSyncSystem,
  queryRect,
  restoreQuadtree,
  saveQuadtree,
  setDispatchBudget,
  setStepBudget,
  Static,
  Swept,
  QuadtreeWorldSnapshot,
  restoreWorld,
  saveWorld,
  type TileLayer,
  type WorldSnapshot,
  validateTree,
  worldFromBytes,
  worldToBytes,
} from '../../src/index.js';
import { Rng } from './helpers.js';

// The rollback oracle of the bitECS face: a game played straight through, and again with the
// world and its collision state saved before every frame (saveWorld) and restored now and then
// to an earlier frame (restoreWorld), whose frames then run again. The game walks its queries
// in bitECS's order, as games do, and several entities die in one frame, so the ids handed out
// next depend on that order. What each frame gives (handler calls in order, forEachPair, the
// pair entities' Collision values, stats, a query) must be the same, number for number, every
// time a frame runs.

interface Config {
  seed: number;
  pairEntities: boolean;
  /** Tree budgets and dispatch budgets switched on and off by the script. */
  budgets: boolean;
  tiles: boolean;
  /** Every restore goes through bytes into a new game set up the same way, as another process would. */
  bytes?: boolean;
}

// Long runs (see `npm run fuzz`): `ORACLE_STEPS` frames per run, `ORACLE_SEED` shifts the seeds.
const FRAMES = Number(process.env.ORACLE_STEPS ?? 0) || 150;
const SEED_SHIFT = Number(process.env.ORACLE_SEED ?? 0);
const SIDE = 400;

/** One game: its world, its own components, and what its handler logged this frame. */
class Game {
  readonly world: World;
  readonly parts = createQuadtreeComponents();
  readonly velocity = { x: f64([]), y: f64([]) };
  readonly life = { frames: f64([]) };
  readonly log: number[] = [];
  readonly layer: TileLayer | null;

  constructor(readonly config: Config) {
    this.world = addQuadtree(createWorld(), {
      ...this.parts,
      width: SIDE,
      height: SIDE,
      pairEntities: config.pairEntities,
    });
    // Every component up front, in one order: a world that reads another's bytes needs the same.
    registerComponents(this.world, [this.velocity, this.life]);
    const rng = new Rng(config.seed);
    for (let i = 0; i < 120; i++) this.spawn(rng, 0);
    this.layer = config.tiles
      ? addTileLayer(this.world, {
          data: Array.from({ length: 100 }, (_, i) => (i % 7 === 0 || i > 89 ? 1 : 0)),
          width: 10,
          tileWidth: 40,
          tileHeight: 40,
        })
      : null;
    onCollision(this.world, (self, other, phase, priority) => this.log.push(self, other, phase, priority), {
      phases: Phase.Enter | Phase.Exit,
    });
    onCollision(this.world, (self, other, phase, priority) => this.log.push(-self, other, phase, priority), {
      layer: 2,
      phases: Phase.All,
      priority: 40,
    });
  }

  /** An entity with a random box, velocity and collider; some live for a while only. */
  spawn(rng: Rng, life: number): void {
    const w = this.world;
    const { position, bounds, collider } = this.parts;
    const eid = addEntity(w);
    addComponent(w, eid, position);
    addComponent(w, eid, bounds);
    addComponent(w, eid, this.velocity);
    position.x[eid] = rng.next() * SIDE;
    position.y[eid] = rng.next() * SIDE;
    const circle = rng.next() < 0.2;
    bounds.width[eid] = 2 + rng.next() * 24;
    bounds.height[eid] = circle ? bounds.width[eid] : 2 + rng.next() * 24;
    this.velocity.x[eid] = rng.next() * 8 - 4;
    this.velocity.y[eid] = rng.next() * 8 - 4;
    if (rng.next() < 0.5) {
      addComponent(w, eid, collider);
      collider.layer[eid] = 1 << rng.int(3);
      collider.mask[eid] = rng.next() < 0.7 ? -1 : 1 + rng.int(7);
      collider.priority[eid] = rng.int(256);
    }
    if (rng.next() < 0.1) addComponent(w, eid, Static);
    if (circle) addComponent(w, eid, Circle);
    if (rng.next() < 0.1) addComponent(w, eid, Swept);
    if (life > 0) {
      addComponent(w, eid, this.life);
      this.life.frames[eid] = life;
    }
  }

  /** Frame f of the script (the same whatever ran before: its random draws come from f), then its output. */
  frame(f: number): string {
    const w = this.world;
    const rng = new Rng(this.config.seed * 7919 + f);
    const { position, bounds, collider } = this.parts;
    for (const eid of query(w, [this.life])) if (--this.life.frames[eid] <= 0) removeEntity(w, eid);
    for (let k = rng.int(5); k > 0; k--) this.spawn(rng, 3 + rng.int(25));
    for (const eid of query(w, [position, this.velocity])) {
      if (rng.next() < 0.4) continue;
      position.x[eid] = wrap(position.x[eid] + this.velocity.x[eid]);
      position.y[eid] = wrap(position.y[eid] + this.velocity.y[eid]);
    }
    const movers = query(w, [position, bounds]);
    if (rng.next() < 0.2 && movers.length > 0) {
      const eid = movers[rng.int(movers.length)];
      if (this.layer === null || !this.layer.owns(eid)) {
        addComponent(w, eid, collider);
        // Every field written: bitECS's serializer saves a field never written as NaN.
        collider.layer[eid] = 1 << rng.int(3);
        collider.mask[eid] = rng.next() < 0.5 ? -1 : 1 + rng.int(7);
        collider.priority[eid] = rng.int(256);
        markColliderChanged(w, eid);
      }
    }
    if (rng.next() < 0.1 && movers.length > 0) {
      const eid = movers[rng.int(movers.length)];
      if (this.layer === null || !this.layer.owns(eid)) {
        removeComponent(w, eid, bounds); // out of the tree, its pairs end
        removeComponent(w, eid, position);
      }
    }
    if (this.config.budgets && rng.next() < 0.08) {
      setStepBudget(w, rng.next() < 0.5 ? { maxPairTests: 50 + rng.int(400) } : {});
      setDispatchBudget(w, rng.next() < 0.5 ? { maxCalls: 5 + rng.int(60), minCalls: 2 } : {});
    }
    if (this.layer !== null && rng.next() < 0.1) this.layer.setTile(rng.int(10), rng.int(10), rng.int(2));
    this.log.length = 0;
    quadtreeDispatchSystem(quadtreeCollisionSystem(quadtreeSyncSystem(w)));
    return this.output(rng);
  }

  private output(rng: Rng): string {
    const w = this.world;
    const out: (string | number)[] = ['calls', ...this.log, 'pairs'];
    forEachPair(w, (a, b, phase, priority, toi) => {
      out.push(a, b, phase, priority, toi);
    });
    const C = this.parts.collision;
    out.push('entities');
    for (const pe of sorted(query(w, [C])))
      out.push(pe, C.a[pe], C.b[pe], C.phase[pe], C.priority[pe], C.startedAt[pe], C.toi[pe]);
    const s = getStats(w);
    out.push('stats', s.frame, s.pairs, s.entered, s.exited, s.deferred, s.pairTests, s.pairEntities, s.handlersCut);
    const x = rng.next() * SIDE;
    const y = rng.next() * SIDE;
    const found: number[] = [];
    queryRect(w, x, y, x + 80, y + 80, found);
    out.push('query', ...sorted(found));
    return out.join(',');
  }
}

function sorted(ids: ArrayLike<number>): number[] {
  return Array.from(ids).sort((a, b) => a - b);
}

function wrap(v: number): number {
  return v < 0 ? v + SIDE : v >= SIDE ? v - SIDE : v;
}

/** Plays the script straight through; then with saves before every frame and restores to earlier ones. */
function compare(config: Config): { restores: number; frames: number } {
  const straight = new Game(config);
  const expected: string[] = [];
  for (let f = 0; f < FRAMES; f++) expected.push(straight.frame(f));

  let game = new Game(config);
  // A save before every frame, kept by frame; a frame run again saves into its old snapshot.
  const ring = new Map<number, WorldSnapshot>();
  const rng = new Rng(config.seed ^ 0x9e3779b9);
  let restores = 0;
  let frames = 0;
  for (let f = 0; f < FRAMES;) {
    ring.set(f, saveWorld(game.world, ring.get(f)));
    expect(game.frame(f), `frame ${f} (seed ${config.seed})`).toBe(expected[f]);
    frames++;
    f++;
    if (rng.next() < 0.1 && f > 1) {
      const back = f - 1 - rng.int(Math.min(8, f));
      const saved = ring.get(back)!;
      if (config.bytes === true) {
        const next = new Game(config);
        restoreWorld(next.world, worldFromBytes(next.world, worldToBytes(saved)));
        game = next;
      } else {
        restoreWorld(game.world, saved);
      }
      validateTree(getQuadtree(game.world));
      expect(getStats(game.world).frame).toBe(saved.frame);
      restores++;
      f = back;
    }
  }
  return { restores, frames };
}

describe('rollback of a bitECS world with its collision state', () => {
  for (const config of [
    { seed: 1, pairEntities: true, budgets: false, tiles: false },
    { seed: 2, pairEntities: false, budgets: true, tiles: false },
    { seed: 3, pairEntities: true, budgets: true, tiles: true },
    { seed: 4, pairEntities: false, budgets: false, tiles: true },
    { seed: 5, pairEntities: true, budgets: true, tiles: true, bytes: true },
    { seed: 6, pairEntities: false, budgets: true, tiles: false, bytes: true },
  ]) {
    // As long as the core's rollback runs: `npm run fuzz` plays 1,000 frames each, which take
    // half a minute, and a minute or more on a machine busy with other work.
    it(
      `replays every frame the same after restores (${JSON.stringify(config)})`,
      () => {
        const { restores, frames } = compare({ ...config, seed: config.seed + SEED_SHIFT });
        expect(restores).toBeGreaterThan(5);
        expect(frames).toBeGreaterThan(FRAMES);
      },
      60_000 + FRAMES * 200,
    );
  }

  it('refuses a world that was not rolled back, another world, handlers changed since, and bad snapshots; nothing changes', () => {
    const config = { seed: 5, pairEntities: true, budgets: false, tiles: false };
    const game = new Game(config);
    for (let f = 0; f < 5; f++) game.frame(f);
    const savedWorld = saveWorld(game.world);
    const snap = saveQuadtree(game.world);
    for (let f = 5; f < 30; f++) game.frame(f);
    const before = saveQuadtree(game.world);
    const tree = getQuadtree(game.world);
    const state = JSON.stringify([tree.current.count, tree.stepCount, getStats(game.world)]);
    // The world was not rolled back: entities of the saved frame are gone.
    expect(() => restoreQuadtree(game.world, snap)).toThrow(
      /restoreQuadtree: (pair )?entity \d+ .* at the save .* now( \(.*\))?; roll the world back/,
    );
    const other = new Game(config);
    expect(() => restoreQuadtree(other.world, snap)).toThrow(/saved from another world's quadtree/);
    expect(() => restoreQuadtree(game.world, JSON.parse('{}') as QuadtreeWorldSnapshot)).toThrow(
      /restoreQuadtree takes a snapshot made by saveQuadtree \(got an Object\)/,
    );
    expect(() => saveQuadtree(game.world, [] as unknown as QuadtreeWorldSnapshot)).toThrow(
      /saveQuadtree takes a snapshot to reuse, or nothing \(got an Array\)/,
    );
    expect(() => restoreQuadtree(game.world, new QuadtreeWorldSnapshot())).toThrow(/holds nothing yet/);
    expect(JSON.stringify([tree.current.count, tree.stepCount, getStats(game.world)])).toBe(state);
    // Rolled back, but a handler was registered since the save.
    restoreWorld(game.world, savedWorld);
    const off = onCollision(game.world, () => {});
    expect(() => restoreQuadtree(game.world, snap)).toThrow(
      /handlers were registered or removed since the save \(2 then, 3 now\)/,
    );
    off();
    // One pair entity of the save removed, then one entity's Bounds: each named.
    const pe = snap.pairEntities[0];
    removeEntity(game.world, pe);
    expect(() => restoreQuadtree(game.world, snap)).toThrow(
      new RegExp(`pair entity ${pe} \\(Collision of \\d+ and \\d+\\) was alive at the save and is not now`),
    );
    restoreWorld(game.world, savedWorld);
    const eid = snap.tracked[3];
    removeComponent(game.world, eid, game.parts.bounds);
    expect(() => restoreQuadtree(game.world, snap)).toThrow(
      `restoreQuadtree: entity ${eid} had Position and Bounds at the save and has Position without Bounds now; ` +
        'roll the world back',
    );
    restoreWorld(game.world, savedWorld);
    removeComponent(game.world, eid, game.parts.bounds);
    removeComponent(game.world, eid, game.parts.position);
    expect(() => restoreQuadtree(game.world, snap)).toThrow(
      `restoreQuadtree: entity ${eid} had Position and Bounds at the save and has neither now; roll`,
    );
    restoreWorld(game.world, savedWorld);
    removeEntity(game.world, eid);
    expect(() => restoreQuadtree(game.world, snap)).toThrow(
      `restoreQuadtree: entity ${eid} had Position and Bounds at the save and is not alive now ` +
        '(it was removed after the save); roll',
    );
    // Born after the save, with Position and Bounds: it was not in the snapshot.
    restoreWorld(game.world, savedWorld);
    const born = addEntity(game.world);
    addComponent(game.world, born, game.parts.position);
    addComponent(game.world, born, game.parts.bounds);
    expect(() => restoreQuadtree(game.world, snap)).toThrow(
      `restoreQuadtree: entity ${born} was not in the snapshot: it has Position and Bounds now and had neither ` +
        'at the save (it was added, or given them, after the save); roll',
    );
    restoreWorld(game.world, savedWorld);
    restoreQuadtree(game.world, snap);
    validateTree(tree);
    // A tile layer made after a save is gone with the restore, and says so.
    const late = addTileLayer(game.world, { data: [1, 1, 0, 1], width: 2, tileWidth: 8, tileHeight: 8 });
    const lateIds: number[] = [];
    late.visitRects((id) => lateIds.push(id));
    expect(lateIds.length).toBe(2);
    expect(lateIds.every((id) => late.owns(id))).toBe(true);
    restoreWorld(game.world, savedWorld);
    restoreQuadtree(game.world, snap);
    expect(() => late.setTile(0, 0, 0)).toThrow(
      "tile layer setTile: the world no longer holds this layer's rectangles (it was cleared, or restored to a " +
        'snapshot saved before the layer was made)',
    );
    // Its entities are gone with the restore: the game's next ones may take their ids.
    expect(late.isGone).toBe(true);
    expect([late.rectCount, late.idAt(0, 0)]).toEqual([0, -1]);
    expect(lateIds.some((id) => late.owns(id))).toBe(false);
    expect(tree.stepCount).toBe(snap.frame);
    expect(before.frame).toBe(30);
  });
});
