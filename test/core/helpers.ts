import {
  boxesOverlap,
  circleBoxOverlap,
  circlesOverlap,
  pointCircleDistance,
  pointBoxDistance,
  pointInBox,
  pointInCircle,
  rayBoxDistance,
  rayCircleDistance,
  type LooseQuadtree,
  type PairList,
} from '../../src/core/index.js';

/** Seeded PRNG (mulberry32): the same seed gives the same run on every machine. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Small conveniences over a seeded generator. */
export class Rng {
  readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Float in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(values: readonly T[]): T {
    return values[this.int(values.length)];
  }
}

export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** What the test believes one item is. */
export interface ModelItem extends Box {
  layer: number;
  mask: number;
  priority: number;
  isStatic: boolean;
  /** The circle inscribed in the (square) box, not the box (see setShape). */
  circle?: boolean;
}

/**
 * A box as the tree stores it: each corner rounded to the nearest float32 (see SlotPool.box).
 * Models keep their items' boxes so, and the oracles compare on them.
 */
export function stored(box: readonly number[]): [number, number, number, number] {
  return [Math.fround(box[0]), Math.fround(box[1]), Math.fround(box[2]), Math.fround(box[3])];
}

/** Centre and radius of a circle item. */
function circleOf(it: Box): [number, number, number] {
  // The smaller half-side: a box square only to within rounding holds its circle whole.
  const r = Math.min(it.maxX * 0.5 - it.minX * 0.5, it.maxY * 0.5 - it.minY * 0.5);
  return [it.minX * 0.5 + it.maxX * 0.5, it.minY * 0.5 + it.maxY * 0.5, r];
}

/** Whether two items' shapes (boxes or circles) overlap under the rule. */
export function shapesOverlap(p: ModelItem, q: ModelItem, touching: boolean): boolean {
  if (!p.circle && !q.circle)
    return boxesOverlap(p.minX, p.minY, p.maxX, p.maxY, q.minX, q.minY, q.maxX, q.maxY, touching);
  if (p.circle && q.circle) return circlesOverlap(...circleOf(p), ...circleOf(q), touching);
  const c = p.circle ? p : q,
    b = p.circle ? q : p;
  return circleBoxOverlap(...circleOf(c), b.minX, b.minY, b.maxX, b.maxY, touching);
}

/**
 * A query's number as the library takes it: 0 when nearer 0 than float32's smallest normal
 * number. The query models below (shapeInRect to shapeDistance) take theirs so.
 */
export function queryNumber(v: number): number {
  return Math.abs(v) < 2 ** -126 ? 0 : v;
}

/** Whether an item's shape overlaps the rectangle. */
export function shapeInRect(
  it: ModelItem,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  touching: boolean,
): boolean {
  [minX, minY, maxX, maxY] = [minX, minY, maxX, maxY].map(queryNumber);
  return it.circle
    ? circleBoxOverlap(...circleOf(it), minX, minY, maxX, maxY, touching)
    : boxesOverlap(minX, minY, maxX, maxY, it.minX, it.minY, it.maxX, it.maxY, touching);
}

/** Whether an item's shape overlaps the circle. */
export function shapeInCircle(it: ModelItem, x: number, y: number, r: number, touching: boolean): boolean {
  [x, y, r] = [x, y, r].map(queryNumber);
  return it.circle
    ? circlesOverlap(x, y, r, ...circleOf(it), touching)
    : circleBoxOverlap(x, y, r, it.minX, it.minY, it.maxX, it.maxY, touching);
}

/** Whether an item's shape holds the point. */
export function shapeHasPoint(it: ModelItem, x: number, y: number, touching: boolean): boolean {
  [x, y] = [x, y].map(queryNumber);
  return it.circle
    ? pointInCircle(x, y, ...circleOf(it), touching)
    : pointInBox(x, y, it.minX, it.minY, it.maxX, it.maxY, touching);
}

/** Distance along a ray (unit direction) to an item's shape, or -1. */
export function shapeRayDistance(
  it: ModelItem,
  ox: number,
  oy: number,
  ux: number,
  uy: number,
  max: number,
  touching: boolean,
): number {
  [ox, oy, ux, uy, max] = [ox, oy, ux, uy, max].map(queryNumber);
  return it.circle
    ? rayCircleDistance(ox, oy, ux, uy, max, ...circleOf(it), touching)
    : rayBoxDistance(ox, oy, ux, uy, max, it.minX, it.minY, it.maxX, it.maxY, touching);
}

/**
 * Distance from a point to an item's shape (0 inside), and whether it is in range of
 * maxDistance: inside the circle of that radius, a range of 0 being the point itself.
 */
export function shapeDistance(it: ModelItem, x: number, y: number, maxDistance: number, touching: boolean): number {
  [x, y, maxDistance] = [x, y, maxDistance].map(queryNumber);
  if (it.circle) {
    const d = pointCircleDistance(x, y, ...circleOf(it));
    const point = maxDistance === 0 && pointInCircle(x, y, ...circleOf(it), touching);
    return (touching ? d <= maxDistance : d < maxDistance) || point ? d : -1;
  }
  if (!circleBoxOverlap(x, y, maxDistance, it.minX, it.minY, it.maxX, it.maxY, touching)) return -1;
  return pointBoxDistance(x, y, it.minX, it.minY, it.maxX, it.maxY);
}

export type Pair = [a: number, b: number, priority: number];

/** Pair order of the library: priority descending, then a, then b. */
export function comparePairs(x: Pair, y: Pair): number {
  return y[2] - x[2] || x[0] - y[0] || x[1] - y[1];
}

export function pairKey(a: number, b: number): string {
  return a < b ? `${a},${b}` : `${b},${a}`;
}

/** Copies the live entries of a pair list into plain tuples, in list order. */
export function readPairs(list: PairList): Pair[] {
  const out: Pair[] = [];
  for (let i = 0; i < list.count; i++) out.push([list.a[i], list.b[i], list.priority[i]]);
  return out;
}

/** The pair rule, applied to every couple of items: what `current` must hold. */
export function brutePairs(items: Map<number, ModelItem>, touching: boolean): Pair[] {
  const ids = [...items.keys()].sort((x, y) => x - y);
  const out: Pair[] = [];
  for (let i = 0; i < ids.length; i++) {
    const p = items.get(ids[i])!;
    for (let j = i + 1; j < ids.length; j++) {
      const q = items.get(ids[j])!;
      // The broadphase offers the pairs whose boxes overlap; a circle's exact test comes on top
      // (in exact arithmetic implied, but rounding may let a circle reach a hair past its box).
      if (
        pairAllowed(p, q) &&
        boxesOverlap(p.minX, p.minY, p.maxX, p.maxY, q.minX, q.minY, q.maxX, q.maxY, touching) &&
        shapesOverlap(p, q, touching)
      ) {
        out.push([ids[i], ids[j], Math.min(p.priority, q.priority)]);
      }
    }
  }
  return out.sort(comparePairs);
}

/** Layer/mask filter both ways, and no static-static pair. */
export function pairAllowed(p: ModelItem, q: ModelItem): boolean {
  return (p.mask & q.layer) !== 0 && (q.mask & p.layer) !== 0 && !(p.isStatic && q.isStatic);
}

/** Deterministic 32-bit FNV-1a style hash of a pair list (for replay comparisons). */
export function hashPairs(list: PairList, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  const mix = (v: number) => {
    h ^= v & 0xffff;
    h = Math.imul(h, 0x01000193) >>> 0;
    h ^= (v >>> 16) & 0xffff;
    h = Math.imul(h, 0x01000193) >>> 0;
  };
  mix(list.count);
  for (let i = 0; i < list.count; i++) {
    mix(list.a[i]);
    mix(list.b[i]);
    mix(list.priority[i]);
  }
  return h;
}

/** Every item's box as the index reports it, by id. */
export function snapshotBoxes(tree: LooseQuadtree, ids: Iterable<number>): Map<number, Box> {
  const out = new Map<number, Box>();
  for (const id of ids) out.set(id, tree.getBox(id, { minX: 0, minY: 0, maxX: 0, maxY: 0 }));
  return out;
}

/** Sorted copy of numbers, for comparing unordered query results. */
export function sorted(values: ArrayLike<number>): number[] {
  return Array.from(values).sort((x, y) => x - y);
}

/** Whether some collision class of the tree is detached (kept out of the nodes, joined whole). */
export function anyDetached(tree: LooseQuadtree): boolean {
  const inner = (tree as unknown as { tree: { classes: { detached: Uint8Array } } }).tree;
  return inner.classes.detached.some((d) => d === 1);
}
