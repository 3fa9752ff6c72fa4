import { growInt32 } from './nodes.js';
import { PairBuffer } from './pairlist.js';

const BITS = 12;
const BUCKETS = 1 << BITS;

/**
 * Sorts ids by a non-negative 24-bit key with two counting passes (LSD radix), into
 * buffers it owns and reuses: no allocation once warm. Used to visit movers in cell order,
 * so neighbouring movers read memory their predecessors just brought into cache.
 */
export class KeySorter {
  ids: Int32Array = new Int32Array(256);
  keys: Int32Array = new Int32Array(256);
  count = 0;
  private tmpIds = new Int32Array(256);
  private tmpKeys = new Int32Array(256);
  private readonly counts = new Int32Array(BUCKETS);

  push(id: number, key: number): void {
    if (this.count === this.ids.length) {
      const size = this.count * 2;
      this.ids = growInt32(this.ids, size);
      this.keys = growInt32(this.keys, size);
      this.tmpIds = new Int32Array(size);
      this.tmpKeys = new Int32Array(size);
    }
    this.ids[this.count] = id;
    this.keys[this.count++] = key;
  }

  sort(): void {
    this.pass(this.keys, this.ids, this.tmpKeys, this.tmpIds, 0);
    this.pass(this.tmpKeys, this.tmpIds, this.keys, this.ids, BITS);
  }

  private pass(keys: Int32Array, ids: Int32Array, outKeys: Int32Array, outIds: Int32Array, shift: number): void {
    const counts = this.counts;
    const n = this.count;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(keys[i] >>> shift) & (BUCKETS - 1)]++;
    let sum = 0;
    for (let b = 0; b < BUCKETS; b++) {
      const c = counts[b];
      counts[b] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const at = counts[(keys[i] >>> shift) & (BUCKETS - 1)]++;
      outKeys[at] = keys[i];
      outIds[at] = ids[i];
    }
  }
}

const PAIR_BITS = 11;
const PAIR_BUCKETS = 1 << PAIR_BITS;
/** Ids below this are sorted with a bucket per id (at most 4 MB of counts). */
const WHOLE_ID_LIMIT = 1 << 20;

/**
 * Sorts a pair list by (priority descending, a, b) with LSD counting passes: b, then a, then
 * the priority unless every pair has the same one. Ids below 2^20 take one pass each (a
 * bucket per id); larger ones 11 bits per pass. Linear in the pairs, unlike a comparison sort. Swaps the list's
 * arrays with its own scratch list, so the caller's buffer ends up holding the result.
 * The `index` column is not carried (the lists sorted here have none yet).
 */
export class PairRadix {
  private readonly counts = new Int32Array(PAIR_BUCKETS);
  private idCounts = new Int32Array(1024);
  private movePriority = true;
  private tmp = new PairBuffer();

  sort(list: PairBuffer): void {
    const n = list.count;
    if (n < 2) return;
    let maxId = 0;
    let low = 255;
    let high = 0;
    const b = list.b;
    const pr = list.priority;
    for (let i = 0; i < n; i++) {
      if (b[i] > maxId) maxId = b[i];
      if (pr[i] < low) low = pr[i];
      if (pr[i] > high) high = pr[i];
    }
    this.tmp.reserve(n);
    // With one priority for all (the usual case) that column is not moved, only refilled.
    this.movePriority = low !== high;
    let passes = 0;
    if (maxId < WHOLE_ID_LIMIT) {
      // One pass per id with a bucket per id value: two passes instead of four, and the
      // bucket counts (4 bytes per id) stay small next to the item records.
      if (this.idCounts.length <= maxId) this.idCounts = new Int32Array(Math.max(maxId + 1, 2 * this.idCounts.length));
      this.wholePass(list, 1, maxId + 1, passes++);
      this.wholePass(list, 0, maxId + 1, passes++);
    } else {
      for (let shift = 0; maxId >>> shift !== 0; shift += PAIR_BITS) this.pass(list, 1, shift, passes++);
      for (let shift = 0; maxId >>> shift !== 0; shift += PAIR_BITS) this.pass(list, 0, shift, passes++);
    }
    if (low !== high) this.pass(list, 2, 0, passes++);
    if ((passes & 1) !== 0) swapArrays(list, this.tmp);
    if (low === high) list.priority.fill(low, 0, n);
  }

  /** A counting pass on a whole id (field 0 = a, 1 = b), ids below `buckets`. */
  private wholePass(list: PairBuffer, field: number, buckets: number, k: number): void {
    const from = (k & 1) === 0 ? list : this.tmp;
    const to = (k & 1) === 0 ? this.tmp : list;
    const n = list.count;
    const counts = this.idCounts;
    const key = field === 0 ? from.a : from.b;
    counts.fill(0, 0, buckets);
    for (let i = 0; i < n; i++) counts[key[i]]++;
    let sum = 0;
    for (let d = 0; d < buckets; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    scatterById(from, to, key, n, counts, this.movePriority);
  }

  /** One counting pass on field 0 (a), 1 (b) or 2 (255 - priority); `k` says which buffer is the source. */
  private pass(list: PairBuffer, field: number, shift: number, k: number): void {
    const from = (k & 1) === 0 ? list : this.tmp;
    const to = (k & 1) === 0 ? this.tmp : list;
    const n = list.count;
    const counts = this.counts;
    counts.fill(0);
    if (field === 2) countPriorities(from.priority, n, counts);
    else countDigits(field === 0 ? from.a : from.b, n, shift, counts, PAIR_BUCKETS - 1);
    let sum = 0;
    for (let d = 0; d < PAIR_BUCKETS; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    if (field === 2) scatterByPriority(from, to, n, counts);
    else scatterByDigit(from, to, field === 0 ? from.a : from.b, n, shift, counts, PAIR_BUCKETS - 1);
  }
}

// The passes' loops, one function each so every loop stays simple for the compiler.
function countDigits(key: Int32Array, n: number, shift: number, counts: Int32Array, mask: number): void {
  for (let i = 0; i < n; i++) counts[(key[i] >>> shift) & mask]++;
}

function countPriorities(pr: Uint8Array, n: number, counts: Int32Array): void {
  for (let i = 0; i < n; i++) counts[255 - pr[i]]++;
}

function scatterByDigit(from: PairBuffer, to: PairBuffer, key: Int32Array, n: number, shift: number, counts: Int32Array, mask: number): void {
  const fa = from.a, fb = from.b, fp = from.priority;
  const ta = to.a, tb = to.b, tp = to.priority;
  for (let i = 0; i < n; i++) {
    const at = counts[(key[i] >>> shift) & mask]++;
    ta[at] = fa[i];
    tb[at] = fb[i];
    tp[at] = fp[i];
  }
}

function scatterById(from: PairBuffer, to: PairBuffer, key: Int32Array, n: number, counts: Int32Array, withPriority: boolean): void {
  const fa = from.a, fb = from.b, fp = from.priority;
  const ta = to.a, tb = to.b, tp = to.priority;
  if (withPriority) {
    for (let i = 0; i < n; i++) {
      const at = counts[key[i]]++;
      ta[at] = fa[i];
      tb[at] = fb[i];
      tp[at] = fp[i];
    }
  } else {
    for (let i = 0; i < n; i++) {
      const at = counts[key[i]]++;
      ta[at] = fa[i];
      tb[at] = fb[i];
    }
  }
}

function scatterByPriority(from: PairBuffer, to: PairBuffer, n: number, counts: Int32Array): void {
  const fa = from.a, fb = from.b, fp = from.priority;
  const ta = to.a, tb = to.b, tp = to.priority;
  for (let i = 0; i < n; i++) {
    const at = counts[255 - fp[i]]++;
    ta[at] = fa[i];
    tb[at] = fb[i];
    tp[at] = fp[i];
  }
}

/** Exchanges the arrays (not the counts) of two pair buffers. */
function swapArrays(x: PairBuffer, y: PairBuffer): void {
  const a = x.a, b = x.b, p = x.priority, i = x.index, born = x.born;
  x.a = y.a;
  x.b = y.b;
  x.priority = y.priority;
  x.index = y.index;
  x.born = y.born;
  y.a = a;
  y.b = b;
  y.priority = p;
  y.index = i;
  y.born = born;
}
