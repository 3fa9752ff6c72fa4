/** Number formatting shared by the bench tables. */

/** 1000 -> "1k", 50000 -> "50k". */
export function label(n: number): string {
  return n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n);
}

/** Milliseconds with three significant figures or so; "-" when not measured. */
export function fmt(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}
