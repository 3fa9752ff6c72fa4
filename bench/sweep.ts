import { label } from './format.js';
import { runLockstep, SWEEP_BUDGET, UNCAPPED, type LockstepResult } from './lockstep.js';
import { oursSpec } from './ours.js';
import { renderTable } from './report.js';
import { Scene, type Mode } from './scene.js';
import type { ContenderSpec, Select } from './contender.js';
import { median, spread } from './summary.js';

const OURS = 'bitecs-quadtree';

export interface SweepOptions {
  modes: Mode[];
  ns: number[];
  depths: number[];
  warmup: number;
  frames: number;
  seed: number;
  runs: number;
  select: Select;
  log: (line: string) => void;
}

export interface Sweep {
  depths: number[];
  frames: number;
  /** Per mode and N ("all/10000"): the depths run in lockstep, in the order of `depths`. */
  results: Map<string, LockstepResult>;
}

/**
 * bitecs-quadtree at each maxDepth, each mode and N, the depths interleaved like the peers
 * of a table: shorter runs, for the note under the tables. The depths must agree on every
 * frame's pairs; the first depth is their reference.
 */
export function runSweep(o: SweepOptions): Sweep | null {
  const depths = o.depths.filter((d) => o.select(depthSpec(d)));
  if (depths.length === 0) return null;
  const specs = depths.map(depthSpec);
  const sweep: Sweep = { depths, frames: o.frames, results: new Map() };
  for (const mode of o.modes) {
    for (const n of o.ns) {
      sweep.results.set(
        `${mode}/${n}`,
        runLockstep({
          title: `sweep, mode ${mode}, N=${label(n)}`,
          scene: () => new Scene(n, mode, o.seed),
          specs,
          budgets: specs.map((_, i) => (i === 0 ? UNCAPPED : SWEEP_BUDGET)),
          reference: 0,
          oracle: null,
          warmup: o.warmup,
          frames: o.frames,
          runs: o.runs,
          log: o.log,
        }),
      );
    }
  }
  return sweep;
}

function depthSpec(d: number): ContenderSpec {
  return oursSpec(d, `${OURS} maxDepth ${d}`);
}

export function sweepSection(sweep: Sweep, markdown: boolean): string {
  const head = ['mode', 'N', ...sweep.depths.map((d) => `maxDepth ${d}`), 'best'];
  // The page keeps the counts from 10k up: the tables' smallest ones add rows, not a choice.
  const shown = [...sweep.results].filter(([key]) => !markdown || Number(key.split('/')[1]) >= 10_000);
  const body = shown.map(([key, result]) => {
    const [mode, n] = key.split('/');
    const medians = result.series.map((s) => median(s.medians));
    const best = sweep.depths[medians.indexOf(Math.min(...medians))];
    return [
      mode === 'all' ? 'all' : '10%',
      label(Number(n)),
      ...result.series.map((s) => spread(s.medians)),
      String(best),
    ];
  });
  const bad = sweepMismatches(sweep);
  return [
    ...(markdown ? ['#### maxDepth sweep', ''] : []),
    `maxDepth sweep of ${OURS} (median ms per frame over up to ${sweep.frames} frames, range over runs; the tables ` +
      `use the library default, round(log2(side / 40))${markdown ? '; from 10k items up' : ''}):`,
    '',
    renderTable([head, ...body], markdown, 2),
    ...(bad.length > 0 ? ['', ...bad.map((m) => `✗ ${m}`)] : []),
  ].join('\n');
}

export function sweepMismatches(sweep: Sweep): string[] {
  return [...sweep.results].flatMap(([key, result]) =>
    result.series
      .filter((s) => s.mismatch !== '')
      .map((s) => `${s.spec.name} vs maxDepth ${sweep.depths[0]} (${key}): ${s.mismatch}`),
  );
}
