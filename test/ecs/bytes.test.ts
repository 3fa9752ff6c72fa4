import { addComponent, addEntity, createWorld, removeEntity, type World } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addQuadtree,
  createQuadtreeComponents,
  forEachPair,
  getStats,
  onCollision,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeFromBytes,
  quadtreeSyncSystem,
  quadtreeToBytes,
  QuadtreeWorldSnapshot,
  restoreQuadtree,
  saveQuadtree,
  setStepBudget,
  validateTree,
  getQuadtree,
  type QuadtreeComponents,
} from '../../src/index.js';

/**
 * A world's collision state as bytes, read into another world whose entities are the same but
 * whose collision state is not: the second game ran its frames under a tight step budget, so
 * its pairs lag behind. After reading the first game's bytes, the two must give the same pairs,
 * events and stats frame after frame; without the bytes they differ.
 */
const WORLD = 512;

interface Game {
  world: World;
  c: QuadtreeComponents;
  live: number[];
  events: string[];
}

/** A game in its own world, with components of its own (two worlds in one process share none). */
function game(extraHandler = false, pairEntities = false): Game {
  const c = createQuadtreeComponents();
  const world = addQuadtree(createWorld(), { ...c, width: WORLD, height: WORLD, pairEntities });
  const events: string[] = [];
  onCollision(world, (self, other, phase) => {
    events.push(`${phase}:${self}:${other}`);
  });
  if (extraHandler) onCollision(world, () => {});
  return { world, c, live: [], events };
}

/** A deterministic random number per frame and draw, independent of collisions. */
function rand(f: number, k: number): number {
  let x = Math.imul(f * 7919 + k * 104729 + 1, 0x9e3779b1) >>> 0;
  x = Math.imul(x ^ (x >>> 15), 0x85ebca6b) >>> 0;
  return ((x ^ (x >>> 13)) >>> 0) / 2 ** 32;
}

/** Frame f: a few entities removed and born (recycled ids), every entity moved, then the systems. Returns its output. */
function frame(g: Game, f: number): string {
  const { world, live } = g;
  const { position, bounds } = g.c;
  for (let k = 0; k < 3 && live.length > 20; k++) {
    const at = Math.floor(rand(f, k) * live.length);
    removeEntity(world, live[at]);
    live.splice(at, 1);
  }
  for (let k = 0; k < (f < 5 ? 40 : 3); k++) {
    const eid = addEntity(world);
    addComponent(world, eid, position);
    addComponent(world, eid, bounds);
    position.x[eid] = 20 + rand(f, 10 + k) * (WORLD - 40);
    position.y[eid] = 20 + rand(f, 50 + k) * (WORLD - 40);
    bounds.width[eid] = bounds.height[eid] = 8 + rand(f, 90 + k) * 24;
    live.push(eid);
  }
  for (const eid of live) {
    position.x[eid] += Math.sin(eid * 1.3 + f * 0.2) * 3;
    position.y[eid] += Math.cos(eid * 0.7 + f * 0.3) * 3;
  }
  g.events.length = 0;
  quadtreeDispatchSystem(quadtreeCollisionSystem(quadtreeSyncSystem(world)));
  const pairs: string[] = [];
  forEachPair(world, (a, b) => {
    pairs.push(`${a}:${b}`);
  });
  const s = getStats(world);
  return `${pairs.join(',')}|${g.events.join(',')}|${s.pairs}/${s.deferred}`;
}

describe('a world collision state as bytes', () => {
  it('takes a game with the same entities to the saved collision state; the frames after match', () => {
    const a = game();
    const b = game();
    setStepBudget(b.world, { maxPairTests: 30, minChecksPerTier: 2 });
    let differed = 0;
    for (let f = 0; f < 40; f++) if (frame(a, f) !== frame(b, f)) differed++;
    // The budget left the second game's collision state behind: a test that can fail.
    expect(differed).toBeGreaterThan(10);
    const bytes = quadtreeToBytes(saveQuadtree(a.world));
    const over = quadtreeToBytes(saveQuadtree(a.world), new Uint8Array(bytes.length + 8).fill(7));
    expect(Buffer.compare(over, bytes)).toBe(0);
    const snap = quadtreeFromBytes(b.world, over);
    expect(snap).toBeInstanceOf(QuadtreeWorldSnapshot);
    restoreQuadtree(b.world, snap);
    validateTree(getQuadtree(b.world));
    for (let f = 40; f < 80; f++) expect(frame(b, f), `frame ${f}`).toBe(frame(a, f));
  });

  it('refuses other options, other handlers, a world not rolled back, and what is not a snapshot', () => {
    const a = game();
    for (let f = 0; f < 10; f++) frame(a, f);
    const bytes = quadtreeToBytes(saveQuadtree(a.world));
    const withHandler = game(true);
    for (let f = 0; f < 10; f++) frame(withHandler, f);
    expect(() => quadtreeFromBytes(withHandler.world, bytes)).toThrow(
      'bitecs-quadtree: quadtreeFromBytes: the snapshot was saved with other collision handlers (1 then, 2 here): ' +
        'register the same handlers and make the same tile layers on this world first',
    );
    const withPairEntities = game(false, true);
    expect(() => quadtreeFromBytes(withPairEntities.world, bytes)).toThrow(
      'bitecs-quadtree: quadtreeFromBytes: the snapshot was saved with option pairEntities false, this one has true: ' +
        'make it with the same options',
    );
    // Read, but the world's entities are not those of the save: the restore says so, and nothing changes.
    const empty = game();
    const snap = quadtreeFromBytes(empty.world, bytes);
    expect(() => restoreQuadtree(empty.world, snap)).toThrow(/restoreQuadtree: entity \d+ had Position and Bounds/);
    expect(getStats(empty.world).pairs).toBe(0);
    expect(() => quadtreeToBytes(new QuadtreeWorldSnapshot())).toThrow(
      'bitecs-quadtree: quadtreeToBytes takes a snapshot saved by saveQuadtree (got a QuadtreeWorldSnapshot)',
    );
    expect(() => quadtreeToBytes(saveQuadtree(empty.world), new Float32Array(8) as unknown as Uint8Array)).toThrow(
      'bitecs-quadtree: quadtreeToBytes takes bytes to write over, a Uint8Array, or nothing (got a Float32Array)',
    );
    expect(() => quadtreeFromBytes(empty.world, new Uint8Array(64))).toThrow(
      'bitecs-quadtree: quadtreeFromBytes: these 64 bytes are not a snapshot written as bytes by this library',
    );
    expect(() => quadtreeFromBytes(createWorld(), bytes)).toThrow(/has no quadtree|addQuadtree/);
  });
});
