/** The scene tables as chart panels: each contender's medians over the runs, per item count. */

import type { ChartPanel, ChartPoint, ChartSeries } from './chart.js';
import type { LockstepResult } from './lockstep.js';
import { seriesOf } from './report.js';
import { median } from './summary.js';

/** What every scene table holds: its counts, its contenders, a lockstep result per count run. */
export interface ChartableTable {
  readonly ns: readonly number[];
  readonly specs: readonly { readonly key: string; readonly name: string }[];
  readonly results: Map<number, LockstepResult>;
}

/**
 * A panel for a table measured at two counts or more (null otherwise: one count draws no line).
 * Contenders that measured nothing are left out; `emphasis` names the one drawn thicker.
 */
export function panelOf(title: string, table: ChartableTable, emphasis?: string): ChartPanel | null {
  if (table.results.size < 2) return null;
  const series: ChartSeries[] = [];
  for (const spec of table.specs) {
    const points: ChartPoint[] = [];
    for (const n of table.ns) {
      const s = seriesOf(table, spec.key, n);
      const runs = s?.medians.filter(Number.isFinite) ?? [];
      if (runs.length === 0) continue;
      points.push({ n, median: median(runs), low: Math.min(...runs), high: Math.max(...runs) });
    }
    const bad = table.ns.some((n) => (seriesOf(table, spec.key, n)?.mismatch ?? '') !== '');
    const name = bad ? `${spec.name} (INVALID: pairs differ)` : spec.name;
    if (points.length > 0) series.push({ name, points, emphasis: spec.key === emphasis });
  }
  return series.length === 0 ? null : { title, series };
}
