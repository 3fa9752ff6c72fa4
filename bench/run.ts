import { fmt, label } from './format.js';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { bruteSpec } from './brute.js';
import { classicQuadtreeSpec } from './classic-quadtree.js';
import { PairSum, type ContenderSpec } from './contender.js';
import { detectCollisionsSpec } from './detect-collisions.js';
import { flatbushSpec } from './flatbush.js';
import { gridSpec } from './grid.js';
import { oursSpec } from './ours.js';
import { ecsTable, runEcsBench } from './ecs.js';
import { planckSpec } from './planck.js';
import { rbushSpec } from './rbush.js';
import { AREA_PER_ITEM, DEFAULT_SEED, MAX_SPEED, MIN_SPEED, Scene, SIZE_BANDS, type Mode } from './scene.js';

const USAGE = `Usage: npm run bench -- [options]
  --n 1000,10000       item counts (default 1000,10000,50000,100000)
  --mode all|10|both   every item moves, a fixed 10% moves, or both (default both)
  --frames F           measured frames at every N (default 120 up to 10k, 60 at 50k, 40 above)
  --warmup W           unmeasured frames first (default 20)
  --only a,b           contenders whose name contains one of these (the reference always runs)
  --depths 6,7,8       maxDepth values for the sweep of bitecs-quadtree (default 6..10)
  --no-sweep           skip the maxDepth sweep
  --no-ecs             skip the bitECS-face overhead table
  --seed S             scene seed (default ${DEFAULT_SEED})
  --markdown           print the results as a README-ready Markdown section
  --quick              smoke run: N = 1k, 10k, few frames, small sweep`;

/** A median frame slower than this makes a contender skip the larger N of the same mode. */
const SLOW_FRAME_MS = 2000;

/**
 * Wall-time caps per contender and N: warm-up stops after `warmupMs` (but not before
 * `minWarmup` frames), measurement after `measureMs` (not before `minFrames`). They keep the
 * slow peers at large N from taking minutes; the reference is never capped.
 */
interface Budget {
  warmupMs: number;
  measureMs: number;
  minWarmup: number;
  minFrames: number;
}
const TABLE_BUDGET: Budget = { warmupMs: 3000, measureMs: 10_000, minWarmup: 3, minFrames: 10 };
const SWEEP_BUDGET: Budget = { warmupMs: 1000, measureMs: 2000, minWarmup: 3, minFrames: 5 };
const UNCAPPED: Budget = { warmupMs: Infinity, measureMs: Infinity, minWarmup: 0, minFrames: 0 };

const OURS = 'bitecs-quadtree';

interface Cell {
  median: number;
  p95: number;
  /** Frames measured (fewer than planned when the time budget ran out). */
  frames: number;
  planned: number;
  /** First frame whose pair set differs from the reference, or -1. */
  mismatch: number;
  detail: string;
  skipped: string;
}

interface Table {
  mode: Mode;
  ns: number[];
  rows: Map<string, Map<number, Cell>>;
  pairs: Map<number, number>;
  reference: Map<number, string>;
}

declare const gc: (() => void) | undefined;

function collect(): void {
  if (typeof gc === 'function') gc();
}

function main(): void {
  const { values } = parseArgs({
    options: {
      n: { type: 'string' },
      mode: { type: 'string', default: 'both' },
      frames: { type: 'string' },
      warmup: { type: 'string' },
      only: { type: 'string' },
      depths: { type: 'string' },
      'no-sweep': { type: 'boolean', default: false },
      'no-ecs': { type: 'boolean', default: false },
      seed: { type: 'string' },
      markdown: { type: 'boolean', default: false },
      quick: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const quick = values.quick;
  const ns = numbers(values.n ?? (quick ? '1000,10000' : '1000,10000,50000,100000'), 'n');
  const modes: Mode[] = values.mode === 'both' ? ['all', '10'] : values.mode === 'all' || values.mode === '10'
    ? [values.mode] : usage(`--mode must be all, 10 or both (got ${values.mode})`);
  const fixedFrames = values.frames === undefined ? undefined : numbers(values.frames, 'frames')[0];
  const warmup = values.warmup === undefined ? (quick ? 5 : 20) : numbers(values.warmup, 'warmup')[0];
  const framesFor = (n: number) => fixedFrames ?? (quick ? 20 : n <= 10_000 ? 120 : n <= 50_000 ? 60 : 40);
  const seed = values.seed === undefined ? DEFAULT_SEED : numbers(values.seed, 'seed')[0];
  const only = values.only?.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s.length > 0);
  const depths = numbers(values.depths ?? (quick ? '7,8,9' : '6,7,8,9,10'), 'depths');
  if (typeof gc !== 'function') log('note: run with --expose-gc for a collection between contenders');

  const specs: ContenderSpec[] = [
    oursSpec(), bruteSpec, gridSpec(), flatbushSpec, rbushSpec, planckSpec(), detectCollisionsSpec(), classicQuadtreeSpec,
  ];
  const selected = specs.filter((s) => only === undefined || only.some((o) => s.name.toLowerCase().includes(o)));
  if (selected.length === 0) usage(`--only matched no contender (names: ${specs.map((s) => s.name).join(', ')})`);

  const started = performance.now();
  const tables: Table[] = [];
  for (const mode of modes) tables.push(runMode(mode, ns, warmup, framesFor, seed, specs, selected));
  const sweep = values['no-sweep'] ? null : runSweep(ns, depths, quick ? 3 : 10, quick ? 10 : 30, seed);
  // The ECS face against the bare core, on the same scenes (up to 50k: bitECS entity churn
  // for the pair entities dominates beyond).
  const ecsNs = ns.filter((n) => n <= 50_000);
  const ecs = values['no-ecs'] || ecsNs.length === 0 ? null
    : runEcsBench({ ns: ecsNs, modes, warmup, frames: (n) => Math.min(framesFor(n), 100), seed, log });
  log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const context = { warmup, framesFor, seed, ns };
  console.log(values.markdown ? markdown(tables, sweep, selected, context) : plain(tables, sweep));
  if (ecs !== null) {
    console.log(values.markdown
      ? '\n### The bitECS face against the bare core\n\nMedian ms per frame of sync + collision + reading the pairs, next to the core\'s move + step + reading `current`, run in lockstep on the same scene; the game\'s own movement system is listed apart.\n'
      : '\nECS face vs bare core:');
    console.log(ecsTable(ecs, values.markdown));
    if (ecs.some((r) => r.mismatches > 0)) process.exitCode = 1;
  }
  const bad = tables.flatMap((t) => [...t.rows].flatMap(([name, cells]) =>
    [...cells].filter(([, c]) => c.mismatch >= 0).map(([n, c]) => `${name} at N=${n}, mode ${t.mode}: ${c.detail}`)));
  if (sweep !== null) bad.push(...sweep.mismatches);
  if (bad.length > 0) {
    console.error(`\nCHECKSUM MISMATCH (${bad.length}):\n  ${bad.join('\n  ')}`);
    process.exitCode = 1;
  }
}

function runMode(mode: Mode, ns: number[], warmup: number, framesFor: (n: number) => number, seed: number,
  specs: ContenderSpec[], selected: ContenderSpec[]): Table {
  const table: Table = { mode, ns, rows: new Map(), pairs: new Map(), reference: new Map() };
  const slow = new Map<string, string>();
  for (const spec of selected) table.rows.set(spec.name, new Map());
  for (const n of ns) {
    const frames = framesFor(n);
    const ref = n <= (bruteSpec.maxN ?? 0) ? bruteSpec : specs.find((s) => s.name === OURS)!;
    table.reference.set(n, ref.name);
    log(`mode ${mode}, N=${n}: reference ${ref.name}`);
    const refRun = measure(ref, n, mode, seed, warmup, frames, UNCAPPED, null);
    table.pairs.set(n, Math.round(refRun.counts.reduce((s, c) => s + c, 0) / refRun.counts.length));
    for (const spec of selected) {
      const cells = table.rows.get(spec.name)!;
      const skip = spec.maxN !== undefined && n > spec.maxN ? `N > ${label(spec.maxN)}` : slow.get(spec.name);
      if (skip !== undefined) {
        cells.set(n, { median: NaN, p95: NaN, frames: 0, planned: frames, mismatch: -1, detail: '', skipped: skip });
        continue;
      }
      const run = spec === ref ? refRun : measure(spec, n, mode, seed, warmup, frames, TABLE_BUDGET, refRun);
      cells.set(n, run.cell);
      if (run.cell.median > SLOW_FRAME_MS) slow.set(spec.name, `median frame ${(run.cell.median / 1000).toFixed(1)} s at ${label(n)}`);
    }
  }
  return table;
}

interface Run {
  cell: Cell;
  /** Pair count and fingerprint of every frame run, warm-up included. */
  counts: Int32Array;
  hashes: Int32Array;
}

/**
 * Runs one contender on a fresh scene: up to `warmup` frames, then up to `frames` timed
 * frames, within the budget. Every frame's pair set is compared with `ref` when given (the
 * scene is deterministic, so frame f is the same world for every contender).
 */
function measure(spec: ContenderSpec, n: number, mode: Mode, seed: number, warmup: number, frames: number,
  budget: Budget, ref: Run | null): Run {
  collect();
  const scene = new Scene(n, mode, seed);
  const contender = spec.create();
  const sum = new PairSum();
  const counts = new Int32Array(warmup + frames);
  const hashes = new Int32Array(warmup + frames);
  const times = new Float64Array(frames);
  let mismatch = -1;
  let detail = '';
  let f = 0;
  let measured = 0;
  let spent = 0;
  const frame = (): number => {
    scene.advance();
    sum.reset();
    const t0 = performance.now();
    contender.frame(scene, sum);
    const ms = performance.now() - t0;
    counts[f] = sum.count;
    hashes[f] = sum.hash;
    if (ref !== null && mismatch < 0 && f < ref.counts.length &&
        (ref.counts[f] !== sum.count || ref.hashes[f] !== sum.hash)) {
      mismatch = f;
      detail = `frame ${f}: ${sum.count} pairs (fingerprint ${hex(sum.hash)}), reference ${ref.counts[f]} (${hex(ref.hashes[f])})`;
      log(`  MISMATCH ${spec.name}: ${detail}`);
    }
    f++;
    return ms;
  };
  contender.setup(scene);
  for (let w = 0; w < warmup && (w < budget.minWarmup || spent < budget.warmupMs); w++) spent += frame();
  spent = 0;
  while (measured < frames && (measured < budget.minFrames || spent < budget.measureMs)) {
    const ms = frame();
    times[measured++] = ms;
    spent += ms;
  }
  const sorted = times.slice(0, measured).sort();
  const cell: Cell = {
    median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), frames: measured, planned: frames,
    mismatch, detail, skipped: '',
  };
  log(`  ${spec.name.padEnd(32)} median ${fmt(cell.median)} ms  p95 ${fmt(cell.p95)} ms  frames ${measured}` +
    `  pairs ${counts[f - 1]}${mismatch >= 0 ? '  MISMATCH' : ''}`);
  return { cell, counts: counts.slice(0, f), hashes: hashes.slice(0, f) };
}

interface Sweep {
  depths: number[];
  frames: number;
  /** Median ms per mode, N and depth. */
  ms: Map<string, number>;
  /** Runs whose pairs differ from those of the first depth. */
  mismatches: string[];
}

/**
 * bitecs-quadtree at each maxDepth, each N and mode: shorter runs, for the note under the
 * tables. The depths must agree on every frame's pairs; the first depth is their reference.
 */
function runSweep(ns: number[], depths: number[], warmup: number, frames: number, seed: number): Sweep {
  const sweep: Sweep = { depths, frames, ms: new Map(), mismatches: [] };
  for (const mode of ['all', '10'] as Mode[]) {
    for (const n of ns) {
      log(`sweep: mode ${mode}, N=${n}`);
      let first: Run | null = null;
      for (const d of depths) {
        const run = measure(oursSpec(d, `${OURS} maxDepth ${d}`), n, mode, seed, warmup, frames, SWEEP_BUDGET, first);
        first ??= run;
        sweep.ms.set(`${mode}/${n}/${d}`, run.cell.median);
        if (run.cell.mismatch >= 0) sweep.mismatches.push(`maxDepth ${d} vs ${depths[0]} at ${label(n)} (${mode}): ${run.cell.detail}`);
      }
    }
  }
  return sweep;
}

function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

function cellText(table: Table, name: string, n: number): string {
  const cell = table.rows.get(name)?.get(n);
  if (cell === undefined) return '';
  if (cell.skipped !== '') return `skipped (${cell.skipped})`;
  const ours = table.rows.get(OURS)?.get(n);
  const ratio = ours !== undefined && ours.skipped === '' ? ` · ${(cell.median / ours.median).toFixed(1)}x` : '';
  const capped = cell.frames < cell.planned ? '†' : '';
  return `${fmt(cell.median)} (${fmt(cell.p95)})${capped}${ratio}${cell.mismatch >= 0 ? ' ✗' : ''}`;
}

function rowName(table: Table, name: string): string {
  const bad = [...table.rows.get(name)!.values()].some((c) => c.mismatch >= 0);
  return bad ? `${name} (INVALID: pairs differ)` : name;
}

const MODE_TITLE: Record<Mode, string> = { all: 'every item moves each frame', 10: 'a fixed 10% of the items move' };

function grid(table: Table): string[][] {
  const head = ['contender', ...table.ns.map(label)];
  const rows = [...table.rows.keys()].map((name) => [rowName(table, name), ...table.ns.map((n) => cellText(table, name, n))]);
  const pairs = ['pairs per frame', ...table.ns.map((n) => String(table.pairs.get(n) ?? ''))];
  return [head, ...rows, pairs];
}

function plain(tables: Table[], sweep: Sweep | null): string {
  const out: string[] = [];
  for (const table of tables) {
    out.push('', `mode ${table.mode}: ${MODE_TITLE[table.mode]} — median ms per frame (p95) · time relative to ${OURS}`);
    const rows = grid(table);
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
    for (const r of rows) out.push(r.map((s, c) => s.padEnd(widths[c])).join('  '));
  }
  const notes = footnotes(tables);
  if (notes.length > 0) out.push('', ...notes);
  if (sweep !== null) out.push('', ...sweepLines(sweep, (cells) => cells.join('  ')));
  return out.join('\n');
}

function markdown(tables: Table[], sweep: Sweep | null, selected: ContenderSpec[],
  ctx: { warmup: number; framesFor: (n: number) => number; seed: number; ns: number[] }): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  const date = new Date().toISOString().slice(0, 10);
  const bands = SIZE_BANDS.map((b) => `${b.share * 100}% ${b.min}-${b.max} px`).join(', ');
  const out: string[] = [
    '## Performance',
    '',
    `${date} · ${cpu} · ${os.cpus().length} cores · Node ${process.version}`,
    '',
    `Boxes bouncing in a square world of N x ${AREA_PER_ITEM} px² (sides: ${bands}, width and height drawn apart; ` +
    `speeds ${MIN_SPEED}-${MAX_SPEED} px/s, dt 1/60, mulberry32 seed ${ctx.seed}). Each frame every contender takes the ` +
    `moves and produces the full set of strictly overlapping pairs. Cells: median ms per frame (p95) · time relative to ` +
    `${OURS}; ${ctx.warmup} warm-up frames, then ${ctx.ns.map((n) => `${ctx.framesFor(n)} at ${label(n)}`).join(', ')}. ` +
    'Every frame of every contender is checked against the reference pair set (brute force up to 10k, ' +
    `${OURS} above); ✗ marks a mismatch.`,
  ];
  for (const table of tables) {
    out.push('', `### ${table.mode === 'all' ? 'All items move' : '10% of the items move'}`, '');
    const rows = grid(table);
    out.push(mdRow(rows[0]), mdRow(rows[0].map((_, c) => (c === 0 ? '---' : '---:'))));
    for (const r of rows.slice(1)) out.push(mdRow(r));
  }
  const notes = footnotes(tables);
  for (const line of notes) out.push('', line);
  out.push('', 'How each contender runs:', '');
  for (const spec of selected) out.push(`- **${spec.name}**: ${spec.note}.`);
  if (sweep !== null) out.push('', ...sweepLines(sweep, mdRow));
  return out.join('\n');
}

/** Lines on capped frame counts and mismatches, for under the tables. */
function footnotes(tables: Table[]): string[] {
  const capped: string[] = [];
  const bad: string[] = [];
  for (const table of tables) {
    for (const [name, cells] of table.rows) {
      for (const [n, c] of cells) {
        const where = `${name} at ${label(n)} (${table.mode === 'all' ? 'all' : '10%'})`;
        if (c.skipped === '' && c.frames < c.planned) capped.push(`${where}: ${c.frames}`);
        if (c.mismatch >= 0) bad.push(`✗ ${where}, reference ${table.reference.get(n)}: ${c.detail}`);
      }
    }
  }
  const lines: string[] = [];
  if (capped.length > 0) lines.push(`† fewer frames measured, to keep the run short: ${capped.join('; ')}.`);
  if (bad.length > 0) lines.push(...bad);
  else lines.push('Every contender produced the reference pair set in every frame.');
  return lines;
}

function sweepLines(sweep: Sweep, row: (cells: string[]) => string): string[] {
  const keys = [...sweep.ms.keys()];
  const ns = [...new Set(keys.map((k) => Number(k.split('/')[1])))];
  const lines = [
    `maxDepth sweep of ${OURS} (median ms per frame over up to ${sweep.frames} frames; the tables use the library default, round(log2(side / 40))):`,
    '',
  ];
  const head = ['mode', 'N', ...sweep.depths.map((d) => `maxDepth ${d}`), 'best'];
  lines.push(row(head));
  if (row === mdRow) lines.push(mdRow(head.map((_, c) => (c < 2 ? '---' : '---:'))));
  for (const mode of ['all', '10']) {
    for (const n of ns) {
      const ms = sweep.depths.map((d) => sweep.ms.get(`${mode}/${n}/${d}`) ?? NaN);
      const best = sweep.depths[ms.indexOf(Math.min(...ms))];
      lines.push(row([mode === 'all' ? 'all' : '10%', label(n), ...ms.map(fmt), String(best)]));
    }
  }
  if (sweep.mismatches.length > 0) lines.push('', ...sweep.mismatches.map((m) => `✗ ${m}`));
  return lines;
}

function mdRow(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}



function hex(h: number): string {
  return (h >>> 0).toString(16).padStart(8, '0');
}

function numbers(text: string, flag: string): number[] {
  const list = text.split(',').map((s) => Number(s.trim()));
  if (list.length === 0 || list.some((v) => !Number.isInteger(v) || v < 0)) usage(`--${flag} takes non-negative integers (got ${text})`);
  return list;
}

function usage(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

main();
