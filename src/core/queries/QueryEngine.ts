import {
  boxesOverlap,
  circleBoxOverlap,
  circlesOverlap,
  FAR,
  MIN_SQUARE,
  pointBoxDistance,
  pointBoxDistanceSq,
  pointCircleDistance,
  pointInBox,
  pointInCircle,
  rayBoxDistance,
  rayCircleDistance,
} from '../geometry.js';
import { NONE } from '../store/NodePool.js';
import { sortHits } from '../lists/quicksort.js';
import { Heap } from './Heap.js';
import { MAX_CLASSES, MIXED } from '../store/CollisionClasses.js';
import { CIRCLE as CIRCLE_ITEM, SWEPT } from '../store/ItemStore.js';
import { TO } from '../store/SweptStore.js';
import type { SpatialTree } from '../placement/SpatialTree.js';

/** Called for each hit of a visiting query; returning `false` stops the walk. */
// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- so that a visitor returning nothing, `(id) => { hits.push(id); }`, type-checks
export type Visitor = (id: number) => boolean | void;

/** Caller-owned output: a plain array or any indexable number store. */
export type IdArray = number[];

export const RECT = 0;
export const CIRCLE = 1;
export const POINT = 2;

/** Relative margin widening boxes that only prune: far above the exact tests' rounding, so no hit is dropped. */
const PRUNE_MARGIN = 1e-9;

/**
 * Non-recursive queries with reused scratch, plus a list-order scan of the detached classes
 * the mask accepts. One per index; not re-entrant (a visitor must not query the same index).
 * The per-item tests take the box as array and offset and return through `near`, so no
 * number is boxed when the engine does not inline them.
 */
export class QueryEngine {
  private readonly tree: SpatialTree;
  private stack: Int32Array;
  /** For nearest(): nodes to open, nearest first, and the best items so far, worst on top. */
  private readonly open = new Heap(false);
  private readonly best = new Heap(true);
  /** A distance or key out of a per-item test (see rayHit, nearHit): a number out of a call without boxing it. */
  private readonly near = new Float64Array(1);
  /** The detached scan (see nextDetached): its box, classes, mask, place, and the last item's box array. */
  private readonly reach = new Float64Array(4);
  private scanWanted = 0;
  private scanMask = 0;
  private scanClass = 0;
  private scanAt = 0;
  private scanEnd = 0;
  private scanSrc: Float32Array = new Float32Array(0);
  /** Offset of the box {@link boxNow} last returned. */
  private at = 0;

  /** The query's numbers, written here by the caller: numbers passed to an un-inlined call get boxed. */
  readonly args = new Float64Array(8);
  /** The loose bounds of the node a traversal is looking at (see SpatialTree.looseBounds). */
  private readonly nodeBox = new Float64Array(4);

  constructor(tree: SpatialTree) {
    this.tree = tree;
    this.stack = new Int32Array(4 * (tree.maxDepth + 2));
  }

  /** Walks every item overlapping the shape in `args`, into `out` or `visit`; returns the hits. */
  shape(kind: number, touching: boolean, mask: number, out: IdArray | null, visit: Visitor | null): number {
    const args = this.args;
    const x0 = args[0],
      y0 = args[1],
      x1 = args[2],
      y1 = args[3];
    const nodes = this.tree.nodes;
    const C = this.tree.classes;
    const wanted = this.classesFor(mask);
    const stack = this.stack;
    // For a circle, x1 holds the radius.
    const r2 = x1 * x1;
    const slots = this.tree.slots;
    const collider = slots.collider;
    const layerOf = slots.colliders.layer;
    const wordOf = slots.colliders.word;
    const slotId = slots.id;
    const nb = this.nodeBox;
    let hits = this.shapeDetached(kind, touching, mask, wanted, out, visit);
    if (hits < 0) return ~hits;
    let top = 0;
    if (nodes.total[0] > 0) stack[top++] = 0;
    while (top > 0) {
      const n = stack[--top];
      for (let bits = nodes.classBits[n] & wanted; bits !== 0; bits &= bits - 1) {
        const k = 31 - Math.clz32(bits & -bits);
        for (let s = C.start[k][n], end = s + C.own[k][n]; s < end; s++) {
          if (
            (layerOf[collider[s]] & mask) === 0 ||
            !this.shapeHit(kind, this.boxNow(s), this.at, (wordOf[collider[s]] & CIRCLE_ITEM) !== 0, touching)
          )
            continue;
          const id = slotId[s];
          if (out !== null) out[hits] = id;
          hits++;
          if (visit !== null && visit(id) === false) return hits;
        }
      }
      const first = nodes.firstChild[n];
      if (first === NONE) continue;
      for (let c = first; c < first + 4; c++) {
        if (nodes.total[c] === 0) continue;
        // Conservative (closed) tests: prune only what cannot hold a hit under either rule.
        this.tree.looseBounds(c, nb);
        if (kind === RECT) {
          if (nb[0] > x1 || nb[2] < x0 || nb[1] > y1 || nb[3] < y0) continue;
        } else if (kind === CIRCLE) {
          if (pointBoxDistanceSq(x0, y0, nb[0], nb[1], nb[2], nb[3]) > r2) continue;
        } else if (nb[0] > x0 || nb[2] < x0 || nb[1] > y0 || nb[3] < y0) {
          continue;
        }
        stack[top++] = c;
      }
    }
    return hits;
  }

  /** The shape query over the detached classes in `wanted`: the hits, or `~hits` if the visitor stopped. */
  private shapeDetached(
    kind: number,
    touching: boolean,
    mask: number,
    wanted: number,
    out: IdArray | null,
    visit: Visitor | null,
  ): number {
    const items = this.tree.items;
    const args = this.args;
    // The shape's closed bounding box.
    const r = kind === CIRCLE ? args[2] : 0;
    this.reachBox(
      args[0] - r,
      args[1] - r,
      kind === RECT ? args[2] : args[0] + r,
      kind === RECT ? args[3] : args[1] + r,
    );
    let hits = 0;
    for (let id = this.firstDetached(wanted, mask); id >= 0; id = this.nextDetached()) {
      if (!this.shapeHit(kind, this.scanSrc, this.at, items.hasFlag(id, CIRCLE_ITEM), touching)) continue;
      if (out !== null) out[hits] = id;
      hits++;
      if (visit !== null && visit(id) === false) return ~hits;
    }
    return hits;
  }

  /** Walks the items a ray hits: with `firstOnly` the best into `outIds[0]`, else all by distance then id. */
  ray(touching: boolean, mask: number, firstOnly: boolean, outIds: IdArray, outDist: IdArray): number {
    const args = this.args;
    const ox = args[0],
      oy = args[1],
      ux = args[2],
      uy = args[3],
      maxDistance = args[4];
    const nodes = this.tree.nodes;
    const C = this.tree.classes;
    const wanted = this.classesFor(mask);
    const stack = this.stack;
    const slots = this.tree.slots;
    const collider = slots.collider;
    const layerOf = slots.colliders.layer;
    const wordOf = slots.colliders.word;
    const slotId = slots.id;
    const nb = this.nodeBox;
    let limit = maxDistance;
    let bestId = -1;
    let bestDist = Infinity;
    let hits = this.rayDetached(touching, mask, wanted, firstOnly, outIds, outDist);
    if (firstOnly && hits > 0) {
      bestId = outIds[0];
      bestDist = outDist[0];
      limit = bestDist;
      hits = 0;
    }
    let top = 0;
    if (nodes.total[0] > 0) stack[top++] = 0;
    while (top > 0) {
      const n = stack[--top];
      for (let bits = nodes.classBits[n] & wanted; bits !== 0; bits &= bits - 1) {
        const k = 31 - Math.clz32(bits & -bits);
        for (let s = C.start[k][n], end = s + C.own[k][n]; s < end; s++) {
          // Items are tested against the full length so an equal distance with a lower id wins;
          // `limit` only prunes nodes.
          if ((layerOf[collider[s]] & mask) === 0) continue;
          this.rayHit(this.boxNow(s), this.at, (wordOf[collider[s]] & CIRCLE_ITEM) !== 0, touching);
          const t = this.near[0];
          if (t < 0) continue;
          const id = slotId[s];
          if (firstOnly) {
            if (t < bestDist || (t === bestDist && id < bestId)) {
              bestDist = t;
              bestId = id;
              limit = t;
            }
          } else {
            outIds[hits] = id;
            outDist[hits] = t;
            hits++;
          }
        }
      }
      const first = nodes.firstChild[n];
      if (first === NONE) continue;
      for (let c = first; c < first + 4; c++) {
        if (nodes.total[c] === 0) continue;
        this.tree.looseBounds(c, nb);
        if (rayBoxDistance(ox, oy, ux, uy, limit, nb[0], nb[1], nb[2], nb[3], true) < 0) continue;
        stack[top++] = c;
      }
    }
    if (firstOnly) {
      if (bestId < 0) return 0;
      outIds[0] = bestId;
      outDist[0] = bestDist;
      return 1;
    }
    sortHits(outIds, outDist, hits);
    return hits;
  }

  /** The ray query over the detached classes: with `firstOnly` the best hit (1 or 0), else every hit unsorted. */
  private rayDetached(
    touching: boolean,
    mask: number,
    wanted: number,
    firstOnly: boolean,
    outIds: IdArray,
    outDist: IdArray,
  ): number {
    const items = this.tree.items;
    const args = this.args;
    // The segment's closed bounding box (a zero component times an endless length would be NaN).
    const ex = args[2] === 0 ? args[0] : args[0] + args[2] * args[4];
    const ey = args[3] === 0 ? args[1] : args[1] + args[3] * args[4];
    this.reachBox(
      ex < args[0] ? ex : args[0],
      ey < args[1] ? ey : args[1],
      ex < args[0] ? args[0] : ex,
      ey < args[1] ? args[1] : ey,
    );
    let bestId = -1;
    let bestDist = Infinity;
    let hits = 0;
    for (let id = this.firstDetached(wanted, mask); id >= 0; id = this.nextDetached()) {
      this.rayHit(this.scanSrc, this.at, items.hasFlag(id, CIRCLE_ITEM), touching);
      const t = this.near[0];
      if (t < 0) continue;
      if (!firstOnly) {
        outIds[hits] = id;
        outDist[hits] = t;
        hits++;
      } else if (t < bestDist || (t === bestDist && id < bestId)) {
        bestDist = t;
        bestId = id;
      }
    }
    if (!firstOnly || bestId < 0) return hits;
    outIds[0] = bestId;
    outDist[0] = bestDist;
    return 1;
  }

  /** The k items nearest to (x, y) within `maxDistance`, nearest first, ties by id: best-first over the nodes. */
  nearest(k: number, touching: boolean, mask: number, outIds: IdArray, outDist: IdArray | null): number {
    const args = this.args;
    const nodes = this.tree.nodes;
    const C = this.tree.classes;
    const wanted = this.classesFor(mask);
    const slots = this.tree.slots;
    const collider = slots.collider;
    const layerOf = slots.colliders.layer;
    const wordOf = slots.colliders.word;
    const slotId = slots.id;
    const nb = this.nodeBox;
    if (k > this.tree.size) k = this.tree.size;
    if (k <= 0) return 0;
    const x = args[0],
      y = args[1],
      maxDistance = args[2];
    // Keys are squared distances, or overflow-safe distances when squares could overflow.
    const far = this.extent(x, y, maxDistance, wanted) >= FAR;
    const limit2 = far ? maxDistance : maxDistance * maxDistance;
    const open = this.open;
    const best = this.best;
    open.clear();
    best.clear();
    this.nearestDetached(k, touching, mask, wanted, far);
    if (nodes.total[0] > 0) open.push(0, 0);
    while (open.count > 0) {
      const key = open.topKey;
      const n = open.topId;
      open.pop();
      if (best.count === k && key > best.topKey) break;
      for (let bits = nodes.classBits[n] & wanted; bits !== 0; bits &= bits - 1) {
        const cls = 31 - Math.clz32(bits & -bits);
        for (let s = C.start[cls][n], end = s + C.own[cls][n]; s < end; s++) {
          if ((layerOf[collider[s]] & mask) === 0) continue;
          if (!this.nearHit(this.boxNow(s), this.at, (wordOf[collider[s]] & CIRCLE_ITEM) !== 0, far, touching))
            continue;
          const d2 = this.near[0];
          const id = slotId[s];
          if (best.count < k) best.push(d2, id);
          else if (d2 < best.topKey || (d2 === best.topKey && id < best.topId)) best.replaceTop(d2, id);
        }
      }
      const first = nodes.firstChild[n];
      if (first === NONE) continue;
      for (let c = first; c < first + 4; c++) {
        if (nodes.total[c] === 0) continue;
        this.tree.looseBounds(c, nb);
        // Widen the node well past rounding so its key stays a lower bound of its items' keys
        // (which come from other formulas), or a tie inside it would never be opened.
        const pad =
          (Math.abs(x) + Math.abs(y) + Math.abs(nb[0]) + Math.abs(nb[1]) + Math.abs(nb[2]) + Math.abs(nb[3])) *
          PRUNE_MARGIN;
        const x0 = nb[0] - pad,
          y0 = nb[1] - pad,
          x1 = nb[2] + pad,
          y1 = nb[3] + pad;
        const d2 = far ? pointBoxDistance(x, y, x0, y0, x1, y1) : pointBoxDistanceSq(x, y, x0, y0, x1, y1);
        if (d2 > limit2 || (best.count === k && d2 > best.topKey)) continue;
        open.push(d2, c);
      }
    }
    // The worst comes off first: fill from the back. Equal distances have equal keys, ordered by id.
    const found = best.count;
    for (let i = found - 1; i >= 0; i--) {
      outIds[i] = best.topId;
      if (outDist !== null) outDist[i] = far ? best.topKey : Math.sqrt(best.topKey);
      best.pop();
    }
    return found;
  }

  /** The nearest query over the detached classes in `wanted`: offers their items to the best k. */
  private nearestDetached(k: number, touching: boolean, mask: number, wanted: number, far: boolean): void {
    const items = this.tree.items;
    const best = this.best;
    const args = this.args;
    // The range's closed bounding box.
    this.reachBox(args[0] - args[2], args[1] - args[2], args[0] + args[2], args[1] + args[2]);
    for (let id = this.firstDetached(wanted, mask); id >= 0; id = this.nextDetached()) {
      if (!this.nearHit(this.scanSrc, this.at, items.hasFlag(id, CIRCLE_ITEM), far, touching)) continue;
      const d2 = this.near[0];
      if (best.count < k) best.push(d2, id);
      else if (d2 < best.topKey || (d2 === best.topKey && id < best.topId)) best.replaceTop(d2, id);
    }
  }

  /** Sets the scan's closed reach box (see {@link nextDetached}), widened so no hit is lost by an ulp. */
  private reachBox(x0: number, y0: number, x1: number, y1: number): void {
    const pad = (Math.abs(x0) + Math.abs(y0) + Math.abs(x1) + Math.abs(y1)) * PRUNE_MARGIN + 1e-300;
    const reach = this.reach;
    reach[0] = x0 - pad;
    reach[1] = y0 - pad;
    reach[2] = x1 + pad;
    reach[3] = y1 + pad;
  }

  /** Starts the scan of the detached classes in `wanted` (see {@link nextDetached}); returns its first item, or -1. */
  private firstDetached(wanted: number, mask: number): number {
    this.scanWanted = wanted;
    this.scanMask = mask;
    this.scanClass = -1;
    this.scanAt = 0;
    this.scanEnd = 0;
    return this.nextDetached();
  }

  /** The next scanned detached member the mask accepts whose box meets the reach box; -1 at the end. */
  private nextDetached(): number {
    const C = this.tree.classes;
    const slots = this.tree.slots;
    const collider = slots.collider;
    const layerOf = slots.colliders.layer;
    const reach = this.reach;
    const x0 = reach[0],
      y0 = reach[1],
      x1 = reach[2],
      y1 = reach[3];
    const mask = this.scanMask;
    for (;;) {
      while (this.scanAt < this.scanEnd) {
        // Member i of a detached class is in slot listStart + i, its layer in its collider.
        const s = C.listStart[this.scanClass] + this.scanAt;
        const id = C.ids[this.scanClass][this.scanAt++];
        if (id < 0 || (layerOf[collider[s]] & mask) === 0) continue;
        const src = this.boxNow(s),
          at = this.at;
        if (src[at] > x1 || src[at + 2] < x0 || src[at + 1] > y1 || src[at + 3] < y0) continue;
        this.scanSrc = src;
        return id;
      }
      do this.scanClass++;
      while (
        this.scanClass < MAX_CLASSES &&
        (C.detached[this.scanClass] === 0 || ((this.scanWanted >>> this.scanClass) & 1) === 0)
      );
      if (this.scanClass === MAX_CLASSES) return -1;
      this.scanAt = 0;
      this.scanEnd = C.end[this.scanClass];
    }
  }

  /** Tests one item (box at `src[at]`, or its inscribed circle) against the running shape query in `args`. */
  private shapeHit(kind: number, src: Float32Array, at: number, circle: boolean, touching: boolean): boolean {
    const args = this.args;
    const x0 = src[at],
      y0 = src[at + 1],
      x1 = src[at + 2],
      y1 = src[at + 3];
    if (!circle) {
      return kind === RECT
        ? boxesOverlap(x0, y0, x1, y1, args[0], args[1], args[2], args[3], touching)
        : kind === CIRCLE
          ? circleBoxOverlap(args[0], args[1], args[2], x0, y0, x1, y1, touching)
          : pointInBox(args[0], args[1], x0, y0, x1, y1, touching);
    }
    const cx = x0 * 0.5 + x1 * 0.5,
      cy = y0 * 0.5 + y1 * 0.5,
      r = x1 * 0.5 - x0 * 0.5;
    return kind === RECT
      ? circleBoxOverlap(cx, cy, r, args[0], args[1], args[2], args[3], touching)
      : kind === CIRCLE
        ? circlesOverlap(args[0], args[1], args[2], cx, cy, r, touching)
        : pointInCircle(args[0], args[1], cx, cy, r, touching);
  }

  /** The running ray query's distance to one item (see shapeHit) into `near[0]`, -1 for a miss. */
  private rayHit(src: Float32Array, at: number, circle: boolean, touching: boolean): void {
    const args = this.args;
    const x0 = src[at],
      y0 = src[at + 1],
      x1 = src[at + 2],
      y1 = src[at + 3];
    this.near[0] = circle
      ? rayCircleDistance(
          args[0],
          args[1],
          args[2],
          args[3],
          args[4],
          x0 * 0.5 + x1 * 0.5,
          y0 * 0.5 + y1 * 0.5,
          x1 * 0.5 - x0 * 0.5,
          touching,
        )
      : rayBoxDistance(args[0], args[1], args[2], args[3], args[4], x0, y0, x1, y1, touching);
  }

  /** Whether one item is in the nearest query's range; its key (squared, or plain if `far`) in `near[0]`. */
  private nearHit(src: Float32Array, at: number, circle: boolean, far: boolean, touching: boolean): boolean {
    const args = this.args;
    const x = args[0],
      y = args[1],
      maxDistance = args[2];
    const x0 = src[at],
      y0 = src[at + 1],
      x1 = src[at + 2],
      y1 = src[at + 3];
    if (circle) {
      const cx = x0 * 0.5 + x1 * 0.5,
        cy = y0 * 0.5 + y1 * 0.5,
        r = x1 * 0.5 - x0 * 0.5;
      const d = pointCircleDistance(x, y, cx, cy, r);
      // A range of 0 is a point, as for queryCircle: it finds the disks that hold it inside.
      if (
        (touching ? d > maxDistance : d >= maxDistance) &&
        (touching || maxDistance !== 0 || !pointInCircle(x, y, cx, cy, r, false))
      )
        return false;
      this.near[0] = far ? d : d * d;
      return true;
    }
    if (!far) {
      const d2 = pointBoxDistanceSq(x, y, x0, y0, x1, y1);
      const m2 = maxDistance * maxDistance;
      // A tie or a tiny range (a range of 0 among them): the careful test of queryCircle.
      if (
        d2 === m2 || !(m2 >= MIN_SQUARE)
          ? !circleBoxOverlap(x, y, maxDistance, x0, y0, x1, y1, touching)
          : touching
            ? d2 > m2
            : d2 >= m2
      )
        return false;
      // The key is the square of the reported distance, as a circle's is, so equal reported
      // distances tie on key and ids decide.
      const d = Math.sqrt(d2);
      this.near[0] = d * d;
      return true;
    }
    if (!circleBoxOverlap(x, y, maxDistance, x0, y0, x1, y1, touching)) return false;
    this.near[0] = pointBoxDistance(x, y, x0, y0, x1, y1);
    return true;
  }

  /** The box of slot s's item now, as array and offset {@link at}: a swept item's slot covers its whole path. */
  private boxNow(s: number): Float32Array {
    const slots = this.tree.slots;
    if ((slots.colliders.word[slots.collider[s]] & SWEPT) === 0) {
      this.at = 4 * s;
      return slots.box;
    }
    const sweeps = this.tree.sweeps;
    this.at = sweeps.at(slots.id[s]) + TO;
    return sweeps.boxes;
  }

  /** Bits of the classes that may hold an item the mask accepts (the mixed class always may). */
  private classesFor(mask: number): number {
    const C = this.tree.classes;
    let wanted = 1 << MIXED;
    for (let k = 0; k < MIXED; k++) if ((C.layer[k] & mask) !== 0) wanted |= 1 << k;
    return wanted;
  }

  /** The largest coordinate magnitude a nearest query can meet (point, range, root, detached items). */
  private extent(x: number, y: number, maxDistance: number, wanted: number): number {
    const nodes = this.tree.nodes;
    const nb = this.nodeBox;
    const box = this.tree.slots.box;
    const C = this.tree.classes;
    this.tree.looseBounds(0, nb);
    let m = Math.max(Math.abs(x), Math.abs(y), Math.abs(nb[0]), Math.abs(nb[1]), Math.abs(nb[2]), Math.abs(nb[3]));
    if (maxDistance < Infinity && maxDistance > m) m = maxDistance;
    for (let bits = nodes.classBits[0]; bits !== 0; bits &= bits - 1) {
      const k = 31 - Math.clz32(bits & -bits);
      for (let s = 4 * C.start[k][0], end = s + 4 * C.own[k][0]; s < end; s++) {
        const v = Math.abs(box[s]);
        if (v > m) m = v;
      }
    }
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (C.detached[k] === 0 || ((wanted >>> k) & 1) === 0) continue;
      const ids = C.ids[k];
      for (let i = 0, end = C.end[k]; i < end; i++) {
        if (ids[i] < 0) continue;
        for (let r = 4 * (C.listStart[k] + i), e = r + 4; r < e; r++) {
          const v = Math.abs(box[r]);
          if (v > m) m = v;
        }
      }
    }
    return m;
  }
}
