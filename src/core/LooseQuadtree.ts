import { Broadphase } from './pairs/Broadphase.js';
import {
  badOutput,
  checkBox,
  checkBoxIn,
  checkFlag,
  checkId,
  fail,
  isBits32,
  isObject,
  isSquare,
  refuseCircleBox,
  show,
} from './errors.js';
import { ABSENT, CIRCLE, PENDING, STATIC, SWEPT } from './store/ItemStore.js';
import { LAST_FROM, LAST_TO, TO } from './store/SweptStore.js';
import { ExactTest, type BoxReader } from './pairs/ExactTest.js';
import { QueryEngine, type IdArray } from './queries/QueryEngine.js';
import { MAX_DEPTH, QuadtreeQueries } from './queries/QuadtreeQueries.js';
import { runsReplaced } from './queries/RunIndex.js';
import { SpatialTree } from './placement/SpatialTree.js';
import {
  Shape,
  type BudgetOptions,
  type ColliderValues,
  type Contact,
  type PairList,
  type QuadtreeOptions,
  type QuadtreeStats,
  type ShapeValue,
} from './options.js';
import { BUDGET_KEYS, checkKeys, clampInt, emptyStats, readOptions, budgetNumber } from './optionKeys.js';

/**
 * A persistent loose quadtree with an incremental broadphase, keyed by integer ids.
 *
 * Items are boxes given by their corners, updated in place: a move within the node's loose
 * bounds only stores the box. {@link step} finds pair changes for the changed items only.
 *
 * @example
 * const tree = new LooseQuadtree({ width: 2048, height: 2048 });
 * tree.insert(1, 10, 10, 20, 20);
 * tree.insert(2, 15, 15, 30, 30);
 * tree.step();
 * tree.entered.count; // 1: the pair (1, 2)
 * const hits: number[] = [];
 * tree.queryRect(0, 0, 100, 100, hits); // 2, hits = [2, 1] (tree order)
 */
export class LooseQuadtree extends QuadtreeQueries {
  /** World left edge. */
  readonly x: number;
  /** World top edge. */
  readonly y: number;
  /** World width (see {@link QuadtreeOptions.width}). */
  readonly width: number;
  /** World height. */
  readonly height: number;
  /** Deepest level of the tree (the root is 0). */
  readonly maxDepth: number;
  /** Whether touching edges count as overlap (see {@link QuadtreeOptions.touching}). */
  readonly touching: boolean;
  /** Numbers about the index and the last step, updated in place. */
  readonly stats: QuadtreeStats;

  /** @internal The spatial index, which the package's own faces (ECS, tile layers) reach too. */
  readonly tree: SpatialTree;
  /** @internal */
  readonly queries: QueryEngine;
  /** @internal The pair finder (validateTree reads it). */
  readonly broadphase: Broadphase;
  private readonly exactTest: ExactTest;
  /** @internal Objects whose state is part of the tree's (tile layers): saved with it (see saveTree). */
  readonly attached: object[] = [];

  constructor(options: QuadtreeOptions = {}) {
    super();
    const { x, y, width, height, touching, rootSize, maxDepth, lifespan, maxLifespan, maxId } = readOptions(
      options,
      MAX_DEPTH,
    );
    this.x = x;
    this.y = y;
    this.width = width;
    this.height = height;
    this.touching = touching;
    this.stats = emptyStats();
    this.maxDepth = maxDepth;
    this.tree = new SpatialTree(x, y, rootSize, maxDepth, maxId, lifespan, maxLifespan);
    this.queries = new QueryEngine(this.tree);
    this.broadphase = new Broadphase(this.tree, this.touching, this.stats);
    this.exactTest = new ExactTest(this.tree, this.touching);
    if (options.budget) this.setBudget(options.budget);
  }

  /** Number of items, pending inserts included. */
  get size(): number {
    return this.tree.size;
  }

  /** Steps run so far (the id of the last step). */
  get stepCount(): number {
    return this.broadphase.stepId;
  }

  /**
   * Adds an item. It is placed with the other new items by the next {@link flush}, {@link step}
   * or query, all in one pass, so a collider or shape set right after costs no second placement.
   * The box is stored in float32 (each corner rounded), as pairs, queries and {@link getBox} see it.
   * @throws if the id is already present or the box is invalid (NaN/Infinity, min > max, past float32's range)
   */
  insert(id: number, minX: number, minY: number, maxX: number, maxY: number): void {
    checkId(id, this.tree.idLimit);
    checkBox(id, minX, minY, maxX, maxY);
    const b = this.boxIn;
    b[0] = minX;
    b[1] = minY;
    b[2] = maxX;
    b[3] = maxY;
    this.admit(id);
  }

  /** @internal The float32 box of the item {@link queueChecked} adds next, written here so no number crosses a call. */
  readonly boxIn = new Float32Array(4);

  /** @internal {@link insert} of {@link boxIn}, {@link setCollider} and {@link setStatic} in one. */
  queueChecked(id: number, layer: number, mask: number, priority: number, isStatic: boolean): void {
    checkId(id, this.tree.idLimit);
    checkBoxIn(id, this.boxIn);
    this.admit(id);
    const items = this.tree.items;
    items.setFilter(id, layer | 0, mask | 0);
    items.setPriority(id, priority);
    if (isStatic) items.setFlag(id, STATIC, true);
  }

  /** Places every pending item; returns how many. Queries and steps do this by themselves. */
  flush(): number {
    const tree = this.tree;
    const pending = tree.pending;
    let placed = 0;
    // Once each, in queue order; an entry whose item was removed since is skipped.
    for (let i = 0; i < pending.count; i++) {
      const id = pending.data[i];
      if (tree.items.nodeOf(id) !== PENDING) continue;
      tree.waiting--;
      // One placed in a node is checked by the next step; a detached class's newborns are the tree's (see born).
      if (tree.place(id)) this.broadphase.markDirty(id);
      placed++;
    }
    pending.clear();
    return placed;
  }

  /** Gives an item a new box; returns whether it changed (a box equal once rounded to float32 does not). */
  move(id: number, minX: number, minY: number, maxX: number, maxY: number): boolean {
    // Kept small so engines inline it into the caller's loop (its numbers then never get boxed);
    // anything unusual takes the slow path.
    const items = this.tree.items;
    const recs = items.rec;
    // -1 written out (NO_RECORD): a constant costs bytecode. Past the end, undefined fails `>= 0` too.
    const rec = id >>> 0 === id ? recs[id] : -1;
    if (rec >= 0) {
      // The record's FLAGS and NODE written out (0, 3): each imported constant costs bytecode.
      const i32 = items.i32;
      const o = rec << 2;
      const f = i32[o];
      // Sizes not negative or NaN, corners within float32's range (beyond, float32 rounds to infinity).
      const w = maxX - minX;
      const h = maxY - minY;
      if (
        i32[o + 3] >= PENDING &&
        (f & SWEPT) === 0 &&
        w >= 0 &&
        h >= 0 &&
        minX > -3.4028235677973366e38 &&
        maxX < 3.4028235677973366e38 &&
        minY > -3.4028235677973366e38 &&
        maxY < 3.4028235677973366e38 &&
        ((f & CIRCLE) === 0 || w === h)
      ) {
        // The slot is written in place at literal offsets, not through ItemStore.setBox, to stay
        // under the inlining budget; the old rounded corners tell whether it changed.
        const f32 = items.slots.box;
        const r = 4 * rec;
        const x0 = f32[r],
          y0 = f32[r + 1],
          x1 = f32[r + 2],
          y1 = f32[r + 3];
        f32[r] = minX;
        f32[r + 1] = minY;
        f32[r + 2] = maxX;
        f32[r + 3] = maxY;
        if (f32[r] === x0 && f32[r + 1] === y0 && f32[r + 2] === x1 && f32[r + 3] === y1) return false;
        this.moved(id);
        return true;
      }
    }
    return this.moveChecked(id, minX, minY, maxX, maxY);
  }

  /**
   * @internal {@link move} that puts the item there rather than moving it through the frame: a swept item's path starts
   * again at the new box (a push out of a wall, a shape change), and the last step's path stays for getPath.
   */
  moveTo(id: number, minX: number, minY: number, maxX: number, maxY: number): void {
    if (this.tree.items.hasFlag(id, SWEPT)) this.moveChecked(id, minX, minY, maxX, maxY, true);
    else this.move(id, minX, minY, maxX, maxY);
  }

  /** The rest of an indexed item's move once its box is stored; a detached item only counts as its class's move. */
  private moved(id: number): void {
    if (!this.tree.update(id)) this.broadphase.markDirty(id);
  }

  /** {@link move} with every check and its error message, and for pending items; `restart` as {@link moveTo}. */
  private moveChecked(id: number, minX: number, minY: number, maxX: number, maxY: number, restart = false): boolean {
    const node = this.nodeOf(id, 'move');
    checkBox(id, minX, minY, maxX, maxY);
    const items = this.tree.items;
    if (items.hasFlag(id, CIRCLE) && !isSquare(minX, minY, maxX, maxY)) refuseCircleBox(id, minX, minY, maxX, maxY);
    if (items.hasFlag(id, SWEPT)) {
      // A restart changes the path even where its end stays.
      if (!this.tree.sweeps.setTo(id, minX, minY, maxX, maxY) && !restart) return false;
      if (restart) this.tree.sweeps.restart(id);
      this.tree.coverPath(id);
    } else if (!items.setBox(id, minX, minY, maxX, maxY)) {
      return false;
    }
    // A swept item is checked again even when the box covering its path did not change.
    if (node !== PENDING) this.moved(id);
    return true;
  }

  /**
   * Makes an item swept (a bullet): it is found by its whole path since the last step, so it
   * cannot pass through a thin wall between steps. A pair exists when the moving boxes met at
   * any time in the frame; {@link timeOfImpact} tells when. The path starts where the item is now.
   */
  setSwept(id: number, swept: boolean): void {
    const node = this.nodeOf(id, 'setSwept');
    if (typeof swept !== 'boolean') checkFlag(`item ${id}'s swept flag`, swept);
    const items = this.tree.items;
    const sweeps = this.tree.sweeps;
    if (items.hasFlag(id, SWEPT) === swept) return;
    if (swept) {
      const b = this.tree.slots.box;
      const r = items.boxAt(id);
      sweeps.add(id, b[r], b[r + 1], b[r + 2], b[r + 3]);
    } else {
      const b = sweeps.boxes;
      const t = sweeps.at(id) + TO;
      items.setBox(id, b[t], b[t + 1], b[t + 2], b[t + 3]);
      sweeps.remove(id);
    }
    this.changeFlag(id, node, SWEPT, swept);
  }

  /** Sets or clears a flag that decides how an item's pairs are tested; a placed item is checked again. */
  private changeFlag(id: number, node: number, flag: number, on: boolean): void {
    const items = this.tree.items;
    const before = items.flagsWord(id);
    items.setFlag(id, flag, on);
    if (node === PENDING) return;
    this.tree.flagsChanged(id, before);
    this.moved(id);
  }

  /** True when the item is swept (see {@link setSwept}). */
  isSwept(id: number): boolean {
    this.nodeOf(id, 'isSwept');
    return this.tree.items.hasFlag(id, SWEPT);
  }

  /**
   * Makes an item a circle (inscribed in its box, which must be square to within rounding) or
   * a box again. Candidates still come from boxes; pairs and queries test the circle under the
   * same rule. A swept circle sweeps its circle.
   * @throws naming the item and the sizes if the box is not square
   */
  setShape(id: number, shape: ShapeValue): void {
    const node = this.nodeOf(id, 'setShape');
    // Typed, but plain JavaScript may pass anything.
    const given: unknown = shape;
    if (given !== Shape.Box && given !== Shape.Circle)
      fail(`item ${id} has an unknown shape (got ${show(shape)}); use Shape.Box or Shape.Circle`);
    const items = this.tree.items;
    const circle = shape === Shape.Circle;
    if (items.hasFlag(id, CIRCLE) === circle) return;
    if (circle) this.tree.checkSquare(id);
    this.changeFlag(id, node, CIRCLE, circle);
  }

  /** The item's shape (see {@link setShape}). */
  shapeOf(id: number): ShapeValue {
    this.nodeOf(id, 'shapeOf');
    return this.tree.items.hasFlag(id, CIRCLE) ? Shape.Circle : Shape.Box;
  }

  /**
   * The contact geometry of a current pair into `out` (and returns it): the unit normal from `a`
   * to `b`, the depth along it (0 when they only touch) and a contact point. Boxes part along
   * the axis of least overlap, a circle along the line to the other's nearest point. A swept
   * pair gives the normal and point of first touch, with depth as the shapes are now. Under a
   * budget, a waiting item's pair is as of its last check. Allocates nothing.
   * @throws naming both ids if they are not a pair after the last step (and which of them is
   * not in the tree, if one is not)
   */
  contact<T extends Contact>(a: number, b: number, out: T): T {
    return this.contactOf(a, b, out, 'item');
  }

  /**
   * {@link contact}, its error naming `a` and `b` as items or (for the ECS) entities, the boxes
   * read by `boxNow` (the ECS reads a waiting entity's components, where its box is newer).
   * @internal
   */
  contactOf<T extends Contact>(
    a: number,
    b: number,
    out: T,
    noun: 'item' | 'entity',
    boxNow: BoxReader | null = null,
  ): T {
    if (!isObject(out)) badOutput('contact', 'out', out, 'an object');
    if (!this.isPair(a, b)) {
      const missing = !this.has(a) ? a : !this.has(b) ? b : null;
      // Both in the tree, through the ECS: likeliest a handler of exits, whose pairs have ended.
      const why =
        missing !== null
          ? ` (${noun} ${show(missing)} is not in the tree)`
          : noun === 'entity'
            ? ' (an exit ends the pair: read contacts in enter and stay handlers)'
            : '';
      fail(
        `contact of ${noun === 'item' ? 'items' : 'entities'} ${show(a)} and ${show(b)}: they are not a pair after ` +
          `the last step${why}`,
      );
    }
    return this.exactTest.contact(a, b, out, boxNow);
  }

  /**
   * When, in the last step's frame (0 to 1), the items of a current pair first touched along
   * swept paths (see {@link setSwept}). 0 without a swept item or when they overlapped from the
   * start; -1 if not a pair after the last step, or if either was removed since (the lists still
   * hold its pairs until the next step). Read it before moving them again.
   * @throws if an id is not a non-negative integer below the id limit
   */
  timeOfImpact(a: number, b: number): number {
    checkId(a, this.tree.idLimit);
    checkId(b, this.tree.idLimit);
    return this.isPair(a, b) ? this.exactTest.timeOfImpact(a, b) : -1;
  }

  /** Whether a and b (known or not, in either order) are a pair after the last step. */
  private isPair(a: number, b: number): boolean {
    if (a === b || !this.has(a) || !this.has(b)) return false;
    return this.pairStartedAt(a, b) >= 0;
  }

  /** After a step: the paths it tested become the last paths, and each starts again where it ended. */
  private advancePaths(): void {
    const sweeps = this.tree.sweeps;
    const items = this.tree.items;
    for (let e = 0; e < sweeps.count; e++) {
      const id = sweeps.ids[e];
      // An item the budget left waiting keeps its whole path for the step that checks it.
      if (items.nodeOf(id) === PENDING || this.broadphase.isDirty(id)) continue;
      const moving = sweeps.moving(id);
      sweeps.advance(id);
      // Checked again next step, as pairs met only along this path end; its slot covers the old
      // path until it moves again (extra candidates, never a miss), saving a relocation a frame.
      if (moving) this.broadphase.markChanged(id);
    }
  }

  /** Removes an item; its pairs end and show as exited in the next step. */
  remove(id: number): void {
    const node = this.nodeOf(id, 'remove');
    if (node === PENDING) {
      // Its queue entry stays, stale, until the next flush.
      this.tree.items.setNode(id, ABSENT);
      this.tree.waiting--;
    } else {
      this.tree.unplace(id);
    }
    this.broadphase.endPairsOf(id);
    if (this.tree.items.hasFlag(id, SWEPT)) this.tree.sweeps.remove(id);
    this.tree.items.depart(id);
    this.tree.size--;
  }

  /** True when the id is in the index (pending inserts included). */
  has(id: number): boolean {
    return Number.isInteger(id) && id >= 0 && id < this.tree.items.capacity && this.tree.items.nodeOf(id) !== ABSENT;
  }

  /**
   * Removes every item, tile layers' rectangles included (the layers are then gone). Their pairs
   * show as exited in the next step. Keeps allocated memory.
   */
  clear(): void {
    const items = this.tree.items;
    const slots = this.tree.slots;
    // Over the slots, not the id map: a far id would make that a pass over millions of ids. Removals move slots.
    const live: number[] = [];
    for (let s = 0; s < slots.used; s++) {
      const id = slots.id[s];
      if (id >= 0 && id < items.capacity && items.slotOf(id) === s && items.nodeOf(id) !== ABSENT) live.push(id);
    }
    for (const id of live) this.remove(id);
    this.tree.clear();
    this.attached.length = 0;
  }

  /**
   * Copies an item's box into `out` and returns it, as stored (float32).
   * @throws if the id is not in the index
   */
  getBox<T extends { minX: number; minY: number; maxX: number; maxY: number }>(id: number, out: T): T {
    this.nodeOf(id, 'getBox');
    return this.copyBox(id, TO, out);
  }

  /**
   * Copies into `from` and `to` the path the last step tested for a swept item (see
   * {@link setSwept}); the contact point is `from + toi * (to - from)`. A non-swept item gets its box in both.
   * @throws if the id is not in the index
   */
  getPath<T extends { minX: number; minY: number; maxX: number; maxY: number }>(id: number, from: T, to: T): void {
    this.nodeOf(id, 'getPath');
    this.copyBox(id, LAST_FROM, from);
    this.copyBox(id, LAST_TO, to);
  }

  /** Copies into `out` a swept item's box at `path` of its entry (TO, LAST_FROM, LAST_TO), another's stored box. */
  private copyBox<T extends { minX: number; minY: number; maxX: number; maxY: number }>(
    id: number,
    path: number,
    out: T,
  ): T {
    this.tree.boxNow(id, copied, 0, path);
    out.minX = copied[0];
    out.minY = copied[1];
    out.maxX = copied[2];
    out.maxY = copied[3];
    return out;
  }

  /**
   * Sets an item's collision filter and priority: a pair exists only when each side's `mask`
   * has a bit of the other's `layer`. Defaults: layer 1, mask all bits, priority 128.
   * @param layer - the item's category bits (usually one bit; 32-bit, not 0)
   * @param mask - the categories it collides with (32-bit)
   * @param priority - 0..255, higher is more important; a pair has the lower of its two
   */
  setCollider(id: number, layer: number, mask: number, priority: number): void {
    this.nodeOf(id, 'setCollider');
    checkBits(id, 'layer', layer);
    if ((layer | 0) === 0) fail(`item ${id} has layer 0: it would match no mask (got ${show(layer)})`);
    checkBits(id, 'mask', mask);
    if (!Number.isInteger(priority) || priority < 0 || priority > 255) {
      fail(`item ${id} has priority outside 0..255 (got ${show(priority)})`);
    }
    const items = this.tree.items;
    const old = items.priorityOf(id);
    if (!items.setFilter(id, layer | 0, mask | 0) && old === priority) return;
    items.setPriority(id, priority);
    if (items.nodeOf(id) === PENDING) return;
    this.tree.colliderChanged(id);
    this.broadphase.requeue(id, old);
  }

  /**
   * Copies an item's layer, mask and priority (see {@link setCollider}) into `out` and returns it.
   * @throws if the id is not in the index
   */
  getCollider<T extends ColliderValues>(id: number, out: T): T {
    this.nodeOf(id, 'getCollider');
    const items = this.tree.items;
    out.layer = items.layerOf(id);
    out.mask = items.maskOf(id);
    out.priority = items.priorityOf(id);
    return out;
  }

  /** Marks an item static (a wall): never paired with another static item. */
  setStatic(id: number, isStatic: boolean): void {
    this.nodeOf(id, 'setStatic');
    if (typeof isStatic !== 'boolean') checkFlag(`item ${id}'s static flag`, isStatic);
    const items = this.tree.items;
    if (items.hasFlag(id, STATIC) === isStatic) return;
    items.setFlag(id, STATIC, isStatic);
    if (items.nodeOf(id) === PENDING) return;
    this.tree.colliderChanged(id);
    this.broadphase.markChanged(id);
  }

  /** Finds the pair changes since the last step into {@link current}, {@link entered}, {@link exited}. */
  step(): QuadtreeStats {
    this.flush();
    this.tree.nodes.tick();
    this.broadphase.run();
    this.tree.items.releaseDeparted();
    this.tree.compactIfScattered();
    if (this.tree.sweeps.count !== 0) this.advancePaths();
    runsReplaced();
    this.tree.describe(this.stats);
    this.tree.relocated = 0;
    return this.stats;
  }

  /** Advances the lifespan timers of empty groups by one frame without a broadphase step. */
  tick(): void {
    this.tree.nodes.tick();
    this.tree.describe(this.stats);
  }

  /** Items waiting in the pending-insertion queue. */
  get pending(): number {
    return this.tree.waiting;
  }

  /** Every overlapping pair after the last step, sorted by priority (high first), then ids. */
  get current(): PairList {
    return this.broadphase.lists.current;
  }

  /** Pairs that began in the last step, sorted like {@link current}. */
  get entered(): PairList {
    return this.broadphase.lists.entered;
  }

  /** Pairs that ended in the last step (or by removal before it), sorted like {@link current}. */
  get exited(): PairList {
    return this.broadphase.lists.exited;
  }

  /** Step in which the pair (a, b) began, or -1 if there is no such pair. */
  pairStartedAt(a: number, b: number): number {
    return a < b ? this.broadphase.startedAt(a, b) : this.broadphase.startedAt(b, a);
  }

  /** Writes into `out` the ids paired with `id` and returns how many. */
  pairsOf(id: number, out: IdArray): number {
    this.nodeOf(id, 'pairsOf');
    // The first call after a step groups the pairs by item (once, O(pairs)).
    return this.broadphase.pairsOf(id, out);
  }

  /** Changes the budget; omitted fields return to their defaults. */
  setBudget(budget: BudgetOptions): void {
    // Everything is checked before anything is set: a refused budget changes nothing.
    checkKeys('budget option', budget, BUDGET_KEYS);
    const maxPairTests = budgetNumber('maxPairTests', budget.maxPairTests);
    const maxMs = budgetNumber('maxMs', budget.maxMs);
    const minChecksPerTier = clampInt('budget.minChecksPerTier', budget.minChecksPerTier ?? 32, 1, 2 ** 31 - 1);
    const bp = this.broadphase;
    bp.maxPairTests = maxPairTests;
    bp.maxMs = maxMs;
    bp.minChecksPerTier = minChecksPerTier;
    this.tree.budgeted = maxPairTests !== Infinity || maxMs !== Infinity;
    if (this.tree.budgeted) bp.planShares(0, 0, 0);
  }

  /** Adds the item, its id and its box in {@link boxIn} checked by the caller, to the store and the pending queue. */
  private admit(id: number): void {
    const tree = this.tree;
    tree.items.ensure(id, tree.idLimit);
    const items = tree.items;
    if (items.nodeOf(id) !== ABSENT) fail(`item ${id} is already in the index (insert of an existing id)`);
    items.add(id);
    // Four stores rather than a typed-array set: a builtin call on every insert.
    const f32 = tree.slots.box;
    const box = this.boxIn;
    const r = items.boxAt(id);
    f32[r] = box[0];
    f32[r + 1] = box[1];
    f32[r + 2] = box[2];
    f32[r + 3] = box[3];
    tree.size++;
    tree.pending.push(id);
    items.setNode(id, PENDING);
    tree.waiting++;
  }

  /** The item's node, after checking the id names an item in the index. */
  private nodeOf(id: number, verb: string): number {
    checkId(id, this.tree.idLimit);
    const node = id < this.tree.items.capacity ? this.tree.items.nodeOf(id) : ABSENT;
    if (node === ABSENT) fail(`${verb} of unknown item ${id} (never inserted, or removed already)`);
    return node;
  }
}

/** Scratch of copyBox, outside any tree's state. */
const copied = new Float64Array(4);

function checkBits(id: number, field: string, value: number): void {
  if (!isBits32(value)) {
    fail(`item ${id} has a ${field} that is not a 32-bit integer (got ${show(value)})`);
  }
}
