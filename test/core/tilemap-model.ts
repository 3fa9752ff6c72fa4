import type { LooseQuadtree, TileLayer } from '../../src/core/index.js';
import { type ModelItem, type Rng, shapesOverlap, shapeInRect, shapeInCircle, shapeHasPoint } from './helpers.js';
import { rayBoxDistance } from '../../src/core/index.js';

/** What the tests believe a tile map is: values, which are solid, the grid's place and size. */
export interface MapModel {
  cols: number;
  rows: number;
  values: number[];
  solid: (v: number) => boolean;
  x: number;
  y: number;
  tw: number;
  th: number;
}

/** A random map: walls as random rectangles and lines, then noise, values 0..3. */
export function randomMap(rng: Rng): MapModel {
  const cols = 1 + rng.int(rng.chance(0.2) ? 4 : 26);
  const rows = 1 + rng.int(rng.chance(0.2) ? 4 : 26);
  const values = new Array<number>(cols * rows).fill(0);
  const walls = rng.int(8);
  for (let k = 0; k < walls; k++) {
    const c0 = rng.int(cols),
      r0 = rng.int(rows);
    const w = 1 + rng.int(rng.chance(0.5) ? 2 : cols),
      h = 1 + rng.int(rng.chance(0.5) ? 2 : rows);
    const v = 1 + rng.int(3);
    for (let r = r0; r < Math.min(rows, r0 + h); r++)
      for (let c = c0; c < Math.min(cols, c0 + w); c++) values[r * cols + c] = v;
  }
  const noise = rng.pick([0, 0.05, 0.3, 0.6]);
  for (let i = 0; i < values.length; i++) if (rng.chance(noise)) values[i] = rng.int(4);
  const kind = rng.int(3);
  const solid =
    kind === 0 ? (v: number) => v !== 0 : kind === 1 ? (v: number) => v === 2 || v === 3 : (v: number) => v >= 1;
  return {
    cols,
    rows,
    values,
    solid,
    x: rng.pick([0, -37.25, 1000.5]),
    y: rng.pick([0, 12.5, -500]),
    tw: rng.pick([16, 8, 1.5]),
    th: rng.pick([16, 10, 3]),
  };
}

/** Random changes as flat triples: one tile, a few tiles, or a block (a door). */
export function randomChanges(rng: Rng, m: MapModel): number[] {
  const out: number[] = [];
  const kind = rng.int(3);
  if (kind === 0) out.push(rng.int(m.cols), rng.int(m.rows), rng.int(4));
  else if (kind === 1) for (let k = 1 + rng.int(6); k > 0; k--) out.push(rng.int(m.cols), rng.int(m.rows), rng.int(4));
  else {
    const c0 = rng.int(m.cols),
      r0 = rng.int(m.rows),
      v = rng.int(4);
    for (let r = r0; r < Math.min(m.rows, r0 + 1 + rng.int(4)); r++)
      for (let c = c0; c < Math.min(m.cols, c0 + 1 + rng.int(4)); c++) out.push(c, r, v);
  }
  return out;
}

export function applyChanges(m: MapModel, triples: number[]): void {
  for (let i = 0; i < triples.length; i += 3) m.values[triples[i + 1] * m.cols + triples[i]] = triples[i + 2];
}

export function isSolidAt(m: MapModel, c: number, r: number): boolean {
  return c >= 0 && c < m.cols && r >= 0 && r < m.rows && m.solid(m.values[r * m.cols + c]);
}

/** The merge by its definition: each row's maximal runs, stacked while the run below is identical. */
export function canonicalRects(m: MapModel): string[] {
  const run = (c: number, r: number): [number, number] => {
    let a = c,
      b = c;
    while (isSolidAt(m, a - 1, r)) a--;
    while (isSolidAt(m, b + 1, r)) b++;
    return [a, b];
  };
  const out: string[] = [];
  for (let r = 0; r < m.rows; r++) {
    for (let c = 0; c < m.cols; c++) {
      if (!isSolidAt(m, c, r) || isSolidAt(m, c - 1, r)) continue;
      const [, b] = run(c, r);
      const same = (rr: number) => isSolidAt(m, c, rr) && run(c, rr)[0] === c && run(c, rr)[1] === b;
      if (r > 0 && same(r - 1)) continue;
      let r1 = r;
      while (r1 + 1 < m.rows && same(r1 + 1)) r1++;
      out.push(`${c},${r},${b},${r1}`);
    }
  }
  return out.sort();
}

/** The layer's rectangles as `c0,r0,c1,r1` keys, with their ids. */
export function layerRects(layer: TileLayer): Map<string, number> {
  const rect = { col: 0, row: 0, width: 0, height: 0 };
  const out = new Map<string, number>();
  layer.visitRects((id) => {
    layer.rectOf(id, rect);
    out.set(`${rect.col},${rect.row},${rect.col + rect.width - 1},${rect.row + rect.height - 1}`, id);
  });
  return out;
}

/** A tile's box in world units, computed as the layer computes its rectangles' edges. */
export function tileBox(m: MapModel, c: number, r: number): ModelItem {
  return {
    minX: m.x + c * m.tw,
    minY: m.y + r * m.th,
    maxX: m.x + (c + 1) * m.tw,
    maxY: m.y + (r + 1) * m.th,
    layer: 1,
    mask: -1,
    priority: 128,
    isStatic: true,
  };
}

/** The tiles of a rectangle (given by its tile range) that `hit` says yes to. */
export function tilesOf(
  rect: { col: number; row: number; width: number; height: number },
  hit: (c: number, r: number) => boolean,
): number[][] {
  const out: number[][] = [];
  for (let r = rect.row; r < rect.row + rect.height; r++)
    for (let c = rect.col; c < rect.col + rect.width; c++) if (hit(c, r)) out.push([c, r]);
  return out;
}

/** Which tiles a mover's shape overlaps, a rect/circle/point query holds. */
export const tileTests = {
  pair: (m: MapModel, mover: ModelItem, touching: boolean) => (c: number, r: number) =>
    shapesOverlap(mover, tileBox(m, c, r), touching),
  rect:
    (m: MapModel, q: [number, number, number, number], touching: boolean) =>
    (c: number, r: number): boolean =>
      shapeInRect(tileBox(m, c, r), q[0], q[1], q[2], q[3], touching),
  circle:
    (m: MapModel, q: [number, number, number], touching: boolean) =>
    (c: number, r: number): boolean =>
      shapeInCircle(tileBox(m, c, r), q[0], q[1], q[2], touching),
  point:
    (m: MapModel, q: [number, number], touching: boolean) =>
    (c: number, r: number): boolean =>
      shapeHasPoint(tileBox(m, c, r), q[0], q[1], touching),
  ray: (m: MapModel, q: number[], touching: boolean) => (c: number, r: number) => {
    const b = tileBox(m, c, r);
    return rayBoxDistance(q[0], q[1], q[2], q[3], q[4], b.minX, b.minY, b.maxX, b.maxY, touching);
  },
};

/** Inserts one static box per solid tile at id `first + index`: the per-tile world to compare with. */
export function perTileTree(tree: LooseQuadtree, m: MapModel, first: number): void {
  for (let r = 0; r < m.rows; r++)
    for (let c = 0; c < m.cols; c++) if (isSolidAt(m, c, r)) addTile(tree, m, first, c, r);
}

export function addTile(tree: LooseQuadtree, m: MapModel, first: number, c: number, r: number): void {
  const b = tileBox(m, c, r);
  const id = first + r * m.cols + c;
  tree.insert(id, b.minX, b.minY, b.maxX, b.maxY);
  tree.setStatic(id, true);
}

/** Brings the per-tile tree in line with a change already applied to the model. */
export function changePerTile(tree: LooseQuadtree, after: MapModel, first: number, triples: number[]): void {
  for (let i = 0; i < triples.length; i += 3) {
    const c = triples[i],
      r = triples[i + 1];
    const was = tree.has(first + r * after.cols + c);
    const now = isSolidAt(after, c, r);
    if (was && !now) tree.remove(first + r * after.cols + c);
    if (!was && now) addTile(tree, after, first, c, r);
  }
}
