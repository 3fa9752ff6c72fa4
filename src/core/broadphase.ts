import { DIRTY, STATIC, tierOf } from './items.js';
import { NONE } from './nodes.js';
import { PairBuffer } from './pairlist.js';
import { PairStore } from './pairs.js';
import { IdQueue } from './queue.js';
import { sortPairs } from './sort.js';
import type { TreeIndex } from './tree.js';
import type { QuadtreeStats } from './types.js';

export const TIERS = 4;

/**
 * Incremental pair finding, in the manner of Box2D's move buffer: only items queued as
 * dirty (moved, resized, added, re-filtered) are checked; each re-tests its existing pairs
 * and queries the tree for new ones. Pairs of two items that did not move are kept as they
 * are: nothing about them can have changed.
 *
 * Dirty items wait in one FIFO per tier. Tier 0 is emptied every step. Tiers 1-3 are
 * served in order while the budget lasts, and at least `minChecksPerTier` from each one
 * regardless, so an item at position p of its queue is checked within floor(p / min) + 1
 * steps. New dirty items join the back, so deferred ones go first: round-robin.
 */
export class Broadphase {
  readonly pairs = new PairStore(256);
  readonly queues: IdQueue[] = [new IdQueue(), new IdQueue(), new IdQueue(), new IdQueue()];
  /** Current pairs, sorted; two buffers swapped by the merge. */
  current = new PairBuffer();
  private spare = new PairBuffer();
  readonly entered = new PairBuffer();
  /** Pairs ended by the last step (or by removals before it). */
  exited = new PairBuffer();
  /** Pairs ending now, reported by the next step. */
  private exiting = new PairBuffer();
  /** Pairs whose priority changed in place: the current list needs a full sort. */
  private reorder = false;

  stepId = 0;
  maxPairTests = Infinity;
  maxMs = Infinity;
  minChecksPerTier = 32;

  private readonly tree: TreeIndex;
  private readonly touching: boolean;
  private readonly stack: Int32Array;
  private tests = 0;
  private readonly stats: QuadtreeStats;

  constructor(tree: TreeIndex, touching: boolean, stats: QuadtreeStats) {
    this.tree = tree;
    this.touching = touching;
    this.stats = stats;
    this.stack = new Int32Array(4 * (tree.maxDepth + 2));
  }

  /** Queues an item for the next step unless it is queued already. */
  markDirty(id: number): void {
    const items = this.tree.items;
    if ((items.flags[id] & DIRTY) !== 0) return;
    items.flags[id] |= DIRTY;
    this.queues[tierOf(items.priority[id])].push(id);
  }

  /** Ends every pair of an item leaving the index; the exits show in the next step. */
  endPairsOf(id: number): void {
    const items = this.tree.items;
    for (let e = items.pairHead[id]; e !== NONE; e = items.pairHead[id]) this.endPair(e >> 1);
    items.flags[id] &= ~DIRTY;
  }

  /** Checks the queued items and brings the pair lists up to date. */
  run(): void {
    const stats = this.stats;
    const started = performance.now();
    this.stepId++;
    this.tests = 0;
    this.entered.count = 0;
    let checked = 0;
    const tier0 = this.queues[0];
    while (tier0.count > 0) checked += this.check(tier0.shift());
    let overBudget = false;
    for (let t = 1; t < TIERS; t++) {
      const queue = this.queues[t];
      let served = 0;
      while (queue.count > 0) {
        if (served >= this.minChecksPerTier) {
          if (!overBudget && this.tests >= this.maxPairTests) overBudget = true;
          if (!overBudget && this.maxMs !== Infinity && (served & 31) === 0 &&
              performance.now() - started >= this.maxMs) overBudget = true;
          if (overBudget) break;
        }
        const done = this.check(queue.shift());
        served += done;
        checked += done;
      }
    }
    this.finishLists();
    this.pairs.release();
    stats.moved = checked;
    stats.pairTests = this.tests;
    stats.deferred = this.countDeferred();
    stats.stepMs = performance.now() - started;
  }

  /** Checks one queued id; returns 0 for a stale queue entry (removed or already checked). */
  private check(m: number): number {
    const tree = this.tree;
    const items = tree.items;
    if ((items.flags[m] & DIRTY) === 0) return 0;
    items.flags[m] &= ~DIRTY;
    const step = this.stepId;
    items.checkedAt[m] = step;
    const pairs = this.pairs;
    const touching = this.touching;
    const x0 = items.minX[m], y0 = items.minY[m], x1 = items.maxX[m], y1 = items.maxY[m];
    const layer = items.layer[m], mask = items.mask[m], priority = items.priority[m];
    const isStatic = items.flags[m] & STATIC;
    let tests = 0;

    // 1. Re-test the pairs the item had; a partner checked earlier this step did it already.
    for (let e = items.pairHead[m]; e !== NONE;) {
      const next = pairs.edgeNext[e];
      const p = e >> 1;
      const o = (e & 1) === 0 ? pairs.b[p] : pairs.a[p];
      e = next;
      if (items.checkedAt[o] === step) continue;
      tests++;
      const keep = (layer & items.mask[o]) !== 0 && (items.layer[o] & mask) !== 0 &&
        (isStatic & items.flags[o]) === 0 &&
        (touching
          ? x0 <= items.maxX[o] && items.minX[o] <= x1 && y0 <= items.maxY[o] && items.minY[o] <= y1
          : x0 < items.maxX[o] && items.minX[o] < x1 && y0 < items.maxY[o] && items.minY[o] < y1);
      if (!keep) {
        this.endPair(p);
      } else {
        const op = items.priority[o];
        const pp = op < priority ? op : priority;
        if (pairs.priority[p] !== pp) {
          pairs.priority[p] = pp;
          this.reorder = true;
        }
      }
    }

    // 2. Query the tree for partners; existing pairs are found in the hash and kept.
    const nodes = tree.nodes;
    const stack = this.stack;
    let top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const n = stack[--top];
      for (let o = nodes.head[n]; o !== NONE; o = items.next[o]) {
        if (o === m || items.checkedAt[o] === step) continue;
        if ((layer & items.mask[o]) === 0 || (items.layer[o] & mask) === 0 || (isStatic & items.flags[o]) !== 0) continue;
        tests++;
        if (touching
          ? x0 <= items.maxX[o] && items.minX[o] <= x1 && y0 <= items.maxY[o] && items.minY[o] <= y1
          : x0 < items.maxX[o] && items.minX[o] < x1 && y0 < items.maxY[o] && items.minY[o] < y1) {
          const a = m < o ? m : o;
          const b = m < o ? o : m;
          if (pairs.find(a, b) === NONE) {
            const op = items.priority[o];
            const pp = op < priority ? op : priority;
            const p = pairs.create(a, b, pp, step, items);
            this.entered.push(a, b, pp, p);
          }
        }
      }
      const first = nodes.firstChild[n];
      if (first === NONE) continue;
      for (let c = first; c < first + 4; c++) {
        if (nodes.total[c] === 0 || nodes.minX[c] > x1 || nodes.maxX[c] < x0 || nodes.minY[c] > y1 || nodes.maxY[c] < y0) continue;
        stack[top++] = c;
      }
    }
    this.tests += tests;
    return 1;
  }

  private endPair(p: number): void {
    const pairs = this.pairs;
    this.exiting.push(pairs.a[p], pairs.b[p], pairs.priority[p], p);
    pairs.destroy(p, this.tree.items);
  }

  /**
   * Sorts this step's entries and exits and merges the entries into the sorted current list,
   * dropping pairs that ended: O(pairs) only in steps where something changed.
   */
  private finishLists(): void {
    const stats = this.stats;
    const entered = this.entered;
    const exits = this.exiting;
    this.exiting = this.exited;
    this.exiting.count = 0;
    this.exited = exits;
    sortPairs(entered.a, entered.b, entered.priority, entered.index, entered.count);
    sortPairs(exits.a, exits.b, exits.priority, exits.index, exits.count);

    if (entered.count > 0 || exits.count > 0 || this.reorder) this.merge();

    const byTier = stats.enteredByTier;
    byTier.fill(0);
    for (let i = 0; i < entered.count; i++) byTier[tierOf(entered.priority[i])]++;
    stats.exitedByTier.fill(0);
    for (let i = 0; i < exits.count; i++) stats.exitedByTier[tierOf(exits.priority[i])]++;
    const stayed = stats.stayedByTier;
    stayed.fill(0);
    const cur = this.current;
    // Tiers are contiguous runs in the sorted list: count them by boundaries, not per pair.
    for (let t = 0, i = 0; t < TIERS; t++) {
      const end = runEnd(cur.priority, i, cur.count, (3 - t) << 6);
      stayed[t] = end - i - byTier[t];
      i = end;
    }
    stats.pairs = cur.count;
    stats.entered = entered.count;
    stats.exited = exits.count;
    stats.stayed = cur.count - entered.count;
  }

  private merge(): void {
    const pairs = this.pairs;
    const old = this.current;
    const entered = this.entered;
    const out = this.spare;
    out.reserve(old.count + entered.count);
    const oa = old.a, ob = old.b, oi = old.index;
    const ea = entered.a, eb = entered.b, ep = entered.priority, ei = entered.index;
    const na = out.a, nb = out.b, np = out.priority, ni = out.index;
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < old.count || j < entered.count) {
      if (i < old.count && pairs.alive[oi[i]] === 0) {
        i++;
        continue;
      }
      let takeOld: boolean;
      if (i >= old.count) takeOld = false;
      else if (j >= entered.count) takeOld = true;
      else {
        const p1 = pairs.priority[oi[i]];
        takeOld = p1 !== ep[j] ? p1 > ep[j] : oa[i] !== ea[j] ? oa[i] < ea[j] : ob[i] < eb[j];
      }
      if (takeOld) {
        na[k] = oa[i];
        nb[k] = ob[i];
        np[k] = pairs.priority[oi[i]];
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
    if (this.reorder) {
      sortPairs(out.a, out.b, out.priority, out.index, out.count);
      this.reorder = false;
    }
    this.spare = old;
    this.current = out;
  }

  private countDeferred(): number {
    const flags = this.tree.items.flags;
    let deferred = 0;
    for (let t = 1; t < TIERS; t++) {
      const queue = this.queues[t];
      for (let i = 0; i < queue.count; i++) if ((flags[queue.at(i)] & DIRTY) !== 0) deferred++;
    }
    return deferred;
  }

  /** Forgets every pair and queue entry (after the index was cleared). */
  reset(): void {
    for (const q of this.queues) q.clear();
    this.pairs.reset();
    this.current.count = 0;
    this.entered.count = 0;
  }
}

/** End of the run of priorities at or above `floor` starting at i (the list is sorted descending). */
function runEnd(priority: Uint8Array, i: number, count: number, floor: number): number {
  // Binary search for the first entry below floor.
  let lo = i;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (priority[mid] >= floor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
