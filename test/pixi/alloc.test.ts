import { constants, PerformanceObserver } from 'node:perf_hooks';
import type { IParticle, ParticleContainer } from 'pixi.js';
import { describe, expect, it } from 'vitest';
import { LooseQuadtree } from '../../src/core/index.js';
import { ParticleCuller, QuadtreeHud, SpriteCuller, type HudStats } from '../../src/pixi/index.js';
import { mulberry32 } from '../core/helpers.js';

const gc = (globalThis as { gc?: () => void }).gc;

function heapUsed(): number {
  for (let i = 0; i < 4; i++) gc!();
  return process.memoryUsage().heapUsed;
}

/** Young-generation (scavenge) collections that happen while `run` executes. */
async function countMinorGcs(run: () => void): Promise<number> {
  let minor = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  gc!();
  run();
  // GC entries are delivered asynchronously.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  return minor;
}

/**
 * Stand-ins of their own class, as PixiJS's are: plain `{ x, y }` literals share their hidden
 * class with every such literal of the process, where a number field may be boxed on each write.
 */
class StandInSprite {
  culled = false;
  x = 0;
  y = 0;
}
class StandInParticle {
  x = 0;
  y = 0;
}

const N = 2000;
/** Growth of the JS heap allowed over the measured run. */
const BOUND = 256 << 10;

/**
 * Culls, places and newborns set in view every frame, over a tree that does not change (so
 * only the cullers' own work is measured), with pooled objects as a game would keep them.
 */
function scene() {
  const rnd = mulberry32(45);
  const tree = new LooseQuadtree({ width: 4096, height: 4096 });
  const position = { x: new Float64Array(N + 1), y: new Float64Array(N + 1) };
  for (let id = 1; id <= N; id++) {
    position.x[id] = rnd() * 4096;
    position.y[id] = rnd() * 4096;
    tree.insert(id, position.x[id] - 4, position.y[id] - 4, position.x[id] + 4, position.y[id] + 4);
  }
  tree.step();
  const sprites = Array.from({ length: N + 1 }, () => new StandInSprite());
  const particles = Array.from({ length: N + 1 }, () => new StandInParticle() as unknown as IParticle);
  const container = { particleChildren: [] as IParticle[], update() {} } as unknown as ParticleContainer;
  const spriteCuller = new SpriteCuller<StandInSprite>();
  const particleCuller = new ParticleCuller(container);
  for (let id = 1; id <= N; id++) {
    spriteCuller.set(id, sprites[id]);
    particleCuller.set(id, particles[id]);
  }
  let frame = 0;
  return (): void => {
    frame++;
    // Twenty entities die and are born again each frame, half of them said to be in view.
    for (let k = 0; k < 20; k++) {
      const id = 1 + ((frame * 20 + k) % N);
      spriteCuller.delete(id);
      particleCuller.delete(id);
      spriteCuller.set(id, sprites[id], k % 2 === 0);
      particleCuller.set(id, particles[id], k % 2 === 0);
    }
    const x = (frame * 13) % 2000;
    spriteCuller.cull(tree, x, x, x + 2000, x + 2000);
    spriteCuller.placeVisible(position);
    particleCuller.cull(tree, x, x, x + 2000, x + 2000);
    particleCuller.placeVisible(position);
  };
}

describe('the cullers in steady state (needs node --expose-gc)', () => {
  it('cull, place and take newborns for 3000 frames without growing the heap', () => {
    if (gc === undefined) throw new Error('global.gc is undefined: run the vitest workers with --expose-gc');
    const step = scene();
    for (let i = 0; i < 500; i++) step();
    const before = heapUsed();
    for (let i = 0; i < 3000; i++) step();
    const growth = heapUsed() - before;
    expect(growth, `heap grew by ${growth} bytes`).toBeLessThan(BOUND);
  });

  it('make next to no garbage: a few young-generation collections over 3000 frames', async () => {
    const step = scene();
    for (let i = 0; i < 500; i++) step();
    // The fewest of up to three runs: on a loaded machine code may be compiled late.
    let minor = Infinity;
    for (let run = 0; run < 3 && minor > 2; run++) {
      minor = Math.min(
        minor,
        await countMinorGcs(() => {
          for (let i = 0; i < 3000; i++) step();
        }),
      );
    }
    // The control: the same counter sees a loop that boxes a number per object in view.
    const control = await countMinorGcs(() => {
      let sum = 0;
      for (let i = 0; i < 3000; i++) for (let k = 0; k < 500; k++) sum += [k + 0.5].length;
      expect(sum).toBeGreaterThan(0);
    });
    expect(control).toBeGreaterThan(0);
    expect(minor, `${minor} young-generation collections`).toBeLessThanOrEqual(2);
  });
});

describe('the HUD (needs node --expose-gc)', () => {
  it('updated every frame, allocates nothing while the numbers it shows stay the same', async () => {
    const text = { text: '', x: 0, y: 0, style: { fill: 0 as unknown } };
    const hud = new QuadtreeHud(text, { lines: ['fps', 'entities', 'pairs', 'tiers', 'deferred', 'ms', 'handlers'] });
    const stats: HudStats = {
      ...{ entities: 5000, static: 100, pairs: 300, entered: 2, exited: 2, deferred: 0, waitBound: 0 },
      ...{ syncMs: 0, collisionMs: 1, dispatchMs: 0.2, handlerMs: 0.1, handlerCalls: 40, handlerDeferred: 0 },
      ...{ handlersCut: 0, pairTests: 900, dirty: 50, relocated: 3, nodesLive: 200, nodesFree: 8 },
      enteredByTier: new Int32Array([1, 0, 1, 0]),
      stayedByTier: new Int32Array([20, 0, 100, 178]),
    };
    let frame = 0;
    const run = (frames: number) => {
      for (let i = 0; i < frames; i++, frame++) {
        // Coarse timer steps from frame to frame, the same means over each refresh's 16 frames.
        stats.syncMs = frame % 2 === 0 ? 0 : 0.1;
        hud.update(stats, 15.625);
      }
    };
    run(64);
    // The first refresh shows one frame, the later ones the means of 16.
    const rewrites = hud.rewrites;
    expect(rewrites).toBe(2);
    let minor = Infinity;
    for (let attempt = 0; attempt < 3 && minor > 0; attempt++)
      minor = Math.min(minor, await countMinorGcs(() => run(20000)));
    // 20000 frames are 1250 refreshes, each of which compared what it would show.
    expect(hud.rewrites).toBe(rewrites);
    expect(minor, `${minor} young-generation collections`).toBe(0);
  });
});
