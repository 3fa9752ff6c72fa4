/** The bouncing-box tables: every peer against bitecs-quadtree, per mode and N. */

import { bruteSpec } from './brute.js';
import { classicQuadtreeSpec } from './classic-quadtree.js';
import type { ContenderSpec, TableOptions } from './contender.js';
import { detectCollisionsSpec } from './detect-collisions.js';
import { flatbushSpec } from './flatbush.js';
import { label } from './format.js';
import { gridSpec } from './grid.js';
import { runLockstep, TABLE_BUDGET, UNCAPPED, type LockstepResult, type Series } from './lockstep.js';
import { oursSpec } from './ours.js';
import { planckSpec } from './planck.js';
import { rapierSpec } from './rapier.js';
import { rbushSpec } from './rbush.js';
import { cellText, footnotes, renderTable, seriesOf } from './report.js';
import { AREA_PER_ITEM, MAX_SPEED, MIN_SPEED, Scene, SIZE_BANDS, type Mode } from './scene.js';
import { median } from './summary.js';
import { tunedNote, tuneSpecs, type Tuned, type TuneOptions } from './tune.js';

const OURS = 'bitecs-quadtree';

/** A median frame slower than this makes a contender skip the larger N of the same mode. */
const SLOW_FRAME_MS = 2000;

export interface BounceOptions extends TableOptions {
  modes: Mode[];
  tune: TuneOptions;
}

export interface BounceTable {
  mode: Mode;
  ns: number[];
  specs: ContenderSpec[];
  /** Per N: the lockstep result of the contenders that ran. */
  results: Map<number, LockstepResult>;
  /** Per contender key and N: why it did not run. */
  skipped: Map<string, Map<number, string>>;
  /** The settings the tunable contenders ran with. */
  tuned: Tuned[];
}

export function bounceSpecs(): ContenderSpec[] {
  return [
    oursSpec(),
    bruteSpec,
    gridSpec(),
    flatbushSpec(),
    rbushSpec(),
    planckSpec(),
    rapierSpec(),
    detectCollisionsSpec(),
    classicQuadtreeSpec,
  ];
}

export function runBounce(o: BounceOptions): BounceTable[] {
  const specs = bounceSpecs().filter(o.select);
  if (specs.length === 0) return [];
  return o.modes.map((mode) => runMode(mode, specs, o));
}

function runMode(mode: Mode, specs: ContenderSpec[], o: BounceOptions): BounceTable {
  const table: BounceTable = { mode, ns: o.ns, specs, results: new Map(), skipped: new Map(), tuned: [] };
  for (const spec of specs) table.skipped.set(spec.key, new Map());
  for (const n of o.ns) {
    const running = specs.filter((spec) => {
      const why = spec.maxN !== undefined && n > spec.maxN ? `N > ${label(spec.maxN)}` : slowAt(table, spec, n);
      if (why !== undefined) table.skipped.get(spec.key)?.set(n, why);
      return why === undefined;
    });
    if (running.length === 0) continue;
    const scene = () => new Scene(n, mode, o.seed);
    const where = `bounce, ${MODE_TITLE[mode].toLowerCase()}, ${label(n)}`;
    const tuned = tuneSpecs(running, where, scene, o.tune, table.tuned);
    // Brute force is the reference up to its largest N, bitecs-quadtree above.
    const refKey = n <= (bruteSpec.maxN ?? 0) ? bruteSpec.key : 'ours';
    const reference = running.findIndex((s) => s.key === refKey);
    o.log(
      `mode ${mode}, N=${label(n)}: ${running.length} contender${running.length === 1 ? '' : 's'}, ` +
        `reference ${reference >= 0 ? running[reference].name : 'none (not selected)'}`,
    );
    table.results.set(
      n,
      runLockstep({
        title: `mode ${mode}, N=${label(n)}`,
        scene,
        specs: tuned,
        budgets: running.map((_, i) => (i === reference ? UNCAPPED : TABLE_BUDGET)),
        reference,
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

/** Why a contender skips N: its median frame at a smaller N of the same mode was too slow. */
function slowAt(table: BounceTable, spec: ContenderSpec, n: number): string | undefined {
  for (const m of table.ns) {
    if (m >= n) break;
    const series = seriesOf(table, spec.key, m);
    const ms = series === undefined ? NaN : median(series.medians);
    if (ms > SLOW_FRAME_MS) return `median frame ${(ms / 1000).toFixed(1)} s at ${label(m)}`;
  }
  return undefined;
}

/** The heading of each mode's table. */
export const MODE_TITLE: Record<Mode, string> = { all: 'All items move', 10: '10% of the items move' };

function rows(table: BounceTable): string[][] {
  const head = ['contender', ...table.ns.map(label)];
  const body = table.specs.map((spec) => {
    const bad = table.ns.some((n) => (seriesOf(table, spec.key, n)?.mismatch ?? '') !== '');
    return [
      bad ? `${spec.name} (INVALID: pairs differ)` : spec.name,
      ...table.ns.map((n) => {
        const series = seriesOf(table, spec.key, n);
        if (series !== undefined) return cellText(series, seriesOf(table, 'ours', n));
        const why = table.skipped.get(spec.key)?.get(n);
        return why === undefined ? '' : `skipped (${why})`;
      }),
    ];
  });
  const pairs = ['pairs per frame', ...table.ns.map((n) => String(table.results.get(n)?.pairs ?? ''))];
  return [head, ...body, pairs];
}

/** The tables, their footnotes and (in Markdown) the scene and the contenders described. */
export function bounceSection(tables: BounceTable[], markdown: boolean, ctx: { warmup: number; seed: number }): string {
  if (tables.length === 0) return '';
  const first = tables[0];
  const frames = first.ns.map((n) => `${first.results.get(n)?.series[0]?.planned ?? '-'} at ${label(n)}`).join(', ');
  const bands = SIZE_BANDS.map((b) => `${b.share * 100}% ${b.min}-${b.max} px`).join(', ');
  const out: string[] = [];
  if (markdown) {
    out.push(
      `Boxes bouncing in a square world of N x ${AREA_PER_ITEM} px² (sides: ${bands}, width and height drawn ` +
        `apart; speeds ${MIN_SPEED}-${MAX_SPEED} px/s, dt 1/60, mulberry32 seed ${ctx.seed}). Each frame every ` +
        'contender takes the moves and produces the full set of strictly overlapping pairs. Baseline for the ratios: ' +
        `${OURS}. ${ctx.warmup} warm-up frames, then ${frames} measured per run.`,
    );
  }
  for (const table of tables) {
    const title = markdown
      ? `#### ${MODE_TITLE[table.mode]}`
      : `bouncing boxes, ${MODE_TITLE[table.mode].toLowerCase()}: ` +
        `median ms per frame (range over runs) · time relative to ${OURS}`;
    out.push('', title, '', renderTable(rows(table), markdown));
  }
  out.push('', ...footnotes(cellsOf(tables), checkedLine(tables)).flatMap((line) => [line, '']));
  if (markdown) {
    out.push('How each contender runs:');
    for (const spec of first.specs) out.push(`- **${spec.name}**: ${spec.note}${tunedNote(spec)}.`);
  }
  return out.join('\n').trimEnd();
}

function cellsOf(tables: BounceTable[]): { where: string; series: Series }[] {
  return tables.flatMap((t) =>
    [...t.results].flatMap(([n, result]) =>
      result.series.map((series) => ({
        where: `${series.spec.name} at ${label(n)} (${t.mode === 'all' ? 'all' : '10%'})`,
        series,
      })),
    ),
  );
}

function checkedLine(tables: BounceTable[]): string {
  const unchecked = tables.flatMap((t) =>
    [...t.results]
      .filter(([, result]) => !result.checked)
      .map(([n]) => `${label(n)} (${t.mode === 'all' ? 'all' : '10%'})`),
  );
  if (unchecked.length > 0) {
    return (
      `Pairs NOT checked at ${unchecked.join(', ')}: the reference (brute force up to 10k, ${OURS} above) ` +
      'did not run beside another contender (see --only).'
    );
  }
  return (
    `Every frame of every contender was checked against the reference pair set (brute force up to 10k, ${OURS} ` +
    'above), and matched it.'
  );
}

/** Mismatches, one line each, for the closing error report. */
export function bounceMismatches(tables: BounceTable[]): string[] {
  return cellsOf(tables)
    .filter((c) => c.series.mismatch !== '')
    .map((c) => `${c.where}: ${c.series.mismatch}`);
}
