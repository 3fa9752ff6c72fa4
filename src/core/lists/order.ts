import type { PairList } from '../options.js';

/** The order of every pair list (priority descending, then `a`, then `b`) in one place, and its searches. */

/** -1 when pair (pa, aa, ba) comes before pair (pb, ab, bb), 1 when after, 0 when they are the same pair. */
export function comparePairs(pa: number, aa: number, ba: number, pb: number, ab: number, bb: number): number {
  return pa !== pb ? (pa > pb ? -1 : 1) : aa !== ab ? (aa < ab ? -1 : 1) : ba !== bb ? (ba < bb ? -1 : 1) : 0;
}

export function before(pa: number, aa: number, ba: number, pb: number, ab: number, bb: number): boolean {
  return comparePairs(pa, aa, ba, pb, ab, bb) < 0;
}

export function isSorted(list: PairList, count = list.count): boolean {
  const p = list.priority,
    a = list.a,
    b = list.b;
  for (let i = 1; i < count; i++) if (before(p[i], a[i], b[i], p[i - 1], a[i - 1], b[i - 1])) return false;
  return true;
}

/** First index of the sorted list (from `from` on) whose pair does not come before (priority, a, b). */
export function lowerBound(list: PairList, count: number, priority: number, a: number, b: number, from = 0): number {
  let lo = from;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(list.priority[mid], list.a[mid], list.b[mid], priority, a, b)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** End of the run of priorities at or above `floor` starting at i (binary search; the list is sorted). */
export function runEnd(priority: Uint8Array, i: number, count: number, floor: number): number {
  let lo = i;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (priority[mid] >= floor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
