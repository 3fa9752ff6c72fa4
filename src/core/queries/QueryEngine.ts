import {
  B_CIRCLE,
  boxesOverlap,
  circleBoxOverlap,
  circlesOverlap,
  inscribedRadius,
  pointBoxDistanceSq,
  pointCircleDistance,
  pointInBox,
  pointInCircle,
  rayBoxDistance,
  rayCircleDistance,
  sweptShapes,
} from '../geometry.js';
import { NONE } from '../store/NodePool.js';
import { Heap } from './Heap.js';
import { fit } from '../grow.js';
import { RunIndex } from './RunIndex.js';
import { markOutside } from '../snapshot/StatePlan.js';
import { MAX_CLASSES, MIXED } from '../store/CollisionClasses.js';
import { CIRCLE as CIRCLE_ITEM, cellDepth, cellX, cellY, SWEPT } from '../store/ItemStore.js';
import { TO } from '../store/SweptStore.js';
import type { SpatialTree } from '../placement/SpatialTree.js';

/** Called for each hit of a visiting query; returning `false` stops the walk. */
// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- so `(id) => { hits.push(id); }` type-checks
export type Visitor = (id: number) => boolean | void;

/** Caller-owned output: a plain array or any indexable number store. */
export type IdArray = number[];

/**
 * Query kinds, each a node and an item test over `args`: RECT minX, minY, maxX, maxY; CIRCLE x, y, radius; POINT x, y;
 * RAY ox, oy, unit dx, dy, length; NEAREST x, y, range; SWEEP the swept box's bounds, its two boxes in `paths`.
 */
export const RECT = 0;
export const CIRCLE = 1;
export const POINT = 2;
export const RAY = 3;
export const NEAREST = 4;
export const SWEEP = 5;

/** A per-kind node test, past the reach box (see QueryEngine.nodeTests). */
type NodeTest = (nb: Float64Array) => boolean;

/** What the walk does with a hit: write it out, hand it to a visitor, or keep the k best by key. */
const LIST = 0;
const VISIT = 1;
const BEST = 2;

/** Relative widening of boxes that only prune (nearest-walk nodes, reach box): far above the exact tests' rounding. */
const PRUNE_MARGIN = 1e-9;

/**
 * Every query is one walk, detached runs then the tree, on reused scratch: a visitor must not query the same index.
 * Numbers reach the tests through `args` and `near`, never as arguments or returns: an un-inlined call boxes them.
 */
export class QueryEngine {
  private readonly tree: SpatialTree;
  /** The query's numbers (see RECT...). */
  readonly args = new Float64Array(8);
  /** A sweep's two boxes, then the item's (see sweptShapes). */
  readonly paths = new Float64Array(19);
  private readonly stack: Int32Array;
  /** Nodes to open, nearest first, and the best hits so far, worst on top. */
  private readonly open = new Heap(false);
  private readonly kept = new Heap(true);
  /** The item being tested: its box, then a circle item's centre and radius. */
  private readonly item = new Float64Array(7);
  /** The last item test's key: a distance, a squared distance or a time of impact. */
  private readonly near = new Float64Array(1);
  /** The query's closed bounding box, widened (see reachBox): a cheap first item test. */
  private readonly reach = new Float64Array(4);
  /** Scratch of {@link scanRun}: the places of a run whose box is within the reach box. */
  private places: Int32Array = new Int32Array(64);
  /** Per class, the cells of its run while detached (see RunIndex), made when first queried. */
  private readonly runIndexes: (RunIndex | null)[] = new Array<RunIndex | null>(MAX_CLASSES).fill(null);
  /** The loose bounds of the node a walk is looking at. */
  private readonly nodeBox = new Float64Array(4);
  /** Per kind, the node test past the reach box (or null): called through the table, so only bounds cross the call. */
  private readonly nodeTests: (NodeTest | null)[];
  private nodeTest: NodeTest | null = null;

  // The running walk.
  private kind = RECT;
  private mode = LIST;
  private touching = false;
  private mask = 0;
  private k = 0;
  /** The least key a best walk still takes: its limit, then the k-th best's once k hits are kept. */
  private readonly bound = new Float64Array(1);
  private hits = 0;
  private out: IdArray | null = null;
  private visitor: Visitor | null = null;

  constructor(tree: SpatialTree) {
    this.tree = tree;
    this.stack = new Int32Array(4 * (tree.maxDepth + 2));
    this.nodeTests = [null, this.circleNode, null, this.rayNode, this.nearNode, null];
    // Scratch of one query, and run indexes that know when they are stale (see runsReplaced): not state.
    markOutside(this);
  }

  /** Writes the ids of every hit into `out`, or calls `visit` for each until it returns false; returns the hits. */
  all(kind: number, touching: boolean, mask: number, out: IdArray | null, visit: Visitor | null): number {
    this.start(kind, out !== null ? LIST : VISIT, touching, mask);
    this.out = out;
    this.visitor = visit;
    this.walk();
    this.out = null;
    this.visitor = null;
    return this.hits;
  }

  /** The `k` hits of least key (distance; SWEEP: time of impact), ties by id, into `outIds`, `outKeys`; the count. */
  best(kind: number, touching: boolean, mask: number, k: number, outIds: IdArray, outKeys: IdArray | null): number {
    if (k > this.tree.size) k = this.tree.size;
    if (k <= 0) return 0;
    this.start(kind, BEST, touching, mask);
    this.k = k;
    const args = this.args;
    this.bound[0] = kind === NEAREST ? args[2] * args[2] : kind === RAY ? args[4] : Infinity;
    const best = this.kept;
    best.count = 0;
    this.walk();
    // The worst comes off the top first: fill from the back.
    const found = best.count;
    const root = kind === NEAREST;
    for (let i = found - 1; i >= 0; i--) {
      outIds[i] = best.ids[0];
      if (outKeys !== null) outKeys[i] = root ? Math.sqrt(best.keys[0]) : best.keys[0];
      best.pop();
    }
    return found;
  }

  private start(kind: number, mode: number, touching: boolean, mask: number): void {
    this.kind = kind;
    this.mode = mode;
    this.touching = touching;
    this.mask = mask;
    this.hits = 0;
    this.nodeTest = this.nodeTests[kind];
    this.reachBox();
  }

  /** Detached runs first, then the tree: depth first, or nearest first for a best walk. */
  private walk(): void {
    const nodes = this.tree.nodes;
    const C = this.tree.classes;
    // The classes that may hold an item the mask accepts (the mixed class always may).
    let wanted = 1 << MIXED;
    for (let k = 0; k < MIXED; k++) if ((C.layer[k] & this.mask) !== 0) wanted |= 1 << k;
    // The tree is walked only when a wanted class has items in it (a particle cull wants its detached class alone).
    let inTree = false;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (((wanted >>> k) & 1) === 0 || C.size[k] === 0) continue;
      if (C.detached[k] === 0) inTree = true;
      else if (!this.scanRun(k)) return;
    }
    if (!inTree) return;
    // Nearest first pays only where the k-th best bounds the walk.
    const ordered = this.mode === BEST && this.k < this.tree.size;
    const open = this.open;
    const stack = this.stack;
    const nb = this.nodeBox;
    const reach = this.reach;
    const ox = this.tree.originX,
      oy = this.tree.originY;
    let top = 0;
    open.count = 0;
    this.near[0] = 0;
    if (ordered) open.push(this.near, 0);
    else stack[top++] = 0;
    while (ordered ? open.count > 0 : top > 0) {
      let n: number;
      if (ordered) {
        if (open.keys[0] > this.bound[0]) break;
        n = open.ids[0];
        open.pop();
      } else {
        n = stack[--top];
      }
      for (let bits = nodes.classBits[n] & wanted; bits !== 0; bits &= bits - 1) {
        const k = 31 - Math.clz32(bits & -bits);
        if (!this.scan(C.start[k][n], 0, C.own[k][n], null, null)) return;
      }
      const first = nodes.firstChild[n];
      if (first === NONE) continue;
      // The children's loose bounds, as looseBounds computes them: child q's cell is the parent's doubled plus q's bits.
      const cell = nodes.cell[n];
      const size = this.tree.cellSize[cellDepth(cell) + 1];
      const x2 = 2 * cellX(cell),
        y2 = 2 * cellY(cell);
      for (let q = 0; q < 4; q++) {
        const c = first + q;
        if (nodes.total[c] === 0) continue;
        const lx = ox + (x2 + (q & 1)) * size - size * 0.5,
          ly = oy + (y2 + (q >> 1)) * size - size * 0.5;
        // The reach box first; it is the whole test of a box or a point.
        if (lx > reach[2] || lx + 2 * size < reach[0] || ly > reach[3] || ly + 2 * size < reach[1]) continue;
        nb[0] = lx;
        nb[1] = ly;
        nb[2] = lx + 2 * size;
        nb[3] = ly + 2 * size;
        this.near[0] = 0;
        if (this.nodeTest !== null && !this.nodeTest(nb)) continue;
        if (!ordered) stack[top++] = c;
        else if (this.near[0] <= this.bound[0]) open.push(this.near, c);
      }
    }
  }

  /**
   * {@link scan} of detached class k's places in reach: narrowed by its RunIndex once built, then by box branch-free
   * (hits are random; a swept item's slot covers its path). False if a visitor stopped.
   */
  private scanRun(k: number): boolean {
    const C = this.tree.classes;
    const first = C.listStart[k];
    const count = C.end[k];
    const ids = C.ids[k];
    const box = this.tree.slots.box;
    const reach = this.reach;
    const x0 = reach[0],
      y0 = reach[1],
      x1 = reach[2],
      y1 = reach[3];
    const index = (this.runIndexes[k] ??= new RunIndex());
    const listed = index.use(box, first, count, ids, C.moved[k]);
    let found = count;
    if (listed) {
      this.places = index.gather(x0, y0, x1, y1, this.places);
      found = index.count;
    } else {
      this.places = fit(this.places, count);
    }
    const places = this.places;
    let n = 0;
    for (let j = 0; j < found; j++) {
      const i = listed ? places[j] : j;
      const b = 4 * (first + i);
      places[n] = i;
      n += +(box[b] <= x1) & +(box[b + 2] >= x0) & +(box[b + 1] <= y1) & +(box[b + 3] >= y0);
    }
    return this.scan(first, 0, n, ids, places);
  }

  /**
   * Tests places `from..to-1` (or `places[from..to-1]`) of the slots from `first` (holes named in `ids`); false when a
   * visitor stopped.
   */
  private scan(first: number, from: number, to: number, ids: Int32Array | null, places: Int32Array | null): boolean {
    const slots = this.tree.slots;
    const collider = slots.collider;
    const layerOf = slots.colliders.layer;
    const wordOf = slots.colliders.word;
    const slotId = slots.id;
    const box = slots.box;
    const sweeps = this.tree.sweeps;
    const reach = this.reach;
    const item = this.item;
    const x0 = reach[0],
      y0 = reach[1],
      x1 = reach[2],
      y1 = reach[3];
    const mask = this.mask;
    const mode = this.mode;
    let hits = this.hits;
    for (let p = from; p < to; p++) {
      const i = places === null ? p : places[p];
      if (ids !== null && ids[i] < 0) continue;
      const s = first + i;
      const c = collider[s];
      if ((layerOf[c] & mask) === 0) continue;
      const word = wordOf[c];
      // A swept item's slot covers its whole path: it is where its path ends.
      let src = box,
        at = 4 * s;
      if ((word & SWEPT) !== 0) {
        src = sweeps.boxes;
        at = sweeps.at(slotId[s]) + TO;
      }
      if (src[at] > x1 || src[at + 2] < x0 || src[at + 1] > y1 || src[at + 3] < y0) continue;
      const circle = (word & CIRCLE_ITEM) !== 0;
      item[0] = src[at];
      item[1] = src[at + 1];
      item[2] = src[at + 2];
      item[3] = src[at + 3];
      if (circle) {
        // The circle inscribed in the box, computed as every shape test expects it.
        item[4] = item[0] * 0.5 + item[2] * 0.5;
        item[5] = item[1] * 0.5 + item[3] * 0.5;
        item[6] = inscribedRadius(item[0], item[1], item[2], item[3]);
      }
      if (!this.hit(circle)) continue;
      const id = ids !== null ? ids[i] : slotId[s];
      if (mode === LIST) {
        (this.out as IdArray)[hits++] = id;
      } else if (mode === VISIT) {
        this.hits = ++hits;
        if ((this.visitor as Visitor)(id) === false) return false;
      } else {
        this.offer(id);
      }
    }
    this.hits = hits;
    return true;
  }

  /** Keeps the hit (its key in `near[0]`) if it is among the k best so far. */
  private offer(id: number): void {
    const best = this.kept;
    const key = this.near[0];
    if (best.count < this.k) best.push(this.near, id);
    else if (key < best.keys[0] || (key === best.keys[0] && id < best.ids[0])) best.replaceTop(this.near, id);
    else return;
    if (best.count >= this.k) this.bound[0] = best.keys[0];
  }

  /**
   * Node tests: whether a node with loose bounds `nb` (in the reach box) may hold a hit, and for best walks its key in
   * `near[0]` (a lower bound of its items'). Closed: they prune only what cannot hit under either rule.
   */
  private readonly circleNode = (nb: Float64Array): boolean => {
    const a = this.args;
    return pointBoxDistanceSq(a[0], a[1], nb[0], nb[1], nb[2], nb[3]) <= a[2] * a[2];
  };

  private readonly rayNode = (nb: Float64Array): boolean => {
    const a = this.args;
    const t = rayBoxDistance(a[0], a[1], a[2], a[3], this.bound[0], nb[0], nb[1], nb[2], nb[3], true);
    this.near[0] = t;
    return t >= 0;
  };

  /** Widened far past the rounding of items' distances (a circle's is hypot minus radius): its key stays below. */
  private readonly nearNode = (nb: Float64Array): boolean => {
    const x = this.args[0],
      y = this.args[1];
    const pad =
      (Math.abs(x) + Math.abs(y) + Math.abs(nb[0]) + Math.abs(nb[1]) + Math.abs(nb[2]) + Math.abs(nb[3])) *
      PRUNE_MARGIN;
    const x0 = nb[0] - pad,
      y0 = nb[1] - pad,
      x1 = nb[2] + pad,
      y1 = nb[3] + pad;
    this.near[0] = pointBoxDistanceSq(x, y, x0, y0, x1, y1);
    return true;
  };

  /** The item test of `item` (key in `near[0]`): a switch, not a table, so each test inlines; only a flag crosses. */
  private hit(circle: boolean): boolean {
    const a = this.args;
    const b = this.item;
    const touching = this.touching;
    switch (this.kind) {
      case RECT:
        return circle
          ? circleBoxOverlap(b[4], b[5], b[6], a[0], a[1], a[2], a[3], touching)
          : boxesOverlap(b[0], b[1], b[2], b[3], a[0], a[1], a[2], a[3], touching);
      case CIRCLE:
        return circle
          ? circlesOverlap(a[0], a[1], a[2], b[4], b[5], b[6], touching)
          : circleBoxOverlap(a[0], a[1], a[2], b[0], b[1], b[2], b[3], touching);
      case POINT:
        return circle
          ? pointInCircle(a[0], a[1], b[4], b[5], b[6], touching)
          : pointInBox(a[0], a[1], b[0], b[1], b[2], b[3], touching);
      case RAY:
        return this.rayHit(circle);
      case NEAREST:
        return this.nearHit(circle);
      default:
        return this.sweepHit(circle);
    }
  }

  /** Tested against the full length, not the bound: a hit at the best distance with a lower id must win the tie. */
  private rayHit(circle: boolean): boolean {
    const a = this.args;
    const b = this.item;
    const t = circle
      ? rayCircleDistance(a[0], a[1], a[2], a[3], a[4], b[4], b[5], b[6], this.touching)
      : rayBoxDistance(a[0], a[1], a[2], a[3], a[4], b[0], b[1], b[2], b[3], this.touching);
    this.near[0] = t;
    return t >= 0;
  }

  /** A sweep's test: the item stands still where it is; the key is the time of impact. */
  private sweepHit(circle: boolean): boolean {
    const a = this.args;
    const b = this.item;
    if (!boxesOverlap(b[0], b[1], b[2], b[3], a[0], a[1], a[2], a[3], this.touching)) return false;
    const p = this.paths;
    p[8] = p[12] = b[0];
    p[9] = p[13] = b[1];
    p[10] = p[14] = b[2];
    p[11] = p[15] = b[3];
    if (!sweptShapes(p, circle ? B_CIRCLE : 0, this.touching)) return false;
    this.near[0] = p[16];
    return true;
  }

  /** The nearest query's item test: within range, keyed by the square of the distance reported. */
  private nearHit(circle: boolean): boolean {
    const b = this.item;
    const touching = this.touching;
    const x = this.args[0],
      y = this.args[1],
      maxDistance = this.args[2];
    if (circle) {
      const d = pointCircleDistance(x, y, b[4], b[5], b[6]);
      // A range of 0 is a point, as for queryCircle: it finds the disks that hold it inside.
      if (
        (touching ? d > maxDistance : d >= maxDistance) &&
        (touching || maxDistance !== 0 || !pointInCircle(x, y, b[4], b[5], b[6], false))
      )
        return false;
      this.near[0] = d * d;
      return true;
    }
    const d2 = pointBoxDistanceSq(x, y, b[0], b[1], b[2], b[3]);
    const m2 = maxDistance * maxDistance;
    // A range of 0 is a point, as for queryCircle.
    if (maxDistance === 0 ? !pointInBox(x, y, b[0], b[1], b[2], b[3], touching) : touching ? d2 > m2 : d2 >= m2)
      return false;
    // The square of the distance reported, as a circle's key is: equal distances, equal keys.
    const d = Math.sqrt(d2);
    this.near[0] = d * d;
    return true;
  }

  /** Sets the reach box: the query's closed bounding box, widened so no box the exact test takes fails by an ulp. */
  private reachBox(): void {
    const a = this.args;
    const kind = this.kind;
    let x0 = a[0],
      y0 = a[1],
      x1 = a[0],
      y1 = a[1];
    if (kind === RECT || kind === SWEEP) {
      x1 = a[2];
      y1 = a[3];
    } else if (kind === CIRCLE || kind === NEAREST) {
      x0 -= a[2];
      y0 -= a[2];
      x1 += a[2];
      y1 += a[2];
    } else if (kind === RAY) {
      // An endless ray reaches all space (a zero component times an endless length is NaN).
      const ex = a[2] === 0 ? a[0] : a[0] + a[2] * a[4];
      const ey = a[3] === 0 ? a[1] : a[1] + a[3] * a[4];
      if (ex < x0) x0 = ex;
      else x1 = ex;
      if (ey < y0) y0 = ey;
      else y1 = ey;
    }
    const pad = (Math.abs(x0) + Math.abs(y0) + Math.abs(x1) + Math.abs(y1)) * PRUNE_MARGIN + 1e-300;
    const reach = this.reach;
    reach[0] = x0 - pad;
    reach[1] = y0 - pad;
    reach[2] = x1 + pad;
    reach[3] = y1 + pad;
  }
}
