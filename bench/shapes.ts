/**
 * The shapes table: the bouncing scene with square items, every item a box against every item
 * a circle (the circle inscribed in its box), and what `contact` costs per pair on top.
 */

import { circlesOverlap, LooseQuadtree, Shape, type Contact } from '../src/core/index.js';
import { PairSum, type Contender, type ContenderSpec, type TableOptions } from './contender.js';
import { label } from './format.js';
import { runLockstep, UNCAPPED, type LockstepResult, type Oracle } from './lockstep.js';
import { cellText, footnotes, renderTable, seriesOf } from './report.js';
import { Scene } from './scene.js';
import { coreFrame } from './ours.js';
import { median } from './summary.js';

/** Largest N the brute-force check runs at. */
const BRUTE_MAX = 10_000;
const BRUTE_EVERY = 10;

/** The bouncing-box scene (every item moves) with square items: each one's height made its width. */
export class SquareScene extends Scene {
  constructor(n: number, seed: number) {
    super(n, 'all', seed);
    for (let i = 0; i < n; i++) {
      const s = this.w[i];
      this.h[i] = s;
      this.minY[i] = Math.min(this.minY[i], this.side - s);
      this.maxY[i] = this.minY[i] + s;
    }
  }
}

/** The core on the scene, its items boxes or circles, calling `contact` for every pair or not. */
class ShapeCore implements Contender<SquareScene> {
  private tree!: LooseQuadtree;
  private readonly out: Contact = { nx: 0, ny: 0, depth: 0, x: 0, y: 0 };
  /** Sum of the depths, so that the contact calls are not dead code. */
  depths = 0;

  constructor(
    private readonly circles: boolean,
    private readonly contacts: boolean,
  ) {}

  setup(scene: SquareScene): void {
    const tree = new LooseQuadtree({ width: scene.side, height: scene.side });
    for (let i = 0; i < scene.n; i++) {
      tree.insert(i, scene.minX[i], scene.minY[i], scene.maxX[i], scene.maxY[i]);
      if (this.circles) tree.setShape(i, Shape.Circle);
    }
    this.tree = tree;
  }

  frame(scene: SquareScene, sum: PairSum): void {
    const tree = this.tree;
    coreFrame(tree, scene, sum);
    if (!this.contacts) return;
    const { count, a, b } = tree.current;
    const out = this.out;
    let depths = 0;
    for (let p = 0; p < count; p++) depths += tree.contact(a[p], b[p], out).depth;
    this.depths += depths;
  }

  pairTests(): number {
    return this.tree.stats.pairTests;
  }
}

export const boxesSpec: ContenderSpec<SquareScene> = {
  key: 'boxes',
  name: 'boxes',
  note: '',
  create: () => new ShapeCore(false, false),
};
export const circlesSpec: ContenderSpec<SquareScene> = {
  key: 'circles',
  name: 'circles',
  note: '',
  create: () => new ShapeCore(true, false),
};
export const boxesContactSpec: ContenderSpec<SquareScene> = {
  key: 'boxes-contact',
  name: 'boxes + contact',
  note: '',
  create: () => new ShapeCore(false, true),
};
export const circlesContactSpec: ContenderSpec<SquareScene> = {
  key: 'circles-contact',
  name: 'circles + contact',
  note: '',
  create: () => new ShapeCore(true, true),
};

/** Every pair of circles tested, O(n^2), their boxes first as the broadphase does. */
function bruteCircles(every: number): Oracle<SquareScene> {
  return {
    name: 'brute force (circles)',
    every,
    find(s: SquareScene, sum: PairSum): void {
      const { n, minX, minY, maxX, maxY } = s;
      for (let i = 0; i < n; i++) {
        const xi = minX[i] * 0.5 + maxX[i] * 0.5,
          yi = minY[i] * 0.5 + maxY[i] * 0.5,
          ri = maxX[i] * 0.5 - minX[i] * 0.5;
        for (let j = i + 1; j < n; j++) {
          if (!(minX[i] < maxX[j] && minX[j] < maxX[i] && minY[i] < maxY[j] && minY[j] < maxY[i])) continue;
          const xj = minX[j] * 0.5 + maxX[j] * 0.5,
            yj = minY[j] * 0.5 + maxY[j] * 0.5,
            rj = maxX[j] * 0.5 - minX[j] * 0.5;
          if (circlesOverlap(xi, yi, ri, xj, yj, rj, false)) sum.add(i, j);
        }
      }
    },
  };
}

export interface ShapesTable {
  ns: number[];
  specs: ContenderSpec<SquareScene>[];
  results: Map<number, LockstepResult>;
}

export function runShapes(o: TableOptions): ShapesTable | null {
  const specs = [boxesSpec, circlesSpec, boxesContactSpec, circlesContactSpec].filter(o.select);
  if (specs.length === 0) return null;
  const table: ShapesTable = { ns: o.ns, specs, results: new Map() };
  const round = (key: string) => key.startsWith('circles');
  for (const n of o.ns) {
    const brute = n <= BRUTE_MAX && specs.some((s) => round(s.key));
    o.log(
      `shapes, N=${label(n)}: ${specs.length} contender${specs.length === 1 ? '' : 's'}` +
        (brute ? `, the circles checked by brute force every ${BRUTE_EVERY} frames` : ''),
    );
    table.results.set(
      n,
      runLockstep({
        title: `shapes, N=${label(n)}`,
        scene: () => new SquareScene(n, o.seed),
        specs,
        budgets: specs.map(() => UNCAPPED),
        // Boxes and circles find different pair sets: the circles are checked by brute force.
        reference: -1,
        oracle: brute ? bruteCircles(BRUTE_EVERY) : null,
        oracleChecks: (spec) => round(spec.key),
        warmup: o.warmup,
        frames: o.framesFor(n),
        runs: o.runs,
        log: o.log,
      }),
    );
  }
  return table;
}

/** What `contact` adds per pair, in ns: the median over the runs of (with - without) / pairs. */
function contactCost(table: ShapesTable, withKey: string, withoutKey: string, n: number): string {
  const w = seriesOf(table, withKey, n),
    wo = seriesOf(table, withoutKey, n);
  if (w === undefined || wo === undefined || w.pairs === 0) return '';
  const per = w.medians.map((m, i) => ((m - wo.medians[i]) * 1e6) / w.pairs);
  return `${Math.round(median(per))} ns (${Math.round(Math.min(...per))}–${Math.round(Math.max(...per))})`;
}

export function shapesSection(
  table: ShapesTable | null,
  markdown: boolean,
  ctx: { warmup: number; seed: number },
): string {
  if (table === null) return '';
  const head = ['contender', ...table.ns.map(label)];
  const body = table.specs.map((spec) => [
    spec.name,
    ...table.ns.map((n) => {
      const series = seriesOf(table, spec.key, n);
      const base = seriesOf(table, spec.key.endsWith('contact') ? spec.key.replace('-contact', '') : boxesSpec.key, n);
      return series === undefined ? '' : cellText(series, base);
    }),
  ]);
  const pairs = table.specs
    .filter((s) => !s.key.endsWith('contact'))
    .map((spec) => [
      `pairs per frame, ${spec.name}`,
      ...table.ns.map((n) => {
        const s = seriesOf(table, spec.key, n);
        return s === undefined ? '' : String(Math.round(s.pairs));
      }),
    ]);
  const costs = [
    ['boxes', 'boxes-contact'],
    ['circles', 'circles-contact'],
  ]
    .filter(([a, b]) => table.specs.some((s) => s.key === a) && table.specs.some((s) => s.key === b))
    .map(([a, b]) => [`contact per pair, ${a}`, ...table.ns.map((n) => contactCost(table, b, a, n))]);
  const out: string[] = [
    markdown
      ? '### Circles and contacts'
      : 'shapes: median ms per frame (range over runs) · time relative to the boxes (the + contact rows: to the same shape without contact)',
    '',
  ];
  if (markdown) {
    const frames = table.ns.map((n) => `${table.results.get(n)?.series[0]?.planned ?? '-'} at ${label(n)}`).join(', ');
    out.push(
      'The bouncing-box scene (all items move) with every item square, its height made its width: every item a box, ' +
        'against every item the circle inscribed in its box (`setShape(id, Shape.Circle)`); per frame every item is `move`d, then `step()`, pairs read from `current`. The + contact rows call `contact` for every current pair each ' +
        'frame; the cost per pair is the difference from the same shape without it, over the pairs. ' +
        `mulberry32 seed ${ctx.seed}; ${ctx.warmup} warm-up frames, then ${frames} measured per run.`,
      '',
    );
  }
  out.push(renderTable([head, ...body, ...pairs, ...costs], markdown), '');
  const cells = [...table.results].flatMap(([n, result]) =>
    result.series.map((series) => ({ where: `${series.spec.name} at ${label(n)}`, series })),
  );
  const checkedAt = [...table.results].filter(([, r]) => r.checked).map(([n]) => label(n));
  out.push(
    ...footnotes(
      cells,
      checkedAt.length > 0
        ? `The circles' pair sets were checked against brute force (every pair, circles by the exact test) on every ${BRUTE_EVERY}th frame and the last at ${checkedAt.join(', ')}, and matched it.`
        : 'Pair sets not checked (brute force runs up to 10k only).',
    ).flatMap((l) => [l, '']),
  );
  return out.join('\n').trimEnd();
}

export function shapesMismatches(table: ShapesTable | null): string[] {
  if (table === null) return [];
  return [...table.results].flatMap(([n, r]) =>
    r.series.filter((s) => s.mismatch !== '').map((s) => `${s.spec.name} at ${label(n)} (shapes): ${s.mismatch}`),
  );
}
