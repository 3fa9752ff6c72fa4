import { describe, expect, it } from 'vitest';
import { LooseQuadtree, validateTree } from '../../src/core/index.js';
import { TileLayer } from '../../src/tilemap/index.js';
import { type ModelItem, Rng } from '../core/helpers.js';
import {
  applyChanges,
  canonicalRects,
  changePerTile,
  isSolidAt,
  layerRects,
  perTileTree,
  randomChanges,
  randomMap,
  tileBox,
  tilesOf,
  Compare,
  gridOf,
  type MapModel,
} from './tilemap-model.js';

const MOVERS = 14;
const FIRST = 100; // the layer's ids and the per-tile ids start here; movers are 0..MOVERS-1
const WALL = 1,
  MOVER = 2;

function layerOf(tree: LooseQuadtree, m: MapModel): TileLayer {
  return new TileLayer(tree, { ...gridOf(m), layer: WALL, ids: FIRST });
}

function treeFor(m: MapModel): LooseQuadtree {
  return new LooseQuadtree({ x: m.x, y: m.y, width: m.cols * m.tw, height: m.rows * m.th });
}

/** The layer's rectangles are the merge's definition, cover each solid tile once, and are the tree's items. */
function checkMerge(layer: TileLayer, tree: LooseQuadtree, m: MapModel): void {
  const rects = layerRects(layer);
  expect([...rects.keys()].sort()).toEqual(canonicalRects(m));
  expect(layer.rectCount).toBe(rects.size);
  const cover = new Array<number>(m.cols * m.rows).fill(0);
  const idAt = new Array<number>(m.cols * m.rows).fill(-1);
  const box = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  const rect = { col: 0, row: 0, width: 0, height: 0 };
  const boxes: object[] = [],
    expected: object[] = [];
  for (const id of rects.values()) {
    layer.rectOf(id, rect);
    for (const [c, r] of tilesOf(rect, () => true)) {
      cover[r * m.cols + c]++;
      idAt[r * m.cols + c] = id;
    }
    boxes.push({ ...tree.getBox(id, box) });
    const a = tileBox(m, rect.col, rect.row),
      b = tileBox(m, rect.col + rect.width - 1, rect.row + rect.height - 1);
    expected.push({ minX: a.minX, minY: a.minY, maxX: b.maxX, maxY: b.maxY });
  }
  expect(boxes).toEqual(expected);
  const tiles = m.values.map((_, i) => i);
  expect(cover).toEqual(tiles.map((i) => (isSolidAt(m, i % m.cols, Math.floor(i / m.cols)) ? 1 : 0)));
  expect(tiles.map((i) => layer.idAt(i % m.cols, Math.floor(i / m.cols)))).toEqual(idAt);
  expect(tiles.map((i) => layer.getTile(i % m.cols, Math.floor(i / m.cols)))).toEqual(m.values);
}

function randomMovers(rng: Rng, m: MapModel): ModelItem[] {
  const out: ModelItem[] = [];
  for (let i = 0; i < MOVERS; i++) out.push(moverAt(rng, m));
  return out;
}

function moverAt(rng: Rng, m: MapModel): ModelItem {
  const size = rng.range(0.2, 2.5) * Math.min(m.tw, m.th);
  const circle = rng.chance(0.5);
  const w = size,
    h = circle ? size : rng.range(0.2, 2.5) * m.th;
  const x = m.x + rng.range(-1, m.cols + 1) * m.tw,
    y = m.y + rng.range(-1, m.rows + 1) * m.th;
  return {
    minX: x,
    minY: y,
    maxX: x + w,
    maxY: y + h,
    layer: MOVER,
    mask: WALL | MOVER,
    priority: 200,
    isStatic: false,
    circle,
  };
}

function place(tree: LooseQuadtree, id: number, it: ModelItem, first: boolean): void {
  if (first) {
    tree.insert(id, it.minX, it.minY, it.maxX, it.maxY);
    tree.setCollider(id, it.layer, it.mask, it.priority);
    if (it.circle) tree.setShape(id, 1);
  } else tree.move(id, it.minX, it.minY, it.maxX, it.maxY);
}

describe('tile layer', () => {
  it('merges like its definition and covers every solid tile once, through random changes', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const rng = new Rng(seed);
      const m = randomMap(rng);
      const tree = treeFor(m);
      const layer = layerOf(tree, m);
      checkMerge(layer, tree, m);
      tree.step();
      validateTree(tree);
      for (let step = 0; step < 12; step++) {
        const before = layerRects(layer);
        const changes = randomChanges(rng, m);
        const rows = new Set<number>();
        for (let i = 0; i < changes.length; i += 3)
          if (m.solid(m.values[changes[i + 1] * m.cols + changes[i]]) !== m.solid(changes[i + 2]))
            rows.add(changes[i + 1]);
        applyChanges(m, changes);
        if (changes.length === 3) layer.setTile(changes[0], changes[1], changes[2]);
        else layer.setTiles(changes);
        checkMerge(layer, tree, m);
        // A rectangle away from the changed rows (and their neighbours) keeps its id.
        for (const [key, id] of layerRects(layer)) {
          const [, r0, , r1] = key.split(',').map(Number);
          const near = [...rows].some((r) => r0 <= r + 1 && r1 >= r - 1);
          if (!near) expect(before.get(key), `rectangle ${key}`).toBe(id);
        }
        tree.step();
        validateTree(tree);
      }
    }
  });

  it('pairs, contacts and queries agree with one box per tile, through moves and tile changes', () => {
    let compared = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const rng = new Rng(1000 + seed);
      const m = randomMap(rng);
      const a = treeFor(m),
        b = treeFor(m);
      const layer = layerOf(a, m);
      perTileTree(b, m, FIRST);
      let movers = randomMovers(rng, m);
      movers.forEach((it, i) => {
        place(a, i, it, true);
        place(b, i, it, true);
      });
      const byId = () => new Map(movers.map((it, i) => [i, it]));
      const cmp = new Compare(a, b, layer, m, FIRST, WALL);
      for (let step = 0; step < 15; step++) {
        a.step();
        b.step();
        validateTree(a);
        cmp.pairs(byId());
        cmp.queries(rng);
        if (rng.chance(0.5)) {
          const changes = randomChanges(rng, m);
          applyChanges(m, changes);
          layer.setTiles(changes);
          changePerTile(b, m, FIRST, changes);
        }
        movers = movers.map((it) =>
          rng.chance(0.6) ? { ...moverAt(rng, m), circle: it.circle, layer: it.layer } : it,
        );
        movers.forEach((it, i) => {
          if (it.circle) it.maxY = it.minY + (it.maxX - it.minX);
          place(a, i, it, false);
          place(b, i, it, false);
        });
      }
      compared += cmp.compared;
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('gives the same rectangles whatever order the tiles were set in', () => {
    const rng = new Rng(7);
    for (let k = 0; k < 30; k++) {
      const m = randomMap(rng);
      const tree = treeFor(m);
      const empty = { ...m, values: new Array<number>(m.values.length).fill(0) };
      const layer = layerOf(tree, empty);
      const order = m.values.map((_, i) => i).sort(() => rng.next() - 0.5);
      for (const i of order) layer.setTile(i % m.cols, Math.floor(i / m.cols), m.values[i]);
      expect([...layerRects(layer).keys()].sort()).toEqual(canonicalRects(m));
      validateTree(tree);
    }
  });

  it('maps points and contact points on a wall face to the solid tile', () => {
    // Columns 0..3, rows 0..2: a wall in row 1, columns 1..2.
    const tree = new LooseQuadtree({ width: 64, height: 48 });
    const layer = new TileLayer(tree, {
      data: [0, 0, 0, 0, 0, 5, 6, 0, 0, 0, 0, 0],
      width: 4,
      tileWidth: 16,
      tileHeight: 16,
      ids: 10,
    });
    expect(layer.rectCount).toBe(1);
    const t = { col: -1, row: -1, value: -1 };
    expect(layer.tileAt(24, 16, t)).toBe(true); // on the wall's top face
    expect(t).toEqual({ col: 1, row: 1, value: 5 });
    expect(layer.tileAt(16, 20, t)).toBe(true); // on its left face
    expect(t).toEqual({ col: 1, row: 1, value: 5 });
    expect(layer.tileAt(48, 32, t)).toBe(true); // its bottom-right corner
    expect(t).toEqual({ col: 2, row: 1, value: 6 });
    expect(layer.tileAt(8, 8, t)).toBe(true); // inside an empty tile
    expect(t).toEqual({ col: 0, row: 0, value: 0 });
    expect(layer.tileAt(-1, 8, t)).toBe(false);
    expect(layer.tileAt(64, 8, t)).toBe(true); // the right edge of the map
    expect(t.col).toBe(3);
    expect(layer.tileOfContact(10, 33.000000000001, 15.99999999, t)).toEqual({ col: 2, row: 1, value: 6 });
    // A ship sliding along the face meets one rectangle: the normal points into the wall.
    tree.insert(0, 10, 8.5, 22, 16.5);
    tree.step();
    const c = tree.contact(0, 10, { nx: 0, ny: 0, depth: 0, x: 0, y: 0 });
    expect([c.nx, c.ny, c.depth]).toEqual([0, 1, 0.5]);
    tree.move(0, 26, 8.5, 38, 16.5); // across the line between columns 1 and 2
    tree.step();
    expect(tree.contact(0, 10, c).ny).toBe(1);
    expect(layer.tileOfContact(10, c.x, c.y, t)).toEqual({ col: 2, row: 1, value: 6 });
    expect([layer.isSolid(1, 1), layer.isSolid(0, 1)]).toEqual([true, false]);
    // A new collider for every rectangle: queries by layer see it.
    const hits: number[] = [];
    expect(tree.queryPoint(30, 24, hits, 1)).toBe(1);
    layer.setCollider(4, -1, 7);
    expect(tree.queryPoint(30, 24, hits, 1)).toBe(0);
    expect(tree.queryPoint(30, 24, hits, 4)).toBe(1);
    layer.setTile(0, 1, 3); // the wall grows left: a new rectangle with the new collider
    expect(tree.queryPoint(8, 24, hits, 4)).toBe(1);
    const boxes: number[][] = [];
    layer.visitRects((id, ...box) => boxes.push([id, ...box]));
    expect(boxes).toEqual([[11, 0, 16, 48, 32]]);
    tree.step();
    validateTree(tree);
  });

  it('keeps every finite value as given, whatever the values so far', () => {
    const tree = new LooseQuadtree();
    const flipped = 0x80000005; // a Tiled tile id with its horizontal flip bit
    const layer = new TileLayer(tree, { data: [0, 1, 2, flipped], width: 2, tileWidth: 1, tileHeight: 1, ids: 0 });
    expect(layer.getTile(1, 1)).toBe(flipped);
    const small = new TileLayer(tree, { data: [0, 1, 2, 3], width: 2, tileWidth: 1, tileHeight: 1, ids: 10, x: 5 });
    for (const v of [300, 70_000, -5, flipped, 2.5, -1e300]) {
      small.setTile(1, 0, v);
      expect(small.getTile(1, 0)).toBe(v);
      expect([small.getTile(0, 0), small.getTile(0, 1), small.getTile(1, 1)]).toEqual([0, 2, 3]);
    }
    tree.step();
    validateTree(tree);
  });

  it('takes ids from an allocator and gives them back', () => {
    const free = [61, 60, 7, 3, 50];
    const given: number[] = [];
    const tree = new LooseQuadtree();
    const layer = new TileLayer(tree, {
      data: [1, 0, 1, 1, 0, 1],
      width: 3,
      tileWidth: 1,
      tileHeight: 1,
      ids: { acquire: () => free.pop()!, release: (id) => given.push(id) },
    });
    expect(layer.rectCount).toBe(2);
    expect(tree.has(50) && tree.has(3)).toBe(true);
    layer.setTile(1, 0, 1); // row 0 becomes one run: three rectangles
    expect(layer.rectCount).toBe(3);
    layer.destroy();
    expect(tree.size).toBe(0);
    expect(given.sort()).toEqual([3, 50, 7, 60, 61].sort());
  });

  it('takes the id freed last, else the next never used, from its range', () => {
    const tree = new LooseQuadtree();
    // Row 0: two single tiles; row 1 empty.
    const layer = new TileLayer(tree, { data: [1, 0, 1, 0, 0, 0], width: 3, tileWidth: 1, tileHeight: 1, ids: 100 });
    expect([layer.idAt(0, 0), layer.idAt(2, 0)]).toEqual([100, 101]);
    layer.setTile(0, 0, 0);
    layer.setTile(2, 0, 0);
    // Freed 100, then 101: the next rectangles take 101, then 100, then 102.
    layer.setTiles([0, 1, 1, 2, 1, 1]);
    expect([layer.idAt(0, 1), layer.idAt(2, 1)]).toEqual([101, 100]);
    layer.setTile(1, 0, 1);
    expect(layer.idAt(1, 0)).toBe(102);
    tree.step();
    validateTree(tree);
  });

  it('is gone after the tree is cleared: it names no rectangle and its changes throw', () => {
    const tree = new LooseQuadtree();
    const layer = new TileLayer(tree, { data: [1, 1, 0, 1], width: 2, tileWidth: 8, tileHeight: 8, ids: 1000 });
    tree.insert(1, 2, 2, 6, 6);
    tree.step();
    expect(tree.current.count).toBe(1);
    tree.clear();
    expect(tree.size).toBe(0);
    expect(layer.isGone).toBe(true);
    expect([layer.rectCount, layer.idAt(0, 0), layer.owns(1000)]).toEqual([0, -1, false]);
    // The game may use the layer's old ids now; the layer does not claim them.
    tree.insert(1000, 0, 0, 4, 4);
    expect(layer.owns(1000)).toBe(false);
    expect(() => layer.setTile(1, 1, 0)).toThrow(
      "bitecs-quadtree: tile layer setTile: the tree no longer holds this layer's rectangles (it was cleared, " +
        'or restored to a snapshot saved before the layer was made)',
    );
    expect(() => layer.destroy()).toThrow('tile layer destroy: the tree no longer holds');
    tree.step();
    expect(tree.size).toBe(1);
    validateTree(tree);
    // A new layer over the same tiles works as the first did.
    const again = new TileLayer(tree, { data: [1, 1, 0, 1], width: 2, tileWidth: 8, tileHeight: 8, ids: 2000 });
    expect(again.rectCount).toBe(2);
    expect(again.isGone).toBe(false);
  });

  it('refuses a change after a rectangle was removed by hand, and can still be destroyed', () => {
    const tree = new LooseQuadtree();
    // Rows 0 and 1: a full row, then a lone tile.
    const layer = new TileLayer(tree, { data: [1, 1, 0, 1], width: 2, tileWidth: 8, tileHeight: 8, ids: 1000 });
    tree.step();
    const row = layer.idAt(0, 0);
    tree.remove(row);
    tree.step();
    expect(() => layer.setTile(0, 1, 1)).toThrow(
      `bitecs-quadtree: tile layer setTile: rectangle ${row} (columns 0..1, row 0) was removed from the tree by hand; ` +
        "a layer's rectangles are its own",
    );
    expect(() => layer.setCollider(2, -1, 5)).toThrow(`tile layer setCollider: rectangle ${row} (columns 0..1, row 0)`);
    expect(layer.getTile(0, 1)).toBe(0);
    layer.destroy();
    tree.step();
    expect(tree.size).toBe(0);
    validateTree(tree);
  });

  it('refuses bad input with a clear error and changes nothing', () => {
    const tree = new LooseQuadtree();
    const base = { data: [1, 1, 0, 0, 1, 0], width: 3, tileWidth: 16, tileHeight: 16, ids: 0 };
    const refuse = (options: object, message: string) =>
      expect(() => new TileLayer(tree, { ...base, ...options })).toThrow(message);
    refuse({ width: 4 }, 'bitecs-quadtree: tile layer data has 6 tiles, not a multiple of width 4 (got length 6)');
    refuse({ height: 3 }, 'tile layer data must hold width * height = 9 tiles (got length 6)');
    // A length that is not a whole number of rows names the length the height implies.
    refuse(
      { data: new Array(16_383).fill(0), width: 128, height: 128 },
      'must hold width * height = 16384 tiles (got length 16383)',
    );
    refuse({ tileWidth: 0 }, 'tile layer option tileWidth must be a positive finite number (got 0)');
    refuse({ tileHeight: -16 }, 'tile layer option tileHeight must be a positive finite number (got -16)');
    refuse({ x: NaN }, 'tile layer option x must be a finite number (got NaN)');
    refuse({ y: Infinity }, 'tile layer option y must be a finite number (got Infinity)');
    refuse({ x: 1e300 }, "tile layer spans (1e+300, 0) to (1e+300, 32), past float32's range");
    refuse({ tileHeight: 2e38 }, "tile layer spans (0, 0) to (48, 4e+38), past float32's range");
    refuse({ width: 0 }, 'tile layer option width must be a positive integer');
    refuse({ data: [1, 0, NaN] }, 'tile layer data[2] must be a finite number (got NaN)');
    refuse({ priority: 300 }, 'tile layer option priority must be an integer in 0..255 (got 300)');
    refuse({ layer: 0 }, 'tile layer option layer must be non-zero');
    refuse({ widht: 3 }, 'unknown tile layer option "widht" (did you mean "width"?)');
    refuse({ ids: -1 }, 'tile layer option ids must be a non-negative integer');
    expect(tree.size).toBe(0);
    tree.insert(1, 0, 0, 1, 1);
    refuse({}, 'tile layer ids: item 1 is already in the tree');
    expect(tree.size).toBe(1);

    const layer = new TileLayer(tree, { ...base, ids: 10 });
    const rects = [...layerRects(layer)];
    const same = () => {
      expect([...layerRects(layer)]).toEqual(rects);
      expect([0, 1, 2, 3, 4, 5].map((i) => layer.getTile(i % 3, Math.floor(i / 3)))).toEqual(base.data);
    };
    expect(() => layer.setTile(3, 0, 1)).toThrow('tile layer setTile: column must be an integer in 0..2 (got 3)');
    expect(() => layer.setTile(0, -1, 1)).toThrow('tile layer setTile: row must be an integer in 0..1 (got -1)');
    expect(() => layer.setTile(0.5, 0, 1)).toThrow('(got 0.5)');
    expect(() => layer.setTile(2, 0, NaN)).toThrow(
      'tile layer setTile value at column 2, row 0 must be a finite number',
    );
    expect(() => layer.setTiles([2, 0, 1, 0, 9, 1])).toThrow(
      'tile layer setTiles: row must be an integer in 0..1 (got 9)',
    );
    expect(() => layer.setTiles([2, 0])).toThrow('tile layer setTiles takes [col, row, value] triples (got 2 numbers)');
    expect(() => layer.tileOfContact(10, NaN, 0, { col: 0, row: 0, value: 0 })).toThrow(
      'tile layer tileOfContact: the point must be finite (got NaN, 0)',
    );
    expect(() => layer.tileOfContact(1, 0, 0, { col: 0, row: 0, value: 0 })).toThrow(
      'tile layer tileOfContact: item 1 is not a rectangle of this layer',
    );
    same();
    // An id the layer would take is in the tree: the change is refused whole.
    tree.insert(12, 0, 0, 1, 1);
    expect(() => layer.setTiles([2, 0, 1, 0, 1, 1])).toThrow('tile layer ids: item 12 is already in the tree');
    same();
    tree.step();
    validateTree(tree);
    layer.destroy();
    expect(() => layer.setTile(0, 0, 0)).toThrow('tile layer setTile: the layer was destroyed');
  });
});
