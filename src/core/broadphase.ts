import { MAX_CLASSES, MIXED } from './classes.js';
import { FLAGS, LAYER, MASK, MAX_X, MAX_Y, MIN_X, MIN_Y, PAIR_HEAD, SEEN, STATE, STATIC, tierOf } from './items.js';
import { growInt32, NONE } from './nodes.js';
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

/** A class this big or bigger may be deferred (see Broadphase.chooseDeferred). */
const DEFER_MIN = 1024;

/**
 * A step checks the movers sweep-wise (no pair pool, see {@link Broadphase.checkMovers})
 * once at least 1 / MOVERS_SWEEP of the items moved, and without a budget.
 */
const MOVERS_SWEEP = 16;

/**
 * Incremental pair finding, in the manner of Box2D's move buffer: only items queued as
 * dirty (moved, resized, added, re-filtered) are checked; pairs of two items that did not
 * move are kept as they are: nothing about them can have changed. Three ways, by how many
 * moved:
 *
 * - few: each mover re-tests its existing pairs (per-item pair lists in a pool) and scans
 *   the cells its box can reach for new ones; the sorted list is patched. The only way
 *   under a budget.
 * - many (1/16 or more, no budget): the movers probe the cells around them for every pair
 *   they are in, from slot memory alone; the pairs are radix-sorted and merged with the list.
 * - most (half or more, no budget): one sweep over every cell finds every pair (see PairSweep).
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
  /** Set when a collider's priority changed, until every item waiting to be checked was. */
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
  /** Every pair the last sweep found, sorted like the lists. */
  private readonly found = new PairBuffer();
  /**
   * Whether the pair pool (per-item pair lists and the hash) mirrors the current list. The
   * sweeping steps leave it behind: with many items moving, creating and destroying pool
   * entries for every change costs more than finding the pairs. The current list (with each
   * pair's start step) is then the truth, and {@link link} rebuilds the pool from it when a
   * per-item check or a per-item question needs it.
   */
  linked = true;
  /**
   * Bit sets by id (a few KB, so the merge's look-ups stay in cache): `checked`, the movers
   * done by this step's movers sweep; `left`, items removed (and maybe inserted again) while
   * the pool was not kept, whose listed pairs end.
   */
  private checked: Int32Array = new Int32Array(32);
  private left: Int32Array = new Int32Array(32);
  /** Ids in `left`, to clear once it is used. */
  private leftIds: Int32Array = new Int32Array(64);
  private leftCount = 0;
  private readonly stats: QuadtreeStats;

  constructor(tree: TreeIndex, touching: boolean, stats: QuadtreeStats) {
    this.tree = tree;
    this.touching = touching;
    this.stats = stats;
    this.sweep = new PairSweep(tree, touching);
  }

  private readonly markDirtyFn = (id: number): void => this.markDirty(id);

  /** The STATE of an item waiting for the next step. */
  private get dirtyMark(): number {
    return 2 * this.stepId + 3;
  }

  /** Queues an item for the next step unless it is queued already. */
  markDirty(id: number): void {
    const i32 = this.tree.items.i32;
    const mark = 2 * this.stepId + 3;
    if (i32[(id << 4) | STATE] === mark) return;
    i32[(id << 4) | STATE] = mark;
    this.queues[tierOf(this.tree.items.priorityOf(id))].push(id);
  }

  /** True when the item waits for the next step. */
  isDirty(id: number): boolean {
    return this.tree.items.i32[(id << 4) | STATE] === this.dirtyMark;
  }

  /**
   * After a priority change: a queued item whose tier changed joins its new tier's queue too,
   * so a promotion to tier 0 is never cut by the budget. The first entry served checks it;
   * the other is then stale and skipped.
   */
  requeue(id: number, oldPriority: number): void {
    const items = this.tree.items;
    if (items.priorityOf(id) !== oldPriority) this.priorityChanged = true;
    const tier = tierOf(items.priorityOf(id));
    if (!this.isDirty(id)) this.markDirty(id);
    else if (tier !== tierOf(oldPriority)) this.queues[tier].push(id);
  }

  /**
   * Ends every pair of an item leaving the index; the exits show in the next step. While the
   * pool is not kept, the item is marked LEFT and the next step (or {@link link}) ends them.
   */
  endPairsOf(id: number): void {
    const items = this.tree.items;
    if (this.linked) {
      for (let e = items.i32[(id << 4) | PAIR_HEAD]; e !== NONE; e = items.i32[(id << 4) | PAIR_HEAD]) this.endPair(e >> 1);
    } else {
      this.markLeft(id);
    }
    items.i32[(id << 4) | STATE] = 0;
  }

  /**
   * True when a pair in the list no longer holds because one of its ids left the index
   * since the last step, or left and came back as a new item.
   */
  pairLeft(a: number, b: number): boolean {
    return !this.linked && (hasBit(this.left, a) || hasBit(this.left, b));
  }

  private markLeft(id: number): void {
    this.fitBits();
    if (hasBit(this.left, id)) return;
    this.left[id >> 5] |= 1 << (id & 31);
    if (this.leftCount === this.leftIds.length) this.leftIds = growInt32(this.leftIds, this.leftCount * 2);
    this.leftIds[this.leftCount++] = id;
  }

  private clearLeft(): void {
    for (let i = 0; i < this.leftCount; i++) this.left[this.leftIds[i] >> 5] = 0;
    this.leftCount = 0;
  }

  private fitBits(): void {
    const words = (this.tree.items.capacity + 31) >> 5;
    if (this.left.length >= words) return;
    this.left = growInt32(this.left, words);
    this.checked = growInt32(this.checked, words);
  }

  /** Checks the queued items and brings the pair lists up to date. */
  run(): void {
    const stats = this.stats;
    const started = performance.now();
    this.fitBits();
    // With no budget every queued item is checked, so order cannot change the result: check
    // them in cell order for cache locality. With a budget only tier 0 is sure to be checked
    // in full; the lower tiers keep their queue order, which bounds their wait.
    const unlimited = this.maxPairTests === Infinity && this.maxMs === Infinity;
    // Deferred moves (see TreeIndex.defer) are not queued until they catch up.
    let dirty = this.tree.lagCount;
    for (let t = 0; t < TIERS; t++) dirty += this.queues[t].count;
    const size = this.tree.size;
    const onePass = unlimited && dirty * 2 >= size;
    const sweeping = onePass || (unlimited && dirty * MOVERS_SWEEP >= size);
    // Only the one-pass sweep can do without deferred classes' regions, and it reads one side
    // of every join from its regions: two deferred classes that pair with each other (their
    // keys changed since they were picked) catch up too. Before the step begins, so that the
    // items caught up are made dirty for it.
    if (!onePass || this.deferredConflict()) this.tree.catchUp(this.markDirtyFn);
    this.stepId++;
    this.tests = 0;
    this.entered.count = 0;
    if (!sweeping && !this.linked) this.link();
    let checked = onePass ? this.checkAll() : sweeping ? this.checkMovers() : this.checkInCellOrder(unlimited ? TIERS : 1);
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
    this.finishLists(sweeping);
    this.pairs.release();
    stats.moved = checked;
    stats.pairTests = this.tests;
    stats.deferred = this.carryDeferred();
    // A priority change is settled once its item has been checked: until then a later
    // sweeping step must still refresh the listed priorities before it merges.
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
    for (let t = 0; t < TIERS; t++) this.queues[t].clear();
    if (this.priorityChanged) this.refreshPriorities();
    const found = this.found;
    found.count = 0;
    this.sweep.run(found);
    this.tests += this.sweep.tests;
    this.radix.sort(found);
    this.mergeFound(true);
    this.chooseDeferred();
    return this.tree.size - this.tree.waiting;
  }

  private deferredConflict(): boolean {
    const C = this.tree.classes;
    for (let a = 0; a < MAX_CLASSES; a++) {
      if (C.deferred[a] === 0) continue;
      for (let b = a + 1; b < MAX_CLASSES; b++) if (C.deferred[b] === 1 && C.allowed[a * MAX_CLASSES + b] === 1) return true;
    }
    return false;
  }

  /**
   * After a one-pass step, picks the classes whose moves may skip their regions until the
   * next step that needs them: big (DEFER_MIN items or more) and moving. While every item
   * moves, keeping the tree in step costs more than a grid built from the records (see
   * ProbeGrid); the tree catches up when a query or a per-item step needs it. Of two such
   * classes that pair with each other only the larger is deferred, since the grid reads the
   * other from its regions.
   */
  private chooseDeferred(): void {
    const C = this.tree.classes;
    const deferred = C.deferred;
    for (let k = 0; k < MAX_CLASSES; k++) {
      deferred[k] = k !== MIXED && C.size[k] >= DEFER_MIN && C.isStatic[k] === 0 ? 1 : 0;
    }
    for (let a = 0; a < MAX_CLASSES; a++) {
      for (let b = a + 1; b < MAX_CLASSES; b++) {
        if (deferred[a] === 0 || deferred[b] === 0 || C.allowed[a * MAX_CLASSES + b] === 0) continue;
        deferred[C.size[a] < C.size[b] ? a : b] = 0;
      }
    }
  }

  /**
   * Checks the queued movers by probing from each the cells of every class it may pair
   * with, from slot memory alone; their pairs are radix-sorted and merged with the list,
   * where a listed pair of a mover that was not found again ends. Pairs of two items that did
   * not move pass through the merge untouched. Used when many items moved and there is no budget.
   */
  private checkMovers(): number {
    const moverSlots = this.collectMovers(TIERS);
    const count = this.sorter.count;
    const i32 = this.tree.items.i32;
    const slotId = this.tree.slots.id;
    const done = 2 * this.stepId;
    for (let i = 0; i < count; i++) i32[(slotId[moverSlots[i]] << 4) | STATE] = done;
    if (this.priorityChanged) this.refreshPriorities();
    const found = this.found;
    found.count = 0;
    this.sweep.runMovers(moverSlots, count, this.checked, found);
    this.tests += this.sweep.tests;
    this.radix.sort(found);
    this.mergeFound(false);
    for (let i = 0; i < count; i++) this.checked[slotId[moverSlots[i]] >> 5] = 0;
    return count;
  }

  /**
   * Merges the sorted pairs found by a sweep with the current list into the new current list.
   * A listed pair either side of which was checked (every pair, with `all`) stays if it was
   * found again and ends if not; a found pair not listed begins; the other listed pairs are
   * kept as they are. Entries come out in list order, so they need no sort. The pool is left
   * behind (see {@link linked}): the new list carries each pair's start step instead.
   */
  private mergeFound(all: boolean): void {
    const old = this.current;
    const found = this.found;
    const out = this.spare;
    out.reserve(found.count + old.count);
    out.count = 0;
    const pairs = this.pairs;
    const step = this.stepId;
    const exiting = this.exiting;
    const linked = this.linked;
    const refreshed = this.priorityChanged;
    const checked = this.checked;
    const left = this.left;
    const anyLeft = !linked && this.leftCount > 0;
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
      if (order === 0 && anyLeft && (hasBit(left, oa[i]) || hasBit(left, ob[i]))) order = -1;
      if (order === 0) {
        out.push(oa[i], ob[i], op[i], -1, linked ? pairs.born(oi[i]) : oborn[i]);
        i++;
        j++;
      } else if (order < 0) {
        const a = oa[i], b = ob[i];
        if (all || (((checked[a >> 5] | left[a >> 5]) >>> (a & 31)) & 1) !== 0 || (((checked[b >> 5] | left[b >> 5]) >>> (b & 31)) & 1) !== 0) {
          // An ending pair reports the priority it had (refreshPriorities kept it in `index`).
          exiting.push(oa[i], ob[i], linked ? pairs.priority[oi[i]] : refreshed ? oi[i] : op[i], -1);
        } else {
          out.push(oa[i], ob[i], op[i], -1, linked ? pairs.born(oi[i]) : oborn[i]);
        }
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
    this.clearLeft();
  }

  /**
   * After a collider's priority changed: gives every listed pair the priority its items have
   * now and sorts the list again, so the merge with the sweep's pairs lines up. Without the
   * pool, the old priority rides along in `index` for pairs that end now.
   */
  private refreshPriorities(): void {
    const items = this.tree.items;
    const cur = this.current;
    for (let i = 0; i < cur.count; i++) {
      if (this.linked && this.pairs.alive[cur.index[i]] === 0) continue;
      const pa = items.priorityOf(cur.a[i]);
      const pb = items.priorityOf(cur.b[i]);
      if (!this.linked) cur.index[i] = cur.priority[i];
      cur.priority[i] = pa < pb ? pa : pb;
    }
    sortPairs(cur);
  }

  /**
   * Rebuilds the pair pool from the current list after sweeping steps left it behind: O(pairs).
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
    const cur = this.current;
    for (let i = 0; i < cur.count; i++) cur.index[i] = pairs.create(cur.a[i], cur.b[i], cur.priority[i], cur.born[i], items);
    if (this.leftCount > 0) {
      for (let i = 0; i < cur.count; i++) if (this.pairLeft(cur.a[i], cur.b[i])) this.endPair(cur.index[i]);
    }
    this.linked = true;
    this.clearLeft();
  }

  /** Step in which the pair (a < b) began, or -1 if there is no such pair. */
  startedAt(a: number, b: number): number {
    if (this.linked) {
      const p = this.pairs.find(a, b);
      return p < 0 ? -1 : this.pairs.born(p);
    }
    if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 0 && a < b && b < this.tree.items.capacity)) return -1;
    if (this.pairLeft(a, b)) return -1;
    const cur = this.current;
    if (!this.priorityChanged) {
      // The list is sorted by the priorities the items have now: a binary search finds it.
      const pa = this.tree.items.priorityOf(a);
      const pb = this.tree.items.priorityOf(b);
      const at = lowerBound(cur, cur.count, pa < pb ? pa : pb, a, b);
      return at < cur.count && cur.a[at] === a && cur.b[at] === b ? cur.born[at] : -1;
    }
    for (let i = 0; i < cur.count; i++) if (cur.a[i] === a && cur.b[i] === b) return cur.born[i];
    return -1;
  }

  /** Visits the cells of depth `d` whose loose bounds can reach the box (see REACH, NEAR). */
  private visitReach(k: number, d: number, x0: number, y0: number, x1: number, y1: number): void {
    const inv = this.tree.invCellSize[d];
    const ox = this.tree.originX;
    const oy = this.tree.originY;
    this.visitCells(k, d,
      Math.ceil((x0 - ox) * inv - REACH), Math.floor((x1 - ox) * inv + NEAR),
      Math.ceil((y0 - oy) * inv - REACH), Math.floor((y1 - oy) * inv + NEAR));
  }

  /** Tests class k's items in the cells [fx0..fx1] x [fy0..fy1] of depth `d` (clamped to the grid) against the current box. */
  private visitCells(k: number, d: number, fx0: number, fx1: number, fy0: number, fy1: number): void {
    const last = (1 << d) - 1;
    if (fx0 < 0) fx0 = 0;
    if (fy0 < 0) fy0 = 0;
    if (fx1 > last) fx1 = last;
    if (fy1 > last) fy1 = last;
    if (fx0 > fx1 || fy0 > fy1) return;
    const cells = this.tree.levelCells[d]!;
    const mirror = this.tree.classes.cells[k][d];
    const start = this.tree.classes.start[k];
    const own = this.tree.classes.own[k];
    const ix0 = fx0 | 0;
    const ix1 = fx1 | 0;
    for (let iy = fy0 | 0, iy1 = fy1 | 0; iy <= iy1; iy++) {
      const rowEnd = (iy << d) + ix1;
      for (let c = (iy << d) + ix0; c <= rowEnd; c++) {
        if (mirror !== null) {
          if (mirror[2 * c + 1] !== 0) this.scanSlots(mirror[2 * c], mirror[2 * c] + mirror[2 * c + 1]);
          continue;
        }
        const n = cells[c];
        if (n === NONE || own[n] === 0) continue;
        this.scanSlots(start[n], start[n] + own[n]);
      }
    }
  }

  /** Restarts the partner tokens before the counter would wrap (after 2^31 checks). */
  private resetTokens(): void {
    const items = this.tree.items;
    for (let id = 0; id < items.capacity; id++) items.i32[(id << 4) | SEEN] = 0;
    this.token = 0;
  }

  /**
   * Takes the first `tiers` queues' waiting items into the sorter and returns their slots,
   * sorted (`sorter.count` of them): slots lie in class and cell order, so neighbouring movers
   * then read the memory their predecessors just brought into cache.
   */
  private collectMovers(tiers: number): Int32Array {
    const tree = this.tree;
    const i32 = tree.items.i32;
    const itemSlot = tree.items.slot;
    const sorter = this.sorter;
    const mark = 2 * this.stepId + 1;
    if (this.token === 0x7fffffff) this.resetTokens();
    const token = ++this.token;
    sorter.count = 0;
    for (let t = 0; t < tiers; t++) {
      const queue = this.queues[t];
      while (queue.count > 0) {
        const id = queue.shift();
        // Stale (removed, or checked already) or listed twice: taken once.
        if (i32[(id << 4) | STATE] !== mark || i32[(id << 4) | SEEN] === token) continue;
        i32[(id << 4) | SEEN] = token;
        sorter.push(itemSlot[id]);
      }
    }
    sorter.sort();
    return sorter.keys;
  }

  /** Empties the first `tiers` queues, checking their items in slot order. Returns the count. */
  private checkInCellOrder(tiers: number): number {
    const moverSlots = this.collectMovers(tiers);
    const count = this.sorter.count;
    const slotId = this.tree.slots.id;
    for (let i = 0; i < count; i++) this.check(slotId[moverSlots[i]]);
    return count;
  }

  /** Checks one queued id; returns 0 for a stale queue entry (removed or already checked). */
  private check(m: number): number {
    const i32 = this.tree.items.i32;
    const mark = 2 * this.stepId + 1;
    if (i32[(m << 4) | STATE] !== mark) return 0;
    i32[(m << 4) | STATE] = mark - 1;
    this.inspect(m);
    return 1;
  }

  /** Re-tests the pairs of `m` (marked checked by this step) and finds its new ones. */
  private inspect(m: number): void {
    const tree = this.tree;
    const items = tree.items;
    const step = 2 * this.stepId;
    const pairs = this.pairs;
    const touching = this.touching;
    const x0 = items.f64[(m << 3) | MIN_X], y0 = items.f64[(m << 3) | MIN_Y], x1 = items.f64[(m << 3) | MAX_X], y1 = items.f64[(m << 3) | MAX_Y];
    const layer = items.i32[(m << 4) | LAYER], mask = items.i32[(m << 4) | MASK], priority = items.priorityOf(m);
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
      if (items.i32[(o << 4) | STATE] === step) continue;
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
      const op = items.priorityOf(o);
      const pp = op < priority ? op : priority;
      if (pairs.priority[p] !== pp) {
        pairs.priority[p] = pp;
        this.reorder = true;
      }
    }

    // 2. Find new partners in the cells of every class it may pair with, at every level,
    // whose loose bounds reach the box.
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
    const C = tree.classes;
    const row = items.classOf(m) * MAX_CLASSES;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (C.size[k] === 0 || C.allowed[row + k] === 0) continue;
      const levels = C.levelItems[k];
      // The root cell is always visited: items that fit nowhere else live there.
      if (levels[0] !== 0) this.visitCells(k, 0, 0, 0, 0, 0);
      for (let d = 1; d <= tree.maxDepth; d++) if (levels[d] !== 0) this.visitReach(k, d, x0, y0, x1, y1);
    }
    this.tests += this.curTests;
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
    if (o === m || i32[r | SEEN] === this.curToken || i32[r | STATE] === 2 * this.stepId) return;
    if ((this.curLayer & i32[r | MASK]) === 0 || (i32[r | LAYER] & this.curMask) === 0 ||
        (this.curStatic & i32[r | FLAGS]) !== 0) return;
    const op = this.tree.items.priorityOf(o);
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
   * sweeping step the list and its entries are built in order already.
   */
  private finishLists(swept: boolean): void {
    const stats = this.stats;
    const entered = this.entered;
    const exits = this.exiting;
    this.exiting = this.exited;
    this.exiting.count = 0;
    this.exited = exits;
    if (!isSorted(exits)) sortPairs(exits);
    if (!swept) {
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

  /**
   * Items left waiting by the budget: they stay dirty for the next step (their marks move on
   * to it). An item can sit in a queue twice (re-inserted, or moved to another tier): counted once.
   */
  private carryDeferred(): number {
    const i32 = this.tree.items.i32;
    const waiting = 2 * this.stepId + 1;
    const next = waiting + 2;
    let deferred = 0;
    for (let t = 0; t < TIERS; t++) {
      const queue = this.queues[t];
      for (let i = 0; i < queue.count; i++) {
        const r = queue.at(i) << 4;
        if (i32[r | STATE] !== waiting) continue;
        i32[r | STATE] = next;
        deferred++;
      }
    }
    return deferred;
  }
}

/** True when bit `i` of the bit set is on. */
function hasBit(bits: Int32Array, i: number): boolean {
  return ((bits[i >> 5] >>> (i & 31)) & 1) !== 0;
}
