/** The swept-bullets table: the core with 5% of the items swept at high speed, against the same scene unswept. */

import { LooseQuadtree, sweptContact } from '../src/core/index.js';
import { PairSum, type Contender, type ContenderSpec, type TableOptions } from './contender.js';
import { label } from './format.js';
import { runLockstep, UNCAPPED, type LockstepResult, type Oracle } from './lockstep.js';
import { cellText, footnotes, pairTestRows, renderTable, seriesOf } from './report.js';
import { DT, mulberry32, Scene, snap } from './scene.js';
import { coreFrame } from './ours.js';

/** Every BULLET_EVERY-th item is a bullet. */
const BULLET_EVERY = 20;
const BULLET_SIDE = 4;
/** Bullet speed in px/s: 20 px per frame at 60 FPS, five times its own size. */
const BULLET_SPEED = 1200;
/** Largest N the brute-force check runs at. */
const BRUTE_MAX = 10_000;
const BRUTE_EVERY = 10;

/**
 * The bouncing-box scene (every item moves) with every 20th item made a bullet: 4 px square,
 * 1,200 px/s in a random direction. Keeps each item's box before the last step, for the check.
 */
export class BulletScene extends Scene {
  readonly prevMinX: Float64Array;
  readonly prevMinY: Float64Array;
  readonly prevMaxX: Float64Array;
  readonly prevMaxY: Float64Array;

  constructor(n: number, seed: number) {
    super(n, 'all', seed);
    const rng = mulberry32(seed ^ 0x5eed);
    for (let i = 0; i < n; i += BULLET_EVERY) {
      const angle = rng() * 2 * Math.PI;
      this.w[i] = BULLET_SIDE;
      this.h[i] = BULLET_SIDE;
      this.minX[i] = snap(Math.min(this.minX[i], this.side - BULLET_SIDE));
      this.minY[i] = snap(Math.min(this.minY[i], this.side - BULLET_SIDE));
      this.maxX[i] = this.minX[i] + BULLET_SIDE;
      this.maxY[i] = this.minY[i] + BULLET_SIDE;
      this.vx[i] = Math.cos(angle) * BULLET_SPEED;
      this.vy[i] = Math.sin(angle) * BULLET_SPEED;
    }
    this.prevMinX = this.minX.slice();
    this.prevMinY = this.minY.slice();
    this.prevMaxX = this.maxX.slice();
    this.prevMaxY = this.maxY.slice();
  }

  override advance(): void {
    this.prevMinX.set(this.minX);
    this.prevMinY.set(this.minY);
    this.prevMaxX.set(this.maxX);
    this.prevMaxY.set(this.maxY);
    super.advance();
  }
}

/** The core on the scene, its bullets swept or not. */
class BulletCore implements Contender<BulletScene> {
  private tree!: LooseQuadtree;

  constructor(private readonly swept: boolean) {}

  setup(scene: BulletScene): void {
    const tree = new LooseQuadtree({ width: scene.side, height: scene.side });
    for (let i = 0; i < scene.n; i++) {
      tree.insert(i, scene.minX[i], scene.minY[i], scene.maxX[i], scene.maxY[i]);
      if (this.swept && i % BULLET_EVERY === 0) tree.setSwept(i, true);
    }
    this.tree = tree;
  }

  frame(scene: BulletScene, sum: PairSum): void {
    coreFrame(this.tree, scene, sum);
  }

  pairTests(): number {
    return this.tree.stats.pairTests;
  }
}

export const bulletsPlainSpec: ContenderSpec<BulletScene> = {
  key: 'unswept',
  name: 'bitecs-quadtree, bullets not swept',
  note: '',
  create: () => new BulletCore(false),
};

export const bulletsSweptSpec: ContenderSpec<BulletScene> = {
  key: 'swept',
  name: 'bitecs-quadtree, bullets swept',
  note: '',
  create: () => new BulletCore(true),
};

/** Every pair tested, O(n^2): bullets by the exact swept test from their previous box, the rest by overlap. */
function bruteSwept(every: number): Oracle<BulletScene> {
  const paths = new Float64Array(17);
  const load = (s: BulletScene, i: number, at: number): void => {
    const bullet = i % BULLET_EVERY === 0;
    paths[at] = bullet ? s.prevMinX[i] : s.minX[i];
    paths[at + 1] = bullet ? s.prevMinY[i] : s.minY[i];
    paths[at + 2] = bullet ? s.prevMaxX[i] : s.maxX[i];
    paths[at + 3] = bullet ? s.prevMaxY[i] : s.maxY[i];
    paths[at + 4] = s.minX[i];
    paths[at + 5] = s.minY[i];
    paths[at + 6] = s.maxX[i];
    paths[at + 7] = s.maxY[i];
  };
  return {
    name: 'brute force (swept test)',
    every,
    find(s: BulletScene, sum: PairSum): void {
      const { n, minX, minY, maxX, maxY } = s;
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) {
          if (i % BULLET_EVERY !== 0 && j % BULLET_EVERY !== 0) {
            if (minX[i] < maxX[j] && minX[j] < maxX[i] && minY[i] < maxY[j] && minY[j] < maxY[i]) sum.add(i, j);
            continue;
          }
          load(s, i, 0);
          load(s, j, 8);
          if (sweptContact(paths, false)) sum.add(i, j);
        }
      }
    },
  };
}

export type BulletOptions = TableOptions;

export interface BulletTable {
  ns: number[];
  specs: ContenderSpec<BulletScene>[];
  results: Map<number, LockstepResult>;
}

export function runBullets(o: BulletOptions): BulletTable | null {
  const specs = [bulletsPlainSpec, bulletsSweptSpec].filter(o.select);
  if (specs.length === 0) return null;
  const table: BulletTable = { ns: o.ns, specs, results: new Map() };
  for (const n of o.ns) {
    const brute = n <= BRUTE_MAX && specs.includes(bulletsSweptSpec);
    o.log(
      `bullets, N=${label(n)}: ${specs.length} contender${specs.length === 1 ? '' : 's'}` +
        (brute ? `, the swept one checked by brute force every ${BRUTE_EVERY} frames` : ''),
    );
    table.results.set(
      n,
      runLockstep({
        title: `bullets, N=${label(n)}`,
        scene: () => new BulletScene(n, o.seed),
        specs,
        budgets: specs.map(() => UNCAPPED),
        reference: -1,
        oracle: brute ? bruteSwept(BRUTE_EVERY) : null,
        oracleChecks: (spec) => spec.key === bulletsSweptSpec.key,
        warmup: o.warmup,
        frames: o.framesFor(n),
        runs: o.runs,
        log: o.log,
      }),
    );
  }
  return table;
}

export function bulletsSection(
  table: BulletTable | null,
  markdown: boolean,
  ctx: { warmup: number; seed: number },
): string {
  if (table === null) return '';
  const head = ['contender', ...table.ns.map(label)];
  const body = table.specs.map((spec) => [
    spec.name,
    ...table.ns.map((n) => {
      const series = seriesOf(table, spec.key, n);
      return series === undefined ? '' : cellText(series, seriesOf(table, bulletsPlainSpec.key, n));
    }),
  ]);
  const pairs = table.specs.map((spec) => [
    `pairs per frame, ${spec.key}`,
    ...table.ns.map((n) => {
      const s = seriesOf(table, spec.key, n);
      return s === undefined ? '' : String(s.pairs);
    }),
  ]);
  const tests = pairTestRows(table, (spec) => spec.key);
  const out: string[] = [
    markdown
      ? '### Swept bullets'
      : 'swept bullets: median ms per frame (range over runs) · time relative to the unswept run',
    '',
  ];
  if (markdown) {
    const frames = table.ns.map((n) => `${table.results.get(n)?.series[0]?.planned ?? '-'} at ${label(n)}`).join(', ');
    out.push(
      `The bouncing-box scene (all items move) with every ${BULLET_EVERY}th item a bullet: ${BULLET_SIDE} px square, ` +
        `${BULLET_SPEED.toLocaleString('en-US')} px/s (${BULLET_SPEED * DT} px a frame) in a random direction. Per frame every item is ` +
        '`move`d, then `step()`, pairs read from `current`. Swept, with `setSwept(id, true)`, a bullet pairs with ' +
        'everything its moving box touched during the frame; not swept (the baseline), only with what it overlaps at ' +
        `the end of it. mulberry32 seed ${ctx.seed}; ${ctx.warmup} warm-up frames, then ${frames} measured per run.`,
      '',
    );
  }
  out.push(renderTable([head, ...body, ...pairs, ...tests], markdown), '');
  const cells = [...table.results].flatMap(([n, result]) =>
    result.series.map((series) => ({ where: `${series.spec.name} at ${label(n)}`, series })),
  );
  const checkedAt = [...table.results].filter(([, r]) => r.checked).map(([n]) => label(n));
  out.push(
    ...footnotes(
      cells,
      checkedAt.length > 0
        ? `The swept run's pair set was checked against brute force (every pair, bullets by the exact swept test) on every ${BRUTE_EVERY}th frame and the last at ${checkedAt.join(', ')}, and matched it.`
        : 'Pair sets not checked (brute force runs up to 10k only).',
    ).flatMap((l) => [l, '']),
  );
  return out.join('\n').trimEnd();
}

export function bulletsMismatches(table: BulletTable | null): string[] {
  if (table === null) return [];
  return [...table.results].flatMap(([n, r]) =>
    r.series.filter((s) => s.mismatch !== '').map((s) => `${s.spec.name} at ${label(n)} (bullets): ${s.mismatch}`),
  );
}
