import { fit, grow, Slack } from '../grow.js';
import { PairBuffer } from './PairBuffer.js';
import { markOutside } from '../snapshot/StatePlan.js';

const BITS = 12;
const BUCKETS = 1 << BITS;

/** LSD radix sort of non-negative 32-bit integers in reused buffers (movers in slot order share cache). */
export class KeySorter {
  keys: Int32Array = new Int32Array(256);
  count = 0;
  private tmp: Int32Array = new Int32Array(256);
  private readonly counts = new Int32Array(BUCKETS);

  constructor() {
    // Scratch of one sort, filled before it is read: not state (see markOutside).
    markOutside(this);
  }

  push(key: number): void {
    if (this.count === this.keys.length) {
      this.keys = grow(this.keys, this.count * 2);
      this.tmp = new Int32Array(this.count * 2);
    }
    this.keys[this.count++] = key;
  }

  sort(): void {
    let max = 0;
    for (let i = 0; i < this.count; i++) if (this.keys[i] > max) max = this.keys[i];
    for (let shift = 0; max >>> shift !== 0; shift += BITS) {
      this.pass(this.keys, this.tmp, shift);
      const t = this.keys;
      this.keys = this.tmp;
      this.tmp = t;
    }
  }

  private pass(keys: Int32Array, out: Int32Array, shift: number): void {
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
    for (let i = 0; i < n; i++) out[counts[(keys[i] >>> shift) & (BUCKETS - 1)]++] = keys[i];
  }
}

const PAIR_BITS = 11;
const PAIR_BUCKETS = 1 << PAIR_BITS;
/** Ids below this are sorted with a bucket per id (at most 4 MB of counts). */
const WHOLE_ID_LIMIT = 1 << 20;

/** Sorts a pair list by (priority descending, a, b) in counting passes; `born` and a side column move with pairs. */
export class PairRadix {
  private readonly digitCounts = new Int32Array(PAIR_BUCKETS);
  private idCounts = new Int32Array(1024);
  /** Scratch list: a, b and priority (see swapArrays); `born` and the side column have their own. */
  private tmp = new PairBuffer(64, false);
  private bornTmp = new Int32Array(0);
  private sideTmp = new Uint8Array(0);
  private readonly extraSlack = new Slack();
  /** Passes made so far in this sort: even ones read the list, odd ones the scratch list. */
  private passes = 0;
  /** This sort's extra columns, or null; whether priorities vary (else the column is refilled, not moved). */
  private born: Int32Array | null = null;
  private side: Uint8Array | null = null;
  private moves = true;

  constructor() {
    // Scratch of one step's sort and merge: not state (see markOutside).
    markOutside(this);
  }

  /** Sorts `list`, moving `side[i]` with pair i. With `swap` a scratch list (not state) may get the sorter's arrays. */
  sort(list: PairBuffer, side: Uint8Array | null = null, swap = false): void {
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
    const born = list.born.length > 0 ? list.born : null;
    if (born !== null) this.bornTmp = fit(this.bornTmp, n);
    if (side !== null) this.sideTmp = fit(this.sideTmp, n);
    this.born = born;
    this.side = side;
    this.moves = low !== high;
    this.passes = 0;
    // By a: one pass with a bucket per id when ids are few for the pairs, else 11 bits a pass.
    if (maxId < WHOLE_ID_LIMIT && maxId <= 8 * n) this.pass(list, 0, -1, maxId + 1, false);
    else
      for (let shift = 0; maxId >>> shift !== 0; shift += PAIR_BITS)
        this.pass(list, shift, PAIR_BUCKETS - 1, PAIR_BUCKETS, false);
    const odd = (this.passes & 1) !== 0;
    const at = odd ? this.tmp : list;
    const runBorn = odd && born !== null ? this.bornTmp : born;
    sortRuns(at.a, at.b, n, low !== high ? at.priority : null, runBorn, odd && side !== null ? this.sideTmp : side);
    if (low !== high) this.pass(list, 0, 255, 256, true);
    if ((this.passes & 1) !== 0 && swap && born === null && side === null) swapArrays(list, this.tmp);
    // Copied back, as a list with `born` keeps its columns of one length (and views would allocate).
    else if ((this.passes & 1) !== 0) {
      const t = this.tmp;
      for (let i = 0; i < n; i++) {
        list.a[i] = t.a[i];
        list.b[i] = t.b[i];
        list.priority[i] = t.priority[i];
      }
      for (let i = 0; born !== null && i < n; i++) born[i] = this.bornTmp[i];
      for (let i = 0; side !== null && i < n; i++) side[i] = this.sideTmp[i];
    }
    if (low === high) list.priority.fill(low, 0, n);
    this.born = this.side = null;
    // The scratch list follows the sorts' sizes; the extra columns' scratch goes after many sorts without them.
    this.tmp.count = n;
    this.tmp.trim();
    if (this.extraSlack.due(born !== null || side !== null ? n : 0, this.bornTmp.length + this.sideTmp.length)) {
      this.bornTmp = new Int32Array(0);
      this.sideTmp = new Uint8Array(0);
    }
  }

  /** Scratch of at least the last sort's pairs, free until the next sort. */
  scratch(): Int32Array {
    return this.tmp.a;
  }

  /** One stable counting pass on a's (or, descending, the priority's) `(key >> shift) & mask`, in `buckets` buckets. */
  private pass(list: PairBuffer, shift: number, mask: number, buckets: number, byPriority: boolean): void {
    const even = (this.passes & 1) === 0;
    const from = even ? list : this.tmp;
    const to = even ? this.tmp : list;
    this.passes++;
    if (buckets > PAIR_BUCKETS && this.idCounts.length < buckets)
      this.idCounts = new Int32Array(Math.max(buckets, 2 * this.idCounts.length));
    const counts = buckets > PAIR_BUCKETS ? this.idCounts : this.digitCounts;
    const key = byPriority ? from.priority : from.a;
    const n = list.count;
    counts.fill(0, 0, buckets);
    for (let i = 0; i < n; i++) counts[(key[i] >> shift) & mask]++;
    let sum = 0;
    for (let k = 0; k < buckets; k++) {
      const d = byPriority ? buckets - 1 - k : k;
      const count = counts[d];
      counts[d] = sum;
      sum += count;
    }
    const { a: fa, b: fb, priority: fp } = from;
    const { a: ta, b: tb, priority: tp } = to;
    const born = this.born,
      bornTmp = born === null ? null : this.bornTmp;
    const side = this.side,
      sideTmp = side === null ? null : this.sideTmp;
    const fromBorn = even ? born : bornTmp,
      toBorn = even ? bornTmp : born;
    const fromSide = even ? side : sideTmp,
      toSide = even ? sideTmp : side;
    const moves = this.moves;
    for (let i = 0; i < n; i++) {
      const at = counts[(key[i] >> shift) & mask]++;
      ta[at] = fa[i];
      tb[at] = fb[i];
      if (moves) tp[at] = fp[i];
      if (fromBorn !== null && toBorn !== null) toBorn[at] = fromBorn[i];
      if (fromSide !== null && toSide !== null) toSide[at] = fromSide[i];
    }
  }
}

/** Gaps of the shell sort for runs of one `a` (Ciura's), the last being plain insertion. */
const GAPS = [701, 301, 132, 57, 23, 10, 4, 1];

/** Sorts each run of one `a` by `b` (shell sort: insertion for short runs), carrying the columns given. */
function sortRuns(
  a: Int32Array,
  b: Int32Array,
  n: number,
  pr: Uint8Array | null,
  born: Int32Array | null,
  side: Uint8Array | null,
): void {
  for (let start = 0, end = 1; start < n; start = end, end = start + 1) {
    const ai = a[start];
    while (end < n && a[end] === ai) end++;
    if (end - start < 2) continue;
    for (let g = end - start < 16 ? GAPS.length - 1 : 0; g < GAPS.length; g++) {
      const gap = GAPS[g];
      if (gap >= end - start) continue;
      for (let i = start + gap; i < end; i++) {
        const bi = b[i];
        if (bi >= b[i - gap]) continue;
        const pi = pr === null ? 0 : pr[i],
          ni = born === null ? 0 : born[i],
          si = side === null ? 0 : side[i];
        let j = i;
        for (; j - gap >= start && b[j - gap] > bi; j -= gap) {
          b[j] = b[j - gap];
          if (pr !== null) pr[j] = pr[j - gap];
          if (born !== null) born[j] = born[j - gap];
          if (side !== null) side[j] = side[j - gap];
        }
        b[j] = bi;
        if (pr !== null) pr[j] = pi;
        if (born !== null) born[j] = ni;
        if (side !== null) side[j] = si;
      }
    }
  }
}

/** Exchanges the arrays (not the counts) of two pair buffers without start steps. */
function swapArrays(x: PairBuffer, y: PairBuffer): void {
  const a = x.a,
    b = x.b,
    p = x.priority;
  x.a = y.a;
  x.b = y.b;
  x.priority = y.priority;
  y.a = a;
  y.b = b;
  y.priority = p;
}
