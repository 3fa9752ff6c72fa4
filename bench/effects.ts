/** The particle-effects table: births and deaths every frame, against the hand-written grid doing the whole job. */

import type { ContenderSpec, TableOptions } from './contender.js';
import { effectsCoreSpec } from './effects-core.js';
import { effectsEcsBudgetSpec, effectsEcsOffSpec, effectsEcsOnSpec, effectsGameSpec } from './effects-ecs.js';
import { EFFECTS_CELL, effectsGridSpec } from './effects-grid.js';
import { EFFECTS, EffectsScene } from './effects-scene.js';
import { label } from './format.js';
import { runLockstep, UNCAPPED, type LockstepResult, type Series } from './lockstep.js';
import { cellText, footnotes, pairTestRows, renderTable, seriesOf } from './report.js';
import { ratioSpread, spread } from './summary.js';

const BASELINE = effectsGridSpec.name;

export function effectsSpecs(): ContenderSpec<EffectsScene>[] {
  return [effectsGridSpec, effectsGameSpec, effectsEcsOffSpec, effectsEcsOnSpec, effectsEcsBudgetSpec, effectsCoreSpec];
}

export interface EffectsTable {
  ns: number[];
  specs: ContenderSpec<EffectsScene>[];
  results: Map<number, LockstepResult>;
}

/** `ns` are the live particle counts. */
export function runEffects(o: TableOptions): EffectsTable | null {
  const specs = effectsSpecs().filter(o.select);
  if (specs.length === 0) return null;
  const table: EffectsTable = { ns: o.ns, specs, results: new Map() };
  const reference = specs.indexOf(effectsGridSpec);
  for (const n of o.ns) {
    o.log(
      `effects, N=${label(n)}: ${specs.length} contender${specs.length === 1 ? '' : 's'}, ` +
        `reference ${reference >= 0 ? BASELINE : 'none (not selected)'}`,
    );
    table.results.set(
      n,
      runLockstep({
        title: `effects, N=${label(n)}`,
        scene: () => new EffectsScene(n, o.seed),
        specs,
        // Every contender takes every frame: the plugin's share is a difference of two of them.
        budgets: specs.map(() => UNCAPPED),
        reference,
        oracle: null,
        compare: (spec) => (spec.key === 'game' ? 'none' : spec.key === 'ecs-budget' ? 'top' : 'all'),
        warmup: o.warmup,
        frames: o.framesFor(n),
        runs: o.runs,
        log: o.log,
      }),
    );
  }
  return table;
}

/** Per run: the plugin's own share (the game with it minus the game without it), in ms. */
function share(table: EffectsTable, key: string, n: number): number[] | null {
  const withIt = seriesOf(table, key, n);
  const without = seriesOf(table, 'game', n);
  if (withIt === undefined || without === undefined) return null;
  return withIt.medians.map((m, r) => m - without.medians[r]);
}

function shareCell(table: EffectsTable, key: string, n: number, base: readonly number[] | null): string {
  const ms = share(table, key, n);
  if (ms === null) return '';
  return base === null ? spread(ms) : `${spread(ms)} · ${ratioSpread(ms, base)}`;
}

function rows(table: EffectsTable): string[][] {
  const head = ['contender', ...table.ns.map(label)];
  const body = table.specs.map((spec) => {
    const bad = table.ns.some((n) => (seriesOf(table, spec.key, n)?.mismatch ?? '') !== '');
    return [
      bad ? `${spec.name} (INVALID: pairs differ)` : spec.name,
      ...table.ns.map((n) => {
        const series = seriesOf(table, spec.key, n);
        return series === undefined ? '' : cellText(series, seriesOf(table, effectsGridSpec.key, n));
      }),
    ];
  });
  const pairs = ['pairs per frame', ...table.ns.map((n) => String(table.results.get(n)?.pairs ?? ''))];
  // The plugin's pair tests in each run's last frame: the budget's cut, and how the step found pairs.
  const tests = pairTestRows(table, (spec) => spec.name);
  return [head, ...body, pairs, ...tests];
}

/** The plugin's own share against the grid's whole job, and the budget's saving. */
function shareRows(table: EffectsTable): string[][] | null {
  if (!table.specs.includes(effectsGameSpec)) return null;
  const head = ["plugin's own share (game with it − game without it)", ...table.ns.map(label)];
  const out: string[][] = [head];
  for (const spec of [effectsEcsOffSpec, effectsEcsOnSpec, effectsEcsBudgetSpec]) {
    if (!table.specs.includes(spec)) continue;
    out.push([
      spec.name.replace('bitECS game + plugin, ', ''),
      ...table.ns.map((n) => shareCell(table, spec.key, n, seriesOf(table, effectsGridSpec.key, n)?.medians ?? null)),
    ]);
  }
  if (table.specs.includes(effectsEcsBudgetSpec) && table.specs.includes(effectsEcsOffSpec)) {
    out.push([
      'budget share / unbudgeted share',
      ...table.ns.map((n) => {
        const budget = share(table, effectsEcsBudgetSpec.key, n);
        const off = share(table, effectsEcsOffSpec.key, n);
        return budget === null || off === null ? '' : ratioSpread(budget, off);
      }),
    ]);
  }
  return out;
}

export function effectsSection(
  table: EffectsTable | null,
  markdown: boolean,
  ctx: { warmup: number; seed: number },
): string {
  if (table === null) return '';
  const { walls, actors, dust } = EFFECTS;
  const frames = table.ns.map((n) => `${table.results.get(n)?.series[0]?.planned ?? '-'} at ${label(n)}`).join(', ');
  const out: string[] = [
    markdown
      ? '### Particle effects: bursts, lifetimes, recycled ids'
      : 'particle effects: median ms ' + `per frame (range over runs) · time relative to the ${BASELINE}`,
    '',
  ];
  if (markdown) {
    out.push(
      `Explosions burst ${dust.burst[0]}-${dust.burst[1]} particles each at random points (sides ` +
        `${dust.side[0]}-${dust.side[1]} px, ${dust.speed[0]}-${dust.speed[1]} px/s outward, drag ${dust.drag} a frame, ` +
        `layer DUST, mask WALL|ACTOR, priority ${dust.priority}); each dies ${dust.life[0]}-${dust.life[1]} frames after ` +
        `its birth, so about 1% of the N live particles are born and 1% die every frame, and bitECS hands the dead ` +
        `ones' ids to the newborn at once. ${actors.count.toLocaleString('en-US')} actors wander (${actors.side[0]}-` +
        `${actors.side[1]} px, ${actors.speed[0]}-${actors.speed[1]} px/s, mask WALL|ACTOR|DUST, priority ` +
        `${actors.priority}) among ${walls.count} static walls (mask ACTOR|DUST, priority ${walls.priority}), in a ` +
        `square world of N x ${EFFECTS.areaPerParticle} px². mulberry32 seed ${ctx.seed}, dt 1/60. Every contender plays ` +
        `every frame whole (births, deaths, moves, pairs), interleaved. Baseline for the ratios: the ${BASELINE} ` +
        `(${EFFECTS_CELL} px cells). ${ctx.warmup} warm-up frames, then ${frames} measured per run.`,
      '',
    );
  }
  out.push(renderTable(rows(table), markdown), '');
  const shares = shareRows(table);
  if (shares !== null) {
    if (markdown) {
      out.push(
        "The plugin's own share: per run, the median frame of the game with the plugin minus the median " +
          "frame of the same game without it, then its ratio to the grid's whole job in that run.",
        '',
      );
    }
    out.push(renderTable(shares, markdown), '');
  }
  out.push(...footnotes(cellsOf(table), checkedLine(table)).flatMap((line) => [line, '']));
  if (markdown) {
    out.push('How each contender runs:');
    for (const spec of table.specs) out.push(`- **${spec.name}**: ${spec.note}.`);
  }
  return out.join('\n').trimEnd();
}

function cellsOf(table: EffectsTable): { where: string; series: Series }[] {
  return [...table.results].flatMap(([n, result]) =>
    result.series.map((series) => ({
      where: `${series.spec.name} at ${label(n)} (effects)`,
      series,
    })),
  );
}

function checkedLine(table: EffectsTable): string {
  const unchecked = [...table.results].filter(([, r]) => !r.checked).map(([n]) => label(n));
  if (unchecked.length > 0) {
    return (
      `Pairs NOT checked at ${unchecked.join(', ')}: the ${BASELINE} (the reference) did not run beside ` +
      'another contender (see --only).'
    );
  }
  return (
    `Every frame of every contender was checked against the ${BASELINE}'s pair set and matched it (the ` +
    'budgeted game: its tier-0 pairs, which a budget never cuts).'
  );
}

export function effectsMismatches(table: EffectsTable | null): string[] {
  if (table === null) return [];
  return cellsOf(table)
    .filter((c) => c.series.mismatch !== '')
    .map((c) => `${c.where}: ${c.series.mismatch}`);
}
