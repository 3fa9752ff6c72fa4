import type { PairBuffer } from './PairBuffer.js';
import { before } from './order.js';

/** An in-place sort of pair lists by (priority desc, a, b), on parallel typed arrays. */

/** Sorts a pair list's first `count` entries, moving every column it has and `along` (a side column) if given. */
export function sortPairs(list: PairBuffer, along: Uint8Array | null = null): void {
  quickPairs(list, along, 0, list.count - 1);
}

function quickPairs(list: PairBuffer, along: Uint8Array | null, lo: number, hi: number): void {
  const a = list.a,
    b = list.b,
    pr = list.priority;
  while (hi - lo > 16) {
    const mid = (lo + hi) >> 1;
    const pp = pr[mid],
      pa = a[mid],
      pb = b[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (before(pr[i], a[i], b[i], pp, pa, pb)) i++;
      while (before(pp, pa, pb, pr[j], a[j], b[j])) j--;
      if (i <= j) {
        swapPair(list, along, i, j);
        i++;
        j--;
      }
    }
    // Recurse into the smaller side, loop on the larger: stack depth stays O(log n).
    if (j - lo < hi - i) {
      quickPairs(list, along, lo, j);
      lo = i;
    } else {
      quickPairs(list, along, i, hi);
      hi = j;
    }
  }
  for (let i = lo + 1; i <= hi; i++) {
    for (let j = i; j > lo && before(pr[j], a[j], b[j], pr[j - 1], a[j - 1], b[j - 1]); j--)
      swapPair(list, along, j, j - 1);
  }
}

function swapPair(list: PairBuffer, along: Uint8Array | null, i: number, j: number): void {
  const { a, b, priority, born } = list;
  let t = a[i];
  a[i] = a[j];
  a[j] = t;
  t = b[i];
  b[i] = b[j];
  b[j] = t;
  t = priority[i];
  priority[i] = priority[j];
  priority[j] = t;
  // Only the columns the list has: reads past an empty one would slow the sort.
  if (list.withBorn) {
    t = born[i];
    born[i] = born[j];
    born[j] = t;
  }
  if (along !== null) {
    t = along[i];
    along[i] = along[j];
    along[j] = t;
  }
}
