import { DETACH_MIN, MAX_CLASSES, MIXED } from '../store/CollisionClasses.js';
import { DETACHED, TIERS, tierOf } from '../store/ItemStore.js';
import { PairBuffer } from '../lists/PairBuffer.js';
import { PairLists } from '../lists/PairLists.js';
import { KeySorter } from '../lists/radix.js';
import { lowerBound } from '../lists/order.js';
import { grow } from '../grow.js';
import { IdQueue } from './IdQueue.js';
import { IdBits } from './IdBits.js';
import { PairFinder } from './PairFinder.js';
import { PairIndex } from './PairIndex.js';
import { declareScratch } from '../snapshot/StatePlan.js';
import type { SpatialTree } from '../placement/SpatialTree.js';
import type { QuadtreeStats } from '../options.js';
import type { IdArray } from '../queries/QueryEngine.js';

/** A step where 1 / MANY_MOVED of the items or more moved counts as one where many moved. */
const MANY_MOVED = 16;

/**
 * Incremental pair finding, as in Box2D's move buffer: only dirty items are checked, and pairs of two unmoved items
 * stay. Dirty items wait in a FIFO per tier, so a budget serves tier 0 in full, then tiers 1-3 oldest first.
 */
export class Broadphase {
  readonly lists = new PairLists();
  readonly queues: IdQueue[] = [new IdQueue(), new IdQueue(), new IdQueue(), new IdQueue()];
  /** Set when a collider's priority changed, until every item waiting to be checked was. */
  priorityChanged = false;

  stepId = 0;
  maxPairTests = Infinity;
  maxMs = Infinity;
  minChecksPerTier = 32;

  private readonly tree: SpatialTree;
  private readonly stats: QuadtreeStats;
  /** Each item's pairs, made from the current list on first need after a step. */
  private readonly index = new PairIndex();
  private readonly finder: PairFinder;
  private readonly sorter = new KeySorter();
  /** Pairs this step's checks found (a, b and priority only). */
  private readonly found = new PairBuffer(64, false);
  /** Movers this step probed (their pairs with items of nodes are re-found) and detached members it joined (all are). */
  private readonly touched = new IdBits();
  private readonly batch = new Int32Array(64);
  /** Per class, whether half or more of it moved in the step before (see choose). */
  private readonly mostBefore = new Uint8Array(MAX_CLASSES);
  /** Members of detached lower-tier classes left waiting by this step's shares. */
  private waitingMembers = 0;
  /** Bits of the detached classes that left members waiting in the last step. */
  private waitingClasses = 0;
  /** This step's shares under a budget: their tests and members (see planShares). */
  private shareTests = 0;
  private shareServed = 0;
  /** Newborn members of a detached class, checked at once under a budget. */
  private newborn = new Int32Array(64);
  /** Items removed (and maybe inserted again) since the last step: their listed pairs end in the next. */
  private readonly left = new IdBits();

  constructor(tree: SpatialTree, touching: boolean, stats: QuadtreeStats) {
    this.tree = tree;
    this.stats = stats;
    this.finder = new PairFinder(tree, touching);
    // Written whole before read each step: not state.
    declareScratch(this, 'found', 'newborn');
  }

  /** Queues an item of a node for the next step unless it is queued already. Kept small: moves inline it. */
  markDirty(id: number): void {
    const items = this.tree.items;
    if (items.markOnce(id, 2 * this.stepId + 3)) this.queues[tierOf(items.priorityOf(id))].push(id);
  }

  /** {@link markDirty} for any indexed item; a detached one only counts as its class's move. */
  markChanged(id: number): void {
    const items = this.tree.items;
    if (items.nodeOf(id) === DETACHED) this.tree.classes.moved[items.classOf(id)]++;
    else this.markDirty(id);
  }

  isDirty(id: number): boolean {
    return this.tree.items.stateOf(id) === 2 * this.stepId + 3;
  }

  /** After a priority change: a queued item joins its new tier's queue too, so the budget never cuts a promotion. */
  requeue(id: number, oldPriority: number): void {
    const items = this.tree.items;
    if (items.priorityOf(id) !== oldPriority) this.priorityChanged = true;
    const tier = tierOf(items.priorityOf(id));
    if (items.nodeOf(id) === DETACHED) this.markChanged(id);
    else if (!this.isDirty(id)) this.markDirty(id);
    else if (tier !== tierOf(oldPriority)) this.queues[tier].push(id);
  }

  /** Ends every pair of an item leaving the index: the next step's merge ends its listed pairs. */
  endPairsOf(id: number): void {
    const items = this.tree.items;
    this.left.fit(items.capacity);
    this.left.add(id);
    this.index.stale = true;
    items.setState(id, 0);
  }

  /** True when one of the pair's ids left the index (or left and came back) since the last step. */
  endedByRemoval(a: number, b: number): boolean {
    return this.left.has(a) || this.left.has(b);
  }

  /** Checks the queued items and brings the pair lists up to date. */
  run(): void {
    const stats = this.stats;
    const started = performance.now();
    const tree = this.tree;
    this.touched.fit(tree.items.capacity);
    this.left.fit(tree.items.capacity);
    const unlimited = this.maxPairTests === Infinity && this.maxMs === Infinity;
    let dirty = 0;
    for (let t = 0; t < TIERS; t++) dirty += this.queues[t].count;
    const C = tree.classes;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (C.detached[k] === 0) continue;
      dirty += Math.min(C.moved[k], C.size[k]);
    }
    const size = tree.size;
    // With half or more moved, whole joins cost less than probing from each mover; a budget always probes.
    const onePass = unlimited && dirty * 2 >= size;
    this.stepId++;
    this.finder.beginStep();
    this.lists.entered.count = 0;
    if (this.priorityChanged) this.lists.refreshPriorities(tree.items);
    this.found.count = 0;
    this.waitingMembers = 0;
    this.waitingClasses = 0;
    stats.budgetedTests = 0;
    const checked = onePass ? this.checkAll() : this.checkMovers(unlimited, started);
    this.lists.finish(stats);
    this.found.trim();
    for (let t = 0; t < TIERS; t++) this.queues[t].trim();
    this.index.stale = true;
    stats.moved = checked;
    stats.pairTests = this.finder.tests;
    stats.deferred = this.eachWaiting(true) + this.waitingMembers;
    stats.waitBound = 0;
    // Every listed pair has its items' priorities now (refreshed, or re-tested via requeue).
    this.priorityChanged = false;
    this.choose(unlimited, dirty * MANY_MOVED >= size);
    C.moved.fill(0);
    tree.born.clear();
    tree.burst.fill(0);
    tree.tidy();
    if (!unlimited) {
      this.planShares(this.shareTests, this.shareServed, this.finder.tests - this.shareTests);
      stats.waitBound = this.waitBound();
    }
    // This step's: a snapshot between steps holds none.
    this.shareTests = 0;
    this.shareServed = 0;
    stats.stepMs = performance.now() - started;
  }

  private checkAll(): number {
    this.eachWaiting(false);
    for (let t = 0; t < TIERS; t++) this.queues[t].clear();
    const found = this.found;
    this.finder.run(found);
    this.lists.radix.sort(found, null, true);
    this.lists.replaceWithFound(found, this.stepId, this.left, this.lists.radix.scratch());
    this.left.clear();
    return this.tree.size - this.tree.waiting;
  }

  /** Probes from the movers, joins whole the detached classes they touched, then (under a budget) serves the rest. */
  private checkMovers(unlimited: boolean, started: number): number {
    const tree = this.tree;
    const C = tree.classes;
    const found = this.found;
    // A mover joins `touched` once probed: later probes skip it, so two movers pair once.
    this.finder.runMovers(this.collectMovers(unlimited ? TIERS : 1), this.sorter.count, this.touched, found);
    let checked = this.sorter.count;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (C.detached[k] === 0 || (!unlimited && C.waits(k))) continue;
      let touched = C.moved[k] !== 0;
      for (let o = 0; !touched && o < MAX_CLASSES; o++)
        touched = C.moved[o] !== 0 && C.allowed[k * MAX_CLASSES + o] === 1;
      if (touched) checked += this.serveRange(k, 0, C.end[k]);
    }
    if (!unlimited) {
      const unrationed = this.finder.tests;
      checked += this.serveQueues(started);
      const before = this.finder.tests;
      const served = this.serveShares();
      checked += served;
      this.shareTests = this.finder.tests - before;
      this.shareServed = served;
      // The tests of the lower tiers' queues and shares: the ones the budget rationed.
      this.stats.budgetedTests = this.finder.tests - unrationed;
    }
    this.lists.radix.sort(found, null, true);
    if (found.count > 0 || this.touched.count + this.left.count > 0)
      this.lists.mergeFound(found, this.stepId, this.touched.words, this.left, tree.items);
    this.left.clear();
    this.touched.clear();
    return checked;
  }

  /** Serves tiers 1-3's movers, oldest first, while the budget lasts (at least `minChecksPerTier` each). */
  private serveQueues(started: number): number {
    const mark = 2 * this.stepId + 1;
    const batch = this.batch;
    let checked = 0;
    let clock = 0;
    for (let t = 1; t < TIERS; t++) {
      const queue = this.queues[t];
      let served = 0;
      while (queue.count > 0) {
        // The guaranteed ones in batches; then one at a time while the budget lasts (clock every 32).
        const past = served >= this.minChecksPerTier;
        if (
          past &&
          (this.finder.tests >= this.maxPairTests ||
            (this.maxMs !== Infinity && (clock++ & 31) === 0 && performance.now() - started >= this.maxMs))
        )
          break;
        const size = past ? 1 : Math.min(batch.length, this.minChecksPerTier - served);
        let n = 0;
        while (queue.count > 0 && n < size) {
          const slot = this.takeMover(queue, mark);
          if (slot >= 0) batch[n++] = slot;
        }
        served += n;
        checked += n;
        this.finder.runMovers(batch, n, this.touched, this.found);
      }
    }
    return checked;
  }

  /** Each lower-tier detached class checks its newborns and its planned share. Returns the members checked. */
  private serveShares(): number {
    const C = this.tree.classes;
    const items = this.tree.items;
    const born = this.tree.born;
    let served = 0;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (C.detached[k] === 0 || !C.waits(k)) continue;
      let members = this.serveRange(k, C.cursor[k], C.planTo[k]);
      if (C.planWrap[k] > 0 || C.planTo[k] >= C.roundEnd[k]) {
        // The round ended inside this share: the next one runs over the list as it is now.
        C.roundEnd[k] = C.end[k];
        members += this.serveRange(k, 0, C.planWrap[k]);
        C.cursor[k] = C.planWrap[k];
      } else {
        C.cursor[k] = C.planTo[k];
      }
      // Newborns not in the share: they have no pairs yet, and their turn may be far off.
      let n = 0;
      for (let i = 0; i < born.count; i++) {
        const id = born.data[i];
        if (items.nodeOf(id) !== DETACHED || items.classOf(id) !== k || this.touched.has(id)) continue;
        if (n === this.newborn.length) this.newborn = grow(this.newborn, 2 * n);
        this.newborn[n++] = items.listPlaceOf(id);
        this.touched.add(id);
      }
      if (n > 0) {
        members += n;
        this.finder.joinDetached(k, this.found, this.newborn, 0, n);
      }
      served += members;
      if (members < C.size[k]) {
        this.waitingMembers += C.size[k] - members;
        this.waitingClasses |= 1 << k;
      }
    }
    return served;
  }

  /** Checks the members of detached class k at list places [from, to), marked touched. Returns how many. */
  private serveRange(k: number, from: number, to: number): number {
    if (from >= to) return 0;
    const ids = this.tree.classes.ids[k];
    let members = 0;
    for (let i = from; i < to; i++) {
      if (ids[i] < 0) continue;
      this.touched.add(ids[i]);
      members++;
    }
    this.finder.joinDetached(k, this.found, null, from, to);
    return members;
  }

  /** The most steps a waiting item may still wait: past the queued movers ahead, or the rest of a round and the next. */
  private waitBound(): number {
    const C = this.tree.classes;
    const min = this.minChecksPerTier;
    let bound = 0;
    for (let t = 1; t < TIERS; t++) {
      const q = this.queues[t].count;
      if (q > 0) bound = Math.max(bound, Math.floor((q - 1) / min) + 1);
    }
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (C.detached[k] === 0 || !C.waits(k) || ((this.waitingClasses >>> k) & 1) === 0) continue;
      const rest = Math.ceil(C.roundEnd[k] / min);
      const next = Math.ceil(Math.max(C.roundEnd[k], C.end[k]) / min);
      bound = Math.max(bound, rest + next + 1);
    }
    return bound;
  }

  /** Plans now each waiting detached class's share of the next step's budget: the ECS sync reads just those members. */
  planShares(shareTests: number, served: number, otherTests: number): void {
    const C = this.tree.classes;
    let entries = 0;
    for (let k = 0; k < MAX_CLASSES; k++) if (C.detached[k] === 1 && C.waits(k)) entries += C.end[k];
    if (entries === 0) return;
    const cost = served === 0 ? 2 : 1 + shareTests / served;
    const left = Math.max(0, this.maxPairTests - otherTests);
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (C.detached[k] === 0 || !C.waits(k)) continue;
      const end = C.end[k];
      const share = Math.min(
        end,
        Math.max(this.minChecksPerTier, left === Infinity ? end : Math.floor((left * end) / entries / cost)),
      );
      if (C.cursor[k] >= C.roundEnd[k]) {
        C.roundEnd[k] = end;
        C.cursor[k] = 0;
      }
      // The share starts at the cursor: only a restart (see restartRounds) moves it before it is served, emptying it.
      const from = C.cursor[k];
      const to = Math.min(C.roundEnd[k], from + share);
      C.planTo[k] = to;
      // The rest of the share starts the next round, short of where this one started.
      C.planWrap[k] = to === C.roundEnd[k] ? Math.min(from, share - (to - from)) : 0;
    }
  }

  /** Detaches big classes that mostly move (cheaper joined whole) or wait under a budget (see SpatialTree.detach). */
  private choose(unlimited: boolean, many: boolean): void {
    const tree = this.tree;
    const C = tree.classes;
    let want = 0;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (k === MIXED || C.size[k] < DETACH_MIN || C.isStatic[k] === 1) continue;
      if (!unlimited && C.waits(k)) {
        want |= 1 << k;
        continue;
      }
      // Two steps in a row: a world just filled moved once.
      const most = C.moved[k] * 2 >= C.size[k];
      if (many && (C.detached[k] === 1 ? C.moved[k] * 4 >= C.size[k] : most && this.mostBefore[k] === 1))
        want |= 1 << k;
      this.mostBefore[k] = many && most ? 1 : 0;
    }
    for (let a = 0; a < MAX_CLASSES; a++) {
      for (let b = a + 1; b < MAX_CLASSES; b++) {
        if (((want >>> a) & 1) === 0 || ((want >>> b) & 1) === 0 || C.allowed[a * MAX_CLASSES + b] === 0) continue;
        want &= ~(1 << (C.size[a] < C.size[b] ? a : b));
      }
    }
    // Attach first, so that no join is ever between two detached classes.
    for (let k = 0; k < MAX_CLASSES; k++) if (C.detached[k] === 1 && ((want >>> k) & 1) === 0) tree.attach(k);
    for (let k = 0; k < MAX_CLASSES; k++) if (C.detached[k] === 0 && ((want >>> k) & 1) === 1) tree.detach(k);
  }

  /** Where {@link startedAt} found its last pair in the current list. */
  private lastFound = 0;

  /** Step the pair (a < b) began, or -1 if none; a walk in list order is answered from the next entry. */
  startedAt(a: number, b: number): number {
    if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 0 && a < b && b < this.tree.items.capacity)) return -1;
    if (this.endedByRemoval(a, b)) return -1;
    const cur = this.lists.current;
    let at = this.lastFound + 1;
    if (!(at < cur.count && cur.a[at] === a && cur.b[at] === b)) {
      const items = this.tree.items;
      const low = Math.min(items.priorityOf(a), items.priorityOf(b));
      // After a priority change the list is sorted by the old priorities: a's pairs are asked.
      at = this.priorityChanged ? this.index.find(items, cur, a, b) : lowerBound(cur, cur.count, low, a, b);
      if (!(at >= 0 && at < cur.count && cur.a[at] === a && cur.b[at] === b)) return -1;
    }
    this.lastFound = at;
    return cur.born[at];
  }

  /** Writes the ids paired with `id` after the last step into `out` (none if removed since); returns how many. */
  pairsOf(id: number, out: IdArray): number {
    if (this.left.has(id)) {
      out.length = 0;
      return 0;
    }
    const index = this.index;
    index.update(this.tree.items, this.lists.current);
    const cur = this.lists.current;
    let count = 0;
    for (let e = index.first(this.tree.items, id), end = index.end(this.tree.items, id); e < end; e++) {
      const i = index.entries[e];
      const other = cur.a[i] === id ? cur.b[i] : cur.a[i];
      if (!this.left.has(other)) out[count++] = other;
    }
    out.length = count;
    return count;
  }

  /** Takes the first `tiers` queues' waiting items and returns their slots sorted: cell order keeps reads in cache. */
  private collectMovers(tiers: number): Int32Array {
    const sorter = this.sorter;
    const mark = 2 * this.stepId + 1;
    sorter.count = 0;
    for (let t = 0; t < tiers; t++) {
      const queue = this.queues[t];
      while (queue.count > 0) {
        const slot = this.takeMover(queue, mark);
        if (slot >= 0) sorter.push(slot);
      }
    }
    sorter.sort();
    return sorter.keys;
  }

  /** The next queued mover's slot, counted as its class's move; -1 when stale or taken (see ItemStore.takeMarked). */
  private takeMover(queue: IdQueue, mark: number): number {
    const items = this.tree.items;
    const id = queue.shift();
    const slot = items.takeMarked(id, mark, mark - 1);
    if (slot >= 0) this.tree.classes.moved[items.classOf(id)]++;
    return slot;
  }

  /** Waiting queued items: counted as class moves (see choose), or with `carry` left dirty; returns those carried. */
  private eachWaiting(carry: boolean): number {
    const items = this.tree.items;
    const moved = this.tree.classes.moved;
    const waiting = 2 * this.stepId + 1;
    let carried = 0;
    for (let t = 0; t < TIERS; t++) {
      const queue = this.queues[t];
      for (let i = 0; i < queue.count; i++) {
        const id = queue.at(i);
        if (items.stateOf(id) !== waiting) continue;
        if (!carry) moved[items.classOf(id)]++;
        else if (items.nodeOf(id) !== DETACHED) {
          items.setState(id, waiting + 2);
          carried++;
        }
      }
    }
    return carried;
  }
}
