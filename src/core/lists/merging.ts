import type { PairBuffer } from './PairBuffer.js';
import { before, lowerBound } from './order.js';
import type { PairPool } from '../pairs/PairPool.js';

/**
 * Bringing sorted pair lists up to date: patching in place, and merging. Each is linear or
 * near it, works on typed arrays in place or into a caller's buffer, and allocates nothing
 * once its scratch arrays are warm.
 */

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
    const ca = cur.a,
      cb = cur.b,
      cp = cur.priority,
      ci = cur.index;
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
export function mergeEntries(old: PairBuffer, entered: PairBuffer, out: PairBuffer, pairs: PairPool): void {
  out.reserve(old.count + entered.count);
  const alive = pairs.alive;
  const priority = pairs.priority;
  const oa = old.a,
    ob = old.b,
    oi = old.index;
  const ea = entered.a,
    eb = entered.b,
    ep = entered.priority,
    ei = entered.index;
  const na = out.a,
    nb = out.b,
    np = out.priority,
    ni = out.index;
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
