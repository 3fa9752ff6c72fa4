import { describe, expect, it } from 'vitest';
import { LooseQuadtree, pointBoxDistance, rayBoxDistance, validateTree } from '../../src/core/index.js';
import { Rng } from './helpers.js';

/**
 * The core at scale against an independent oracle: a uniform grid written here for pairs, a
 * linear scan for queries. `npm test` runs 100,000 boxes; `npm run fuzz` runs a million
 * (SCALE_ITEMS). Ids are spread up to 16,000,000, so the id map is far larger than the items.
 */
const ITEMS = Number(process.env.SCALE_ITEMS ?? 100_000);
const FAR = 16_000_000;

/** Boxes in float32, as the tree stores them: the oracles then compare on the same boxes. */
interface World {
  ids: Int32Array;
  minX: Float32Array;
  minY: Float32Array;
  maxX: Float32Array;
  maxY: Float32Array;
  side: number;
}

function makeWorld(n: number, rng: Rng): World {
  const side = Math.sqrt(n * 400);
  const w: World = {
    ids: new Int32Array(n),
    minX: new Float32Array(n),
    minY: new Float32Array(n),
    maxX: new Float32Array(n),
    maxY: new Float32Array(n),
    side,
  };
  const used = new Set<number>();
  for (let i = 0; i < n; i++) {
    let id = rng.int(FAR);
    while (used.has(id)) id = rng.int(FAR);
    used.add(id);
    w.ids[i] = id;
    place(w, i, rng);
  }
  return w;
}

/** A box of the bench's size bands (mostly sprites, some larger, a few big) at a random place. */
function place(w: World, i: number, rng: Rng): void {
  const band = rng.next();
  const lo = band < 0.8 ? 4 : band < 0.98 ? 24 : 64;
  const hi = band < 0.8 ? 12 : band < 0.98 ? 48 : 160;
  const bw = lo + rng.next() * (hi - lo);
  const bh = lo + rng.next() * (hi - lo);
  w.minX[i] = rng.next() * (w.side - bw);
  w.minY[i] = rng.next() * (w.side - bh);
  w.maxX[i] = w.minX[i] + bw;
  w.maxY[i] = w.minY[i] + bh;
}

/** Count and order-free hash of every overlapping pair (strict rule), by a grid of 160-unit cells. */
function gridPairs(w: World): { count: number; hash: number } {
  const cell = 160;
  const cols = Math.ceil(w.side / cell) + 1;
  const n = w.ids.length;
  const heads = new Int32Array(cols * cols).fill(-1);
  const next = new Int32Array(n);
  // Each box is listed in the cell of its top-left corner; a box spans at most two cells a side.
  for (let i = 0; i < n; i++) {
    const c = Math.floor(w.minY[i] / cell) * cols + Math.floor(w.minX[i] / cell);
    next[i] = heads[c];
    heads[c] = i;
  }
  let count = 0;
  let hash = 0;
  for (let i = 0; i < n; i++) {
    const cx = Math.floor(w.minX[i] / cell);
    const cy = Math.floor(w.minY[i] / cell);
    for (let y = Math.max(0, cy - 1); y <= Math.min(cols - 1, cy + 1); y++) {
      for (let x = Math.max(0, cx - 1); x <= Math.min(cols - 1, cx + 1); x++) {
        for (let j = heads[y * cols + x]; j !== -1; j = next[j]) {
          if (j <= i) continue;
          if (w.minX[i] < w.maxX[j] && w.minX[j] < w.maxX[i] && w.minY[i] < w.maxY[j] && w.minY[j] < w.maxY[i]) {
            count++;
            hash = (hash + mix(w.ids[i], w.ids[j])) | 0;
          }
        }
      }
    }
  }
  return { count, hash };
}

function mix(a: number, b: number): number {
  const lo = a < b ? a : b;
  const hi = a < b ? b : a;
  let h = Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d);
}

function treePairs(tree: LooseQuadtree): { count: number; hash: number } {
  const cur = tree.current;
  let hash = 0;
  for (let i = 0; i < cur.count; i++) hash = (hash + mix(cur.a[i], cur.b[i])) | 0;
  return { count: cur.count, hash };
}

describe(`the core at scale (${ITEMS.toLocaleString('en')} boxes, ids up to ${FAR.toLocaleString('en')})`, () => {
  it('inserts, steps, moves, removes and answers every query as the oracles do', () => {
    const rng = new Rng(20261125);
    const w = makeWorld(ITEMS, rng);
    const tree = new LooseQuadtree({ width: w.side, height: w.side });
    for (let i = 0; i < ITEMS; i++) tree.insert(w.ids[i], w.minX[i], w.minY[i], w.maxX[i], w.maxY[i]);
    const byId = new Map<number, number>();
    for (let i = 0; i < ITEMS; i++) byId.set(w.ids[i], i);
    const check = (): void => {
      tree.step();
      expect(treePairs(tree)).toEqual(gridPairs(w));
    };
    check();
    // A tenth moves, then every box, then a twentieth is removed and inserted under new ids.
    for (const share of [0.1, 1]) {
      for (let i = 0; i < ITEMS; i++) {
        if (share < 1 && rng.next() >= share) continue;
        place(w, i, rng);
        tree.move(w.ids[i], w.minX[i], w.minY[i], w.maxX[i], w.maxY[i]);
      }
      check();
    }
    for (let i = 0; i < ITEMS; i += 20) {
      tree.remove(w.ids[i]);
      byId.delete(w.ids[i]);
      let id = rng.int(FAR);
      while (byId.has(id) || tree.has(id)) id = rng.int(FAR);
      w.ids[i] = id;
      byId.set(id, i);
      place(w, i, rng);
      tree.insert(id, w.minX[i], w.minY[i], w.maxX[i], w.maxY[i]);
    }
    check();
    validateTree(tree);
    expect(tree.size).toBe(ITEMS);

    const out: number[] = [];
    const dists: number[] = [];
    for (let q = 0; q < 8; q++) {
      const x = rng.next() * w.side;
      const y = rng.next() * w.side;
      const r = 20 + rng.next() * 200;
      const rect: number[] = [];
      const circle: number[] = [];
      const point: number[] = [];
      let nearestId = -1;
      let nearestD = Infinity;
      for (let i = 0; i < ITEMS; i++) {
        if (w.minX[i] < x + r && x < w.maxX[i] && w.minY[i] < y + r && y < w.maxY[i]) rect.push(w.ids[i]);
        const dx = Math.max(w.minX[i] - x, 0, x - w.maxX[i]);
        const dy = Math.max(w.minY[i] - y, 0, y - w.maxY[i]);
        const d = pointBoxDistance(x, y, w.minX[i], w.minY[i], w.maxX[i], w.maxY[i]);
        if (dx * dx + dy * dy < r * r) circle.push(w.ids[i]);
        if (w.minX[i] < x && x < w.maxX[i] && w.minY[i] < y && y < w.maxY[i]) point.push(w.ids[i]);
        if (d < nearestD || (d === nearestD && w.ids[i] < nearestId)) {
          nearestD = d;
          nearestId = w.ids[i];
        }
      }
      const sortNum = (a: number[]) => a.slice().sort((p, s) => p - s);
      expect(sortNum(out.slice(0, tree.queryRect(x, y, x + r, y + r, out)))).toEqual(sortNum(rect));
      expect(sortNum(out.slice(0, tree.queryCircle(x, y, r, out)))).toEqual(sortNum(circle));
      expect(sortNum(out.slice(0, tree.queryPoint(x, y, out)))).toEqual(sortNum(point));
      expect(tree.nearest(x, y, 1, Infinity, out, dists)).toBe(1);
      expect([out[0], dists[0]]).toEqual([nearestId, nearestD]);
      // The ray's first hit: the box it enters first, ties by the lower id.
      const angle = rng.next() * 2 * Math.PI;
      const ux = Math.cos(angle);
      const uy = Math.sin(angle);
      let rayId = -1;
      let rayD = Infinity;
      for (let i = 0; i < ITEMS; i++) {
        const d = rayBoxDistance(x, y, ux, uy, 500, w.minX[i], w.minY[i], w.maxX[i], w.maxY[i], false);
        if (d >= 0 && (d < rayD || (d === rayD && w.ids[i] < rayId))) {
          rayD = d;
          rayId = w.ids[i];
        }
      }
      const hit = { id: -1, distance: 0 };
      expect(tree.raycast(x, y, ux, uy, 500, hit)).toBe(rayId !== -1);
      if (rayId !== -1) expect(hit.id).toBe(rayId);
    }
  }, 600_000);
});
