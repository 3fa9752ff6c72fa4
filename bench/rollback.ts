/**
 * Rollback netcode: an arena game (walls from a tile map, ships and enemies as circles, swept
 * bullets, sparks born and removed every frame under a step budget) played three ways in
 * lockstep: straight, with `saveWorld` into a ring before every frame, and as a peer that
 * rolls back eight frames every frame (`restoreWorld`, then the eight frames again, each with
 * its save). Every frame the rolled-back peer's pairs must be the straight game's.
 */

import { addComponent, addEntity, createWorld, query, removeEntity, type World } from 'bitecs';
import { f64 } from 'bitecs/serialization';
import {
  addQuadtree,
  addTileLayer,
  Circle,
  createQuadtreeComponents,
  forEachPair,
  Phase,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeSyncSystem,
  restoreWorld,
  saveWorld,
  setStepBudget,
  Swept,
  WorldSnapshot,
  type QuadtreeComponents,
} from '../src/index.js';
import { PairSum, type Contender, type ContenderSpec, type Steppable, type TableOptions } from './contender.js';
import { fmt, label } from './format.js';
import { runLockstep, UNCAPPED, type LockstepResult } from './lockstep.js';
import { cellText, footnotes, renderTable, seriesOf } from './report.js';
import { mulberry32 } from './scene.js';
import { median } from './summary.js';

/** Frames a peer goes back every frame, as a peer whose inputs come eight frames late. */
export const ROLLBACK_FRAMES = 8;
const TILES = 128;
const TILE = 16;
const SIDE = TILES * TILE;
const ENEMIES = 200;
const WALLS = 1;
const ACTORS = 2;
const SPARKS = 4;
const BULLETS = 8;

/** The frame counter every copy of the game reads its script from. */
export class ArenaScript implements Steppable {
  frame = 0;
  constructor(
    readonly sparks: number,
    readonly seed: number,
  ) {}

  advance(): void {
    this.frame++;
  }
}

/** One copy of the arena: its own world and components, everything drawn from the frame number. */
class Arena {
  readonly world: World;
  private readonly c: QuadtreeComponents = createQuadtreeComponents();
  private readonly velocity = { x: f64([]), y: f64([]) };
  private readonly life = { frames: f64([]) };

  constructor(private readonly script: ArenaScript) {
    this.world = addQuadtree(createWorld(), { ...this.c, width: SIDE, height: SIDE, pairEntities: false });
    const rng = mulberry32(script.seed);
    // A border and scattered blocks of solid tiles.
    const data = new Uint8Array(TILES * TILES);
    for (let t = 0; t < data.length; t++) {
      const x = t % TILES;
      const y = Math.floor(t / TILES);
      data[t] = x === 0 || y === 0 || x === TILES - 1 || y === TILES - 1 || rng() < 0.02 ? 1 : 0;
    }
    addTileLayer(this.world, { data, width: TILES, tileWidth: TILE, tileHeight: TILE, layer: WALLS });
    for (let i = 0; i < ENEMIES + 2; i++) {
      const eid = this.body(24 + rng() * (SIDE - 48), 24 + rng() * (SIDE - 48), i < 2 ? 20 : 12, ACTORS, -1, 200);
      addComponent(this.world, eid, Circle);
      this.velocity.x[eid] = rng() * 2 - 1;
      this.velocity.y[eid] = rng() * 2 - 1;
    }
    for (let i = 0; i < script.sparks; i++) this.spark(rng, 1 + Math.floor(rng() * 120));
    setStepBudget(this.world, { maxPairTests: script.sparks });
  }

  private body(x: number, y: number, size: number, layer: number, mask: number, priority: number): number {
    const w = this.world;
    const { position, bounds, collider } = this.c;
    const eid = addEntity(w);
    addComponent(w, eid, position);
    addComponent(w, eid, bounds);
    addComponent(w, eid, collider);
    addComponent(w, eid, this.velocity);
    position.x[eid] = x;
    position.y[eid] = y;
    bounds.width[eid] = bounds.height[eid] = size;
    collider.layer[eid] = layer;
    collider.mask[eid] = mask;
    collider.priority[eid] = priority;
    return eid;
  }

  private spark(rng: () => number, frames: number): void {
    const x = 32 + rng() * (SIDE - 64);
    const y = 32 + rng() * (SIDE - 64);
    const eid = this.body(x, y, 2 + rng() * 2, SPARKS, WALLS | ACTORS, 10);
    this.velocity.x[eid] = rng() * 6 - 3;
    this.velocity.y[eid] = rng() * 6 - 3;
    addComponent(this.world, eid, this.life);
    this.life.frames[eid] = frames;
  }

  /** Frame f of the script, written as games write it (queries in bitECS's order); its pairs into `sum`. */
  frame(f: number, sum: PairSum): void {
    const w = this.world;
    const rng = mulberry32(this.script.seed * 7919 + f);
    const { position } = this.c;
    for (const eid of query(w, [this.life])) if (--this.life.frames[eid] <= 0) removeEntity(w, eid);
    // A burst of sparks where something was hit, and a volley of bullets from the two ships.
    const burst = this.script.sparks / 100;
    for (let k = 0; k < burst; k++) this.spark(rng, 20 + Math.floor(rng() * 100));
    for (let k = 0; k < 6; k++) {
      const ship = 1 + (k & 1);
      const eid = this.body(position.x[ship], position.y[ship], 3, BULLETS, WALLS | ACTORS, 150);
      addComponent(w, eid, Swept);
      addComponent(w, eid, this.life);
      const angle = rng() * 2 * Math.PI;
      this.velocity.x[eid] = Math.cos(angle) * 24;
      this.velocity.y[eid] = Math.sin(angle) * 24;
      this.life.frames[eid] = 30;
    }
    for (const eid of query(w, [position, this.velocity])) {
      let x = position.x[eid] + this.velocity.x[eid];
      let y = position.y[eid] + this.velocity.y[eid];
      if (x < TILE || x > SIDE - TILE) this.velocity.x[eid] *= -1;
      if (y < TILE || y > SIDE - TILE) this.velocity.y[eid] *= -1;
      x = Math.min(Math.max(x, TILE), SIDE - TILE);
      y = Math.min(Math.max(y, TILE), SIDE - TILE);
      position.x[eid] = x;
      position.y[eid] = y;
    }
    quadtreeDispatchSystem(quadtreeCollisionSystem(quadtreeSyncSystem(w)));
    sum.reset();
    forEachPair(w, (a, b, _phase, priority) => sum.add(a, b, priority), Phase.Enter | Phase.Stay);
  }
}

/** Milliseconds of each `restoreWorld` the rolling peer ran, by spark count: the table gives their median. */
const restoreTimes = new Map<number, number[]>();

/** The arena played straight, saved before every frame, or rolled back eight frames every frame. */
class ArenaPeer implements Contender<ArenaScript> {
  private arena!: Arena;
  private ring: WorldSnapshot[] = [];
  private readonly scratch = new PairSum();
  /** Frames played: a rollback needs the saves of the eight before. */
  private played = 0;

  constructor(private readonly how: 'straight' | 'saves' | 'rollback') {}

  setup(script: ArenaScript): void {
    this.arena = new Arena(script);
    this.ring = Array.from({ length: ROLLBACK_FRAMES + 1 }, () => new WorldSnapshot());
  }

  frame(script: ArenaScript, sum: PairSum): void {
    const f = script.frame;
    const ring = this.ring;
    if (this.how === 'rollback' && this.played >= ROLLBACK_FRAMES) {
      const start = performance.now();
      restoreWorld(this.arena.world, ring[(f - ROLLBACK_FRAMES) % ring.length]);
      const times = restoreTimes.get(script.sparks) ?? [];
      times.push(performance.now() - start);
      restoreTimes.set(script.sparks, times);
      for (let g = f - ROLLBACK_FRAMES; g < f; g++) {
        saveWorld(this.arena.world, ring[g % ring.length]);
        this.arena.frame(g, this.scratch);
      }
    }
    if (this.how !== 'straight') saveWorld(this.arena.world, ring[f % ring.length]);
    this.arena.frame(f, sum);
    this.played++;
  }
}

const spec = (key: 'straight' | 'saves' | 'rollback', name: string): ContenderSpec<ArenaScript> => ({
  key,
  name,
  note: '',
  create: () => new ArenaPeer(key),
});

export const rollbackSpecs = (): ContenderSpec<ArenaScript>[] => [
  spec('straight', 'the game'),
  spec('saves', 'a save every frame'),
  spec('rollback', `a rollback of ${ROLLBACK_FRAMES} every frame`),
];

export interface RollbackTable {
  ns: number[];
  specs: ContenderSpec<ArenaScript>[];
  results: Map<number, LockstepResult>;
}

export function runRollback(o: TableOptions): RollbackTable | null {
  const specs = rollbackSpecs().filter(o.select);
  if (specs.length === 0) return null;
  const table: RollbackTable = { ns: o.ns, specs, results: new Map() };
  for (const n of o.ns) {
    o.log(`rollback, N=${label(n)} sparks: ${specs.length} peers, pairs checked against the straight game every frame`);
    table.results.set(
      n,
      runLockstep({
        title: `rollback, N=${label(n)}`,
        scene: () => new ArenaScript(n, o.seed),
        specs,
        budgets: specs.map(() => UNCAPPED),
        reference: specs.findIndex((s) => s.key === 'straight'),
        oracle: null,
        warmup: o.warmup,
        frames: o.framesFor(n),
        runs: o.runs,
        log: o.log,
      }),
    );
  }
  return table;
}

export function rollbackSection(
  table: RollbackTable | null,
  markdown: boolean,
  ctx: { warmup: number; seed: number },
): string {
  if (table === null) return '';
  const head = ['peer', ...table.ns.map((n) => `${label(n)} sparks`)];
  const body = table.specs.map((s) => [
    s.name,
    ...table.ns.map((n) => {
      const series = seriesOf(table, s.key, n);
      return series === undefined ? '' : cellText(series, seriesOf(table, 'straight', n));
    }),
  ]);
  const out: string[] = [
    markdown ? '### Rollback' : 'rollback: median ms per frame (range over runs) · time relative to the game',
    '',
  ];
  if (markdown) {
    out.push(
      `An arena of ${TILES} x ${TILES} tiles of ${TILE} px (a border and scattered blocks, through \`addTileLayer\`), ` +
        `two ships and ${ENEMIES} enemies as circles, six swept bullets fired a frame, and sparks born and removed every ` +
        'frame (a hundredth of them) under a step budget, in a bitECS world with the plugin. Every frame the peer that rolls ' +
        "back gives the straight game's pairs. The game is played alone, with `saveWorld` into a ring of nine snapshots " +
        `before each frame, and as a peer whose inputs come ${ROLLBACK_FRAMES} frames late: before each frame it ` +
        `\`restoreWorld\`s the save ${ROLLBACK_FRAMES} frames back and plays those frames again, each with its save. ` +
        `mulberry32 seed ${ctx.seed}; ${ctx.warmup} warm-up frames per run.`,
      '',
    );
  }
  out.push(renderTable([head, ...body], markdown), '');
  for (const n of table.ns) {
    const med = (key: string) => {
      const s = seriesOf(table, key, n);
      return s === undefined ? NaN : median(s.medians);
    };
    const game = med('straight');
    const saved = med('saves');
    const rolled = med('rollback');
    if (![game, saved, rolled].every(Number.isFinite)) continue;
    const restores = restoreTimes.get(n) ?? [];
    out.push(
      `At ${label(n)} sparks: a save ${fmt(saved - game)} ms, a restore ${fmt(median(restores))} ms (the median of ` +
        `${restores.length}); a rollback of ${ROLLBACK_FRAMES} frames (the restore and the ` +
        `frames again with their saves) ${fmt(rolled - saved)} ms, ${((rolled - saved) / (ROLLBACK_FRAMES * game)).toFixed(2)}x ` +
        `the ${ROLLBACK_FRAMES} frames alone.`,
      '',
    );
  }
  const cells = [...table.results].flatMap(([n, result]) =>
    result.series.map((series) => ({ where: `${series.spec.name} at ${label(n)}`, series })),
  );
  out.push(
    ...footnotes(cells, "Every frame the two other peers' pair sets matched the game's.").flatMap((l) => [l, '']),
  );
  return out.join('\n').trimEnd();
}

export function rollbackMismatches(table: RollbackTable | null): string[] {
  if (table === null) return [];
  return [...table.results].flatMap(([n, r]) =>
    r.series.filter((s) => s.mismatch !== '').map((s) => `${s.spec.name} at ${label(n)} (rollback): ${s.mismatch}`),
  );
}
