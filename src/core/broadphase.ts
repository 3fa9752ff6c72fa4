import { CHECKED, DIRTY, FLAGS, LAYER, MASK, MAX_X, MAX_Y, MIN_X, MIN_Y, NODE, PAIR_HEAD, pairLeft, PRIORITY, REBORN, SEEN, STATIC, tierOf } from './items.js';
import { NONE } from './nodes.js';
import { PairBuffer } from './pairlist.js';
import { NEXT, PairStore } from './pairs.js';
import { IdQueue } from './queue.js';
import { KeySorter, PairRadix } from './radix.js';
import { isSorted, ListPatcher, lowerBound, mergeEntries, runEnd } from './lists.js';
import { sortPairs } from './sort.js';
import { NEAR, PairSweep, REACH } from './sweep.js';
import type { TreeIndex } from './tree.js';
import type { QuadtreeStats } from './types.js';

export const TIERS = 4;

/**
 * Incremental pair finding, in the manner of Box2D's move buffer: only items queued as
 * dirty (moved, resized, added, re-filtered) are checked; each re-tests its existing pairs
 * and scans the cells its box can reach for new ones. Pairs of two items that did not move
 * are kept as they are: nothing about them can have changed. When at least half the items
 * moved and there is no budget, one sweep over every cell replaces the per-mover checks
 * (see checkAll).
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
  /** Set when a collider's priority changed since the last step. */
  priorityChanged = false;

  stepId = 0;
  maxPairTests = Infinity;
  maxMs = Infinity;
  minChecksPerTier = 32;

  private readonly tree: TreeIndex;
  private readonly touching: boolean;
  private tests = 0;
  private token = 0;
  // The item being checked, for the scan helpers (fields, so the helpers take few arguments).
  private curId = 0;
  private curToken = 0;
  private curLayer = 0;
  private curMask = 0;
  private curPriority = 0;
  private curStatic = 0;
  private curTests = 0;
  private curX0 = 0;
  private curY0 = 0;
  private curX1 = 0;
  private curY1 = 0;
  private readonly sorter = new KeySorter();
  private readonly sweep: PairSweep;
  private readonly radix = new PairRadix();
  /** Every pair the last one-pass sweep found, sorted like the lists. */
  private readonly found = new PairBuffer();
  /**
   * Whether the pair pool (per-item pair lists and the hash) mirrors the current list. The
   * one-pass step leaves it behind: with every item moving, creating and destroying pool
   * entries for every change costs more than the sweep. The current list (with each pair's
   * start step) is then the truth, and {@link link} rebuilds the pool from it when a per-item
   * check or a per-item question needs it.
   */
  linked = true;
  /** Items inserted since the last step while the pool was not kept (flagged REBORN). */
  private reborn = 0;
  /** First cell key of each depth: cells of all levels numbered in one range. */
  private readonly levelOffset: Int32Array;
  private readonly stats: QuadtreeStats;

  constructor(tree: TreeIndex, touching: boolean, stats: QuadtreeStats) {
    this.tree = tree;
    this.touching = touching;
    this.stats = stats;
    this.sweep = new PairSweep(tree, touching);
    this.levelOffset = new Int32Array(tree.maxDepth + 1);
    for (let d = 1; d <= tree.maxDepth; d++) this.levelOffset[d] = this.levelOffset[d - 1] + 4 ** (d - 1);
  }

  /** Queues an item for the next step unless it is queued already. */
  markDirty(id: number): void {
    const items = this.tree.items;
    if ((items.i32[(id << 4) | FLAGS] & DIRTY) !== 0) return;
    items.i32[(id << 4) | FLAGS] |= DIRTY;
    this.queues[tierOf(items.i32[(id << 4) | PRIORITY])].push(id);
  }

  /**
   * After a priority change: a queued item whose tier changed joins its new tier's queue too,
   * so a promotion to tier 0 is never cut by the budget. The first entry served checks it;
   * the other is then stale and skipped.
   */
  requeue(id: number, oldPriority: number): void {
    const items = this.tree.items;
    if (items.i32[(id << 4) | PRIORITY] !== oldPriority) this.priorityChanged = true;
    const tier = tierOf(items.i32[(id << 4) | PRIORITY]);
    if ((items.i32[(id << 4) | FLAGS] & DIRTY) === 0) this.markDirty(id);
    else if (tier !== tierOf(oldPriority)) this.queues[tier].push(id);
  }

  /** Notes an id entering the index; while the pool is not kept, its old pairs must not carry over. */
  admitted(id: number): void {
    if (this.linked) return;
    this.tree.items.i32[(id << 4) | FLAGS] |= REBORN;
    this.reborn++;
  }

  /**
   * Ends every pair of an item leaving the index; the exits show in the next step. While the
   * pool is not kept, the next step (or {@link link}) finds them gone instead.
   */
  endPairsOf(id: number): void {
    const items = this.tree.items;
    if (this.linked) {
      for (let e = items.i32[(id << 4) | PAIR_HEAD]; e !== NONE; e = items.i32[(id << 4) | PAIR_HEAD]) this.endPair(e >> 1);
    }
    items.i32[(id << 4) | FLAGS] &= ~DIRTY;
  }

  /** Checks the queued items and brings the pair lists up to date. */
  run(): void {
    const stats = this.stats;
    const started = performance.now();
    this.stepId++;
    this.tests = 0;
    this.entered.count = 0;
    // With no budget every queued item is checked, so order cannot change the result: check
    // them in cell order for cache locality. With a budget only tier 0 is sure to be checked
    // in full; the lower tiers keep their queue order, which bounds their wait.
    const unlimited = this.maxPairTests === Infinity && this.maxMs === Infinity;
    let dirty = 0;
    for (let t = 0; t < TIERS; t++) dirty += this.queues[t].count;
    // When most items moved, one forward-looking pass over every item beats a query per mover.
    const onePass = unlimited && dirty * 2 >= this.tree.size;
    if (!onePass && !this.linked) this.link();
    let checked = onePass ? this.checkAll() : this.checkInCellOrder(unlimited ? TIERS : 1);
    let overBudget = false;
    for (let t = 1; t < TIERS && !unlimited; t++) {
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
    this.finishLists(onePass);
    this.pairs.release();
    stats.moved = checked;
    stats.pairTests = this.tests;
    stats.deferred = this.countDeferred();
    // A priority change is settled once its item has been checked: until then a later
    // one-pass step must still refresh the listed priorities before it merges.
    if (stats.deferred === 0) this.priorityChanged = false;
    stats.stepMs = performance.now() - started;
  }

  /**
   * Checks every item at once: the sweep finds every overlapping pair, a radix sort puts them
   * in list order, and one merge against the previous list tells the pairs that stayed from
   * those that began or ended: no per-pair lookup, and no pair pool (see {@link linked}).
   * Used when at least half the items moved and there is no budget.
   */
  private checkAll(): number {
    const tree = this.tree;
    for (let t = 0; t < TIERS; t++) this.queues[t].clear();
    if (this.priorityChanged) this.refreshPriorities();
    const found = this.found;
    found.count = 0;
    this.sweep.run(found);
    this.tests += this.sweep.tests;
    this.radix.sort(found);
    this.mergeFound();
    // Everything is checked now: clear the dirty marks, sequentially over the records.
    const items = tree.items;
    for (let id = 0, end = items.capacity; id < end; id++) items.i32[(id << 4) | FLAGS] &= ~(DIRTY | REBORN);
    this.reborn = 0;
    return tree.size - tree.waiting;
  }

  /**
   * Merges the sorted pairs found by the sweep with the current list into the new current
   * list: a pair in both stays, one only found began, one only listed ended. Entries come out
   * in list order, so they need no sort. The pool is left behind (see {@link linked}): the
   * new list carries each pair's start step instead of a pool index.
   */
  private mergeFound(): void {
    const old = this.current;
    const found = this.found;
    const out = this.spare;
    out.reserve(found.count);
    out.count = 0;
    const pairs = this.pairs;
    const i32 = this.tree.items.i32;
    const step = this.stepId;
    const exiting = this.exiting;
    const linked = this.linked;
    const refreshed = this.priorityChanged;
    const reborn = this.reborn > 0;
    const alive = pairs.alive;
    const oa = old.a, ob = old.b, op = old.priority, oi = old.index, oborn = old.born;
    const fa = found.a, fb = found.b, fp = found.priority;
    const on = old.count, fn = found.count;
    let i = 0;
    let j = 0;
    while (i < on || j < fn) {
      // With the pool kept, pairs ended by a removal since the last step are reported already.
      if (linked && i < on && alive[oi[i]] === 0) {
        i++;
        continue;
      }
      let order = i >= on ? 1 : j >= fn ? -1
        : op[i] !== fp[j] ? (op[i] > fp[j] ? -1 : 1)
        : oa[i] !== fa[j] ? (oa[i] < fa[j] ? -1 : 1)
        : ob[i] !== fb[j] ? (ob[i] < fb[j] ? -1 : 1) : 0;
      // A listed pair of an id removed and inserted again is another pair: it ends, the new one begins.
      if (order === 0 && reborn && pairLeft(i32, oa[i], ob[i])) order = -1;
      if (order === 0) {
        out.push(oa[i], ob[i], op[i], -1, linked ? pairs.born(oi[i]) : oborn[i]);
        i++;
        j++;
      } else if (order < 0) {
        // An ending pair reports the priority it had (refreshPriorities kept it in `index`).
        exiting.push(oa[i], ob[i], linked ? pairs.priority[oi[i]] : refreshed ? oi[i] : op[i], -1);
        i++;
      } else {
        out.push(fa[j], fb[j], fp[j], -1, step);
        this.entered.push(fa[j], fb[j], fp[j], -1);
        j++;
      }
    }
    this.spare = old;
    this.current = out;
    this.linked = false;
  }

  /**
   * After a collider's priority changed: gives every listed pair the priority its items have
   * now and sorts the list again, so the merge with the sweep's pairs lines up. Without the
   * pool, the old priority rides along in `index` for pairs that end now.
   */
  private refreshPriorities(): void {
    const i32 = this.tree.items.i32;
    const cur = this.current;
    for (let i = 0; i < cur.count; i++) {
      if (this.linked && this.pairs.alive[cur.index[i]] === 0) continue;
      const pa = i32[(cur.a[i] << 4) | PRIORITY];
      const pb = i32[(cur.b[i] << 4) | PRIORITY];
      if (!this.linked) cur.index[i] = cur.priority[i];
      cur.priority[i] = pa < pb ? pa : pb;
    }
    sortPairs(cur);
  }

  /**
   * Rebuilds the pair pool from the current list after one-pass steps left it behind: O(pairs).
   * A listed pair whose item left the index (or left and came back) is created and ended at
   * once, exactly as if the pool had been kept when the item was removed.
   */
  link(): void {
    if (this.linked) return;
    const pairs = this.pairs;
    const items = this.tree.items;
    const i32 = items.i32;
    pairs.reset();
    for (let id = 0; id < items.capacity; id++) i32[(id << 4) | PAIR_HEAD] = NONE;
    this.linked = true;
    const cur = this.current;
    for (let i = 0; i < cur.count; i++) {
      const a = cur.a[i];
      const b = cur.b[i];
      const p = pairs.create(a, b, cur.priority[i], cur.born[i], items);
      cur.index[i] = p;
      if (pairLeft(i32, a, b)) this.endPair(p);
    }
    if (this.reborn > 0) {
      for (let id = 0; id < items.capacity; id++) i32[(id << 4) | FLAGS] &= ~REBORN;
      this.reborn = 0;
    }
  }

  /** Step in which the pair (a < b) began, or -1 if there is no such pair. */
  startedAt(a: number, b: number): number {
    if (this.linked) {
      const p = this.pairs.find(a, b);
      return p < 0 ? -1 : this.pairs.born(p);
    }
    const i32 = this.tree.items.i32;
    if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 0 && a < b && b < this.tree.items.capacity)) return -1;
    if (pairLeft(i32, a, b)) return -1;
    const cur = this.current;
    if (!this.priorityChanged) {
      // The list is sorted by the priorities the items have now: a binary search finds it.
      const pa = i32[(a << 4) | PRIORITY];
      const pb = i32[(b << 4) | PRIORITY];
      const at = lowerBound(cur, cur.count, pa < pb ? pa : pb, a, b);
      return at < cur.count && cur.a[at] === a && cur.b[at] === b ? cur.born[at] : -1;
    }
    for (let i = 0; i < cur.count; i++) if (cur.a[i] === a && cur.b[i] === b) return cur.born[i];
    return -1;
  }

  /** Visits the cells of depth `d` whose loose bounds can reach the box (see REACH, NEAR). */
  private visitReach(d: number, x0: number, y0: number, x1: number, y1: number): void {
    const inv = this.tree.invCellSize[d];
    const ox = this.tree.originX;
    const oy = this.tree.originY;
    this.visitCells(d,
      Math.ceil((x0 - ox) * inv - REACH), Math.floor((x1 - ox) * inv + NEAR),
      Math.ceil((y0 - oy) * inv - REACH), Math.floor((y1 - oy) * inv + NEAR));
  }

  /** Tests the items of the cells [fx0..fx1] x [fy0..fy1] of depth `d` (clamped to the grid) against the current box. */
  private visitCells(d: number, fx0: number, fx1: number, fy0: number, fy1: number): void {
    const last = (1 << d) - 1;
    if (fx0 < 0) fx0 = 0;
    if (fy0 < 0) fy0 = 0;
    if (fx1 > last) fx1 = last;
    if (fy1 > last) fy1 = last;
    if (fx0 > fx1 || fy0 > fy1) return;
    const cells = this.tree.levelSlots[d]!;
    const layers = this.tree.levelLayers[d]!;
    // Cells holding no layer the current item's mask accepts cannot hold a partner.
    const mask = this.curMask;
    const ix0 = fx0 | 0;
    const ix1 = fx1 | 0;
    for (let iy = fy0 | 0, iy1 = fy1 | 0; iy <= iy1; iy++) {
      const rowEnd = ((iy << d) + ix1) << 1;
      for (let c = ((iy << d) + ix0) << 1; c <= rowEnd; c += 2) {
        const own = cells[c + 1];
        if (own === 0 || (layers[c >> 1] & mask) === 0) continue;
        this.scanSlots(cells[c], cells[c] + own);
      }
    }
  }

  /** Restarts the partner tokens before the counter would wrap (after 2^31 checks). */
  private resetTokens(): void {
    const items = this.tree.items;
    for (let id = 0; id < items.capacity; id++) items.i32[(id << 4) | SEEN] = 0;
    this.token = 0;
  }

  /** Empties the first `tiers` queues, checking their items sorted by cell. Returns the count. */
  private checkInCellOrder(tiers: number): number {
    const tree = this.tree;
    const items = tree.items;
    const nodes = tree.nodes;
    const sorter = this.sorter;
    sorter.count = 0;
    for (let t = 0; t < tiers; t++) {
      const queue = this.queues[t];
      while (queue.count > 0) {
        const id = queue.shift();
        if ((items.i32[(id << 4) | FLAGS] & DIRTY) === 0) continue;
        const n = items.i32[(id << 4) | NODE];
        const d = nodes.depth[n];
        sorter.push(id, this.levelOffset[d] + (nodes.cellY[n] << d) + nodes.cellX[n]);
      }
    }
    sorter.sort();
    let checked = 0;
    for (let i = 0; i < sorter.count; i++) checked += this.check(sorter.ids[i]);
    return checked;
  }

  /** Checks one queued id; returns 0 for a stale queue entry (removed or already checked). */
  private check(m: number): number {
    const tree = this.tree;
    const items = tree.items;
    if ((items.i32[(m << 4) | FLAGS] & DIRTY) === 0) return 0;
    items.i32[(m << 4) | FLAGS] &= ~DIRTY;
    const step = this.stepId;
    items.i32[(m << 4) | CHECKED] = step;
    const pairs = this.pairs;
    const touching = this.touching;
    const x0 = items.f64[(m << 3) | MIN_X], y0 = items.f64[(m << 3) | MIN_Y], x1 = items.f64[(m << 3) | MAX_X], y1 = items.f64[(m << 3) | MAX_Y];
    const layer = items.i32[(m << 4) | LAYER], mask = items.i32[(m << 4) | MASK], priority = items.i32[(m << 4) | PRIORITY];
    const isStatic = items.i32[(m << 4) | FLAGS] & STATIC;
    let tests = 0;

    // Partners are marked with a token unique to this check (restarted before it wraps), so
    // the scan below tells old pairs from new ones without a hash lookup.
    const rec = pairs.rec;
    if (this.token === 0x7fffffff) this.resetTokens();
    const token = ++this.token;

    // 1. Re-test the pairs the item had; a partner checked earlier this step did it already.
    for (let e = items.i32[(m << 4) | PAIR_HEAD]; e !== NONE;) {
      const p = e >> 1;
      const r = p << 3;
      const side = e & 1;
      const o = rec[r | (1 - side)];
      e = rec[r | (NEXT + side)];
      if (items.i32[(o << 4) | CHECKED] === step) continue;
      tests++;
      const keep = (layer & items.i32[(o << 4) | MASK]) !== 0 && (items.i32[(o << 4) | LAYER] & mask) !== 0 &&
        (isStatic & items.i32[(o << 4) | FLAGS]) === 0 &&
        (touching
          ? x0 <= items.f64[(o << 3) | MAX_X] && items.f64[(o << 3) | MIN_X] <= x1 && y0 <= items.f64[(o << 3) | MAX_Y] && items.f64[(o << 3) | MIN_Y] <= y1
          : x0 < items.f64[(o << 3) | MAX_X] && items.f64[(o << 3) | MIN_X] < x1 && y0 < items.f64[(o << 3) | MAX_Y] && items.f64[(o << 3) | MIN_Y] < y1);
      if (!keep) {
        this.endPair(p);
        continue;
      }
      items.i32[(o << 4) | SEEN] = token;
      const op = items.i32[(o << 4) | PRIORITY];
      const pp = op < priority ? op : priority;
      if (pairs.priority[p] !== pp) {
        pairs.priority[p] = pp;
        this.reorder = true;
      }
    }

    // 2. Find new partners in every cell, at every level, whose loose bounds reach the box.
    this.curId = m;
    this.curToken = token;
    this.curLayer = layer;
    this.curMask = mask;
    this.curPriority = priority;
    this.curStatic = isStatic;
    this.curTests = tests;
    this.curX0 = x0;
    this.curY0 = y0;
    this.curX1 = x1;
    this.curY1 = y1;
    const tree_ = this.tree;
    for (let d = 0; d <= tree_.maxDepth; d++) {
      if (tree_.levelItems[d] === 0) continue;
      // The root cell is always visited: items that fit nowhere else live there.
      if (d === 0) this.visitCells(0, 0, 0, 0, 0);
      else this.visitReach(d, x0, y0, x1, y1);
    }
    tests = this.curTests;
    this.tests += tests;
    return 1;
  }

  /** Tests the items in slots [from, to) against the current box; pairs up the new overlaps. */
  private scanSlots(from: number, to: number): void {
    const box = this.tree.slots.box;
    const x0 = this.curX0, y0 = this.curY0, x1 = this.curX1, y1 = this.curY1;
    const touching = this.touching;
    this.curTests += to - from;
    for (let s = from; s < to; s++) {
      // Box first: it sits in the slot, read in order; the rest only for overlaps.
      if (touching
        ? x0 <= box[4 * s + 2] && box[4 * s] <= x1 && y0 <= box[4 * s + 3] && box[4 * s + 1] <= y1
        : x0 < box[4 * s + 2] && box[4 * s] < x1 && y0 < box[4 * s + 3] && box[4 * s + 1] < y1) {
        this.pairUp(this.tree.slots.id[s]);
      }
    }
  }

  /** Creates the pair of the current item with an overlapping `o`, unless it exists or is filtered out. */
  private pairUp(o: number): void {
    const m = this.curId;
    const i32 = this.tree.items.i32;
    const r = o << 4;
    if (o === m || i32[r | SEEN] === this.curToken || i32[r | CHECKED] === this.stepId) return;
    if ((this.curLayer & i32[r | MASK]) === 0 || (i32[r | LAYER] & this.curMask) === 0 ||
        (this.curStatic & i32[r | FLAGS]) !== 0) return;
    const op = i32[r | PRIORITY];
    const pp = op < this.curPriority ? op : this.curPriority;
    const a = m < o ? m : o;
    const b = m < o ? o : m;
    this.entered.push(a, b, pp, this.pairs.create(a, b, pp, this.stepId, this.tree.items));
  }

  private endPair(p: number): void {
    const pairs = this.pairs;
    this.exiting.push(pairs.a(p), pairs.b(p), pairs.priority[p], p);
    pairs.destroy(p, this.tree.items);
  }

  /**
   * Sorts this step's entries and exits and merges the entries into the sorted current list,
   * dropping pairs that ended: O(pairs) only in steps where something changed. After a
   * one-pass step the list and its entries are built in order already.
   */
  private finishLists(onePass: boolean): void {
    const stats = this.stats;
    const entered = this.entered;
    const exits = this.exiting;
    this.exiting = this.exited;
    this.exiting.count = 0;
    this.exited = exits;
    if (!isSorted(exits)) sortPairs(exits);
    if (!onePass) {
      sortPairs(entered);
      // Few changes: patch the list in place; many (or reordered priorities): merge it anew.
      const changes = entered.count + exits.count;
      if (this.reorder || changes * 32 > this.current.count || (changes > 0 && !this.patcher.patch(this.current, entered, exits))) this.merge();
    }

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

  private readonly patcher = new ListPatcher();

  /** Merges this step's entries into the current list, dropping pairs that ended (and re-sorting after priority changes). */
  private merge(): void {
    const out = this.spare;
    mergeEntries(this.current, this.entered, out, this.pairs);
    if (this.reorder) {
      sortPairs(out);
      this.reorder = false;
    }
    this.spare = this.current;
    this.current = out;
  }

  private countDeferred(): number {
    const i32 = this.tree.items.i32;
    // An item can sit in a queue twice (re-inserted, or moved to another tier): count it once.
    if (this.token === 0x7fffffff) this.resetTokens();
    const token = ++this.token;
    let deferred = 0;
    for (let t = 1; t < TIERS; t++) {
      const queue = this.queues[t];
      for (let i = 0; i < queue.count; i++) {
        const r = queue.at(i) << 4;
        if ((i32[r | FLAGS] & DIRTY) === 0 || i32[r | SEEN] === token) continue;
        i32[r | SEEN] = token;
        deferred++;
      }
    }
    return deferred;
  }
}

