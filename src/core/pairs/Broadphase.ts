import { MAX_CLASSES, MIXED } from '../store/CollisionClasses.js';
import { DETACHED, TIERS, tierOf } from '../store/ItemStore.js';
import { PairBuffer } from '../lists/PairBuffer.js';
import { PairLists } from '../lists/PairLists.js';
import { KeySorter, PairRadix } from '../lists/radix.js';
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

/** A class this big or bigger may be detached (see Broadphase.choose). */
const DETACH_MIN = 1024;

/** A step in which 1 / MANY_MOVED of the items or more moved counts as one where many moved (see Broadphase.choose). */
const MANY_MOVED = 16;

/**
 * Incremental pair finding, in the manner of Box2D's move buffer: only items queued as
 * dirty (moved, resized, added, re-filtered) are checked; pairs of two items that did not
 * move are kept as they are: nothing about them can have changed. This class owns the queue
 * of moved items and picks, per step, one of two ways by how many moved:
 *
 * - movers: the movers probe the cells around them for every pair they are in, from slot
 *   memory alone (see PairFinder.runMovers), and every detached class one of whose items or
 *   partners moved is joined whole; the pairs are radix-sorted and merged with the list (see
 *   PairLists.mergeFound). The only way under a budget.
 * - all (half or more moved, no budget): the probe grid joins every class pair whole, the
 *   way a uniform grid finds every pair (see PairFinder.run), sorted the same way, and the
 *   pairs replace the list (see PairLists.replaceWithFound).
 *
 * A big class most of which moves step after step is detached from the tree (see
 * SpatialTree.detach, {@link choose}): its moves only store the box, its births and deaths
 * only touch its list, and its pairs come from a grid join over its region of slots.
 *
 * Dirty items wait in one FIFO per tier. Tier 0 is emptied every step. Tiers 1-3 are
 * served in order while the budget lasts, and at least `minChecksPerTier` from each one
 * regardless, so an item at position p of its queue is checked within floor(p / min) + 1
 * steps. New dirty items join the back, so deferred ones go first: round-robin.
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
  /** Each item's pairs, made from the current list when a per-item question first needs it after a step. */
  private readonly index = new PairIndex();
  private readonly finder: PairFinder;
  private readonly sorter = new KeySorter();
  private readonly radix = new PairRadix();
  /** The pairs the step's checks found, sorted like the lists once found: a, b and priority only. */
  private readonly found = new PairBuffer(64, false);
  /** Items of nodes checked by this step's movers' probes: their pairs with other items of nodes are re-found. */
  private readonly checked = new IdBits();
  /** Items of detached classes this step joined: all their pairs are re-found. */
  private readonly covered = new IdBits();
  /** Slots of a batch of queued movers served under a budget. */
  private readonly batch = new Int32Array(64);
  /** Per class, whether half or more of it moved in the step before (see choose). */
  private readonly mostBefore = new Uint8Array(MAX_CLASSES);
  /** Members of detached lower-tier classes left waiting by this step's shares. */
  private waitingMembers = 0;
  /** Bits of the detached classes that left members waiting in the last step. */
  private waitingClasses = 0;
  /** This step's shares: their tests and members (see planShares). */
  private shareTests = 0;
  private shareServed = 0;
  /** This step's tests of the lower tiers' queues and shares: the ones the budget rationed. */
  private budgetedTests = 0;
  /** Newborn members of a detached class, checked at once under a budget. */
  private newborn = new Int32Array(64);
  /** Items removed (and maybe inserted again) since the last step: their listed pairs end in the next. */
  private readonly left = new IdBits();
  /** The ids of `checked`, `covered` and `left` together, for the merge (see touchedWords). */
  private readonly touched = new IdBits();
  private tests = 0;

  constructor(tree: SpatialTree, touching: boolean, stats: QuadtreeStats) {
    this.tree = tree;
    this.stats = stats;
    this.finder = new PairFinder(tree, touching);
    // Scratch of a step's checks, written whole before it is read: not state. With the sort's
    // buffers and the join's grid it held nearly half of a snapshot of 100k boxes all moving.
    declareScratch(this, 'found');
  }

  /** Every pair after the last step, sorted. */
  get current(): PairBuffer {
    return this.lists.current;
  }

  /** Queues the items the tree placed or caught up since the last call (see SpatialTree.arrived). */
  takeArrivals(): void {
    const arrived = this.tree.arrived;
    for (let i = 0; i < arrived.count; i++) this.markDirty(arrived.data[i]);
    arrived.clear();
  }

  /** Queues an item of a node for the next step unless it is queued already. Kept small: moves inline it. */
  markDirty(id: number): void {
    const items = this.tree.items;
    if (items.markOnce(id, 2 * this.stepId + 3)) this.queues[tierOf(items.priorityOf(id))].push(id);
  }

  /**
   * {@link markDirty} for any indexed item: one of a detached class is only counted as its
   * class's move (its class is joined whole).
   */
  markChanged(id: number): void {
    const items = this.tree.items;
    if (items.nodeOf(id) === DETACHED) this.tree.classes.moved[items.classOf(id)]++;
    else this.markDirty(id);
  }

  /** True when the item waits for the next step. */
  isDirty(id: number): boolean {
    return this.tree.items.stateOf(id) === 2 * this.stepId + 3;
  }

  /** Adds the queued movers to their classes' counts of moves (see choose), for a step that takes them all at once. */
  private countMovers(): void {
    const items = this.tree.items;
    const moved = this.tree.classes.moved;
    const waiting = 2 * this.stepId + 1;
    for (let t = 0; t < TIERS; t++) {
      const queue = this.queues[t];
      for (let i = 0; i < queue.count; i++) {
        const id = queue.at(i);
        if (items.stateOf(id) === waiting) moved[items.classOf(id)]++;
      }
    }
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
    if (items.nodeOf(id) === DETACHED) this.markChanged(id);
    else if (!this.isDirty(id)) this.markDirty(id);
    else if (tier !== tierOf(oldPriority)) this.queues[tier].push(id);
  }

  /**
   * Ends every pair of an item leaving the index: the item joins `left`, and the next step's
   * merge ends its listed pairs (the exits show in that step).
   */
  endPairsOf(id: number): void {
    const items = this.tree.items;
    this.left.fit(items.capacity);
    this.left.add(id);
    this.index.stale = true;
    items.setState(id, 0);
  }

  /**
   * True when a listed pair no longer holds because one of its ids left the index since the
   * last step, or left and came back as a new item.
   */
  endedByRemoval(a: number, b: number): boolean {
    return this.left.has(a) || this.left.has(b);
  }

  /** Checks the queued items and brings the pair lists up to date. */
  run(): void {
    const stats = this.stats;
    const started = performance.now();
    const tree = this.tree;
    this.checked.fit(tree.items.capacity);
    this.covered.fit(tree.items.capacity);
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
    // A budget always takes the movers' way: its lower tiers are served in shares. Whole joins
    // when half or more moved pay: with the movers' probes alone the storm's step took
    // 1.26-1.37x as long at 10k and 100k, the effects' share 1.14-1.23x, and every box moving
    // 1.9x at 1k and 1.1x at 100k (measured against the tree's cells swept class by class,
    // which these joins replaced and match or beat).
    const onePass = unlimited && dirty * 2 >= size;
    this.stepId++;
    this.tests = 0;
    this.finder.beginStep();
    this.lists.entered.count = 0;
    const checked = onePass ? this.checkAll() : this.checkMovers(unlimited, started);
    this.lists.finish(stats);
    this.found.trim();
    for (let t = 0; t < TIERS; t++) this.queues[t].trim();
    this.index.stale = true;
    stats.moved = checked;
    stats.pairTests = this.tests;
    stats.budgetedTests = this.budgetedTests;
    this.budgetedTests = 0;
    stats.deferred = this.carryDeferred() + this.waitingMembers;
    stats.waitBound = 0;
    // Every listed pair has its items' priorities now: refreshed before a merge, or re-tested
    // by the check of the item whose priority changed (see requeue).
    this.priorityChanged = false;
    this.choose(unlimited, dirty * MANY_MOVED >= size);
    C.moved.fill(0);
    tree.born.clear();
    tree.tidy();
    if (!unlimited) {
      this.planShares(this.shareTests, this.shareServed, this.tests - this.shareTests);
      stats.waitBound = this.waitBound();
    }
    this.shareTests = 0;
    this.shareServed = 0;
    stats.stepMs = performance.now() - started;
  }

  /**
   * Checks every item at once: the joins find every overlapping pair, a radix sort puts them
   * in list order, and one pass against the previous list tells the pairs that stayed from
   * those that began or ended (no per-pair lookup); the found pairs are then the list.
   * Used when at least half the items moved and there is no budget.
   */
  private checkAll(): number {
    this.countMovers();
    for (let t = 0; t < TIERS; t++) this.queues[t].clear();
    if (this.priorityChanged) this.lists.refreshPriorities(this.tree.items);
    const found = this.found;
    found.count = 0;
    this.finder.run(found);
    this.tests += this.finder.tests;
    this.radix.sort(found);
    this.lists.replaceWithFound(found, this.stepId, this.left, this.radix.scratch());
    this.left.clear();
    this.waitingMembers = 0;
    this.waitingClasses = 0;
    return this.tree.size - this.tree.waiting;
  }

  /**
   * Checks the queued movers by probing from each the cells of every class it may pair
   * with, from slot memory alone, and joins whole every detached class that one of its items
   * or partners moved; the pairs are radix-sorted and merged with the list, where a listed
   * pair of a checked item that was not found again ends (see {@link mergeFound} for what a
   * check covers). Pairs of two items that did not move pass through the merge untouched.
   *
   * With a budget, the movers of tier 0 and the detached classes of tier 0 are checked in full;
   * then the lower tiers' queued movers, in queue order, while the budget lasts (and at least
   * `minChecksPerTier` from each); then each detached class of the lower tiers checks its share
   * of its list, planned at the end of the step before (see {@link planShares}), round-robin.
   */
  private checkMovers(unlimited: boolean, started: number): number {
    const tree = this.tree;
    const C = tree.classes;
    const items = tree.items;
    if (this.priorityChanged) this.lists.refreshPriorities(items);
    const found = this.found;
    found.count = 0;
    let checked = this.runMovers(this.collectMovers(unlimited ? TIERS : 1), this.sorter.count);
    const joined = this.touchedDetached();
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (((joined >>> k) & 1) === 0 || (!unlimited && C.waits(k))) continue;
      checked += this.markMembers(k, 0, C.end[k], true);
      this.finder.joinDetached(k, found, null, 0, C.end[k]);
      this.tests += this.finder.tests;
    }
    this.waitingMembers = 0;
    this.waitingClasses = 0;
    if (!unlimited) {
      const unrationed = this.tests;
      checked += this.serveQueues(started);
      const before = this.tests;
      const served = this.serveShares();
      checked += served;
      this.shareTests = this.tests - before;
      this.shareServed = served;
      this.budgetedTests = this.tests - unrationed;
    }
    this.radix.sort(found);
    this.mergeFound();
    this.checked.clear();
    this.covered.clear();
    return checked;
  }

  /** Checks movers (their slots in `slots[0..count-1]`) by probing from slot memory; returns how many. */
  private runMovers(slots: Int32Array, count: number): number {
    const slotId = this.tree.slots.id;
    // Their marks say checked already: the callers set them as they took the movers.
    for (let i = 0; i < count; i++) {
      // The probes skip partners checked already, so a pair of two movers is found once:
      // runMovers sets each mover's bit as it goes.
      this.checked.note(slotId[slots[i]]);
    }
    this.finder.runMovers(slots, count, this.checked.words, this.found);
    this.tests += this.finder.tests;
    return count;
  }

  /**
   * Serves the queued movers of tiers 1-3, oldest first, in batches, while the budget lasts
   * and at least `minChecksPerTier` from each tier. Returns how many were checked.
   */
  private serveQueues(started: number): number {
    const items = this.tree.items;
    const mark = 2 * this.stepId + 1;
    const batch = this.batch;
    const moved = this.tree.classes.moved;
    let checked = 0;
    let clock = 0;
    for (let t = 1; t < TIERS; t++) {
      const queue = this.queues[t];
      let served = 0;
      while (queue.count > 0) {
        // The guaranteed ones in batches; past them, one at a time while the budget lasts
        // (the clock read every 32).
        const past = served >= this.minChecksPerTier;
        if (
          past &&
          (this.tests >= this.maxPairTests ||
            (this.maxMs !== Infinity && (clock++ & 31) === 0 && performance.now() - started >= this.maxMs))
        )
          break;
        const size = past ? 1 : Math.min(batch.length, this.minChecksPerTier - served);
        let n = 0;
        while (queue.count > 0 && n < size) {
          const id = queue.shift();
          // Stale (removed, checked already, or detached since: its class's join covers it) or
          // listed twice: taken once.
          if (items.stateOf(id) !== mark || items.nodeOf(id) === DETACHED) continue;
          items.setState(id, mark - 1);
          moved[items.classOf(id)]++;
          batch[n++] = items.slotOf(id);
        }
        served += n;
        checked += this.runMovers(batch, n);
      }
    }
    return checked;
  }

  /**
   * Each detached class of the lower tiers checks its newborn members (placed since the last
   * step) and the share of its list planned for this step (see {@link planShares}). Returns
   * the members checked.
   */
  private serveShares(): number {
    const C = this.tree.classes;
    const items = this.tree.items;
    const born = this.tree.born;
    let served = 0;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (C.detached[k] === 0 || !C.waits(k)) continue;
      let members = this.serveRange(k, C.planFrom[k], C.planTo[k]);
      if (C.planWrap[k] > 0 || C.planTo[k] >= C.roundEnd[k]) {
        // The round ended inside this share: the next one runs over the list as it is now.
        C.lastRound[k] = C.roundEnd[k];
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
        if (items.nodeOf(id) !== DETACHED || items.classOf(id) !== k || this.covered.has(id)) continue;
        if (n === this.newborn.length) this.newborn = grow(this.newborn, 2 * n);
        this.newborn[n++] = items.listPlaceOf(id);
        this.covered.add(id);
      }
      if (n > 0) {
        members += n;
        this.finder.joinDetached(k, this.found, this.newborn, 0, n);
        this.tests += this.finder.tests;
      }
      served += members;
      if (members < C.size[k]) {
        this.waitingMembers += C.size[k] - members;
        this.waitingClasses |= 1 << k;
      }
    }
    this.tree.born.clear();
    return served;
  }

  /** Checks the members of detached class k at list places [from, to) not checked yet this step. Returns how many. */
  private serveRange(k: number, from: number, to: number): number {
    if (from >= to) return 0;
    const members = this.markMembers(k, from, to, true);
    this.finder.joinDetached(k, this.found, null, from, to);
    this.tests += this.finder.tests;
    return members;
  }

  /**
   * The most steps an item left waiting may still wait: past the queued movers ahead of it at
   * `minChecksPerTier` a step; or, in a class checked in shares, two rounds at the least share
   * each: a member checked last early in the round before, or born during it (checked at once,
   * then placed past that round's end), is checked next in the round in progress.
   */
  private waitBound(): number {
    const C = this.tree.classes;
    const min = this.minChecksPerTier;
    let bound = 0;
    for (let t = 1; t < TIERS; t++) {
      const q = this.queues[t].count;
      if (q > 0) bound = Math.max(bound, Math.floor((q - 1) / min) + 1);
    }
    for (let k = 0; k < MAX_CLASSES; k++) {
      // A class whose members were all checked leaves none waiting (its members wait only
      // from a step that leaves some of them).
      if (C.detached[k] === 0 || !C.waits(k) || ((this.waitingClasses >>> k) & 1) === 0) continue;
      const before = Math.ceil(Math.max(C.lastRound[k], C.roundEnd[k]) / min);
      const now = Math.ceil(Math.max(C.roundEnd[k], C.end[k]) / min);
      bound = Math.max(bound, before + now + 1);
    }
    return bound;
  }

  /**
   * Plans each lower-tier detached class's share of the next step: what the budget left after
   * the rest of this step (`otherTests` tests), at the cost per entry its shares had this step
   * (`shareTests` tests for `served` members), split by list length; at least
   * `minChecksPerTier`. A round of shares covers the list as it was when the round began, from
   * its start; the places the next share takes are fixed now, so that the ECS sync reads
   * exactly those components.
   */
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
      const share = left === Infinity ? end : Math.floor((left * end) / entries / cost);
      C.share[k] = Math.min(end, Math.max(this.minChecksPerTier, share));
      if (C.cursor[k] >= C.roundEnd[k]) {
        C.lastRound[k] = C.roundEnd[k];
        C.roundEnd[k] = end;
        C.cursor[k] = 0;
      }
      const from = C.cursor[k];
      const to = Math.min(C.roundEnd[k], from + C.share[k]);
      C.planFrom[k] = from;
      C.planTo[k] = to;
      // The rest of the share starts the next round, short of where this one started.
      C.planWrap[k] = to === C.roundEnd[k] ? Math.min(from, C.share[k] - (to - from)) : 0;
    }
  }

  /**
   * Detached classes to join this step, as a bit set: those whose items moved (or were added,
   * or re-filtered), or one of whose partner classes did.
   */
  private touchedDetached(): number {
    const C = this.tree.classes;
    let joined = 0;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (C.detached[k] === 0) continue;
      let touched = C.moved[k] !== 0;
      for (let o = 0; !touched && o < MAX_CLASSES; o++)
        touched = C.moved[o] !== 0 && C.allowed[k * MAX_CLASSES + o] === 1;
      if (touched) joined |= 1 << k;
    }
    return joined;
  }

  /** Marks the members of class k at list places [from, to) as covered by this step's check; returns how many. */
  private markMembers(k: number, from: number, to: number, on: boolean): number {
    const ids = this.tree.classes.ids[k];
    const covered = this.covered;
    let members = 0;
    for (let i = from; i < to; i++) {
      const id = ids[i];
      if (id < 0) continue;
      if (on) covered.add(id);
      members++;
    }
    return members;
  }

  /** Merges the pairs the movers' checks found into the lists. */
  private mergeFound(): void {
    const touched = this.touchedWords();
    // Nothing found and no listed pair to test (no item moved): the list stays as it is.
    if (this.found.count > 0 || this.touched.count > 0) {
      this.lists.mergeFound(
        this.found,
        this.stepId,
        this.checked.words,
        this.covered.words,
        this.left,
        touched,
        this.tree.items,
      );
    }
    this.left.clear();
    this.touched.clear();
  }

  /** The ids in `checked`, `covered` or `left`, as words: whose listed pairs a merge tests. */
  private touchedWords(): Int32Array {
    const touched = this.touched;
    touched.fit(this.tree.items.capacity);
    touched.addAll(this.checked);
    touched.addAll(this.covered);
    touched.addAll(this.left);
    return touched.words;
  }

  /**
   * After each step, picks the classes to keep out of the tree until further notice (see
   * SpatialTree.detach): big (DETACH_MIN items or more) and not static. Without a budget, or
   * for a class of tier 0: once half or more of it moved in two steps in a row where many items
   * moved (`many`); back in the tree once under a quarter moved, or once few items moved anywhere. Under a budget, a lower-tier class
   * that does not pair with itself is detached whatever moved: it is then checked in shares,
   * each joined through a grid of its partners. Of two classes that may pair with each other
   * only the larger stays detached: a join reads the other from its nodes.
   * The grid join of a detached class is the third way to find pairs, kept because it pays:
   * with no class detached, the storm's step took 2.5x (core) to 3.4x (ECS) as long at 100k,
   * the effects scene's 1.3x (core) to 1.8x (ECS), every box moving 1.3x.
   */
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
      // Detached after two steps in a row where half of it moved (a world just filled moved
      // once, all of it); kept so while a quarter moves.
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
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (C.detached[k] === 1 || ((want >>> k) & 1) === 0) continue;
      tree.detach(k);
      C.cursor[k] = 0;
      C.roundEnd[k] = 0;
      C.lastRound[k] = 0;
    }
  }

  /** Where {@link isCurrent} found its last pair in the current list. */
  private lastFound = 0;

  /**
   * Whether (a < b) is a pair after the last step. A caller walking the current list in order
   * (a game's contact for each pair) is answered from the entry after the last one found.
   */
  isCurrent(a: number, b: number): boolean {
    const cur = this.lists.current;
    const at = this.lastFound + 1;
    if (at < cur.count && cur.a[at] === a && cur.b[at] === b && !this.endedByRemoval(a, b)) {
      this.lastFound = at;
      return true;
    }
    return this.startedAt(a, b) >= 0;
  }

  /** Step in which the pair (a < b) began, or -1 if there is no such pair. */
  startedAt(a: number, b: number): number {
    if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 0 && a < b && b < this.tree.items.capacity)) return -1;
    if (this.endedByRemoval(a, b)) return -1;
    const cur = this.lists.current;
    if (!this.priorityChanged) {
      // The list is sorted by the priorities the items have now: a binary search finds it.
      const pa = this.tree.items.priorityOf(a);
      const pb = this.tree.items.priorityOf(b);
      const at = lowerBound(cur, cur.count, pa < pb ? pa : pb, a, b);
      if (!(at < cur.count && cur.a[at] === a && cur.b[at] === b)) return -1;
      this.lastFound = at;
      return cur.born[at];
    }
    // Priorities changed since: the list is sorted by the old ones. Ask a's pairs.
    const at = this.index.find(this.tree.items, cur, a, b);
    if (at < 0) return -1;
    this.lastFound = at;
    return cur.born[at];
  }

  /**
   * Writes into `out` the ids paired with `id` after the last step (none of an item removed
   * since) and returns how many.
   */
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

  /**
   * Takes the first `tiers` queues' waiting items into the sorter and returns their slots,
   * sorted (`sorter.count` of them): slots lie in class and cell order, so neighbouring movers
   * then read the memory their predecessors just brought into cache.
   */
  private collectMovers(tiers: number): Int32Array {
    const tree = this.tree;
    const items = tree.items;
    const sorter = this.sorter;
    const mark = 2 * this.stepId + 1;
    const moved = tree.classes.moved;
    sorter.count = 0;
    for (let t = 0; t < tiers; t++) {
      const queue = this.queues[t];
      while (queue.count > 0) {
        const id = queue.shift();
        // Stale (removed, checked already, or detached since: its class's join covers it) or
        // listed twice: taken once (its mark becomes mark - 1, so a second entry is stale).
        const slot = items.takeMarked(id, mark, mark - 1);
        if (slot < 0) continue;
        moved[items.classOf(id)]++;
        sorter.push(slot);
      }
    }
    sorter.sort();
    return sorter.keys;
  }

  /**
   * Items left waiting by the budget: they stay dirty for the next step (their marks move on
   * to it). An item can sit in a queue twice (re-inserted, or moved to another tier): counted once.
   */
  private carryDeferred(): number {
    const items = this.tree.items;
    const waiting = 2 * this.stepId + 1;
    let deferred = 0;
    for (let t = 0; t < TIERS; t++) {
      const queue = this.queues[t];
      for (let i = 0; i < queue.count; i++) {
        const id = queue.at(i);
        if (items.stateOf(id) !== waiting || items.nodeOf(id) === DETACHED) continue;
        items.setState(id, waiting + 2);
        deferred++;
      }
    }
    return deferred;
  }
}
