/**
 * Peers at their best: each tunable contender (see `Tuning`) is run at every candidate
 * setting for a few interleaved frames, once per scene and N, and the table then runs it at
 * the setting with the fastest median frame. The choices are kept in a file, so later runs on
 * the same machine reuse them; --retune sweeps again, --no-tune keeps each default.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import os from 'node:os';
import type { ContenderSpec, Steppable } from './contender.js';
import { fmt } from './format.js';
import { runLockstep, type Budget } from './lockstep.js';
import { renderTable } from './report.js';

/** Where the chosen settings are kept (bench/results/ is ignored by git). */
export const TUNED_FILE = 'bench/results/tuned.json';

/** Per candidate and sweep: enough frames for a median, little time for the slow peers at large N. */
const TUNE_BUDGET: Budget = { warmupMs: 300, measureMs: 1000, minWarmup: 1, minFrames: 3 };

/** `sweep` always sweeps, `cached` sweeps what the file does not hold, `off` keeps the defaults. */
export type TuneMode = 'sweep' | 'cached' | 'off';

export interface TuneOptions {
  mode: TuneMode;
  file: string;
  warmup: number;
  frames: number;
  log: (line: string) => void;
}

/** The setting a contender ran with at one scene and N, and how it was chosen. */
export interface Tuned {
  /** The scene and N, e.g. "bounce, all move, 10k". */
  where: string;
  name: string;
  what: string;
  setting: number;
  candidates: number[];
  /** Median ms per candidate in the sweep (empty when the default was kept). */
  medians: number[];
  source: 'swept' | 'cached' | 'default';
  /** When the sweep that chose it ran (ISO date), for cached ones. */
  date: string;
  /** Candidates whose pairs differed from the first candidate's in the sweep. */
  mismatch: string;
}

/**
 * The candidate with the lowest median frame time; the earliest one on a tie. Candidates
 * that measured nothing (NaN) never win; -1 when none measured anything.
 */
export function pickBest(medians: readonly number[]): number {
  let best = -1;
  for (let i = 0; i < medians.length; i++) {
    if (!Number.isFinite(medians[i])) continue;
    if (best < 0 || medians[i] < medians[best]) best = i;
  }
  return best;
}

interface Entry {
  machine: string;
  candidates: number[];
  medians: number[];
  setting: number;
  date: string;
}

/** Each file's entries, read once. */
const caches = new Map<string, Map<string, Entry>>();

function machine(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'} x${cpus.length}`;
}

function load(file: string): Map<string, Entry> {
  let map = caches.get(file);
  if (map !== undefined) return map;
  try {
    map = new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Entry>));
  } catch {
    map = new Map(); // none yet, or unreadable: every sweep runs and the file is written anew
  }
  caches.set(file, map);
  return map;
}

function store(file: string, map: Map<string, Entry>): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(Object.fromEntries(map), null, 1)}\n`);
}

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * The specs with every tunable one replaced by its build at its best setting for this scene
 * and N (`where` names them, and keys the file). What was chosen is appended to `out`.
 */
export function tuneSpecs<S extends Steppable>(
  specs: ContenderSpec<S>[],
  where: string,
  scene: () => S,
  o: TuneOptions,
  out: Tuned[],
): ContenderSpec<S>[] {
  return specs.map((spec) => {
    const tuning = spec.tuning;
    if (tuning === undefined) return spec;
    const base = { where, name: spec.name, what: tuning.what, candidates: [...tuning.candidates], mismatch: '' };
    if (o.mode === 'off' || tuning.candidates.length < 2) {
      out.push({ ...base, setting: tuning.fallback, medians: [], source: 'default', date: '' });
      return tuning.build(tuning.fallback);
    }
    const map = load(o.file);
    const id = `${where} · ${spec.key}`;
    const kept = map.get(id);
    if (
      o.mode === 'cached' &&
      kept !== undefined &&
      kept.machine === machine() &&
      same(kept.candidates, base.candidates)
    ) {
      out.push({ ...base, setting: kept.setting, medians: kept.medians, source: 'cached', date: kept.date });
      return tuning.build(kept.setting);
    }
    const result = runLockstep({
      title: `tuning ${spec.key}, ${where}`,
      scene,
      specs: tuning.candidates.map((c) => tuning.build(c)),
      budgets: tuning.candidates.map(() => TUNE_BUDGET),
      reference: 0,
      oracle: null,
      warmup: o.warmup,
      frames: o.frames,
      runs: 1,
      log: () => {},
    });
    const medians = result.series.map((s) => s.medians[0]);
    // A candidate whose pairs differ from the first's cannot win (the table would flag it anyway).
    const best = pickBest(result.series.map((s, i) => (s.mismatch === '' ? medians[i] : NaN)));
    const setting = best < 0 ? tuning.fallback : tuning.candidates[best];
    const mismatch = result.series
      .map((s, i) => (s.mismatch === '' ? '' : `${tuning.what} ${tuning.candidates[i]}: ${s.mismatch}`))
      .filter((m) => m !== '')
      .join('; ');
    const date = new Date().toISOString().slice(0, 10);
    out.push({ ...base, setting, medians, source: 'swept', date, mismatch });
    o.log(`  ${spec.key} at ${where}: ${tuning.what} ${setting} (${sweptText(base.candidates, medians)})`);
    if (mismatch === '') {
      map.set(id, { machine: machine(), candidates: base.candidates, medians, setting, date });
      store(o.file, map);
    }
    return tuning.build(setting);
  });
}

/** "16: 5.10 · 24: 4.20 ms": each candidate's median in the sweep. */
function sweptText(candidates: readonly number[], medians: readonly number[]): string {
  return `${candidates.map((c, i) => `${c}: ${fmt(medians[i])}`).join(' · ')} ms`;
}

/** The settings the tables ran with, a line each, under a heading. */
export function tunedSection(tuned: Tuned[], markdown: boolean): string {
  if (tuned.length === 0) return '';
  const intro =
    'Settings of the tunable peers, each the fastest of its candidates for its scene and N (median ms per frame ' +
    'over a few interleaved frames per candidate; --retune sweeps again, --no-tune keeps the defaults)';
  if (!markdown) {
    const lines = tuned.map((t) => {
      const how =
        t.source === 'default'
          ? 'default, not swept (--no-tune)'
          : `${t.source === 'cached' ? `swept ${t.date}, from ${TUNED_FILE}` : 'swept now'}: ${sweptText(t.candidates, t.medians)}`;
      return `  ${t.where}, ${t.name}: ${t.what} ${t.setting} (${how})`;
    });
    return [`${intro}:`, ...lines].join('\n');
  }
  // One row per scene and N, one column per peer and knob: the page states the winners once;
  // the times of each candidate are in the bench's own output.
  const columns = [...new Set(tuned.map((t) => `${t.name}, ${t.what}`))];
  const wheres = [...new Set(tuned.map((t) => t.where))];
  const cell = (where: string, column: string) => {
    const t = tuned.find((x) => x.where === where && `${x.name}, ${x.what}` === column);
    return t === undefined ? '–' : `${t.setting}${t.source === 'default' ? ' (default)' : ''}`;
  };
  const dates = [...new Set(tuned.filter((t) => t.source === 'cached').map((t) => t.date))];
  return [
    `${intro}. ${dates.length > 0 ? `Swept ${dates.join(', ')}; ` : ''}\`npm run bench\` prints each candidate's time.`,
    '',
    renderTable([['scene, N', ...columns], ...wheres.map((w) => [w, ...columns.map((c) => cell(w, c))])], true),
  ].join('\n');
}

/** For a tunable contender's note: the setting above is its default, the tables run its best. */
export function tunedNote(spec: {
  readonly tuning?: { what: string; candidates: readonly number[]; fallback: number };
}): string {
  const t = spec.tuning;
  return t === undefined
    ? ''
    : `; the tables run it at the fastest of ${t.what} ${t.candidates.join(', ')} for each scene and N (the ` +
        `default ${t.fallback} with --no-tune)`;
}

export function tunedMismatches(tuned: Tuned[]): string[] {
  return tuned.filter((t) => t.mismatch !== '').map((t) => `${t.name} tuning at ${t.where}: ${t.mismatch}`);
}
