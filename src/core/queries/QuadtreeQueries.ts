import {
  badArrays,
  badOutput,
  badVisitor,
  checkQueryNumber,
  isObject,
  fail,
  FLOAT32_MAX as F32,
  isBits32,
  queryNumber as q,
  show,
} from '../errors.js';
import type { RayHit, SweepHit } from '../options.js';
import type { SpatialTree } from '../placement/SpatialTree.js';
import { cellDepth } from '../store/ItemStore.js';
import {
  CIRCLE as CIRCLE_QUERY,
  NEAREST,
  POINT,
  RAY,
  RECT,
  SWEEP,
  type IdArray,
  type QueryEngine,
  type Visitor,
} from './QueryEngine.js';

const ALL = -1;
/** Deepest tree allowed: the per-level cell index of depth d holds 4^d entries. */
export const MAX_DEPTH = 11;

/** Receives one node from {@link QuadtreeQueries.visitNodes}: loose bounds, depth (root 0), items in its subtree. */
export type NodeVisitor = (
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  depth: number,
  items: number,
) => void;

/**
 * The read-only spatial queries of a {@link LooseQuadtree}: each checked, then answered by one walk (QueryEngine).
 * Their numbers are within float32's range, and those nearer 0 than its smallest normal (1.2e-38) count as 0.
 */
export abstract class QuadtreeQueries {
  /** Whether touching edges count as overlap (see {@link QuadtreeOptions.touching}). */
  abstract readonly touching: boolean;
  /** @internal The spatial index, which the package's own faces (ECS, tile layers) reach too. */
  abstract readonly tree: SpatialTree;
  /** @internal */
  abstract readonly queries: QueryEngine;
  private readonly rayIds: number[] = [0];
  private readonly rayDist: number[] = [0];
  private readonly nodeStack = new Int32Array(4 * (MAX_DEPTH + 2));
  /** Loose bounds of the node {@link visitNodes} is at. */
  private readonly nodeBox = new Float64Array(4);

  /** Places every pending item; returns how many. Queries and steps do this by themselves. */
  abstract flush(): number;

  /** Ids of items overlapping the rectangle into `out` (length set), in no promised order. Returns the count. */
  queryRect(minX: number, minY: number, maxX: number, maxY: number, out: IdArray, mask = ALL): number {
    if (!Array.isArray(out)) badOutput('queryRect', 'out', out, 'an array');
    this.rectArgs(minX, minY, maxX, maxY, mask);
    return trim(out, this.queries.all(RECT, this.touching, mask, out, null));
  }

  /** Calls `visit` for each item overlapping the rectangle, in no promised order; `false` stops. Returns the hits. */
  visitRect(minX: number, minY: number, maxX: number, maxY: number, visit: Visitor, mask = ALL): number {
    if (typeof visit !== 'function') badVisitor('visitRect', visit);
    this.rectArgs(minX, minY, maxX, maxY, mask);
    return this.queries.all(RECT, this.touching, mask, null, visit);
  }

  /** Ids of items overlapping the circle into `out`, in no promised order; radius 0 is a point. Returns the count. */
  queryCircle(x: number, y: number, radius: number, out: IdArray, mask = ALL): number {
    if (!Array.isArray(out)) badOutput('queryCircle', 'out', out, 'an array');
    this.circleArgs(x, y, radius, mask);
    return trim(out, this.queries.all(CIRCLE_QUERY, this.touching, mask, out, null));
  }

  /** Calls `visit` for each item overlapping the circle, in no promised order; `false` stops. */
  visitCircle(x: number, y: number, radius: number, visit: Visitor, mask = ALL): number {
    if (typeof visit !== 'function') badVisitor('visitCircle', visit);
    this.circleArgs(x, y, radius, mask);
    return this.queries.all(CIRCLE_QUERY, this.touching, mask, null, visit);
  }

  /** Ids of items containing the point, into `out`, in no promised order. Returns the count. */
  queryPoint(x: number, y: number, out: IdArray, mask = ALL): number {
    if (!Array.isArray(out)) badOutput('queryPoint', 'out', out, 'an array');
    this.pointArgs(x, y, mask);
    return trim(out, this.queries.all(POINT, this.touching, mask, out, null));
  }

  /** Calls `visit` for each item containing the point, in no promised order; `false` stops. */
  visitPoint(x: number, y: number, visit: Visitor, mask = ALL): number {
    if (typeof visit !== 'function') badVisitor('visitPoint', visit);
    this.pointArgs(x, y, mask);
    return this.queries.all(POINT, this.touching, mask, null, visit);
  }

  /** The first item a ray hits within `maxDistance` (ties by lower id) into `hit`; whether one was hit (else id -1). */
  raycast(ox: number, oy: number, dx: number, dy: number, maxDistance: number, hit: RayHit, mask = ALL): boolean {
    if (!isObject(hit)) badOutput('raycast', 'hit', hit, 'an object');
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
    if (!Array.isArray(outIds) || !Array.isArray(outDistances))
      badArrays('raycastAll', outIds, outDistances, 'an array');
    this.rayArgs(ox, oy, dx, dy, maxDistance, mask);
    const count = this.queries.best(RAY, this.touching, mask, Infinity, outIds, outDistances);
    outDistances.length = count;
    return trim(outIds, count);
  }

  /**
   * Moves a box by (dx, dy) through the index without changing it: the first item met by time of impact (0..1, ties
   * by lower id) into `hit`; returns whether one was met. Items stand still (a swept one at its path's end).
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
    if (!isObject(hit)) badOutput('sweepBox', 'hit', hit, 'an object');
    this.rectArgs(minX, minY, maxX, maxY, mask);
    if (!(Math.abs(dx) <= F32 && Math.abs(dy) <= F32)) {
      checkQueryNumber('sweep dx', dx);
      checkQueryNumber('sweep dy', dy);
    }
    const args = this.queries.args;
    const p = this.queries.paths;
    dx = q(dx);
    dy = q(dy);
    for (let i = 0; i < 4; i++) {
      p[i] = args[i];
      p[i + 4] = args[i] + ((i & 1) === 0 ? dx : dy);
    }
    // The box covering the whole sweep bounds the walk.
    if (dx < 0) args[0] += dx;
    if (dy < 0) args[1] += dy;
    if (dx > 0) args[2] += dx;
    if (dy > 0) args[3] += dy;
    const found = this.queries.best(SWEEP, this.touching, mask, 1, this.rayIds, this.rayDist);
    hit.id = found ? this.rayIds[0] : -1;
    hit.toi = found ? this.rayDist[0] : Infinity;
    return hit.id >= 0;
  }

  /**
   * The `k` items nearest to a point within `maxDistance` (box or circle distance, 0 inside), nearest first, ties by
   * ascending id, distances into `outDistances` if given; a `maxDistance` of 0 finds what {@link queryPoint} does.
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
    if (!Array.isArray(outIds) || (outDistances !== null && !Array.isArray(outDistances)))
      badArrays('nearest', outIds, outDistances, 'an array or null');
    if (!(
      Math.abs(x) <= F32 &&
      Math.abs(y) <= F32 &&
      maxDistance >= 0 &&
      (maxDistance <= F32 || maxDistance === Infinity) &&
      k >>> 0 === k
    ))
      checkNearest(x, y, k, maxDistance);
    this.catchUp(mask);
    const args = this.queries.args;
    args[0] = q(x);
    args[1] = q(y);
    args[2] = q(maxDistance);
    const count = this.queries.best(NEAREST, this.touching, mask, k, outIds, outDistances);
    if (outDistances !== null) outDistances.length = count;
    return trim(outIds, count);
  }

  /** Refuses a bad mask, then places pending items: after a query's numbers are checked, before they are stored. */
  private catchUp(mask: number): void {
    if (!isBits32(mask)) refuseMask(mask);
    if (this.tree.pending.count !== 0) this.flush();
  }

  // The *Args helpers check a query's numbers and mask, place pending items and store the numbers (see queryNumber);
  // small: they inline.
  private rectArgs(minX: number, minY: number, maxX: number, maxY: number, mask: number): void {
    if (!(
      Math.abs(minX) <= F32 &&
      Math.abs(minY) <= F32 &&
      Math.abs(maxX) <= F32 &&
      Math.abs(maxY) <= F32 &&
      minX <= maxX &&
      minY <= maxY
    )) {
      checkQueryBox(minX, minY, maxX, maxY);
    }
    this.catchUp(mask);
    const args = this.queries.args;
    args[0] = q(minX);
    args[1] = q(minY);
    args[2] = q(maxX);
    args[3] = q(maxY);
  }

  private circleArgs(x: number, y: number, radius: number, mask: number): void {
    if (!(Math.abs(x) <= F32 && Math.abs(y) <= F32 && radius <= F32 && radius >= 0)) checkCircle(x, y, radius);
    this.catchUp(mask);
    const args = this.queries.args;
    args[0] = q(x);
    args[1] = q(y);
    args[2] = q(radius);
  }

  private pointArgs(x: number, y: number, mask: number): void {
    if (!(Math.abs(x) <= F32 && Math.abs(y) <= F32)) checkPoint(x, y);
    this.catchUp(mask);
    const args = this.queries.args;
    args[0] = q(x);
    args[1] = q(y);
  }

  private rayArgs(ox: number, oy: number, dx: number, dy: number, maxDistance: number, mask: number): void {
    if (!(
      Math.abs(ox) <= F32 &&
      Math.abs(oy) <= F32 &&
      Math.abs(dx) <= F32 &&
      Math.abs(dy) <= F32 &&
      (maxDistance <= F32 || maxDistance === Infinity) &&
      maxDistance >= 0 &&
      (dx !== 0 || dy !== 0)
    )) {
      checkRay(ox, oy, dx, dy, maxDistance);
    }
    this.catchUp(mask);
    // hypot, not sqrt of squares: no underflow for tiny components, and the documented norm.
    const len = Math.hypot(dx, dy);
    const args = this.queries.args;
    args[0] = q(ox);
    args[1] = q(oy);
    args[2] = q(dx / len);
    args[3] = q(dy / len);
    args[4] = q(maxDistance);
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
      visit(b[0], b[1], b[2], b[3], cellDepth(nodes.cell[n]), nodes.total[n]);
      const first = nodes.firstChild[n];
      if (first !== -1) for (let c = first + 3; c >= first; c--) stack[top++] = c;
    }
  }
}

function trim(out: IdArray, count: number): number {
  out.length = count;
  return count;
}

function checkQueryBox(minX: number, minY: number, maxX: number, maxY: number): void {
  checkQueryNumber('query minX', minX);
  checkQueryNumber('query minY', minY);
  checkQueryNumber('query maxX', maxX);
  checkQueryNumber('query maxY', maxY);
  if (minX > maxX) fail(`query rectangle has minX ${show(minX)} > maxX ${show(maxX)}: pass the lower corner first`);
  fail(`query rectangle has minY ${show(minY)} > maxY ${show(maxY)}: pass the lower corner first`);
}

/** A query mask follows a collider's rule: 32 bits as a signed or unsigned integer. */
function refuseMask(mask: number): never {
  fail(`query mask must be a 32-bit integer (got ${show(mask)})`);
}

function checkCircle(x: number, y: number, radius: number): void {
  checkQueryNumber('circle x', x);
  checkQueryNumber('circle y', y);
  checkQueryNumber('circle radius', radius);
  if (radius < 0) fail(`circle radius must be >= 0 (got ${show(radius)})`);
}

function checkRay(ox: number, oy: number, dx: number, dy: number, maxDistance: number): void {
  checkQueryNumber('ray origin x', ox);
  checkQueryNumber('ray origin y', oy);
  checkQueryNumber('ray direction x', dx);
  checkQueryNumber('ray direction y', dy);
  checkRange('ray maxDistance', maxDistance);
  if (dx === 0 && dy === 0) fail('ray direction must not be zero (got 0, 0)');
}

function checkPoint(x: number, y: number): void {
  checkQueryNumber('point x', x);
  checkQueryNumber('point y', y);
}

function checkNearest(x: number, y: number, k: number, maxDistance: number): void {
  checkPoint(x, y);
  if (!Number.isInteger(k) || k < 0) fail(`k must be a non-negative integer (got ${show(k)})`);
  checkRange('maxDistance', maxDistance);
}
/** A query's range: not negative, and within float32's range or endless. */
function checkRange(what: string, maxDistance: number): void {
  if (!(maxDistance >= 0)) fail(`${what} must be >= 0 (got ${show(maxDistance)})`);
  if (maxDistance !== Infinity) checkQueryNumber(what, maxDistance);
}
