import { PairSum, type Contender, type ContenderSpec, type Steppable } from './contender.js';
import { fmt } from './format.js';
import { median } from './summary.js';

/**
 * Wall-time caps for one contender in one run: warm-up frames stop after `warmupMs` (not
 * before `minWarmup` frames), measured frames after `measureMs` (not before `minFrames`).
 * They keep the slow peers at large N from taking minutes; the reference is never capped.
 */
export interface Budget {
  warmupMs: number;
  measureMs: number;
  minWarmup: number;
  minFrames: number;
}
export const UNCAPPED: Budget = { warmupMs: Infinity, measureMs: Infinity, minWarmup: 0, minFrames: 0 };
/** Per run, for the peers in the main tables. */
export const TABLE_BUDGET: Budget = { warmupMs: 1000, measureMs: 4000, minWarmup: 2, minFrames: 5 };
/** Per run, for the maxDepth sweep. */
export const SWEEP_BUDGET: Budget = { warmupMs: 500, measureMs: 1500, minWarmup: 2, minFrames: 5 };

/** A stateless exact pair finder, run untimed on some frames as a second check of everyone. */
export interface Oracle<S> {
  readonly name: string;
  find(scene: S, sum: PairSum): void;
  /** Checks frames 0, every, 2 * every, ... and the last one. */
  readonly every: number;
}

export interface LockstepPlan<S extends Steppable> {
  /** Names the cell in log lines, e.g. "mode all, N=10k". */
  readonly title: string;
  /** A fresh copy of the deterministic scene: one per contender and run. */
  scene(): S;
  readonly specs: readonly ContenderSpec<S>[];
  readonly budgets: readonly Budget[];
  /** Index in `specs` of the contender the others are checked against every frame, or -1. */
  readonly reference: number;
  readonly oracle: Oracle<S> | null;
  /** The contenders the oracle checks (every one when left out): some find another pair set by design. */
  readonly oracleChecks?: (spec: { readonly key: string }) => boolean;
  /**
   * How each contender's pairs are compared with the reference's (all of them when left out):
   * `all`, only the tier-0 pairs (`top`: a budget may leave the others waiting), or `none`
   * (a contender that finds no pairs, such as the game without the plugin).
   */
  readonly compare?: (spec: { readonly key: string }) => 'all' | 'top' | 'none';
  readonly warmup: number;
  readonly frames: number;
  readonly runs: number;
  log(line: string): void;
}

/** One contender's numbers in one cell, per run. */
export interface Series {
  readonly spec: { readonly key: string; readonly name: string };
  /** Median ms of the run's measured frames (NaN when none). */
  readonly medians: number[];
  /** Median ms of the untimed `prepare` hook, when the contender has one. */
  readonly prepare: number[];
  /** Frames measured (fewer than `planned` when the budget ran out). */
  readonly frames: number[];
  readonly planned: number;
  /** `pairTests()` after the run's last frame, when the contender counts them. */
  readonly pairTests: number[];
  /** Mean pairs per frame the contender produced, last run. */
  pairs: number;
  /** The first frame whose pair set differed from the reference's or the oracle's, or ''. */
  mismatch: string;
}

export interface LockstepResult {
  readonly series: Series[];
  /** Mean pairs per frame (the reference's, else the first contender's), last run. */
  pairs: number;
  /** Whether any pair set was compared with another (false for a contender run alone). */
  checked: boolean;
}

declare const gc: ((options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async' }) => void) | undefined;

/** Full collection between runs, when node runs with --expose-gc. */
function collect(): void {
  if (typeof gc === 'function') gc();
}

/**
 * Young-generation collection before every timed frame, so one contender's garbage is not
 * scavenged on another's clock (untimed). Its own garbage it still pays for.
 */
function scavenge(): void {
  if (typeof gc === 'function') gc(MINOR);
}
const MINOR = { type: 'minor' } as const;

/**
 * Runs the contenders of one cell `runs` times. In a run every contender gets fresh state
 * and its own copy of the scene, and the frames are interleaved: frame f of each in turn,
 * starting one further along each frame so none always goes first. Drift on a shared machine
 * then hits all of them alike. A contender whose budget is spent stops taking frames (its
 * scene keeps stepping through the warm-up so it rejoins at the same frame); the others go
 * on. At the end of every frame each pair set is compared with the reference's.
 */
export function runLockstep<S extends Steppable>(plan: LockstepPlan<S>): LockstepResult {
  const result: LockstepResult = {
    series: plan.specs.map((spec) => ({
      spec,
      medians: [],
      prepare: [],
      frames: [],
      planned: plan.frames,
      pairTests: [],
      pairs: 0,
      mismatch: '',
    })),
    pairs: 0,
    checked: plan.reference >= 0 && plan.specs.length > 1,
  };
  for (let run = 0; run < plan.runs; run++) runOnce(plan, run, result);
  return result;
}

/** Per-contender state of one run. */
interface Lane<S> {
  scene: S;
  contender: Contender<S>;
  sum: PairSum;
  times: Float64Array;
  prepTimes: Float64Array;
  measured: number;
  warmed: number;
  spent: number;
  /** Skips the rest of the warm-up (its scene still steps). */
  cold: boolean;
  done: boolean;
  /** Ran the current frame. */
  ran: boolean;
  /** Pairs over the frames it ran, and those frames. */
  pairTotal: number;
  pairFrames: number;
}

function runOnce<S extends Steppable>(plan: LockstepPlan<S>, run: number, result: LockstepResult): void {
  collect(); // the previous run's contenders, before this run allocates its own
  const lanes: Lane<S>[] = plan.specs.map((spec) => {
    const scene = plan.scene();
    const contender = spec.create();
    contender.setup(scene);
    return {
      scene,
      contender,
      sum: new PairSum(),
      times: new Float64Array(plan.frames),
      prepTimes: new Float64Array(plan.frames),
      measured: 0,
      warmed: 0,
      spent: 0,
      cold: false,
      done: plan.frames === 0,
      ran: false,
      pairTotal: 0,
      pairFrames: 0,
    };
  });
  const oracleScene = plan.oracle === null ? null : plan.scene();
  const oracleSum = new PairSum();
  const total = plan.warmup + plan.frames;
  const k = lanes.length;
  collect(); // the garbage of the setups
  for (let f = 0; f < total; f++) {
    const measuring = f >= plan.warmup;
    if (f === plan.warmup) for (const lane of lanes) lane.spent = 0;
    for (let r = 0; r < k; r++) {
      const i = (f + r) % k;
      const lane = lanes[i];
      lane.ran = false;
      if (lane.done) continue;
      lane.scene.advance();
      if (!measuring && lane.cold) continue;
      playFrame(lane, measuring);
      settle(lane, plan.budgets[i], measuring, plan.frames);
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- playFrame and settle set it
      if (lane.ran) {
        lane.pairTotal += lane.sum.count;
        lane.pairFrames++;
      }
    }
    if (plan.reference >= 0 && lanes[plan.reference].ran) {
      const compare = plan.compare;
      compareWith(
        lanes[plan.reference].sum,
        plan.specs[plan.reference].name,
        lanes,
        result,
        f,
        run,
        compare === undefined ? null : plan.specs.map((spec) => compare(spec)),
      );
    }
    if (oracleScene !== null && plan.oracle !== null) {
      oracleScene.advance();
      const oracle = plan.oracle;
      const checks = plan.oracleChecks;
      if (f % oracle.every === 0 || f === total - 1) {
        oracleSum.reset();
        oracle.find(oracleScene, oracleSum);
        compareWith(
          oracleSum,
          oracle.name,
          lanes,
          result,
          f,
          run,
          checks === undefined ? null : plan.specs.map((spec) => (checks(spec) ? 'all' : 'none')),
        );
        result.checked = true;
      }
    }
  }
  lanes.forEach((lane, i) => {
    record(lane, result.series[i]);
    result.series[i].pairs = Math.round(lane.pairTotal / Math.max(1, lane.pairFrames));
  });
  result.pairs = result.series[plan.reference >= 0 ? plan.reference : 0].pairs;
  plan.log(
    `  run ${run + 1}/${plan.runs} ${plan.title}: ` +
      result.series
        .map(
          (s) =>
            `${s.spec.key} ${fmt(s.medians[run])} ms${s.frames[run] < plan.frames ? ` (${s.frames[run]} frames)` : ''}` +
            (s.mismatch !== '' ? ' MISMATCH' : ''),
        )
        .join(' · '),
  );
}

/** One timed frame of one contender, with its untimed preparation first. */
function playFrame<S>(lane: Lane<S>, measuring: boolean): void {
  const { contender, scene, sum } = lane;
  if (contender.prepare !== undefined) {
    const t0 = performance.now();
    contender.prepare(scene);
    if (measuring) lane.prepTimes[lane.measured] = performance.now() - t0;
  }
  sum.reset();
  scavenge();
  const t0 = performance.now();
  contender.frame(scene, sum);
  const ms = performance.now() - t0;
  lane.ran = true;
  if (measuring) lane.times[lane.measured] = ms;
  lane.spent += ms;
}

/** Counts the frame just played against the lane's budget. */
function settle<S>(lane: Lane<S>, budget: Budget, measuring: boolean, frames: number): void {
  if (!measuring) {
    lane.warmed++;
    lane.cold = lane.warmed >= budget.minWarmup && lane.spent >= budget.warmupMs;
    return;
  }
  lane.measured++;
  lane.done = lane.measured >= frames || (lane.measured >= budget.minFrames && lane.spent >= budget.measureMs);
}

/**
 * Records a mismatch for each lane that ran frame f with a pair set other than `expected`
 * (per lane, `how` says whether all its pairs are compared, the tier-0 ones, or none).
 */
function compareWith<S>(
  expected: PairSum,
  source: string,
  lanes: Lane<S>[],
  result: LockstepResult,
  f: number,
  run: number,
  how: ('all' | 'top' | 'none')[] | null = null,
): void {
  for (let i = 0; i < lanes.length; i++) {
    const lane = lanes[i];
    const series = result.series[i];
    const mode = how === null ? 'all' : how[i];
    if (mode === 'none' || !lane.ran || lane.sum === expected || series.mismatch !== '') continue;
    if (mode === 'all' ? lane.sum.equals(expected) : lane.sum.equalsTop(expected)) continue;
    series.mismatch =
      mode === 'all'
        ? `run ${run + 1}, frame ${f}: ${lane.sum.count} pairs (fingerprint ${hex(lane.sum.hash)}), ` +
          `${source} ${expected.count} (${hex(expected.hash)})`
        : `run ${run + 1}, frame ${f}: ${lane.sum.topCount} tier-0 pairs (fingerprint ${hex(lane.sum.topHash)}), ` +
          `${source} ${expected.topCount} (${hex(expected.topHash)})`;
  }
}

function record<S>(lane: Lane<S>, series: Series): void {
  series.medians.push(median(lane.times.subarray(0, lane.measured)));
  series.frames.push(lane.measured);
  if (lane.contender.prepare !== undefined) series.prepare.push(median(lane.prepTimes.subarray(0, lane.measured)));
  if (lane.contender.pairTests !== undefined) series.pairTests.push(lane.contender.pairTests());
}

function hex(h: number): string {
  return (h >>> 0).toString(16).padStart(8, '0');
}
