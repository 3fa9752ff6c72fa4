import type { Contact, LooseQuadtree, RayHit } from '../../src/core/index.js';
import type { TileGridOptions, TileLayer } from '../../src/tilemap/index.js';
import { expect } from 'vitest';
import { type ModelItem, type Rng, shapesOverlap, shapeInRect, shapeInCircle, shapeHasPoint } from '../core/helpers.js';
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

/** The grid options of a layer over the map (the collider and ids are the caller's). */
export function gridOf(m: MapModel): TileGridOptions {
  return {
    data: m.values,
    width: m.cols,
    height: m.rows,
    tileWidth: m.tw,
    tileHeight: m.th,
    x: m.x,
    y: m.y,
    solid: m.solid,
  };
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

/** Equal to within rounding: a rectangle's far faces are other numbers than its tile's. */
export function near(x: number, y: number): boolean {
  return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y));
}

const tileKey = (c: number, r: number) => `${c},${r}`;

/**
 * The merged world (A) against one box per tile (B): each result of A, spread over the tiles
 * of its rectangles that the shape touches, gives B's results, and each rectangle A names has
 * such a tile.
 */
export class Compare {
  compared = 0;
  constructor(
    readonly a: LooseQuadtree,
    readonly b: LooseQuadtree,
    readonly layer: TileLayer,
    readonly m: MapModel,
    /** B's tile at column c, row r is item `first + r * cols + c`; smaller ids are movers in both. */
    readonly first: number,
    /** The layer bit of the walls, for rays. */
    readonly wall: number,
  ) {}

  private tileOfId(id: number): [number, number] {
    return [(id - this.first) % this.m.cols, Math.floor((id - this.first) / this.m.cols)];
  }

  private rect(id: number) {
    return this.layer.rectOf(id, { col: 0, row: 0, width: 0, height: 0 });
  }

  /** Tile keys of A's ids spread over tiles by `hit`, and B's. */
  tiles(idsA: number[], idsB: number[], hit: (c: number, r: number) => boolean): void {
    const fromA = new Set<string>();
    for (const id of idsA) {
      if (!this.layer.owns(id)) continue;
      const tiles = tilesOf(this.rect(id), hit);
      expect(tiles.length, `rectangle ${id} is a result but none of its tiles is`).toBeGreaterThan(0);
      for (const [c, r] of tiles) fromA.add(tileKey(c, r));
    }
    const fromB = idsB.filter((id) => id >= this.first).map((id) => tileKey(...this.tileOfId(id)));
    expect([...fromA].sort()).toEqual(fromB.sort());
    const byId = (x: number, y: number) => x - y;
    expect(idsA.filter((id) => !this.layer.owns(id)).sort(byId)).toEqual(
      idsB.filter((id) => id < this.first).sort(byId),
    );
  }

  pairs(movers: Map<number, ModelItem>): void {
    const pa = new Map<number, number[]>(),
      pb = new Map<number, number[]>();
    const read = (tree: LooseQuadtree, into: Map<number, number[]>) => {
      const cur = tree.current;
      for (let i = 0; i < cur.count; i++) {
        const a = cur.a[i],
          b = cur.b[i];
        if (!into.has(a)) into.set(a, []);
        if (!into.has(b)) into.set(b, []);
        into.get(a)!.push(b);
        into.get(b)!.push(a);
      }
    };
    read(this.a, pa);
    read(this.b, pb);
    for (const [i, it] of movers) {
      const hit = tileTests.pair(this.m, it, false);
      this.tiles(pa.get(i) ?? [], pb.get(i) ?? [], hit);
      for (const r of pa.get(i) ?? []) if (this.layer.owns(r)) this.contact(i, r, it);
    }
  }

  /** A pair's contact with a rectangle against the per-tile contact, where no seam is involved. */
  private contact(mover: number, rectId: number, it: ModelItem): void {
    const m = this.m;
    const ca: Contact = this.a.contact(mover, rectId, { nx: 0, ny: 0, depth: 0, x: 0, y: 0 });
    // The contact point maps to a solid tile of the rectangle whose box holds it.
    const t = this.layer.tileOfContact(rectId, ca.x, ca.y, { col: 0, row: 0, value: 0 });
    const held = tileBox(m, t.col, t.row);
    const eps = 1e-9 * (Math.abs(m.x) + Math.abs(m.y) + m.cols * m.tw + m.rows * m.th);
    expect(ca.x).toBeGreaterThanOrEqual(held.minX - eps);
    expect(ca.x).toBeLessThanOrEqual(held.maxX + eps);
    expect(ca.y).toBeGreaterThanOrEqual(held.minY - eps);
    expect(ca.y).toBeLessThanOrEqual(held.maxY + eps);
    expect(m.solid(t.value)).toBe(true);
    const tiles = tilesOf(this.rect(rectId), tileTests.pair(m, it, false));
    if (tiles.length !== 1) return; // the mover spans a seam of the rectangle: no per-tile answer to agree with
    const [c, r] = tiles[0];
    if (it.circle !== true) expect([t.col, t.row]).toEqual([c, r]); // a box's point is in the overlap
    const cb = this.b.contact(mover, this.first + r * m.cols + c, { nx: 0, ny: 0, depth: 0, x: 0, y: 0 });
    const box = tileBox(m, c, r);
    const cx = (it.minX + it.maxX) / 2,
      cy = (it.minY + it.maxY) / 2;
    const centreOutside = it.circle === true && !(cx >= box.minX && cx <= box.maxX && cy >= box.minY && cy <= box.maxY);
    // The mover leaves the tile against the normal: through a seam when the tile there is solid.
    const seam = !centreOutside && isSolidAt(m, c - Math.sign(cb.nx), r - Math.sign(cb.ny));
    if (seam) return;
    expect(ca).toEqual(cb);
    this.compared++;
  }

  queries(rng: Rng): void {
    const m = this.m;
    const x = () => m.x + rng.range(-1, m.cols + 1) * m.tw,
      y = () => m.y + rng.range(-1, m.rows + 1) * m.th;
    const outA: number[] = [],
      outB: number[] = [];
    const rx = x(),
      ry = y();
    const rect: [number, number, number, number] = [rx, ry, rx + rng.range(0, 4) * m.tw, ry + rng.range(0, 4) * m.th];
    this.a.queryRect(...rect, outA);
    this.b.queryRect(...rect, outB);
    this.tiles(outA, outB, tileTests.rect(m, rect, false));
    const circle: [number, number, number] = [x(), y(), rng.range(0, 3) * m.tw];
    this.a.queryCircle(...circle, outA);
    this.b.queryCircle(...circle, outB);
    this.tiles(outA, outB, tileTests.circle(m, circle, false));
    const point: [number, number] = [x(), y()];
    this.a.queryPoint(...point, outA);
    this.b.queryPoint(...point, outB);
    this.tiles(outA, outB, tileTests.point(m, point, false));
    this.rays(rng, x(), y());
  }

  private rays(rng: Rng, ox: number, oy: number): void {
    const angle = rng.range(0, 2 * Math.PI);
    const ux = Math.cos(angle),
      uy = Math.sin(angle);
    const max = rng.range(0, 30) * this.m.tw;
    const hitA: RayHit = { id: -1, distance: 0 },
      hitB: RayHit = { id: -1, distance: 0 };
    this.a.raycast(ox, oy, ux, uy, max, hitA, this.wall);
    this.b.raycast(ox, oy, ux, uy, max, hitB, this.wall);
    expect(hitA.id === -1).toBe(hitB.id === -1);
    if (hitA.id !== -1) expect(near(hitA.distance, hitB.distance), `${hitA.distance} ${hitB.distance}`).toBe(true);
    const idsA: number[] = [],
      distA: number[] = [],
      idsB: number[] = [],
      distB: number[] = [];
    this.a.raycastAll(ox, oy, ux, uy, max, idsA, distA, this.wall);
    this.b.raycastAll(ox, oy, ux, uy, max, idsB, distB, this.wall);
    const dist = tileTests.ray(this.m, [ox, oy, ux, uy, max], false);
    this.tiles(idsA, idsB, (c, r) => dist(c, r) >= 0);
    // A rectangle's distance is its nearest tile's.
    idsA.forEach((id, i) => {
      const ds = tilesOf(this.rect(id), (c, r) => dist(c, r) >= 0).map(([c, r]) => dist(c, r));
      expect(near(distA[i], Math.min(...ds)), `${distA[i]} ${Math.min(...ds)}`).toBe(true);
    });
  }
}
