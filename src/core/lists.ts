import type { PairBuffer } from './pairlist.js';
import type { PairList } from './types.js';
import type { PairStore } from './pairs.js';

/**
 * Operations on pair lists kept in the public order: priority descending, then a, then b.
 * Each is linear or near it, works on typed arrays in place or into a caller's buffer, and
 * allocates nothing once its scratch arrays are warm.
 */

/** True when pair (pa, aa, ba) comes before pair (pb, ab, bb). */
export function before(pa: number, aa: number, ba: number, pb: number, ab: number, bb: number): boolean {
  return pa !== pb ? pa > pb : aa !== ab ? aa < ab : ba < bb;
}

/** True when the list is in order. */
export function isSorted(list: PairBuffer): boolean {
  const p = list.priority, a = list.a, b = list.b;
  for (let i = 1; i < list.count; i++) if (before(p[i], a[i], b[i], p[i - 1], a[i - 1], b[i - 1])) return false;
  return true;
}

/** First index of the sorted list whose pair does not come before (priority, a, b). */
export function lowerBound(list: PairList, count: number, priority: number, a: number, b: number): number {
  let lo = 0;
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

/**
 * Brings a sorted list up to date in place with sorted entries and exits: binary-search where
 * each exit sits and where each entry goes, then move the untouched runs with copyWithin (a
 * memmove), working from the back. O((entries + exits) log pairs) plus the moves, instead of
 * a compare per listed pair. Used when few pairs changed.
 */
export class ListPatcher {
  private del = new Int32Array(64);
  private ins = new Int32Array(64);

  /** Returns false, changing nothing, if an exit is not where its key says (then merge instead). */
  patch(cur: PairBuffer, entered: PairBuffer, exits: PairBuffer): boolean {
    const n = cur.count;
    const x = exits.count;
    const e = entered.count;
    if (this.del.length < x) this.del = new Int32Array(Math.max(x, 2 * this.del.length));
    if (this.ins.length < e) this.ins = new Int32Array(Math.max(e, 2 * this.ins.length));
    const del = this.del;
    const ins = this.ins;
    for (let i = 0; i < x; i++) {
      const at = lowerBound(cur, n, exits.priority[i], exits.a[i], exits.b[i]);
      if (at >= n || cur.index[at] !== exits.index[i]) return false;
      del[i] = at;
    }
    for (let j = 0; j < e; j++) ins[j] = lowerBound(cur, n, entered.priority[j], entered.a[j], entered.b[j]);
    cur.reserve(n - x + e);
    const ca = cur.a, cb = cur.b, cp = cur.priority, ci = cur.index;
    // 1. Close the gaps left by exits, left to right (writes never pass reads).
    let write = x > 0 ? del[0] : n;
    for (let k = 0; k < x; k++) {
      const from = del[k] + 1;
      const to = k + 1 < x ? del[k + 1] : n;
      if (to > from) {
        ca.copyWithin(write, from, to);
        cb.copyWithin(write, from, to);
        cp.copyWithin(write, from, to);
        ci.copyWithin(write, from, to);
        write += to - from;
      }
    }
    // Insertion points move left by the exits before them.
    for (let j = 0, k = 0; j < e; j++) {
      while (k < x && del[k] < ins[j]) k++;
      ins[j] -= k;
    }
    // 2. Open room for the entries, right to left (writes never pass reads).
    let read = n - x;
    write = n - x + e;
    for (let j = e - 1; j >= 0; j--) {
      const cut = ins[j];
      if (read > cut) {
        const shift = write - read;
        ca.copyWithin(cut + shift, cut, read);
        cb.copyWithin(cut + shift, cut, read);
        cp.copyWithin(cut + shift, cut, read);
        ci.copyWithin(cut + shift, cut, read);
        write -= read - cut;
        read = cut;
      }
      write--;
      ca[write] = entered.a[j];
      cb[write] = entered.b[j];
      cp[write] = entered.priority[j];
      ci[write] = entered.index[j];
    }
    cur.count = n - x + e;
    return true;
  }
}

/**
 * Merges sorted entries into a sorted list of pool pairs, into `out`: pairs no longer alive
 * in the pool are dropped, and each kept pair takes the pool's current priority.
 */
export function mergeEntries(old: PairBuffer, entered: PairBuffer, out: PairBuffer, pairs: PairStore): void {
  out.reserve(old.count + entered.count);
  const alive = pairs.alive;
  const priority = pairs.priority;
  const oa = old.a, ob = old.b, oi = old.index;
  const ea = entered.a, eb = entered.b, ep = entered.priority, ei = entered.index;
  const na = out.a, nb = out.b, np = out.priority, ni = out.index;
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < old.count || j < entered.count) {
    if (i < old.count && alive[oi[i]] === 0) {
      i++;
      continue;
    }
    const takeOld = i < old.count && (j >= entered.count || before(priority[oi[i]], oa[i], ob[i], ep[j], ea[j], eb[j]));
    if (takeOld) {
      na[k] = oa[i];
      nb[k] = ob[i];
      np[k] = priority[oi[i]];
      ni[k] = oi[i];
      i++;
    } else {
      na[k] = ea[j];
      nb[k] = eb[j];
      np[k] = ep[j];
      ni[k] = ei[j];
      j++;
    }
    k++;
  }
  out.count = k;
}
