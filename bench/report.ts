/** Shared pieces of the printed results: tables, the machine line, how to read a cell. */

import os from 'node:os';
import type { LockstepResult, Series } from './lockstep.js';
import { median, ratioSpread, spread } from './summary.js';

/**
 * Rows as aligned plain text or a Markdown table. The first row is the head; the first
 * `textColumns` columns are left-aligned, the rest (numbers) right-aligned in Markdown.
 */
export function renderTable(rows: string[][], markdown: boolean, textColumns = 1): string {
  if (markdown) {
    const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
    const rule = rows[0].map((_, c) => (c < textColumns ? '---' : '---:'));
    return [line(rows[0]), line(rule), ...rows.slice(1).map(line)].join('\n');
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((s, c) => s.padEnd(widths[c]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Date, CPU model, cores, Node version and the number of runs. */
export function machineLine(runs: number): string {
  const cpus = os.cpus();
  const cpu = cpus[0]?.model.trim() ?? 'unknown CPU';
  const date = new Date().toISOString().slice(0, 10);
  return `${date} · ${cpu} · ${cpus.length} cores · Node ${process.version} · ${runs} run${runs === 1 ? '' : 's'}`;
}

/** How every table is measured and what its cells mean. */
export function cellLegend(runs: number): string {
  return (
    `Each run builds fresh contenders on copies of the seeded scene and plays their frames interleaved, so ` +
    `drift on the machine hits all of them alike (slow peers stop when their time budget is spent: †). A cell ` +
    "reads `median ms (range) · ratio (range)`: the median over the runs of each run's median frame, the " +
    "lowest and highest run in parentheses, then the time over the table's baseline, taken within each run; " +
    `the machine is shared, so a few percent between runs is noise, and the range of the ${runs} ` +
    `run${runs === 1 ? '' : 's'} shows how much.`
  );
}

/**
 * A cell: `median (range)`, † when the budget cut frames, `· ratio (range)` to the baseline
 * (none on the baseline's own row), ✗ on a mismatch.
 */
export function cellText(series: Series, base: Series | undefined): string {
  const capped = series.frames.some((f) => f < series.planned) ? '†' : '';
  const ratio = base === undefined || base === series ? '' : ` · ${ratioSpread(series.medians, base.medians)}`;
  return `${spread(series.medians)}${capped}${ratio}${series.mismatch !== '' ? ' ✗' : ''}`;
}

/** Frames measured per run when the budget cut them ("33–35 of 60"), or '' when none was cut. */
export function framesCut(series: Series): string {
  if (!series.frames.some((f) => f < series.planned)) return '';
  const lo = Math.min(...series.frames);
  const hi = Math.max(...series.frames);
  return `${lo === hi ? lo : `${lo}–${hi}`} of ${series.planned}`;
}

/**
 * The lines under a table: frames cut by the budget, mismatches (each `where` names a cell),
 * and whether the pair sets were checked.
 */
export function footnotes(cells: { where: string; series: Series }[], checked: string): string[] {
  const cut = cells.filter((c) => framesCut(c.series) !== '').map((c) => `${c.where}: ${framesCut(c.series)}`);
  const bad = cells.filter((c) => c.series.mismatch !== '').map((c) => `✗ ${c.where}: ${c.series.mismatch}`);
  const lines: string[] = [];
  if (cut.length > 0) lines.push(`† frames measured per run, cut by the time budget: ${cut.join('; ')}.`);
  lines.push(...bad);
  if (bad.length === 0) lines.push(checked);
  return lines;
}

/** One contender's series at one item count of a scene's table, if it ran. */
export function seriesOf(table: { results: Map<number, LockstepResult> }, key: string, n: number): Series | undefined {
  return table.results.get(n)?.series.find((s) => s.spec.key === key);
}

/**
 * The pair tests of the contenders that count them (`pairTests()`): the median over the runs of
 * the count after each run's last frame, at each N; a row per count, naming its contenders by `label`.
 */
export function pairTestRows(
  table: { ns: number[]; specs: readonly { key: string; name: string }[]; results: Map<number, LockstepResult> },
  label: (spec: { key: string; name: string }) => string,
): string[][] {
  const tests = (key: string, n: number): number => {
    const s = seriesOf(table, key, n);
    return s === undefined || s.pairTests.length === 0 ? NaN : median(s.pairTests);
  };
  // Contenders that made the same tests share a row, named together.
  const rows = new Map<string, { names: string[]; cells: string[] }>();
  for (const spec of table.specs) {
    if (!table.ns.some((n) => tests(spec.key, n) >= 0)) continue;
    const cells = table.ns.map((n) => {
      const t = tests(spec.key, n);
      return t >= 0 ? Math.round(t).toLocaleString('en-US') : '';
    });
    const key = cells.join();
    const row = rows.get(key) ?? { names: [], cells };
    row.names.push(label(spec));
    rows.set(key, row);
  }
  return [...rows.values()].map((row) => [`pair tests, ${row.names.join('; ')}`, ...row.cells]);
}
