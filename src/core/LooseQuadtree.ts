import { Broadphase } from './pairs/Broadphase.js';
import {
  checkBox,
  checkBoxIn,
  checkId,
  checkNumber,
  fail,
  isBits32,
  isSquare,
  refuseCircleBox,
  show,
  STORED,
} from './errors.js';
import { ABSENT, CIRCLE, DETACHED, PENDING, STATIC, SWEPT } from './store/ItemStore.js';
import { FROM, LAST_FROM, LAST_TO, TO } from './store/SweptStore.js';
import { ExactTest } from './pairs/ExactTest.js';
import {
  CIRCLE as CIRCLE_QUERY,
  NEAREST,
  POINT,
  QueryEngine,
  RAY,
  RECT,
  SWEEP,
  type IdArray,
  type Visitor,
} from './queries/QueryEngine.js';
import { SpatialTree } from './placement/SpatialTree.js';
import {
  Shape,
  type BudgetOptions,
  type Contact,
  type PairList,
  type QuadtreeOptions,
  type QuadtreeStats,
  type RayHit,
  type ShapeValue,
  type SweepHit,
} from './options.js';
import { contactOf, depthAlong } from './contacts.js';
import { shapesOf } from './pairs/ExactTest.js';
import { validateIndex } from './validate/validate.js';
import { BUDGET_KEYS, checkKeys, QUADTREE_KEYS } from './optionKeys.js';
import { QuadtreeSnapshot, restoreState, saveState } from './snapshot/Snapshot.js';

const ALL = -1;
/** Deepest tree allowed: the per-level cell index of depth d holds 4^d entries. */
const MAX_DEPTH = 11;

/** Receives one node from {@link LooseQuadtree.visitNodes}: loose bounds, depth (root 0), items in its subtree. */
export type NodeVisitor = (
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  depth: number,
  items: number,
) => void;

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
export class LooseQuadtree {
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

  /** @internal The spatial index (see spatialTreeOf). */
  readonly tree: SpatialTree;
  private readonly queries: QueryEngine;
  private readonly broadphase: Broadphase;
  private readonly exactTest: ExactTest;
  /** The two boxes of a contact as they are now, and as they were at the time of impact. */
  private readonly contactBoxes = new Float64Array(8);
  private readonly contactAt = new Float64Array(8);
  private readonly rayIds: number[] = [0];
  private readonly rayDist: number[] = [0];
  private readonly nodeStack: Int32Array;
  /** Loose bounds of the node {@link visitNodes} is at. */
  private readonly nodeBox = new Float64Array(4);
  /** Objects whose state is part of the tree's (tile layers): saved with it (see {@link save}). */
  private readonly attached: object[] = [];

  constructor(options: QuadtreeOptions = {}) {
    checkKeys('option', options, QUADTREE_KEYS);
    const x = options.x ?? 0;
    const y = options.y ?? 0;
    const width = options.width ?? 1024;
    const height = options.height ?? 1024;
    checkNumber('option x', x);
    checkNumber('option y', y);
    checkNumber('option width', width);
    checkNumber('option height', height);
    if (width <= 0) fail(`option width must be positive (got ${show(width)})`);
    if (height <= 0) fail(`option height must be positive (got ${show(height)})`);
    const rootSize = Math.max(width, height);
    // Cells closest to 40 units suit sprites of 4 to 48 units (see docs/performance.md).
    const maxDepth = clampInt(options.maxDepth ?? Math.round(Math.log2(rootSize / 40)), 0, MAX_DEPTH);
    const lifespan = clampInt(options.lifespan ?? 8, 1, 65535);
    const maxLifespan = clampInt(options.maxLifespan ?? 64, lifespan, 65535);
    const maxId = clampInt(options.maxId ?? 2 ** 24, 1, 2 ** 31 - 1);
    this.x = x;
    this.y = y;
    this.width = width;
    this.height = height;
    this.touching = options.touching ?? false;
    this.stats = {
      items: 0,
      outside: 0,
      moved: 0,
      relocated: 0,
      nodesLive: 1,
      nodesFree: 0,
      groupsCounting: 0,
      groupsFreed: 0,
      pairTests: 0,
      budgetedTests: 0,
      pairs: 0,
      entered: 0,
      stayed: 0,
      exited: 0,
      enteredByTier: new Int32Array(4),
      stayedByTier: new Int32Array(4),
      exitedByTier: new Int32Array(4),
      deferred: 0,
      waitBound: 0,
      stepMs: 0,
    };
    this.maxDepth = maxDepth;
    this.tree = new SpatialTree(x, y, rootSize, maxDepth, maxId, lifespan, maxLifespan);
    this.queries = new QueryEngine(this.tree);
    this.nodeStack = new Int32Array(4 * (maxDepth + 2));
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
   * Adds an item now; it is checked for pairs by the next {@link step}. The box is stored in
   * float32 (each corner rounded), as pairs, queries and {@link getBox} see it.
   * @throws if the id is already present or the box is invalid (NaN/Infinity, min > max, past float32's range)
   */
  insert(id: number, minX: number, minY: number, maxX: number, maxY: number): void {
    this.holdBox(id, minX, minY, maxX, maxY);
    this.admit(id);
    if (this.tree.place(id)) this.broadphase.markDirty(id);
  }

  /** Queues an item: validated now, placed by the next {@link flush}, {@link step} or query. */
  queueInsert(id: number, minX: number, minY: number, maxX: number, maxY: number): void {
    this.holdBox(id, minX, minY, maxX, maxY);
    this.admit(id);
    this.tree.enqueue(id);
  }

  /** @internal The float32 box of the item {@link queueChecked} adds next, written here so no number crosses a call. */
  readonly boxIn = new Float32Array(4);

  /** Puts a box given as numbers in {@link boxIn}, checked first so that an error names each value as passed. */
  private holdBox(id: number, minX: number, minY: number, maxX: number, maxY: number): void {
    checkId(id, this.tree.idLimit);
    checkBox(id, minX, minY, maxX, maxY);
    const b = this.boxIn;
    b[0] = minX;
    b[1] = minY;
    b[2] = maxX;
    b[3] = maxY;
  }

  /** @internal {@link queueInsert} of {@link boxIn}, {@link setCollider} and {@link setStatic} in one. */
  queueChecked(id: number, layer: number, mask: number, priority: number, isStatic: boolean): void {
    checkId(id, this.tree.idLimit);
    checkBoxIn(id, this.boxIn);
    this.admit(id);
    this.tree.enqueue(id);
    const items = this.tree.items;
    items.setFilter(id, layer | 0, mask | 0);
    items.setPriority(id, priority);
    if (isStatic) items.setFlag(id, STATIC, true);
  }

  /** Places every pending item; returns how many. Queries and steps do this by themselves. */
  flush(): number {
    this.tree.owedBoxes.settleAll();
    return this.placePending();
  }

  /** Places the pending items; the pair finder then queues those placed in nodes. */
  private placePending(): number {
    const placed = this.tree.pendingCount === 0 ? 0 : this.tree.flush();
    this.broadphase.takeArrivals();
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
      // The record's FLAGS, SLOT and NODE written out (0, 2, 3): each imported constant costs bytecode.
      const i32 = items.i32;
      const o = rec << 2;
      const f = i32[o];
      // Sizes not negative or NaN, corners within float32's range (beyond, float32 rounds to infinity).
      const w = maxX - minX;
      const h = maxY - minY;
      if (
        i32[o + 3] >= DETACHED &&
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
        const r = 4 * i32[o + 2];
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

  /** The rest of an indexed item's move once its box is stored; a detached item only counts as its class's move. */
  private moved(id: number): void {
    if (!this.tree.update(id)) this.broadphase.markDirty(id);
  }

  /** {@link move} with every check and its error message, and for pending items. */
  private moveChecked(id: number, minX: number, minY: number, maxX: number, maxY: number): boolean {
    const node = this.nodeOf(id, 'move');
    checkBox(id, minX, minY, maxX, maxY);
    const items = this.tree.items;
    if (items.hasFlag(id, CIRCLE) && !isSquare(minX, minY, maxX, maxY)) refuseCircleBox(id, minX, minY, maxX, maxY);
    if (items.hasFlag(id, SWEPT)) {
      if (!this.tree.sweeps.setTo(id, minX, minY, maxX, maxY)) return false;
      this.coverPath(id);
    } else if (!items.setBox(id, minX, minY, maxX, maxY)) {
      return false;
    }
    // A swept item is checked again even when the box covering its path did not change.
    if (node !== PENDING) this.moved(id);
    return true;
  }

  /** Stores in a swept item's record the box covering its path (see SweptStore). */
  private coverPath(id: number): void {
    const b = this.tree.sweeps.boxes;
    const f = this.tree.sweeps.at(id) + FROM;
    const t = this.tree.sweeps.at(id) + TO;
    this.tree.items.setBox(
      id,
      Math.min(b[f], b[t]),
      Math.min(b[f + 1], b[t + 1]),
      Math.max(b[f + 2], b[t + 2]),
      Math.max(b[f + 3], b[t + 3]),
    );
  }

  /**
   * Makes an item swept (a bullet): it is found by its whole path since the last step, so it
   * cannot pass through a thin wall between steps. A pair exists when the moving boxes met at
   * any time in the frame; {@link timeOfImpact} tells when. The path starts where the item is now.
   */
  setSwept(id: number, swept: boolean): void {
    this.tree.owedBoxes.settleAll();
    const node = this.nodeOf(id, 'setSwept');
    if (typeof swept !== 'boolean') fail(`item ${id} has a swept flag that is not a boolean (got ${show(swept)})`);
    const items = this.tree.items;
    const sweeps = this.tree.sweeps;
    if (items.hasFlag(id, SWEPT) === swept) return;
    if (swept) {
      sweeps.add(id, items.minX(id), items.minY(id), items.maxX(id), items.maxY(id));
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
    const before = items.flagsOf(id);
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
    this.tree.owedBoxes.settleAll();
    const node = this.nodeOf(id, 'setShape');
    // Typed, but plain JavaScript may pass anything.
    const given: unknown = shape;
    if (given !== Shape.Box && given !== Shape.Circle)
      fail(`item ${id} has an unknown shape (got ${show(shape)}); use Shape.Box or Shape.Circle`);
    const items = this.tree.items;
    const circle = shape === Shape.Circle;
    if (items.hasFlag(id, CIRCLE) === circle) return;
    if (circle) this.checkSquare(id);
    this.changeFlag(id, node, CIRCLE, circle);
  }

  /** The item's shape (see {@link setShape}). */
  shapeOf(id: number): ShapeValue {
    this.nodeOf(id, 'shapeOf');
    return this.tree.items.hasFlag(id, CIRCLE) ? Shape.Circle : Shape.Box;
  }

  /** Refuses to make a circle of an item whose box (both ends of its path, if swept) is not square. */
  private checkSquare(id: number): void {
    const items = this.tree.items;
    if (items.hasFlag(id, SWEPT)) {
      const b = this.tree.sweeps.boxes;
      for (const o of [this.tree.sweeps.at(id) + FROM, this.tree.sweeps.at(id) + TO]) {
        if (!isSquare(b[o], b[o + 1], b[o + 2], b[o + 3], STORED))
          refuseCircleBox(id, b[o], b[o + 1], b[o + 2], b[o + 3]);
      }
      return;
    }
    const x0 = items.minX(id),
      y0 = items.minY(id),
      x1 = items.maxX(id),
      y1 = items.maxY(id);
    if (!isSquare(x0, y0, x1, y1, STORED)) refuseCircleBox(id, x0, y0, x1, y1);
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
   * {@link contact}, its error naming `a` and `b` as items or (for the ECS) entities.
   * @internal
   */
  contactOf<T extends Contact>(a: number, b: number, out: T, noun: 'item' | 'entity'): T {
    this.tree.owedBoxes.settleAll();
    if (!this.isPair(a, b)) {
      const missing = !this.has(a) ? a : !this.has(b) ? b : null;
      fail(
        `contact of ${noun === 'item' ? 'items' : 'entities'} ${show(a)} and ${show(b)}: they are not a pair after ` +
          `the last step${missing === null ? '' : ` (${noun} ${show(missing)} is not in the tree)`}`,
      );
    }
    const items = this.tree.items;
    const fa = items.flagsOf(a),
      fb = items.flagsOf(b);
    const shapes = shapesOf(fa, fb);
    const s = this.contactBoxes;
    this.boxInto(a, s, 0);
    this.boxInto(b, s, 4);
    if (((fa | fb) & SWEPT) === 0 || this.exactTest.timeOfImpact(a, b) <= 0) return contactOf(s, shapes, out);
    // Met within the frame: the point where they first touched, the normal of the faces then.
    const p = this.exactTest.paths;
    const t = p[16],
      nx = p[17],
      ny = p[18];
    const at = this.contactAt;
    for (let i = 0; i < 4; i++) {
      at[i] = p[i] + (p[4 + i] - p[i]) * t;
      at[4 + i] = p[8 + i] + (p[12 + i] - p[8 + i]) * t;
    }
    contactOf(at, shapes, out);
    out.nx = nx;
    out.ny = ny;
    out.depth = depthAlong(s, shapes, nx, ny);
    return out;
  }

  /** Writes where an item is now (a swept one: the end of its path) into `s[o..o+3]`. */
  private boxInto(id: number, s: Float64Array, o: number): void {
    const items = this.tree.items;
    let src: Float32Array = items.slots.box,
      at = items.boxAt(id);
    if (items.hasFlag(id, SWEPT)) {
      // The record covers the path; the item is at the end of it.
      src = this.tree.sweeps.boxes;
      at = this.tree.sweeps.at(id) + TO;
    }
    s[o] = src[at];
    s[o + 1] = src[at + 1];
    s[o + 2] = src[at + 2];
    s[o + 3] = src[at + 3];
  }

  /**
   * When, in the last step's frame (0 to 1), the items of a current pair first touched along
   * swept paths (see {@link setSwept}). 0 without a swept item or when they overlapped from the
   * start; -1 if not a pair after the last step. Read it before moving them again.
   */
  timeOfImpact(a: number, b: number): number {
    this.tree.owedBoxes.settleAll();
    this.nodeOf(a, 'timeOfImpact');
    this.nodeOf(b, 'timeOfImpact');
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
      // Checked again next step, as pairs met only along this path end; its record covers the old
      // path until it moves again (extra candidates, never a miss), saving a relocation a frame.
      if (moving) this.broadphase.markChanged(id);
    }
  }

  /** Removes an item; its pairs end and show as exited in the next step. */
  remove(id: number): void {
    const node = this.nodeOf(id, 'remove');
    if (node === PENDING) this.tree.unqueue(id);
    else this.tree.unplace(id);
    this.broadphase.endPairsOf(id);
    if (this.tree.items.hasFlag(id, SWEPT)) this.tree.sweeps.remove(id);
    this.tree.items.depart(id);
    this.tree.size--;
  }

  /** True when the id is in the index (pending inserts included). */
  has(id: number): boolean {
    return Number.isInteger(id) && id >= 0 && id < this.tree.items.capacity && this.tree.items.nodeOf(id) !== ABSENT;
  }

  /** Removes every item. Their pairs show as exited in the next step. Keeps allocated memory. */
  clear(): void {
    const items = this.tree.items;
    // Over the records, not the id map: a far id would make that a pass over millions of ids.
    for (let r = 0, top = items.handedOut; r < top; r++) {
      const id = items.idAtRecord(r);
      if (id >= 0 && items.nodeOf(id) !== ABSENT) this.remove(id);
    }
    this.tree.clear();
  }

  /**
   * Copies an item's box into `out` and returns it, as stored (float32).
   * @throws if the id is not in the index
   */
  getBox<T extends { minX: number; minY: number; maxX: number; maxY: number }>(id: number, out: T): T {
    this.tree.owedBoxes.settleAll();
    this.nodeOf(id, 'getBox');
    const items = this.tree.items;
    if (items.hasFlag(id, SWEPT)) {
      // The record covers the path; the item is at the end of it.
      const b = this.tree.sweeps.boxes;
      const t = this.tree.sweeps.at(id) + TO;
      out.minX = b[t];
      out.minY = b[t + 1];
      out.maxX = b[t + 2];
      out.maxY = b[t + 3];
      return out;
    }
    out.minX = items.minX(id);
    out.minY = items.minY(id);
    out.maxX = items.maxX(id);
    out.maxY = items.maxY(id);
    return out;
  }

  /**
   * Copies into `from` and `to` the path the last step tested for a swept item (see
   * {@link setSwept}); the contact point is `from + toi * (to - from)`. A non-swept item gets its box in both.
   * @throws if the id is not in the index
   */
  getPath<T extends { minX: number; minY: number; maxX: number; maxY: number }>(id: number, from: T, to: T): void {
    this.nodeOf(id, 'getPath');
    if (!this.tree.items.hasFlag(id, SWEPT)) {
      this.getBox(id, from);
      this.getBox(id, to);
      return;
    }
    const b = this.tree.sweeps.boxes;
    const f = this.tree.sweeps.at(id) + LAST_FROM;
    const t = this.tree.sweeps.at(id) + LAST_TO;
    from.minX = b[f];
    from.minY = b[f + 1];
    from.maxX = b[f + 2];
    from.maxY = b[f + 3];
    to.minX = b[t];
    to.minY = b[t + 1];
    to.maxX = b[t + 2];
    to.maxY = b[t + 3];
  }

  /**
   * Sets an item's collision filter and priority: a pair exists only when each side's `mask`
   * has a bit of the other's `layer`. Defaults: layer 1, mask all bits, priority 128.
   * @param layer - the item's category bits (usually one bit; 32-bit, not 0)
   * @param mask - the categories it collides with (32-bit)
   * @param priority - 0..255, higher is more important; a pair has the lower of its two
   */
  setCollider(id: number, layer: number, mask: number, priority: number): void {
    // A class change copies the item's box: it must be stored (see OwedBoxes).
    this.tree.owedBoxes.settleAll();
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

  /** Marks an item static (a wall): never paired with another static item. */
  setStatic(id: number, isStatic: boolean): void {
    this.tree.owedBoxes.settleAll();
    this.nodeOf(id, 'setStatic');
    const items = this.tree.items;
    if (items.hasFlag(id, STATIC) === isStatic) return;
    items.setFlag(id, STATIC, isStatic);
    if (items.nodeOf(id) === PENDING) return;
    this.tree.colliderChanged(id);
    this.broadphase.markChanged(id);
  }

  /** Finds the pair changes since the last step into {@link current}, {@link entered}, {@link exited}. */
  step(): QuadtreeStats {
    this.placePending();
    this.tree.tick();
    this.tree.compactIfScattered();
    this.broadphase.run();
    this.tree.items.releaseDeparted();
    // Owed classes and bad members are reported after records are released, so one removed
    // now keeps its record until the next step ends, like any removal.
    this.tree.owedBoxes.settleAll();
    this.tree.reorderIfScattered();
    this.tree.items.trim();
    if (this.tree.sweeps.count !== 0) this.advancePaths();
    this.fillStats();
    this.tree.relocated = 0;
    return this.stats;
  }

  /**
   * Saves the whole collision state (items, pairs, budget state, swept paths, lifespans, tile
   * layers made on this tree): after {@link restore}, steps give the same pairs, events and
   * answers in the same order, as rollback and replays need. Pass an older snapshot as `into`
   * to reuse its memory. See docs/rollback.md.
   * @throws if `into` is given and is not a snapshot
   */
  save(into?: QuadtreeSnapshot): QuadtreeSnapshot {
    this.tree.owedBoxes.settleAll();
    return saveState(this, into, this.stepCount);
  }

  /**
   * Brings back the state a {@link save} of this tree took, whatever happened since; ids
   * inserted since are gone again.
   * @throws if `snapshot` is not one saved from this tree, or is damaged; nothing changes then
   */
  restore(snapshot: QuadtreeSnapshot): void {
    restoreState(this, snapshot, 'tree');
  }

  /** @internal Makes `part`'s state part of the tree's: {@link save} copies it too. */
  attach(part: object): void {
    this.attached.push(part);
  }

  /** @internal Whether `part` is attached (see {@link attach}). */
  holds(part: object): boolean {
    return this.attached.includes(part);
  }

  /** @internal Undoes {@link attach}. */
  detach(part: object): void {
    const i = this.attached.indexOf(part);
    if (i >= 0) this.attached.splice(i, 1);
  }

  /** Advances the lifespan timers of empty groups by one frame without a broadphase step. */
  tick(): void {
    this.tree.tick();
    this.fillStats();
  }

  /** Items waiting in the pending-insertion queue. */
  get pending(): number {
    return this.tree.waiting;
  }

  /** Every overlapping pair after the last step, sorted by priority (high first), then ids. */
  get current(): PairList {
    return this.broadphase.current;
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
    const bp = this.broadphase;
    bp.maxPairTests = maxPairTests;
    bp.maxMs = maxMs;
    bp.minChecksPerTier = clampInt(budget.minChecksPerTier ?? 32, 1, 2 ** 31 - 1);
    this.tree.budgeted = maxPairTests !== Infinity || maxMs !== Infinity;
    this.tree.minShare = bp.minChecksPerTier;
    if (this.tree.budgeted) bp.planShares(0, 0, 0);
  }

  /** Ids of items overlapping the rectangle into `out` (length set), in no promised order. Returns the count. */
  queryRect(minX: number, minY: number, maxX: number, maxY: number, out: IdArray, mask = ALL): number {
    this.rectArgs(minX, minY, maxX, maxY, mask);
    return trim(out, this.queries.all(RECT, this.touching, mask, out, null));
  }

  /** Calls `visit` for each item overlapping the rectangle, in no promised order; `false` stops. Returns the hits visited. */
  visitRect(minX: number, minY: number, maxX: number, maxY: number, visit: Visitor, mask = ALL): number {
    this.rectArgs(minX, minY, maxX, maxY, mask);
    return this.queries.all(RECT, this.touching, mask, null, visit);
  }

  /** Ids of items overlapping the circle into `out`, in no promised order; radius 0 is a point. Returns the count. */
  queryCircle(x: number, y: number, radius: number, out: IdArray, mask = ALL): number {
    this.circleArgs(x, y, radius, mask);
    return trim(out, this.queries.all(CIRCLE_QUERY, this.touching, mask, out, null));
  }

  /** Calls `visit` for each item overlapping the circle, in no promised order; `false` stops. */
  visitCircle(x: number, y: number, radius: number, visit: Visitor, mask = ALL): number {
    this.circleArgs(x, y, radius, mask);
    return this.queries.all(CIRCLE_QUERY, this.touching, mask, null, visit);
  }

  /** Ids of items containing the point, into `out`, in no promised order. Returns the count. */
  queryPoint(x: number, y: number, out: IdArray, mask = ALL): number {
    this.pointArgs(x, y, mask);
    return trim(out, this.queries.all(POINT, this.touching, mask, out, null));
  }

  /** Calls `visit` for each item containing the point, in no promised order; `false` stops. */
  visitPoint(x: number, y: number, visit: Visitor, mask = ALL): number {
    this.pointArgs(x, y, mask);
    return this.queries.all(POINT, this.touching, mask, null, visit);
  }

  /** The first item a ray hits within `maxDistance` (ties by lower id) into `hit`; whether one was hit. */
  raycast(ox: number, oy: number, dx: number, dy: number, maxDistance: number, hit: RayHit, mask = ALL): boolean {
    this.rayArgs(ox, oy, dx, dy, maxDistance, mask);
    const found = this.queries.best(RAY, this.touching, mask, 1, this.rayIds, this.rayDist);
    hit.id = found ? this.rayIds[0] : -1;
    hit.distance = found ? this.rayDist[0] : Infinity;
    return found === 1;
  }

  /** Every item a ray hits within `maxDistance`, nearest first, equal distances by ascending id. Returns the count. */
  raycastAll(
    ox: number,
    oy: number,
    dx: number,
    dy: number,
    maxDistance: number,
    outIds: IdArray,
    outDistances: IdArray,
    mask = ALL,
  ): number {
    this.rayArgs(ox, oy, dx, dy, maxDistance, mask);
    const count = this.queries.best(RAY, this.touching, mask, Infinity, outIds, outDistances);
    outDistances.length = count;
    return trim(outIds, count);
  }

  /**
   * Moves a box by (dx, dy) through the index without changing it: the first item met by time
   * of impact (0..1, ties by lower id) into `hit`; returns whether one was met. Items stand
   * still (a swept one at the end of its path).
   */
  sweepBox(
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
    dx: number,
    dy: number,
    hit: SweepHit,
    mask = ALL,
  ): boolean {
    if (!(
      minX - minX === 0 &&
      minY - minY === 0 &&
      maxX - maxX === 0 &&
      maxY - maxY === 0 &&
      minX <= maxX &&
      minY <= maxY
    )) {
      checkQueryBox(minX, minY, maxX, maxY);
    }
    checkNumber('sweep dx', dx);
    checkNumber('sweep dy', dy);
    if (!(
      Number.isFinite(minX + dx) &&
      Number.isFinite(maxX + dx) &&
      Number.isFinite(minY + dy) &&
      Number.isFinite(maxY + dy)
    ))
      fail(`sweep by (${show(dx)}, ${show(dy)}) takes the box beyond floating point`);
    if (!isBits32(mask)) refuseMask(mask);
    this.catchUp();
    const args = this.queries.args;
    args[0] = dx < 0 ? minX + dx : minX;
    args[1] = dy < 0 ? minY + dy : minY;
    args[2] = dx > 0 ? maxX + dx : maxX;
    args[3] = dy > 0 ? maxY + dy : maxY;
    const p = this.queries.paths;
    p[0] = minX;
    p[1] = minY;
    p[2] = maxX;
    p[3] = maxY;
    p[4] = minX + dx;
    p[5] = minY + dy;
    p[6] = maxX + dx;
    p[7] = maxY + dy;
    const found = this.queries.best(SWEEP, this.touching, mask, 1, this.rayIds, this.rayDist);
    hit.id = found ? this.rayIds[0] : -1;
    hit.toi = found ? this.rayDist[0] : Infinity;
    return hit.id >= 0;
  }

  /**
   * The `k` items nearest to a point within `maxDistance` (by box or circle distance, 0
   * inside), nearest first, ties by ascending id; 0 is the point itself, as {@link queryPoint}.
   * Distances go to `outDistances` if given.
   */
  nearest(
    x: number,
    y: number,
    k: number,
    maxDistance: number,
    outIds: IdArray,
    outDistances: IdArray | null = null,
    mask = ALL,
  ): number {
    if (!(x - x === 0 && y - y === 0 && maxDistance >= 0 && k >>> 0 === k)) checkNearest(x, y, k, maxDistance);
    if (!isBits32(mask)) refuseMask(mask);
    this.flush();
    const args = this.queries.args;
    args[0] = x;
    args[1] = y;
    args[2] = maxDistance;
    const count = this.queries.best(NEAREST, this.touching, mask, k, outIds, outDistances);
    if (outDistances !== null) outDistances.length = count;
    return trim(outIds, count);
  }

  /** Places pending items, and stores boxes a sync left owed (see OwedBoxes), before a query reads the tree. */
  private catchUp(): void {
    if (this.tree.pendingCount !== 0 || this.tree.owedBoxes.owed !== 0) this.flush();
  }

  // The *Args helpers check a query's numbers, place pending items and store the numbers; small, so they inline.
  private rectArgs(minX: number, minY: number, maxX: number, maxY: number, mask: number): void {
    if (!(
      minX - minX === 0 &&
      minY - minY === 0 &&
      maxX - maxX === 0 &&
      maxY - maxY === 0 &&
      minX <= maxX &&
      minY <= maxY
    )) {
      checkQueryBox(minX, minY, maxX, maxY);
    }
    if (!isBits32(mask)) refuseMask(mask);
    this.catchUp();
    const args = this.queries.args;
    args[0] = minX;
    args[1] = minY;
    args[2] = maxX;
    args[3] = maxY;
  }

  private circleArgs(x: number, y: number, radius: number, mask: number): void {
    if (!(x - x === 0 && y - y === 0 && radius - radius === 0 && radius >= 0)) checkCircle(x, y, radius);
    if (!isBits32(mask)) refuseMask(mask);
    this.catchUp();
    const args = this.queries.args;
    args[0] = x;
    args[1] = y;
    args[2] = radius;
  }

  private pointArgs(x: number, y: number, mask: number): void {
    if (!(x - x === 0 && y - y === 0)) checkPoint(x, y);
    if (!isBits32(mask)) refuseMask(mask);
    this.catchUp();
    const args = this.queries.args;
    args[0] = x;
    args[1] = y;
  }

  private rayArgs(ox: number, oy: number, dx: number, dy: number, maxDistance: number, mask: number): void {
    if (!(
      ox - ox === 0 &&
      oy - oy === 0 &&
      dx - dx === 0 &&
      dy - dy === 0 &&
      maxDistance >= 0 &&
      (dx !== 0 || dy !== 0)
    )) {
      checkRay(ox, oy, dx, dy, maxDistance);
    }
    if (!isBits32(mask)) refuseMask(mask);
    this.catchUp();
    // hypot, not sqrt of squares: no overflow for huge components, and the documented norm.
    const len = Math.hypot(dx, dy);
    const args = this.queries.args;
    args[0] = ox;
    args[1] = oy;
    args[2] = dx / len;
    args[3] = dy / len;
    args[4] = maxDistance;
  }

  /** Calls `visit` for every live node, parents first, with loose bounds, depth and subtree items. */
  visitNodes(visit: NodeVisitor): void {
    this.flush();
    const nodes = this.tree.nodes;
    const stack = this.nodeStack;
    let top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const n = stack[--top];
      const b = this.nodeBox;
      this.tree.looseBounds(n, b);
      visit(b[0], b[1], b[2], b[3], nodes.depth[n], nodes.total[n]);
      const first = nodes.firstChild[n];
      if (first !== -1) for (let c = first + 3; c >= first; c--) stack[top++] = c;
    }
  }

  /** Checks every invariant of the tree, lists and pairs; throws naming the first broken one. For tests. */
  validate(): void {
    this.tree.owedBoxes.settleAll();
    validateIndex(this.tree, this.broadphase);
  }

  /** Adds the item, its id and its box in {@link boxIn} checked by the caller, to the store. */
  private admit(id: number): void {
    const tree = this.tree;
    const box = this.boxIn;
    tree.items.ensure(id, tree.idLimit);
    const items = tree.items;
    if (items.nodeOf(id) !== ABSENT) fail(`item ${id} is already in the index (insert of an existing id)`);
    items.add(id);
    items.storeBox(id, box);
    tree.size++;
  }

  /** The item's node, after checking the id names an item in the index. */
  private nodeOf(id: number, verb: string): number {
    checkId(id, this.tree.idLimit);
    const node = id < this.tree.items.capacity ? this.tree.items.nodeOf(id) : ABSENT;
    if (node === ABSENT) fail(`${verb} of unknown item ${id} (never inserted, or removed already)`);
    return node;
  }

  private fillStats(): void {
    const s = this.stats;
    const nodes = this.tree.nodes;
    s.items = this.tree.size;
    s.outside = this.tree.countOutside();
    s.relocated = this.tree.relocated;
    s.nodesFree = nodes.freeGroups * 4;
    s.nodesLive = 1 + (nodes.groupsUsed - 1 - nodes.freeGroups) * 4;
    s.groupsCounting = nodes.countingCount;
    s.groupsFreed = nodes.groupsFreed;
  }
}

/** The spatial index inside a LooseQuadtree, for the package's own faces (see internal.ts). */
export function spatialTreeOf(tree: LooseQuadtree): SpatialTree {
  return tree.tree;
}

function clampInt(value: number, lo: number, hi: number): number {
  if (typeof value !== 'number' || Number.isNaN(value)) return lo;
  const v = Math.floor(value);
  return v < lo ? lo : v > hi ? hi : v;
}

function trim(out: IdArray, count: number): number {
  out.length = count;
  return count;
}

function checkBits(id: number, field: string, value: number): void {
  if (!isBits32(value)) {
    fail(`item ${id} has a ${field} that is not a 32-bit integer (got ${show(value)})`);
  }
}

function budgetNumber(field: string, value: number | undefined): number {
  if (value === undefined) return Infinity;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0)
    fail(`budget.${field} must be >= 0 (got ${show(value)})`);
  return value;
}

function checkQueryBox(minX: number, minY: number, maxX: number, maxY: number): void {
  checkNumber('query minX', minX);
  checkNumber('query minY', minY);
  checkNumber('query maxX', maxX);
  checkNumber('query maxY', maxY);
  if (minX > maxX) fail(`query rectangle has minX ${show(minX)} > maxX ${show(maxX)}: pass the lower corner first`);
  fail(`query rectangle has minY ${show(minY)} > maxY ${show(maxY)}: pass the lower corner first`);
}

/** A query mask follows a collider's rule: 32 bits as a signed or unsigned integer. */
function refuseMask(mask: number): never {
  fail(`query mask must be a 32-bit integer (got ${show(mask)})`);
}

function checkCircle(x: number, y: number, radius: number): void {
  checkNumber('circle x', x);
  checkNumber('circle y', y);
  checkNumber('circle radius', radius);
  if (radius < 0) fail(`circle radius must be >= 0 (got ${show(radius)})`);
}

function checkRay(ox: number, oy: number, dx: number, dy: number, maxDistance: number): void {
  checkNumber('ray origin x', ox);
  checkNumber('ray origin y', oy);
  checkNumber('ray direction x', dx);
  checkNumber('ray direction y', dy);
  if (!(maxDistance >= 0)) fail(`ray maxDistance must be >= 0 (got ${show(maxDistance)})`);
  if (dx === 0 && dy === 0) fail('ray direction must not be zero (got 0, 0)');
}

function checkPoint(x: number, y: number): void {
  checkNumber('point x', x);
  checkNumber('point y', y);
}

function checkNearest(x: number, y: number, k: number, maxDistance: number): void {
  checkPoint(x, y);
  if (!Number.isInteger(k) || k < 0) fail(`k must be a non-negative integer (got ${show(k)})`);
  if (!(maxDistance >= 0)) fail(`maxDistance must be >= 0 (got ${show(maxDistance)})`);
}
