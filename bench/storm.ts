/** The particle-storm table: the plugin against the hand-written grid a game would start with. */

import type { ContenderSpec, TableOptions } from './contender.js';
import { label } from './format.js';
import { runLockstep, TABLE_BUDGET, UNCAPPED, type LockstepResult, type Series } from './lockstep.js';
import { rapierSpec } from './rapier.js';
import { cellText, footnotes, renderTable, seriesOf } from './report.js';
import { STORM_BRUTE_MAX_DUST, stormBrute } from './storm-brute.js';
import { stormEcsOffSpec, stormEcsOnSpec } from './storm-ecs.js';
import { STORM_CELL, stormGridSpec } from './storm-grid.js';
import { stormCoreSpec } from './storm-ours.js';
import { STORM, StormScene } from './storm-scene.js';
import { median, spread } from './summary.js';
import { tunedNote, tuneSpecs, type Tuned, type TuneOptions } from './tune.js';

const BASELINE = stormGridSpec.name;
/** Frames between the brute-force checks (frame 0, every this many, and the last). */
const BRUTE_EVERY = 10;

/** `ns` are the dust counts. */
export interface StormOptions extends TableOptions {
  tune: TuneOptions;
}

/** The storm's contenders, the hand-written grid (the reference) first. */
export function stormSpecs(): ContenderSpec<StormScene>[] {
  return [stormGridSpec, stormCoreSpec, stormEcsOffSpec, stormEcsOnSpec, rapierSpec<StormScene>()];
}

export interface StormTable {
  ns: number[];
  specs: ContenderSpec<StormScene>[];
  results: Map<number, LockstepResult>;
  /** Whether the brute-force check ran at each N. */
  brute: Map<number, boolean>;
  /** The settings the tunable contenders ran with. */
  tuned: Tuned[];
}

export function runStorm(o: StormOptions): StormTable | null {
  const specs = stormSpecs().filter(o.select);
  if (specs.length === 0) return null;
  const table: StormTable = { ns: o.ns, specs, results: new Map(), brute: new Map(), tuned: [] };
  const reference = specs.indexOf(stormGridSpec);
  for (const n of o.ns) {
    const brute = n <= STORM_BRUTE_MAX_DUST && o.select({ key: 'brute', name: 'brute force' });
    table.brute.set(n, brute);
    o.log(
      `storm, N=${label(n)}: ${specs.length} contender${specs.length === 1 ? '' : 's'}, ` +
        `reference ${reference >= 0 ? BASELINE : 'none (not selected)'}${brute ? `, brute force every ${BRUTE_EVERY} frames` : ''}`,
    );
    const scene = () => new StormScene(n, o.seed);
    const tuned = tuneSpecs(specs, `storm, ${label(n)}`, scene, o.tune, table.tuned);
    table.results.set(
      n,
      runLockstep({
        title: `storm, N=${label(n)}`,
        scene,
        specs: tuned,
        budgets: specs.map((_, i) => (i === reference ? UNCAPPED : TABLE_BUDGET)),
        reference,
        oracle: brute ? stormBrute(BRUTE_EVERY) : null,
        warmup: o.warmup,
        frames: o.framesFor(n),
        runs: o.runs,
        log: o.log,
      }),
    );
  }
  return table;
}

function rows(table: StormTable): string[][] {
  const head = ['contender', ...table.ns.map(label)];
  const body = table.specs.map((spec) => {
    const bad = table.ns.some((n) => (seriesOf(table, spec.key, n)?.mismatch ?? '') !== '');
    return [
      bad ? `${spec.name} (INVALID: pairs differ)` : spec.name,
      ...table.ns.map((n) => {
        const series = seriesOf(table, spec.key, n);
        return series === undefined ? '' : cellText(series, seriesOf(table, stormGridSpec.key, n));
      }),
    ];
  });
  const pairs = ['pairs per frame', ...table.ns.map((n) => String(table.results.get(n)?.pairs ?? ''))];
  const tests = [
    'plugin pair tests per frame',
    ...table.ns.map((n) => {
      const counted = table.results.get(n)?.series.find((s) => s.pairTests.length > 0);
      return counted === undefined ? '-' : String(Math.round(median(counted.pairTests)));
    }),
  ];
  const moving = [
    "the ECS game's movement system (not timed)",
    ...table.ns.map((n) => {
      const ecs = table.results.get(n)?.series.find((s) => s.prepare.length > 0);
      return ecs === undefined ? '-' : spread(ecs.prepare);
    }),
  ];
  return [head, ...body, pairs, tests, moving];
}

/** The table, its footnotes and (in Markdown) the scene and the contenders described. */
export function stormSection(
  table: StormTable | null,
  markdown: boolean,
  ctx: { warmup: number; seed: number },
): string {
  if (table === null) return '';
  const { walls, actors, dust } = STORM;
  const frames = table.ns.map((n) => `${table.results.get(n)?.series[0]?.planned ?? '-'} at ${label(n)}`).join(', ');
  const sides = table.ns.map(
    (n) => `${Math.round(Math.sqrt(n * STORM.areaPerDust)).toLocaleString('en-US')} px at ${label(n)}`,
  );
  const out: string[] = [
    markdown
      ? '### Particle storm: dust, actors and walls'
      : 'particle storm: median ms per frame ' + `(range over runs) · time relative to the ${BASELINE}`,
    '',
  ];
  if (markdown) {
    out.push(
      `N dust particles (sides ${dust.side[0]}-${dust.side[1]} px, ${dust.speed[0]}-${dust.speed[1]} px/s, ` +
        `layer DUST, mask WALL|ACTOR, priority ${dust.priority}) plus ${actors.count.toLocaleString('en-US')} actors ` +
        `(${actors.side[0]}-${actors.side[1]} px, ${actors.speed[0]}-${actors.speed[1]} px/s, mask WALL|ACTOR|DUST, ` +
        `priority ${actors.priority}) and ${walls.count} static walls (${walls.thick[0]}-${walls.thick[1]} by ` +
        `${walls.long[0]}-${walls.long[1]} px, half of them horizontal, mask ACTOR|DUST, priority ${walls.priority}) in ` +
        `a square world of N x ${STORM.areaPerDust} px² (side ${sides.join(', ')}); mulberry32 seed ${ctx.seed}, ` +
        "dt 1/60, everything but the walls moves every frame. Pairs: strict overlap, each side's mask has the " +
        "other's layer, never two static items; so dust-actor, dust-wall, actor-actor and actor-wall, no dust-dust. " +
        `Baseline for the ratios: the ${BASELINE} (${STORM_CELL} px cells by default, tuned per N). ${ctx.warmup} warm-up frames, then ` +
        `${frames} measured per run.`,
      '',
    );
  }
  out.push(renderTable(rows(table), markdown), '');
  out.push(...footnotes(cellsOf(table), checkedLine(table)).flatMap((line) => [line, '']));
  if (markdown) {
    out.push('How each contender runs:');
    for (const spec of table.specs) out.push(`- **${spec.name}**: ${spec.note}${tunedNote(spec)}.`);
  }
  return out.join('\n').trimEnd();
}

function cellsOf(table: StormTable): { where: string; series: Series }[] {
  return [...table.results].flatMap(([n, result]) =>
    result.series.map((series) => ({
      where: `${series.spec.name} at ${label(n)} (storm)`,
      series,
    })),
  );
}

function checkedLine(table: StormTable): string {
  const unchecked = [...table.results].filter(([, r]) => !r.checked).map(([n]) => label(n));
  if (unchecked.length > 0) {
    return (
      `Pairs NOT checked at ${unchecked.join(', ')}: the ${BASELINE} (the reference) did not run beside ` +
      'another contender (see --only).'
    );
  }
  const bruteAt = [...table.brute].filter(([, on]) => on).map(([n]) => label(n));
  return (
    `Every frame of every contender was checked against the ${BASELINE}'s pair set, and matched it` +
    `${
      bruteAt.length > 0
        ? `; at ${bruteAt.join(', ')} brute force (all n(n-1)/2 pairs, pair rule as written) ` +
          `checked every contender on every ${BRUTE_EVERY}th frame and the last`
        : ''
    }.`
  );
}

/** Pair tests of each contender that counts them, and the untimed movement system of the ECS game. */
export function stormMismatches(table: StormTable | null): string[] {
  if (table === null) return [];
  return cellsOf(table)
    .filter((c) => c.series.mismatch !== '')
    .map((c) => `${c.where}: ${c.series.mismatch}`);
}
