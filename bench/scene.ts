/** Frame time step of the scene, in seconds. */
export const DT = 1 / 60;
/** World area per item, in px^2: the world is a square of side sqrt(n * AREA_PER_ITEM). */
export const AREA_PER_ITEM = 400;
export const DEFAULT_SEED = 0x9e3779b9;

/** Size bands: share of items, smallest and largest side in px (width and height drawn apart). */
export const SIZE_BANDS: readonly { share: number; min: number; max: number }[] = [
  { share: 0.8, min: 4, max: 12 },
  { share: 0.18, min: 24, max: 48 },
  { share: 0.02, min: 64, max: 160 },
];
/**
 * Coordinates on a grid of 1/64 px and sizes on one of 1/32: every corner a contender computes
 * from them (a centre minus half a size included) is then the same in float32, as bitecs-quadtree
 * stores boxes, as in float64, so every contender finds the same pairs. Worlds up to 2^17 px a
 * side hold them exactly.
 */
export function snap(v: number): number {
  return Math.round(v * 64) / 64;
}
export function snapSize(v: number): number {
  return Math.round(v * 32) / 32;
}
export const MIN_SPEED = 20;
export const MAX_SPEED = 300;

/** Which items move each frame: all of them, or a fixed tenth chosen at creation. */
export type Mode = 'all' | '10';

/** Seeded PRNG (mulberry32): uniform numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Boxes bouncing in a square world. Item ids are 0..n-1. Boxes are stored by their corners;
 * `maxX` is always computed as `minX + w`, so every index sees the same numbers.
 */
export class Scene implements Boxes {
  readonly n: number;
  readonly side: number;
  readonly minX: Float64Array;
  readonly minY: Float64Array;
  readonly maxX: Float64Array;
  readonly maxY: Float64Array;
  readonly w: Float64Array;
  readonly h: Float64Array;
  readonly vx: Float64Array;
  readonly vy: Float64Array;
  /** Ids that move each frame, ascending. */
  readonly movers: Int32Array;

  constructor(n: number, mode: Mode, seed = DEFAULT_SEED) {
    const rng = mulberry32(seed);
    this.n = n;
    this.side = Math.sqrt(n * AREA_PER_ITEM);
    this.minX = new Float64Array(n);
    this.minY = new Float64Array(n);
    this.maxX = new Float64Array(n);
    this.maxY = new Float64Array(n);
    this.w = new Float64Array(n);
    this.h = new Float64Array(n);
    this.vx = new Float64Array(n);
    this.vy = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const band = pickBand(rng());
      const w = snapSize(band.min + rng() * (band.max - band.min));
      const h = snapSize(band.min + rng() * (band.max - band.min));
      const speed = MIN_SPEED + rng() * (MAX_SPEED - MIN_SPEED);
      const angle = rng() * 2 * Math.PI;
      this.w[i] = w;
      this.h[i] = h;
      this.minX[i] = snap(rng() * (this.side - w));
      this.minY[i] = snap(rng() * (this.side - h));
      this.maxX[i] = this.minX[i] + w;
      this.maxY[i] = this.minY[i] + h;
      this.vx[i] = Math.cos(angle) * speed;
      this.vy[i] = Math.sin(angle) * speed;
    }
    this.movers = mode === 'all' ? identity(n) : sample(n, Math.round(n / 10), rng);
  }

  /** Moves the movers by one time step, bouncing off the world edges. */
  advance(): void {
    advanceBoxes(this);
  }
}

/** What a scene keeps per item, by id, and the square world's side. */
export interface Boxes {
  readonly side: number;
  readonly minX: Float64Array;
  readonly minY: Float64Array;
  readonly maxX: Float64Array;
  readonly maxY: Float64Array;
  readonly w: Float64Array;
  readonly h: Float64Array;
  readonly vx: Float64Array;
  readonly vy: Float64Array;
  readonly movers: Int32Array;
}

/** Moves the movers by one time step, bouncing off the world edges; `maxX` is `minX + w`. */
export function advanceBoxes(s: Boxes): void {
  const { movers, minX, minY, maxX, maxY, w, h, vx, vy, side } = s;
  for (let k = 0; k < movers.length; k++) {
    const i = movers[k];
    const x = snap(bounce(minX, vx, i, side - w[i]));
    const y = snap(bounce(minY, vy, i, side - h[i]));
    minX[i] = x;
    minY[i] = y;
    maxX[i] = x + w[i];
    maxY[i] = y + h[i];
  }
}

function pickBand(r: number): { min: number; max: number } {
  let acc = 0;
  for (const band of SIZE_BANDS) {
    acc += band.share;
    if (r < acc) return band;
  }
  return SIZE_BANDS[SIZE_BANDS.length - 1];
}

function identity(n: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/** k distinct ids of 0..n-1 (partial Fisher-Yates), ascending. */
function sample(n: number, k: number, rng: () => number): Int32Array {
  const ids = identity(n);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rng() * (n - i));
    const t = ids[i];
    ids[i] = ids[j];
    ids[j] = t;
  }
  return ids.slice(0, k).sort();
}

/** One axis of a step: the new low edge of item i, reflected into [0, limit] (its velocity flips on a bounce). */
function bounce(low: Float64Array, v: Float64Array, i: number, limit: number): number {
  const x = low[i] + v[i] * DT;
  if (x < 0) {
    v[i] = -v[i];
    return Math.min(-x, limit);
  }
  if (x > limit) {
    v[i] = -v[i];
    return Math.max(2 * limit - x, 0);
  }
  return x;
}
