import { fmt } from './format.js';

/** Median of the finite values (mean of the middle two for an even count); NaN when none. */
export function median(values: ArrayLike<number>): number {
  const sorted = Array.from(values)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return NaN;
  return n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/** Per-run ratios x[r] / base[r]: each run's medians compared within that run. */
export function ratios(x: readonly number[], base: readonly number[]): number[] {
  return x.map((v, r) => v / base[r]);
}

/** A ratio with two or three significant figures: 0.53x, 1.85x, 16.7x, 168x. */
export function fmtRatio(r: number): string {
  if (!Number.isFinite(r)) return '-';
  return `${r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r.toFixed(2)}x`;
}

/**
 * The median over runs with the range of the runs in parentheses, "2.35 (2.30–2.41)"; the
 * value alone for a single run, "-" when no run measured anything.
 */
export function spread(
  values: readonly number[],
  format: (v: number) => string = fmt,
  formatRange: (v: number) => string = format,
): string {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return '-';
  const mid = format(median(finite));
  if (finite.length === 1) return mid;
  return `${mid} (${formatRange(Math.min(...finite))}–${formatRange(Math.max(...finite))})`;
}

/** Per-run ratios to a baseline, as `spread` shows them: "1.85x (1.79–1.93)". */
export function ratioSpread(x: readonly number[], base: readonly number[]): string {
  return spread(ratios(x, base), fmtRatio, (r) => fmtRatio(r).slice(0, -1));
}
