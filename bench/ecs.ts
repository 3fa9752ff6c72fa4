import { label } from './format.js';
import { addComponent, addEntity, createWorld, query, type World } from 'bitecs';
import {
  addQuadtree,
  forEachPair,
  markMoved,
  Phase,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  type CollisionStore,
  type PairVisitor,
} from '../src/index.js';
import { PairSum, type Contender, type ContenderSpec, type Select } from './contender.js';
import { runLockstep, UNCAPPED, type LockstepResult } from './lockstep.js';
import { oursSpec } from './ours.js';
import { cellText, footnotes, renderTable } from './report.js';
import { Scene, type Mode } from './scene.js';
import { spread } from './summary.js';

/**
 * The core bench's scene through a bitECS world: one entity per box (entity i + 1 is box i),
 * the plugin's plain-array components, a movement system that writes Position for the movers
 * (untimed: the game's cost), then, timed, the sync and collision systems and reading the
 * pairs the way a game would: from the pair entities (`query(world, [Collision])`) when they
 * are on, else from the fast path. With `detect: 'mark'` the movers are also marked (timed:
 * the plugin asks for it).
 */
class EcsGame implements Contender {
  private world!: World;
  private readonly position = { x: [] as number[], y: [] as number[] };
  private readonly bounds = { width: [] as number[], height: [] as number[] };
  private readonly collision: CollisionStore = { a: [], b: [], priority: [], phase: [], startedAt: [] };
  private readonly pairEntities: boolean;
  private readonly detect: 'scan' | 'mark';
  /** The frame's sum, set before each search (a placeholder until the first). */
  private sum = new PairSum();
  private readonly visit: PairVisitor = (a, b) => {
    this.sum.add(a - 1, b - 1);
  };

  constructor(pairEntities: boolean, detect: 'scan' | 'mark') {
    this.pairEntities = pairEntities;
    this.detect = detect;
  }

  setup(scene: Scene): void {
    this.world = addQuadtree(createWorld(), {
      width: scene.side,
      height: scene.side,
      pairEntities: this.pairEntities,
      detect: this.detect,
      position: this.position,
      bounds: this.bounds,
      collision: this.collision,
    });
    for (let i = 0; i < scene.n; i++) {
      const eid = addEntity(this.world);
      if (eid !== i + 1) throw new Error(`ecs bench: entity ${eid} for box ${i}, expected ${i + 1} in a fresh world`);
      this.bounds.width[eid] = scene.w[i];
      this.bounds.height[eid] = scene.h[i];
      this.position.x[eid] = scene.minX[i] + scene.w[i] * 0.5;
      this.position.y[eid] = scene.minY[i] + scene.h[i] * 0.5;
      addComponent(this.world, eid, this.position);
      addComponent(this.world, eid, this.bounds);
    }
  }

  /** The game's movement system: writes the movers' new centres. Not the plugin's cost. */
  prepare(scene: Scene): void {
    const { movers, minX, minY, w, h } = scene;
    const px = this.position.x;
    const py = this.position.y;
    for (let k = 0; k < movers.length; k++) {
      const i = movers[k];
      px[i + 1] = minX[i] + w[i] * 0.5;
      py[i + 1] = minY[i] + h[i] * 0.5;
    }
  }

  frame(scene: Scene, sum: PairSum): void {
    const world = this.world;
    if (this.detect === 'mark') for (let k = 0; k < scene.movers.length; k++) markMoved(world, scene.movers[k] + 1);
    quadtreeCollisionSystem(quadtreeSyncSystem(world));
    if (this.pairEntities) {
      const C = this.collision;
      const pairs = query(world, [C]);
      for (let k = 0; k < pairs.length; k++) {
        const pe = pairs[k];
        if (C.phase[pe] !== Phase.Exit) sum.add(C.a[pe] - 1, C.b[pe] - 1);
      }
    } else {
      this.sum = sum;
      forEachPair(world, this.visit, Phase.Enter | Phase.Stay);
    }
  }
}

/** The bare core and the ECS face variants, the core first (the reference and baseline). */
export function ecsSpecs(): ContenderSpec[] {
  return [
    { ...oursSpec(), key: 'core', name: 'core' },
    { key: 'ecs-off', name: 'ECS, pair entities off', note: '', create: () => new EcsGame(false, 'scan') },
    { key: 'ecs-on', name: 'ECS, pair entities on', note: '', create: () => new EcsGame(true, 'scan') },
    { key: 'ecs-mark', name: "ECS, off, detect 'mark'", note: '', create: () => new EcsGame(false, 'mark') },
  ];
}

export interface EcsBenchOptions {
  ns: number[];
  modes: Mode[];
  warmup: number;
  frames: (n: number) => number;
  seed: number;
  runs: number;
  select: Select;
  log: (line: string) => void;
}

/** One row: a mode and N, the variants that ran. */
export interface EcsRow {
  n: number;
  mode: Mode;
  result: LockstepResult;
}

/**
 * Runs the bare core and the ECS face variants on the same scene in lockstep, every frame's
 * pair set compared with the core's.
 */
export function runEcsBench(o: EcsBenchOptions): EcsRow[] {
  const specs = ecsSpecs().filter(o.select);
  if (specs.length === 0) return [];
  const reference = specs.findIndex((s) => s.key === 'core');
  const rows: EcsRow[] = [];
  for (const mode of o.modes) {
    for (const n of o.ns) {
      const result = runLockstep({
        title: `ecs, mode ${mode}, N=${label(n)}`,
        scene: () => new Scene(n, mode, o.seed),
        specs,
        budgets: specs.map(() => UNCAPPED),
        reference,
        oracle: null,
        warmup: o.warmup,
        frames: o.frames(n),
        runs: o.runs,
        log: o.log,
      });
      rows.push({ n, mode, result });
    }
  }
  return rows;
}

/** The results as a table, plain or Markdown, with the line on mismatches under it. */
export function ecsSection(rows: EcsRow[], markdown: boolean): string {
  if (rows.length === 0) return '';
  const specs = rows[0].result.series.map((s) => s.spec);
  const head = [
    'mode',
    'N',
    'pairs',
    ...specs.map((s) => (s.key === 'core' ? 'core ms' : s.name)),
    'movement system ms',
  ];
  const body = rows.map(({ n, mode, result }) => {
    const core = result.series.find((s) => s.spec.key === 'core');
    const moving = result.series.find((s) => s.prepare.length > 0);
    return [
      mode === 'all' ? 'all move' : '10% move',
      label(n),
      String(result.pairs),
      ...result.series.map((s) => cellText(s, core)),
      moving === undefined ? '-' : spread(moving.prepare),
    ];
  });
  const cells = rows.flatMap(({ n, mode, result }) =>
    result.series.map((series) => ({
      where: `${series.spec.name} at ${label(n)} (${mode === 'all' ? 'all' : '10%'})`,
      series,
    })),
  );
  const checked = rows.every((r) => r.result.checked)
    ? "Every frame produced the core's pair set."
    : 'Pairs NOT checked: the core did not run beside the ECS variants (see --only).';
  return [
    markdown ? '### The bitECS face against the bare core' : 'ECS face vs bare core:',
    '',
    ...(markdown
      ? [
          "Median ms per frame of sync + collision + reading the pairs, next to the core's move + step + " +
            "reading `current`, interleaved on copies of the same scene; the game's own movement system (not timed) is " +
            'listed apart.',
          '',
        ]
      : []),
    renderTable([head, ...body], markdown, 2),
    '',
    ...footnotes(cells, checked).flatMap((line) => [line, '']),
  ]
    .join('\n')
    .trimEnd();
}

export function ecsMismatches(rows: EcsRow[]): string[] {
  return rows.flatMap(({ n, mode, result }) =>
    result.series
      .filter((s) => s.mismatch !== '')
      .map((s) => `ECS ${s.spec.name} at ${label(n)} (${mode}): ${s.mismatch}`),
  );
}
