import { removeEntity } from 'bitecs';
import { describe, expect, it, vi } from 'vitest';
import {
  clearCollisionHandlers,
  getCollisionHandlers,
  getStats,
  onCollision,
  Phase,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeSyncSystem,
  setDispatchBudget,
} from '../../src/index.js';
import { UNDISPATCHED_STEPS } from '../../src/ecs/collision.js';
import { Rng } from './helpers.js';
import { Scene } from './scene.js';

const BULLET = 2;
const ENEMY = 4;
const WALL = 8;

interface Call {
  frame: number;
  self: number;
  other: number;
  phase: number;
  priority: number;
}

/** Registers a handler that records its calls, tagged with the scene's frame counter. */
function recorder(scene: Scene, clock: { frame: number }, options: Parameters<typeof onCollision>[2]): Call[] {
  const calls: Call[] = [];
  onCollision(
    scene.world,
    (self, other, phase, priority) => {
      calls.push({ frame: clock.frame, self, other, phase, priority });
    },
    options,
  );
  return calls;
}

describe('handler order and matching', () => {
  it('calls handlers highest priority first, ties in registration order', () => {
    const scene = new Scene({ pairEntities: false });
    scene.spawn(10, 10);
    scene.spawn(12, 12);
    const order: string[] = [];
    const add = (name: string, priority: number) =>
      onCollision(
        scene.world,
        () => {
          order.push(name);
        },
        { priority, phases: Phase.Enter },
      );
    add('low', 10);
    add('top-first', 200);
    add('top-second', 200);
    add('mid', 128);
    add('max', 255);
    scene.frame();
    expect(order).toEqual(['max', 'top-first', 'top-second', 'mid', 'low']);
  });

  it("matches layer pairs and hands (self, other) in the handler's order", () => {
    const scene = new Scene({ pairEntities: false });
    const clock = { frame: 0 };
    // The enemy has the lower id, the bullet the higher: the handler still gets (bullet, enemy).
    const enemy = scene.spawn(100, 100, 20, 20, { layer: ENEMY });
    const bullet = scene.spawn(105, 100, 4, 4, { layer: BULLET, priority: 250 });
    const bullet2 = scene.spawn(106, 100, 4, 4, { layer: BULLET, priority: 250 });
    const hits = recorder(scene, clock, { layer: BULLET, other: ENEMY });
    const any = recorder(scene, clock, {});
    const walls = recorder(scene, clock, { layer: WALL });
    scene.frame();
    expect(hits.map((c) => [c.self, c.other])).toEqual([
      [bullet, enemy],
      [bullet2, enemy],
    ]);
    // A pair's priority is the lower of its two colliders'.
    expect(hits.every((c) => c.priority === 128)).toBe(true);
    expect(any.map((c) => [c.self, c.other]).sort()).toEqual(
      [
        [enemy, bullet],
        [enemy, bullet2],
        [bullet, bullet2],
      ].sort(),
    );
    expect(walls).toHaveLength(0);
  });

  it('with layer === other, calls the handler once per pair with the lower id as self, in every phase', () => {
    const scene = new Scene({ pairEntities: false });
    const clock = { frame: 0 };
    // Ids made so that the higher id of each pair is the bullet, the enemy or either.
    const enemy = scene.spawn(100, 100, 20, 20, { layer: ENEMY });
    const b1 = scene.spawn(104, 100, 4, 4, { layer: BULLET });
    const b2 = scene.spawn(106, 100, 4, 4, { layer: BULLET });
    const enemy2 = scene.spawn(98, 100, 16, 16, { layer: ENEMY });
    const same = recorder(scene, clock, { layer: BULLET | ENEMY, other: BULLET | ENEMY });
    const bullets = recorder(scene, clock, { layer: BULLET, other: BULLET });
    for (clock.frame = 1; clock.frame <= 3; clock.frame++) {
      if (clock.frame === 3) for (const eid of [enemy, b1, b2, enemy2]) scene.move(eid, 500 + eid * 100, 500);
      scene.frame();
    }
    const pairs = [
      [enemy, b1],
      [enemy, b2],
      [enemy, enemy2],
      [b1, b2],
      [b1, enemy2],
      [b2, enemy2],
    ];
    for (const phase of [Phase.Enter, Phase.Stay, Phase.Exit]) {
      const got = same.filter((c) => c.phase === phase).map((c) => [c.self, c.other]);
      expect(got.sort(), `phase ${phase}`).toEqual(pairs.sort());
      expect(bullets.filter((c) => c.phase === phase).map((c) => [c.self, c.other])).toEqual([[b1, b2]]);
    }
  });

  it('delivers only the phases asked for', () => {
    const scene = new Scene({ pairEntities: false });
    const clock = { frame: 0 };
    const a = scene.spawn(10, 10);
    scene.spawn(12, 12);
    const enters = recorder(scene, clock, { phases: Phase.Enter });
    const stays = recorder(scene, clock, { phases: Phase.Stay });
    const exits = recorder(scene, clock, { phases: Phase.Exit });
    const edges = recorder(scene, clock, { phases: Phase.Enter | Phase.Exit });
    for (clock.frame = 1; clock.frame <= 4; clock.frame++) {
      if (clock.frame === 4) scene.move(a, 500, 500);
      scene.frame();
    }
    expect(enters.map((c) => [c.frame, c.phase])).toEqual([[1, Phase.Enter]]);
    expect(stays.map((c) => [c.frame, c.phase])).toEqual([
      [2, Phase.Stay],
      [3, Phase.Stay],
    ]);
    expect(exits.map((c) => [c.frame, c.phase])).toEqual([[4, Phase.Exit]]);
    expect(edges.map((c) => c.phase)).toEqual([Phase.Enter, Phase.Exit]);
  });

  it('stops calling a handler once unregistered', () => {
    const scene = new Scene({ pairEntities: false });
    scene.spawn(10, 10);
    scene.spawn(12, 12);
    let calls = 0;
    const stop = onCollision(scene.world, () => {
      calls++;
    });
    scene.frame();
    stop();
    stop();
    scene.frame();
    expect(calls).toBe(1);
  });

  it('lists the handlers in call order, and clears them all at once (as a hot reload does)', () => {
    const scene = new Scene({ pairEntities: false, dispatch: { maxCalls: 0, minCalls: 1 } });
    scene.spawn(10, 10);
    scene.spawn(12, 12);
    scene.spawn(14, 14);
    const calls: string[] = [];
    const low = (): void => {
      calls.push('low');
    };
    const high = (): void => {
      calls.push('high');
    };
    const offLow = onCollision(scene.world, low, { priority: 10, phases: Phase.Enter });
    onCollision(scene.world, high, { priority: 200, phases: Phase.Enter });
    expect(getCollisionHandlers(scene.world)).toEqual([high, low]);
    scene.frame();
    // Three pairs: the low handler made one call, two wait in its backlog.
    expect(calls).toEqual(['high', 'high', 'high', 'low']);
    expect(getStats(scene.world).handlerDeferred).toBe(2);
    // Registered again by a reloaded module that did not unregister: both run, twice over.
    onCollision(scene.world, low, { priority: 10, phases: Phase.Enter });
    expect(getCollisionHandlers(scene.world)).toHaveLength(3);
    expect(clearCollisionHandlers(scene.world)).toBe(3);
    expect(getCollisionHandlers(scene.world)).toEqual([]);
    calls.length = 0;
    scene.frame();
    expect(calls).toEqual([]);
    expect(getStats(scene.world).handlerDeferred).toBe(0);
    // An unsubscribe of a cleared handler does nothing, and new handlers work as before.
    offLow();
    const offAgain = onCollision(scene.world, high, { priority: 200, phases: Phase.Stay });
    expect(getCollisionHandlers(scene.world)).toEqual([high]);
    scene.frame();
    expect(calls).toEqual(['high', 'high', 'high']);
    offAgain();
    expect(getCollisionHandlers(scene.world)).toEqual([]);
    expect(clearCollisionHandlers(scene.world)).toBe(0);
  });

  it('serves each collision step once', () => {
    const scene = new Scene({ pairEntities: false });
    scene.spawn(10, 10);
    scene.spawn(12, 12);
    let calls = 0;
    onCollision(scene.world, () => {
      calls++;
    });
    quadtreeDispatchSystem(scene.world);
    expect(calls).toBe(0);
    scene.frame();
    quadtreeDispatchSystem(scene.world);
    expect(calls).toBe(1);
    expect(getStats(scene.world).handlerCalls).toBe(0);
  });

  it('a handler registered while pairs exist gets their stays and exits', () => {
    const scene = new Scene({ pairEntities: false });
    const clock = { frame: 0 };
    const a = scene.spawn(10, 10);
    scene.spawn(12, 12);
    scene.frame();
    const late = recorder(scene, clock, {});
    clock.frame = 1;
    scene.frame();
    clock.frame = 2;
    scene.move(a, 300, 300);
    scene.frame();
    expect(late.map((c) => [c.frame, c.phase])).toEqual([
      [1, Phase.Stay],
      [2, Phase.Exit],
    ]);
  });

  it('skips enters and stays of an entity removed earlier in the frame; its exit comes next frame', () => {
    const scene = new Scene({ pairEntities: false });
    const clock = { frame: 1 };
    const enemy = scene.spawn(100, 100, 40, 40, { layer: ENEMY });
    const bullet = scene.spawn(100, 100, 4, 4, { layer: BULLET });
    onCollision(scene.world, (b) => removeEntity(scene.world, b), {
      layer: BULLET,
      other: ENEMY,
      priority: 255,
      phases: Phase.Enter,
    });
    const later = recorder(scene, clock, { layer: ENEMY });
    scene.frame();
    expect(later).toHaveLength(0);
    clock.frame = 2;
    scene.frame();
    expect(later.map((c) => [c.self, c.other, c.phase])).toEqual([[enemy, bullet, Phase.Exit]]);
  });
});

describe('dispatch budget', () => {
  /** n bullets on one enemy: n pairs that all begin in frame 1. */
  function swarm(n: number, budget: { maxCalls?: number; maxMs?: number; minCalls?: number }) {
    const scene = new Scene({ pairEntities: false, dispatch: budget });
    const enemy = scene.spawn(500, 500, 200, 200, { layer: ENEMY });
    const bullets: number[] = [];
    for (let i = 0; i < n; i++)
      bullets.push(scene.spawn(420 + (i % 40) * 4, 420 + Math.floor(i / 40) * 4, 2, 2, { layer: BULLET }));
    return { scene, enemy, bullets };
  }

  it('never cuts tier 0; lower handlers get minCalls a frame, oldest first, within the bound', () => {
    const { scene, bullets } = swarm(100, { maxCalls: 0, minCalls: 8 });
    const clock = { frame: 1 };
    const top = recorder(scene, clock, { priority: 192, phases: Phase.Enter });
    const low = recorder(scene, clock, { priority: 191, phases: Phase.Enter });
    scene.frame();
    expect(top).toHaveLength(100);
    expect(low).toHaveLength(8);
    expect(getStats(scene.world).handlerDeferred).toBe(92);
    expect(getStats(scene.world).handlersCut).toBe(1);
    for (clock.frame = 2; clock.frame <= 20; clock.frame++) scene.frame();
    // In pair order (here: bullet id), each exactly once; the k-th is made in frame floor(k / 8) + 1.
    expect(low.map((c) => c.other)).toEqual(bullets);
    low.forEach((c, k) => expect(c.frame).toBe(Math.floor(k / 8) + 1));
    expect(top).toHaveLength(100);
    expect(getStats(scene.world).handlerDeferred).toBe(0);
  });

  it('the budget is shared: calls of earlier handlers count, later ones keep minCalls', () => {
    const { scene } = swarm(50, { maxCalls: 60, minCalls: 4 });
    const clock = { frame: 1 };
    const top = recorder(scene, clock, { priority: 250, phases: Phase.Enter });
    const mid = recorder(scene, clock, { priority: 150, phases: Phase.Enter });
    const low = recorder(scene, clock, { priority: 20, phases: Phase.Enter });
    scene.frame();
    expect(top).toHaveLength(50);
    expect(mid).toHaveLength(10);
    expect(low).toHaveLength(4);
    expect(getStats(scene.world).handlerCalls).toBe(64);
  });

  it('maxMs 0 leaves each cut handler its minCalls', () => {
    const { scene } = swarm(30, { maxMs: 0, minCalls: 5 });
    const clock = { frame: 1 };
    const low = recorder(scene, clock, { priority: 100, phases: Phase.Enter });
    scene.frame();
    expect(low).toHaveLength(5);
  });

  it('drops a deferred enter whose pair ended, and still delivers the exit', () => {
    const { scene, bullets } = swarm(20, { maxCalls: 0, minCalls: 2 });
    const clock = { frame: 1 };
    const low = recorder(scene, clock, { priority: 10 });
    scene.frame();
    // Bullets 0 and 1 got their enters; the rest wait. Now bullet 5 leaves and bullet 6 is removed.
    scene.move(bullets[5], 5, 5);
    removeEntity(scene.world, bullets[6]);
    for (clock.frame = 2; clock.frame <= 40; clock.frame++) scene.frame();
    const of = (eid: number) => low.filter((c) => c.self === eid || c.other === eid).map((c) => c.phase);
    expect(of(bullets[5])).toEqual([Phase.Exit]);
    expect(of(bullets[6])).toEqual([Phase.Exit]);
    for (const b of bullets) {
      if (b === bullets[5] || b === bullets[6]) continue;
      const phases = of(b);
      expect(phases[0]).toBe(Phase.Enter);
      expect(phases.slice(1).every((p) => p === Phase.Stay)).toBe(true);
    }
  });

  it('setDispatchBudget changes the budget; omitted fields return to no budget', () => {
    const { scene } = swarm(40, { maxCalls: 0, minCalls: 1 });
    const clock = { frame: 1 };
    const low = recorder(scene, clock, { priority: 10, phases: Phase.Enter });
    scene.frame();
    expect(low).toHaveLength(1);
    setDispatchBudget(scene.world, {});
    scene.frame();
    expect(low).toHaveLength(40);
    expect(() => setDispatchBudget(scene.world, { maxCalls: -1 })).toThrow(
      /^bitecs-quadtree: dispatch.maxCalls must be >= 0 \(got -1\)/,
    );
  });

  it('stays resume where the budget cut them, so every pair gets its turn', () => {
    const { scene, bullets } = swarm(30, { maxCalls: 0, minCalls: 7 });
    const clock = { frame: 1 };
    const stays = recorder(scene, clock, { priority: 10, phases: Phase.Stay });
    for (clock.frame = 1; clock.frame <= 13; clock.frame++) scene.frame();
    // 30 stay pairs, 7 a frame from frame 2 on: each pair gets a stay every ceil(30 / 7) = 5 frames.
    for (let f = 2; f <= 13; f++) {
      const frame = stays.filter((c) => c.frame === f);
      expect(frame).toHaveLength(7);
      expect(new Set(frame.map((c) => c.other)).size).toBe(7);
    }
    for (const b of bullets) {
      const frames = stays.filter((c) => c.other === b || c.self === b).map((c) => c.frame);
      expect(frames[0]).toBeLessThanOrEqual(2 + 4);
      for (let i = 1; i < frames.length; i++) expect(frames[i] - frames[i - 1]).toBeLessThanOrEqual(5);
    }
  });
});

describe('dispatch timings', () => {
  /** Spins for `ms` milliseconds on a clock the dispatch does not read. */
  function busy(ms: number): void {
    const end = process.hrtime.bigint() + BigInt(Math.round(ms * 1e6));
    while (process.hrtime.bigint() < end);
  }

  /** n bullets on one enemy, with a handler for their enters that spins `ms` each call. */
  function slowHits(n: number, ms: number, spend: (ms: number) => void = busy): Scene {
    const scene = new Scene({ pairEntities: false });
    scene.spawn(500, 500, 200, 200, { layer: ENEMY });
    for (let i = 0; i < n; i++) scene.spawn(420 + (i % 40) * 4, 420 + Math.floor(i / 40) * 4, 2, 2, { layer: BULLET });
    onCollision(scene.world, () => spend(ms), { layer: BULLET, other: ENEMY, phases: Phase.Enter });
    return scene;
  }

  it("handlerMs is the handlers' share of dispatchMs", () => {
    const scene = slowHits(3, 2);
    scene.frame();
    const stats = getStats(scene.world);
    expect(stats.handlerCalls).toBe(3);
    expect(stats.handlerMs).toBeGreaterThanOrEqual(6);
    expect(stats.handlerMs).toBeLessThanOrEqual(stats.dispatchMs);
    // The plugin's own share: walking three pairs, far less than one handler call.
    expect(stats.dispatchMs - stats.handlerMs).toBeLessThan(2);
    scene.frame();
    expect([stats.handlerCalls, stats.handlerMs]).toEqual([0, 0]);
  });

  it('times a sample of many calls and counts the rest at their mean', () => {
    // A clock of its own, which only the handler moves: the estimate is then exact, whatever the machine does.
    let clock = 0;
    const scene = slowHits(300, 0.05, (ms) => (clock += ms));
    const now = vi.spyOn(performance, 'now').mockImplementation(() => clock);
    try {
      scene.frame();
    } finally {
      now.mockRestore();
    }
    const stats = getStats(scene.world);
    expect(stats.handlerCalls).toBe(300);
    // Every call takes 0.05 ms, so the timed calls' mean is that, counted for all 300.
    expect(stats.handlerMs).toBeCloseTo(300 * 0.05, 9);
    expect(stats.handlerMs).toBeLessThanOrEqual(stats.dispatchMs);
    // The first 8 calls and one in 256 after, three clock reads each: far fewer than two per call.
    expect(now.mock.calls.length).toBeLessThan(40);
  });

  it("leaves the dispatch's own walk and calls out of a handler that does nothing", () => {
    const scene = new Scene({ pairEntities: false });
    for (let i = 0; i < 2000; i++) scene.spawn((i % 50) * 20, Math.floor(i / 50) * 20, 24, 24);
    let calls = 0;
    onCollision(scene.world, () => {
      calls++;
    });
    const shares: number[] = [];
    for (let f = 0; f < 21; f++) {
      scene.frame();
      const stats = getStats(scene.world);
      shares.push(stats.handlerMs / stats.dispatchMs);
    }
    expect(calls).toBeGreaterThan(21 * 4000);
    // The median frame: a stray pause of the machine in one timed call may spoil a frame or two.
    expect(shares.sort((a, b) => a - b)[10]).toBeLessThan(0.5);
  });

  it('without handlers, handlerMs is 0', () => {
    const scene = new Scene({ pairEntities: false });
    scene.spawn(10, 10);
    scene.spawn(12, 12);
    scene.frame();
    expect(getStats(scene.world).handlerMs).toBe(0);
  });
});

describe('random games under a dispatch budget', () => {
  interface Budgeted {
    calls: Call[];
    layer: number;
    other: number;
    phases: number;
  }

  /**
   * Bullets, enemies and walls jumping around, removed and respawned (ids recycled). A tier-0
   * handler without filters sees every event in its frame: the truth. Each budgeted handler
   * must get the matching enters and exits in the same order, late by at most the bound, each
   * once; an enter may be missing only if its pair ended before the handler got to it. Stays
   * come only between a pair's enter and exit, at most once per frame.
   */
  for (let seed = 1; seed <= 8; seed++) {
    it(`seed ${seed}`, () => {
      const rng = new Rng(seed * 7919);
      const minCalls = 1 + rng.int(6);
      const maxCalls = rng.int(40);
      const scene = new Scene({ pairEntities: seed % 2 === 0, dispatch: { maxCalls, minCalls } });
      const clock = { frame: 0 };
      const layers = [BULLET, ENEMY, WALL];
      // Spawns per id, as (frame, layer): ids are recycled, so an id's layer depends on the frame.
      const spawns = new Map<number, [number, number][]>();
      const ents: number[] = [];
      const spawn = () => {
        const layer = rng.pick(layers);
        const eid = scene.spawn(
          rng.int(300),
          rng.int(300),
          5 + rng.int(30),
          5 + rng.int(30),
          { layer, priority: rng.pick([20, 100, 150, 200, 255]) },
          layer === WALL && rng.chance(0.5),
        );
        if (!spawns.has(eid)) spawns.set(eid, []);
        spawns.get(eid)!.push([clock.frame, layer]);
        return eid;
      };
      for (let i = 0; i < 80; i++) ents.push(spawn());
      const truth = recorder(scene, clock, { priority: 255 });
      const specs = [
        { layer: -1, other: -1, phases: Phase.All, priority: 100 + rng.int(90) },
        { layer: BULLET, other: ENEMY | WALL, phases: Phase.All, priority: rng.int(64) },
        { layer: ENEMY, other: -1, phases: Phase.Enter | Phase.Exit, priority: 64 + rng.int(64) },
      ];
      const budgeted: Budgeted[] = specs.map((spec) => ({ calls: recorder(scene, clock, spec), ...spec }));
      const frames = 120;
      for (clock.frame = 1; clock.frame <= frames + 2; clock.frame++) {
        // Then still frames without a budget: every backlog drains at once.
        if (clock.frame === frames + 1) setDispatchBudget(scene.world, {});
        for (let k = clock.frame <= frames ? rng.int(12) : 0; k > 0; k--) {
          const i = rng.int(ents.length);
          if (rng.chance(0.1)) {
            removeEntity(scene.world, ents[i]);
            ents[i] = spawn();
          } else {
            scene.move(ents[i], rng.int(300), rng.int(300));
          }
        }
        const before = truth.length;
        scene.frame();
        // Tier 0 is never late: this frame's calls are every pair event of this frame's step.
        const st = getStats(scene.world);
        expect(truth.length - before, 'tier 0 is never late').toBe(st.entered + st.stayed + st.exited);
      }
      expect(getStats(scene.world).handlerDeferred, 'every backlog drained').toBe(0);
      const layerAt = (eid: number, frame: number) =>
        spawns
          .get(eid)!
          .filter(([f]) => f <= frame)
          .at(-1)![1];
      const annotated = annotate(truth, layerAt);
      for (const h of budgeted) check(annotated, h, minCalls, clock.frame);
    });
  }

  interface Event extends Call {
    la: number;
    lb: number;
  }

  /** The layers each truth event's entities had when the pair began (ids may be reused since). */
  function annotate(truth: Call[], layerAt: (eid: number, frame: number) => number): Event[] {
    const open = new Map<string, [number, number]>();
    return truth.map((c) => {
      const key = `${c.self}:${c.other}`;
      let layers = open.get(key);
      if (c.phase === Phase.Enter) {
        layers = [layerAt(c.self, c.frame), layerAt(c.other, c.frame)];
        open.set(key, layers);
      }
      if (layers === undefined) throw new Error(`no enter before ${key} in frame ${c.frame}`);
      if (c.phase === Phase.Exit) open.delete(key);
      return { ...c, la: layers[0], lb: layers[1] };
    });
  }

  function check(truth: Event[], h: Budgeted, minCalls: number, lastFrame: number): void {
    // What this handler should see: matching events, oriented (self has its `layer`).
    const wanted: Call[] = [];
    for (const e of truth) {
      if ((h.phases & e.phase) === 0) continue;
      if ((e.la & h.layer) !== 0 && (e.lb & h.other) !== 0) wanted.push(e);
      else if ((e.lb & h.layer) !== 0 && (e.la & h.other) !== 0) wanted.push({ ...e, self: e.other, other: e.self });
    }
    const same = (x: Call, y: Call) => x.phase === y.phase && x.self === y.self && x.other === y.other;
    const pair = (c: Call) => (c.self < c.other ? `${c.self}:${c.other}` : `${c.other}:${c.self}`);
    const edges = wanted.filter((c) => c.phase !== Phase.Stay);
    const got = h.calls.filter((c) => c.phase !== Phase.Stay);
    let j = 0;
    for (let t = 0; t < edges.length; t++) {
      const e = edges[t];
      if (j < got.length && same(got[j], e)) {
        // Deferred at a place p smaller than the backlog: made within floor(p / minCalls) + 1 frames.
        const due = edges.filter((x, k) => k <= t || x.frame <= e.frame).length;
        const done = got.filter((x) => x.frame <= e.frame).length;
        const backlog = Math.max(0, due - done);
        expect(got[j].frame - e.frame, `delay of ${pair(e)}`).toBeLessThanOrEqual(
          backlog === 0 ? 0 : Math.floor((backlog - 1) / minCalls) + 1,
        );
        if (e.phase === Phase.Enter) {
          // An enter is made only while its pair lasts: before the frame of its exit.
          const exit = edges.slice(t + 1).find((x) => x.phase === Phase.Exit && pair(x) === pair(e));
          if (exit !== undefined) expect(got[j].frame, `late enter of ${pair(e)}`).toBeLessThan(exit.frame);
        }
        j++;
        continue;
      }
      expect(e.phase, `${pair(e)} ${e.phase} of frame ${e.frame} never arrived`).toBe(Phase.Enter);
      const exit = edges.slice(t + 1).find((x) => x.phase === Phase.Exit && pair(x) === pair(e));
      expect(exit, `enter of ${pair(e)} dropped though the pair never ended`).toBeDefined();
      const reached = j < got.length ? got[j].frame : lastFrame;
      expect(exit!.frame, `enter of ${pair(e)} dropped before its pair ended`).toBeLessThanOrEqual(reached);
    }
    expect(j, 'calls beyond the truth').toBe(got.length);
    // Stays: inside an enter..exit the handler received, at most once a frame, and real.
    const open = new Set<string>();
    const seen = new Set<string>();
    const real = new Set(wanted.filter((c) => c.phase === Phase.Stay).map((c) => `${c.self}:${c.other}@${c.frame}`));
    for (const c of h.calls) {
      const k = pair(c);
      if (c.phase === Phase.Enter) open.add(k);
      else if (c.phase === Phase.Exit) open.delete(k);
      else {
        expect(open.has(k), `stay of ${k} in frame ${c.frame} outside its enter and exit`).toBe(true);
        expect(seen.has(`${k}@${c.frame}`), `two stays of ${k} in frame ${c.frame}`).toBe(false);
        seen.add(`${k}@${c.frame}`);
        expect(real.has(`${c.self}:${c.other}@${c.frame}`), `stay of ${k} in frame ${c.frame} is not a stay`).toBe(
          true,
        );
      }
    }
  }
});

describe('a handler that throws', () => {
  type Budget = { maxCalls?: number; minCalls?: number };
  /** The handler names, and (frame, handler, phase, pair's first entity) of the calls that throw. */
  const NAMES = ['top', 'mid', 'low'] as const;
  const PRIORITIES = [250, 128, 40];

  /**
   * Six separate pairs; frame 1 they begin, frame 2 they stay, frame 3 two of them end, frame
   * 4 the rest stay. Three handlers record every call (before throwing, if they throw), and the
   * errors each frame's dispatch throws are kept.
   */
  function play(budget: Budget, throwAt: string[]) {
    const scene = new Scene({ pairEntities: false, dispatch: budget });
    const firsts: number[] = [];
    for (let i = 0; i < 6; i++) {
      firsts.push(scene.spawn(50 + i * 100, 50));
      scene.spawn(52 + i * 100, 52);
    }
    const clock = { frame: 0 };
    const log: string[] = [];
    NAMES.forEach((name, k) =>
      onCollision(
        scene.world,
        (self, other, phase) => {
          const call = `${clock.frame}:${name}:${phase}:${self}-${other}`;
          log.push(call);
          if (throwAt.includes(call)) throw new Error(`boom at ${call}`);
        },
        { priority: PRIORITIES[k] },
      ),
    );
    const errors: unknown[] = [];
    const stats: string[] = [];
    for (clock.frame = 1; clock.frame <= 4; clock.frame++) {
      if (clock.frame === 3) for (const eid of firsts.slice(0, 2)) scene.move(eid, eid * 100, 900);
      try {
        scene.frame();
        errors.push(null);
      } catch (error) {
        errors.push(error);
      }
      const s = getStats(scene.world);
      stats.push(`${s.handlerCalls} ${s.handlerDeferred} ${s.handlersCut}`);
    }
    return { log, errors, stats, firsts };
  }

  for (const budget of [{}, { maxCalls: 7, minCalls: 2 }] as Budget[]) {
    const name = budget.maxCalls === undefined ? 'no budget' : 'a budget that defers calls';
    it(`costs no other handler an event, then throws its error (${name})`, () => {
      const clean = play(budget, []);
      expect(clean.errors.every((e) => e === null)).toBe(true);
      const [a, b] = [clean.firsts[2], clean.firsts[2] + 1];
      // The middle handler throws at the enter of the third pair, whenever that call is made.
      const call = clean.log.find((c) => c.endsWith(`:mid:${Phase.Enter}:${a}-${b}`))!;
      const thrown = play(budget, [call]);
      // Every call of every frame, the one that threw included, made exactly once and in order;
      // the phases of the next frames as if nothing had thrown.
      expect(thrown.log).toEqual(clean.log);
      expect(new Set(thrown.log).size).toBe(thrown.log.length);
      expect(thrown.stats).toEqual(clean.stats);
      const frame = Number(call.split(':')[0]);
      thrown.errors.forEach((e, i) => {
        if (i + 1 !== frame) expect(e).toBeNull();
        else expect((e as Error).message).toBe(`boom at ${call}`);
      });
      if (budget.maxCalls !== undefined) expect(clean.stats.some((s) => s.split(' ')[1] !== '0')).toBe(true);
    });
  }

  it('several calls that throw in one frame come out as one AggregateError, in call order', () => {
    const clean = play({}, []);
    const calls = [
      `1:top:${Phase.Enter}:${clean.firsts[4]}-${clean.firsts[4] + 1}`,
      `1:low:${Phase.Enter}:${clean.firsts[0]}-${clean.firsts[0] + 1}`,
      `1:mid:${Phase.Enter}:${clean.firsts[1]}-${clean.firsts[1] + 1}`,
    ];
    for (const c of calls) expect(clean.log).toContain(c);
    const thrown = play({}, calls);
    expect(thrown.log).toEqual(clean.log);
    expect(thrown.stats).toEqual(clean.stats);
    expect(thrown.errors.slice(1)).toEqual([null, null, null]);
    const error = thrown.errors[0] as AggregateError;
    expect(error).toBeInstanceOf(AggregateError);
    expect(error.message).toBe(`bitecs-quadtree: 3 collision handler calls threw; the first: boom at ${calls[0]}`);
    expect((error.errors as Error[]).map((e) => e.message)).toEqual(
      [calls[0], calls[2], calls[1]].map((c) => `boom at ${c}`),
    );
  });
});

describe('a frame without the dispatch system', () => {
  it('warns once, after the first steps, when handlers exist and no dispatch ever ran', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const forgot = new Scene({ pairEntities: false });
      const kept = new Scene({ pairEntities: false });
      const bare = new Scene({ pairEntities: false });
      for (const scene of [forgot, kept, bare]) {
        scene.spawn(10, 10);
        scene.spawn(12, 12);
      }
      const calls = { forgot: 0, kept: 0 };
      onCollision(forgot.world, () => {
        calls.forgot++;
      });
      onCollision(kept.world, () => {
        calls.kept++;
      });
      // Registered and unregistered at once: no handler left to warn of.
      onCollision(bare.world, () => undefined)();
      for (let f = 1; f <= 3 * UNDISPATCHED_STEPS; f++) {
        quadtreeCollisionSystem(quadtreeSyncSystem(forgot.world));
        kept.frame();
        quadtreeCollisionSystem(quadtreeSyncSystem(bare.world));
        expect(warn).toHaveBeenCalledTimes(f < UNDISPATCHED_STEPS ? 0 : 1);
      }
      expect(String(warn.mock.calls[0][0])).toMatch(/quadtreeDispatchSystem never did.*after quadtreeCollisionSystem/);
      expect(calls).toEqual({ forgot: 0, kept: 3 * UNDISPATCHED_STEPS });
    } finally {
      warn.mockRestore();
    }
  });
});

describe('a frame without the sync system', () => {
  it('warns once, after the first steps, when entities wait for a sync that never ran', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const forgot = new Scene({ pairEntities: false });
      const kept = new Scene({ pairEntities: false });
      const empty = new Scene({ pairEntities: false });
      for (const scene of [forgot, kept]) {
        scene.spawn(10, 10);
        scene.spawn(12, 12);
      }
      for (let f = 1; f <= 3 * UNDISPATCHED_STEPS; f++) {
        quadtreeCollisionSystem(forgot.world);
        quadtreeCollisionSystem(quadtreeSyncSystem(kept.world));
        quadtreeCollisionSystem(empty.world);
        expect(warn).toHaveBeenCalledTimes(f < UNDISPATCHED_STEPS ? 0 : 1);
      }
      expect(String(warn.mock.calls[0][0])).toMatch(
        /quadtreeSyncSystem never did, so 2 entities with Position and Bounds never entered the tree/,
      );
      expect(getStats(forgot.world).pairs).toBe(0);
      expect(getStats(kept.world).pairs).toBe(1);
    } finally {
      warn.mockRestore();
    }
  });
});
