import { grow } from '../grow.js';

/** Classes kept apart, the last of them being the shared one (see {@link MIXED}). */
export const MAX_CLASSES = 16;
/**
 * The class of every item whose key found no class of its own once the others were taken:
 * it pairs with every class and filters pair by pair.
 */
export const MIXED = MAX_CLASSES - 1;
/**
 * Deepest level whose cells get dense per-class arrays (4^d entries: 2 MB at depth 9, and
 * the sweep adds 8 MB of cell bounds). Deeper levels are reached through their nodes.
 */
export const DENSE_DEPTH = 9;

/**
 * Collision classes: items stored apart in every node (a region of slots per class and
 * node), the way Jolt keeps one tree per broadphase layer and Box2D separate trees for static
 * and moving bodies. Pair finding then skips whole class pairs that the filters reject (dust
 * whose mask leaves out dust never meets other dust, walls never meet walls) and joins two
 * classes from the smaller side.
 *
 * A class is keyed by what decides its pairs as a group: the mask, the static flag, and
 * whether the items' layer is in their own mask (then every two of them may pair, else none
 * may). Items of several layers may share a class; its `layer` is their union, and pairs are
 * filtered item by item in the end, so a class pair is only ever skipped when no two of its
 * items could pair. Splitting finer (by layer too) would only add class pairs to join when
 * the masks accept every layer.
 *
 * Regions are indexed by node; the node tree itself (cells, subtree counts, lifespans) is
 * shared by all classes.
 */
export class CollisionClasses {
  /** Union of the layers of the items ever placed in the class since it was last empty. */
  readonly layer = new Int32Array(MAX_CLASSES);
  readonly mask = new Int32Array(MAX_CLASSES);
  readonly isStatic = new Uint8Array(MAX_CLASSES);
  /** 1 when the items' layers are in the class's mask: every two of them may pair. */
  readonly self = new Uint8Array(MAX_CLASSES);
  /**
   * Swept items in each class (see SweptStore). Swept is not part of the key: bullets share
   * the class of the items they filter like, so a scene with a few bullets is joined the way
   * it is without them; only pairs with a swept item take the exact test.
   */
  readonly swept = new Int32Array(MAX_CLASSES);
  /** Classes with a key: 0..defined-1 (and MIXED once used). */
  defined = 0;
  /** Items placed in each class. */
  readonly size = new Int32Array(MAX_CLASSES);
  /** `allowed[a * MAX_CLASSES + b]`: items of classes a and b may form pairs. */
  readonly allowed = new Uint8Array(MAX_CLASSES * MAX_CLASSES);
  /**
   * `exact[a * MAX_CLASSES + b]`: every item of a may pair with every item of b (each's
   * layers lie in the other's mask, and not both static), so no pair needs filtering.
   */
  readonly exact = new Uint8Array(MAX_CLASSES * MAX_CLASSES);
  /** Per class, per node: first slot of the class's region in the node, its items, its capacity. */
  readonly start: Int32Array[] = [];
  readonly own: Int32Array[] = [];
  readonly cap: Int32Array[] = [];
  /** Per class, items placed at each depth (`levelItems[k][d]`): levels without any are skipped. */
  readonly levelItems: Int32Array[] = [];
  /**
   * Per class and depth up to {@link DENSE_DEPTH}: each cell's region start and item count
   * (`regionsByCell[k][d][2 * cell]`, `[2 * cell + 1]`), a copy of the per-node numbers laid out by
   * cell, so a sweep reads neighbouring cells from one array in order instead of chasing node
   * indices. Made when the class first places an item at that depth; null before and deeper.
   */
  readonly regionsByCell: (Int32Array | null)[][] = [];
  /** Whether each class's arrays exist (a class gets them when first used). */
  readonly used = new Uint8Array(MAX_CLASSES);
  /** Per class, its items' ids (`ids[k][0..size[k]-1]`), in the order they joined. */
  readonly ids: Int32Array[] = [];
  /**
   * 1 for a class whose regions may lag behind its items' boxes (see SpatialTree.defer): a big
   * class that pairs with others but not with itself, while most of it moves every step. Pair
   * finding then reads its boxes from the records, in id order, and probes the other classes.
   */
  readonly deferred = new Uint8Array(MAX_CLASSES);
  private nodeCapacity: number;

  constructor(nodeCapacity: number, maxDepth: number) {
    this.nodeCapacity = nodeCapacity;
    for (let k = 0; k < MAX_CLASSES; k++) {
      this.start.push(new Int32Array(0));
      this.own.push(new Int32Array(0));
      this.cap.push(new Int32Array(0));
      this.levelItems.push(new Int32Array(maxDepth + 1));
      this.regionsByCell.push(new Array<Int32Array | null>(maxDepth + 1).fill(null));
      this.ids.push(new Int32Array(0));
    }
    this.allowed.fill(1);
  }

  /**
   * The class for an item's collider: the one with this key, else a new or emptied one
   * keyed anew, else {@link MIXED}.
   */
  find(layer: number, mask: number, isStatic: number): number {
    const self = (layer & mask) !== 0 ? 1 : 0;
    for (let k = 0; k < this.defined; k++) {
      if (this.mask[k] !== mask || this.isStatic[k] !== isStatic || this.self[k] !== self) continue;
      if (this.size[k] === 0) this.key(k, layer, mask, isStatic);
      else if ((layer & ~this.layer[k]) !== 0) this.key(k, this.layer[k] | layer, mask, isStatic);
      return k;
    }
    let k = this.defined < MIXED ? this.defined++ : -1;
    for (let e = 0; k < 0 && e < MIXED; e++) if (this.size[e] === 0) k = e;
    if (k < 0) k = MIXED;
    else this.key(k, layer, mask, isStatic);
    this.use(k);
    return k;
  }

  /** Makes room for nodes up to `capacity` in every used class. */
  ensureNodes(capacity: number): void {
    if (capacity <= this.nodeCapacity) return;
    this.nodeCapacity = capacity;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (this.used[k] === 0) continue;
      this.start[k] = grow(this.start[k], capacity);
      this.own[k] = grow(this.own[k], capacity);
      this.cap[k] = grow(this.cap[k], capacity);
    }
  }

  /** Adds an item to class k's id list; returns its place there. */
  join(k: number, id: number, swept: boolean): number {
    if (swept) this.swept[k]++;
    const at = this.size[k]++;
    if (at === this.ids[k].length) this.ids[k] = grow(this.ids[k], Math.max(64, at * 2));
    this.ids[k][at] = id;
    return at;
  }

  /** Takes the id at place `at` off class k's list by moving the last into it; returns the moved id (or -1). */
  leave(k: number, at: number, swept: boolean): number {
    if (swept) this.swept[k]--;
    const last = --this.size[k];
    if (at === last) return -1;
    const moved = this.ids[k][last];
    this.ids[k][at] = moved;
    return moved;
  }

  /** Class k's cell array at depth d, made on first use (null past {@link DENSE_DEPTH}). */
  regionsByCellAt(k: number, d: number): Int32Array | null {
    const cells = this.regionsByCell[k][d];
    if (cells !== null || d > DENSE_DEPTH) return cells;
    return (this.regionsByCell[k][d] = new Int32Array(2 * 4 ** d));
  }

  /** Forgets every item (keys stay; regions were dropped with the nodes). */
  clear(): void {
    this.size.fill(0);
    this.swept.fill(0);
    this.deferred.fill(0);
    for (let k = 0; k < MAX_CLASSES; k++) {
      this.levelItems[k].fill(0);
      for (const cells of this.regionsByCell[k]) cells?.fill(0);
      if (this.used[k] === 0) continue;
      this.own[k].fill(0);
      this.cap[k].fill(0);
    }
  }

  private use(k: number): void {
    if (this.used[k] === 1) return;
    this.used[k] = 1;
    this.start[k] = new Int32Array(this.nodeCapacity);
    this.own[k] = new Int32Array(this.nodeCapacity);
    this.cap[k] = new Int32Array(this.nodeCapacity);
  }

  private key(k: number, layer: number, mask: number, isStatic: number): void {
    this.layer[k] = layer;
    this.mask[k] = mask;
    this.isStatic[k] = isStatic;
    this.self[k] = (layer & mask) !== 0 ? 1 : 0;
    for (let o = 0; o < MAX_CLASSES; o++) {
      // The mixed class filters pair by pair, so it may pair with anything.
      const ok = o === MIXED || (o === k ? this.self[k] === 1 && isStatic === 0
        : (layer & this.mask[o]) !== 0 && (this.layer[o] & mask) !== 0 && (isStatic & this.isStatic[o]) === 0);
      this.allowed[k * MAX_CLASSES + o] = ok ? 1 : 0;
      this.allowed[o * MAX_CLASSES + k] = ok ? 1 : 0;
      // Within a class of self-pairing items every pair is allowed (each layer meets the mask).
      const exact = ok && o !== MIXED && (o === k || ((layer & ~this.mask[o]) === 0 && (this.layer[o] & ~mask) === 0));
      this.exact[k * MAX_CLASSES + o] = exact ? 1 : 0;
      this.exact[o * MAX_CLASSES + k] = exact ? 1 : 0;
    }
  }
}
