import { fmt, label } from './format.js';
import { addComponent, addEntity, createWorld, query, type World } from 'bitecs';
import {
  addQuadtree, forEachPair, markMoved, Phase, quadtreeCollisionSystem, quadtreeSyncSystem, type CollisionStore,
  type PairVisitor,
} from '../src/index.js';
import { PairSum } from './contender.js';
import { oursSpec } from './ours.js';
import { DEFAULT_SEED, Scene, type Mode } from './scene.js';

/**
 * The core bench's scene through a bitECS world: one entity per box (entity i + 1 is box i),
 * the plugin's plain-array components, a movement system that writes Position for the movers
 * (and marks them, with `detect: 'mark'`), then the sync and collision systems, and the pairs
 * read back the way a game would: from the pair entities (`query(world, [Collision])`) when
 * they are on, else from the fast path.
 */
class EcsGame {
  readonly world: World;
  readonly position = { x: [] as number[], y: [] as number[] };
  readonly bounds = { width: [] as number[], height: [] as number[] };
  readonly collision: CollisionStore = { a: [], b: [], priority: [], phase: [], startedAt: [] };
  private readonly pairEntities: boolean;
  private readonly mark: boolean;
  private sum: PairSum | null = null;
  private readonly visit: PairVisitor = (a, b) => {
    this.sum!.add(a - 1, b - 1);
  };

  constructor(scene: Scene, pairEntities: boolean, detect: 'scan' | 'mark' = 'scan') {
    this.pairEntities = pairEntities;
    this.mark = detect === 'mark';
    this.world = addQuadtree(createWorld(), {
      width: scene.side, height: scene.side, pairEntities, detect,
      position: this.position, bounds: this.bounds, collision: this.collision,
    });
    for (let i = 0; i < scene.n; i++) {
      const eid = addEntity(this.world);
      this.bounds.width[eid] = scene.w[i];
      this.bounds.height[eid] = scene.h[i];
      this.position.x[eid] = scene.minX[i] + scene.w[i] * 0.5;
      this.position.y[eid] = scene.minY[i] + scene.h[i] * 0.5;
      addComponent(this.world, eid, this.position);
      addComponent(this.world, eid, this.bounds);
    }
  }

  /** The game's movement system: writes the movers' new centres. Not the plugin's cost. */
  move(scene: Scene): void {
    const { movers, minX, minY, w, h } = scene;
    const px = this.position.x;
    const py = this.position.y;
    for (let k = 0; k < movers.length; k++) {
      const i = movers[k];
      px[i + 1] = minX[i] + w[i] * 0.5;
      py[i + 1] = minY[i] + h[i] * 0.5;
    }
  }

  /**
   * The plugin's part: with `detect: 'mark'`, marking the movers (the plugin's cost, not the
   * game's), then sync, collision, and reading the current pairs into `sum`.
   */
  systems(scene: Scene, sum: PairSum): void {
    const world = this.world;
    if (this.mark) for (let k = 0; k < scene.movers.length; k++) markMoved(world, scene.movers[k] + 1);
    quadtreeCollisionSystem(quadtreeSyncSystem(world));
    this.sum = sum;
    if (this.pairEntities) {
      const C = this.collision;
      const pairs = query(world, [C]);
      for (let k = 0; k < pairs.length; k++) {
        const pe = pairs[k];
        if (C.phase[pe] !== Phase.Exit) sum.add(C.a[pe] - 1, C.b[pe] - 1);
      }
    } else {
      forEachPair(world, this.visit, Phase.Enter | Phase.Stay);
    }
  }
}


/** Overhead of the ECS face at one N and mode. Times are medians in ms per frame. */
export interface EcsOverhead {
  n: number;
  mode: Mode;
  frames: number;
  pairs: number;
  /** Bare core: move, step, read pairs. */
  core: number;
  /** The game's movement system writing Position (reported, not counted as overhead). */
  movement: number;
  /** Sync + collision + reading pairs through the fast path, pair entities off. */
  off: number;
  /** The same with pair entities on, pairs read from them. */
  on: number;
  /** Pair entities off, `detect: 'mark'`: the movement system marks its movers (marking timed as overhead). */
  mark: number;
  /** Frames whose pair set differed from the core's (0 expected). */
  mismatches: number;
}

export interface EcsBenchOptions {
  ns?: number[];
  modes?: Mode[];
  warmup?: number;
  frames?: (n: number) => number;
  seed?: number;
  log?: (line: string) => void;
}

/**
 * Runs the bare core and the ECS face (pair entities off and on) on the same scene in
 * lockstep, one frame of each in turn, so machine load hits them alike. Every frame's pair
 * set is compared with the core's.
 */
export function runEcsBench(options: EcsBenchOptions = {}): EcsOverhead[] {
  const ns = options.ns ?? [1000, 10_000];
  const modes = options.modes ?? ['all', '10'];
  const warmup = options.warmup ?? 20;
  const framesFor = options.frames ?? ((n: number) => (n <= 10_000 ? 120 : 40));
  const seed = options.seed ?? DEFAULT_SEED;
  const log = options.log ?? (() => {});
  const results: EcsOverhead[] = [];
  for (const mode of modes) {
    for (const n of ns) {
      const frames = framesFor(n);
      const scenes = [0, 1, 2, 3].map(() => new Scene(n, mode, seed));
      const core = oursSpec().create();
      core.setup(scenes[0]);
      const games = [new EcsGame(scenes[1], false), new EcsGame(scenes[2], true), new EcsGame(scenes[3], false, 'mark')];
      const t = {
        core: new Float64Array(frames), movement: new Float64Array(frames),
        off: new Float64Array(frames), on: new Float64Array(frames), mark: new Float64Array(frames),
      };
      const times = [t.off, t.on, t.mark];
      const sums = [new PairSum(), new PairSum(), new PairSum(), new PairSum()];
      let mismatches = 0;
      let pairs = 0;
      for (let f = 0; f < warmup + frames; f++) {
        for (const scene of scenes) scene.advance();
        for (const sum of sums) sum.reset();
        const k = f - warmup;
        // Rotate the order so no variant always runs first (caches, timer ticks).
        for (let r = 0; r < 4; r++) {
          const which = (f + r) % 4;
          if (which === 0) {
            const t0 = performance.now();
            core.frame(scenes[0], sums[0]);
            if (k >= 0) t.core[k] = performance.now() - t0;
            continue;
          }
          const game = games[which - 1];
          const t0 = performance.now();
          game.move(scenes[which]);
          const t1 = performance.now();
          game.systems(scenes[which], sums[which]);
          const t2 = performance.now();
          if (k < 0) continue;
          if (which === 1) t.movement[k] = t1 - t0;
          times[which - 1][k] = t2 - t1;
        }
        pairs = sums[0].count;
        if (sums.some((sum) => sum.count !== pairs || sum.hash !== sums[0].hash)) mismatches++;
      }
      const row: EcsOverhead = {
        n, mode, frames, pairs, core: median(t.core), movement: median(t.movement), off: median(t.off), on: median(t.on),
        mark: median(t.mark), mismatches,
      };
      results.push(row);
      log(`ecs: mode ${mode}, N=${n}: core ${fmt(row.core)} ms, ECS off ${fmt(row.off)} ms (${ratio(row.off, row.core)}), ` +
        `on ${fmt(row.on)} ms (${ratio(row.on, row.core)}), mark ${fmt(row.mark)} ms (${ratio(row.mark, row.core)}), ` +
        `movement ${fmt(row.movement)} ms` +
        `${mismatches > 0 ? `, ${mismatches} MISMATCHED FRAMES` : ''}`);
    }
  }
  return results;
}

/** The results as a table: plain text, or Markdown for the README. */
export function ecsTable(rows: EcsOverhead[], markdown = false): string {
  const head = ['mode', 'N', 'pairs', 'core ms', 'ECS, pair entities off', 'ECS, pair entities on',
    "ECS, off, detect 'mark'", 'movement system ms'];
  const body = rows.map((r) => [
    r.mode === 'all' ? 'all move' : '10% move', label(r.n), String(r.pairs), fmt(r.core),
    `${fmt(r.off)} ms · ${ratio(r.off, r.core)}`, `${fmt(r.on)} ms · ${ratio(r.on, r.core)}`,
    `${fmt(r.mark)} ms · ${ratio(r.mark, r.core)}`, fmt(r.movement),
  ]);
  const bad = rows.filter((r) => r.mismatches > 0);
  const note = bad.length === 0 ? 'Every frame produced the core\'s pair set.'
    : `MISMATCH: ${bad.map((r) => `${r.mode} ${label(r.n)}: ${r.mismatches} frames`).join('; ')}`;
  if (markdown) {
    const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
    return [row(head), row(head.map((_, c) => (c < 2 ? '---' : '---:'))), ...body.map(row), '', note].join('\n');
  }
  const all = [head, ...body];
  const widths = head.map((_, c) => Math.max(...all.map((r) => r[c].length)));
  return [...all.map((r) => r.map((s, c) => s.padEnd(widths[c])).join('  ')), note].join('\n');
}

function median(values: Float64Array): number {
  const sorted = values.slice().sort();
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

function ratio(x: number, base: number): string {
  return `${(x / base).toFixed(2)}x`;
}


