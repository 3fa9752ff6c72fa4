import type { PairBuffer } from './pairlist.js';

/**
 * In-place sorts on parallel typed arrays (no comparator closures, no allocation):
 * pair lists by (priority descending, a, b), and hit lists by (distance, id).
 */

/** True when pair i must come before pair j. */
function pairBefore(pa: number, aa: number, ba: number, pb: number, ab: number, bb: number): boolean {
  return pa !== pb ? pa > pb : aa !== ab ? aa < ab : ba < bb;
}

/** Sorts a pair list's first `count` entries; the `index` and `born` columns move along. */
export function sortPairs(list: PairBuffer): void {
  quickPairs(list.a, list.b, list.priority, list.index, list.born, 0, list.count - 1);
}

function quickPairs(a: Int32Array, b: Int32Array, pr: Uint8Array, ex: Int32Array, bo: Int32Array, lo: number, hi: number): void {
  while (hi - lo > 16) {
    const mid = (lo + hi) >> 1;
    const pp = pr[mid], pa = a[mid], pb = b[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (pairBefore(pr[i], a[i], b[i], pp, pa, pb)) i++;
      while (pairBefore(pp, pa, pb, pr[j], a[j], b[j])) j--;
      if (i <= j) {
        swapPair(a, b, pr, ex, bo, i, j);
        i++;
        j--;
      }
    }
    // Recurse into the smaller side, loop on the larger: stack depth stays O(log n).
    if (j - lo < hi - i) {
      quickPairs(a, b, pr, ex, bo, lo, j);
      lo = i;
    } else {
      quickPairs(a, b, pr, ex, bo, i, hi);
      hi = j;
    }
  }
  for (let i = lo + 1; i <= hi; i++) {
    for (let j = i; j > lo && pairBefore(pr[j], a[j], b[j], pr[j - 1], a[j - 1], b[j - 1]); j--) {
      swapPair(a, b, pr, ex, bo, j, j - 1);
    }
  }
}

function swapPair(a: Int32Array, b: Int32Array, pr: Uint8Array, ex: Int32Array, bo: Int32Array, i: number, j: number): void {
  let t = a[i]; a[i] = a[j]; a[j] = t;
  t = bo[i]; bo[i] = bo[j]; bo[j] = t;
  t = b[i]; b[i] = b[j]; b[j] = t;
  t = pr[i]; pr[i] = pr[j]; pr[j] = t;
  t = ex[i]; ex[i] = ex[j]; ex[j] = t;
}

/** Sorts hits by distance, then id, in caller-owned arrays (plain arrays or typed). */
export function sortHits(ids: { [i: number]: number }, dist: { [i: number]: number }, count: number): void {
  quickHits(ids, dist, 0, count - 1);
}

function hitBefore(da: number, ia: number, db: number, ib: number): boolean {
  return da !== db ? da < db : ia < ib;
}

function quickHits(ids: { [i: number]: number }, dist: { [i: number]: number }, lo: number, hi: number): void {
  while (hi - lo > 16) {
    const mid = (lo + hi) >> 1;
    const pd = dist[mid], pi = ids[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (hitBefore(dist[i], ids[i], pd, pi)) i++;
      while (hitBefore(pd, pi, dist[j], ids[j])) j--;
      if (i <= j) {
        swapHit(ids, dist, i, j);
        i++;
        j--;
      }
    }
    if (j - lo < hi - i) {
      quickHits(ids, dist, lo, j);
      lo = i;
    } else {
      quickHits(ids, dist, i, hi);
      hi = j;
    }
  }
  for (let i = lo + 1; i <= hi; i++) {
    for (let j = i; j > lo && hitBefore(dist[j], ids[j], dist[j - 1], ids[j - 1]); j--) swapHit(ids, dist, j, j - 1);
  }
}

function swapHit(ids: { [i: number]: number }, dist: { [i: number]: number }, i: number, j: number): void {
  const t = ids[i]; ids[i] = ids[j]; ids[j] = t;
  const d = dist[i]; dist[i] = dist[j]; dist[j] = d;
}
