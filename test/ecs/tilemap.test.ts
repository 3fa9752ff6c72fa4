import {
  addComponent,
  addEntity,
  createWorld,
  entityExists,
  hasComponent,
  query,
  removeComponent,
  removeEntity,
  type World,
} from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addQuadtree,
  addTileLayer,
  Bounds,
  Circle,
  Collider,
  getQuadtree,
  LooseQuadtree,
  Position,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  Static,
  type TileLayer,
  validateTree,
} from '../../src/index.js';
import { type ModelItem, Rng } from '../core/helpers.js';
import {
  applyChanges,
  canonicalRects,
  changePerTile,
  Compare,
  gridOf,
  layerRects,
  perTileTree,
  randomChanges,
  randomMap,
  type MapModel,
} from '../tilemap/tilemap-model.js';

const FIRST = 1_000_000; // the per-tile tree's tile ids; movers keep their entity ids there
const WALL = 1,
  MOVER = 2;

function worldFor(m: MapModel): World {
  return addQuadtree(createWorld(), { x: m.x, y: m.y, width: m.cols * m.tw, height: m.rows * m.th });
}

function layerOf(world: World, m: MapModel): TileLayer {
  return addTileLayer(world, { ...gridOf(m), layer: WALL, priority: 50 });
}

const frame = (w: World) => quadtreeCollisionSystem(quadtreeSyncSystem(w));

/** A mover as the plugin sees it: corners from centre and size, computed as the sync does. */
function randomMover(rng: Rng, m: MapModel, circle: boolean): [number, number, number, number, ModelItem] {
  const w = rng.range(0.2, 2.5) * Math.min(m.tw, m.th);
  const h = circle ? w : rng.range(0.2, 2.5) * m.th;
  const x = m.x + rng.range(-1, m.cols + 1) * m.tw,
    y = m.y + rng.range(-1, m.rows + 1) * m.th;
  const item = {
    minX: x - w * 0.5,
    minY: y - h * 0.5,
    maxX: x + w * 0.5,
    maxY: y + h * 0.5,
    layer: MOVER,
    mask: WALL | MOVER,
    priority: 200,
    isStatic: false,
    circle,
  };
  return [x, y, w, h, item];
}

/** The layer's entities carry their rectangles, as Position (centre), Bounds, Collider and Static. */
function checkEntities(world: World, layer: TileLayer, m: MapModel): void {
  const rects = layerRects(layer);
  expect([...rects.keys()].sort()).toEqual(canonicalRects(m));
  const rect = { col: 0, row: 0, width: 0, height: 0 };
  const got: (number | boolean)[][] = [],
    want: (number | boolean)[][] = [];
  for (const eid of rects.values()) {
    layer.rectOf(eid, rect);
    const tagged = hasComponent(world, eid, Static) && hasComponent(world, eid, Collider);
    got.push([Position.x[eid], Position.y[eid], Bounds.width[eid], Bounds.height[eid], Collider.layer[eid], tagged]);
    want.push([
      m.x + (rect.col + rect.width / 2) * m.tw,
      m.y + (rect.row + rect.height / 2) * m.th,
      rect.width * m.tw,
      rect.height * m.th,
      WALL,
      true,
    ]);
  }
  expect(got).toEqual(want);
}

describe('tile layer in a world', () => {
  it('pairs, contacts and queries of its entities agree with one box per tile, through moves and tile changes', () => {
    let compared = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const rng = new Rng(5000 + seed);
      const m = randomMap(rng);
      const world = worldFor(m);
      const b = new LooseQuadtree({ x: m.x, y: m.y, width: m.cols * m.tw, height: m.rows * m.th });
      const movers = new Map<number, ModelItem>();
      const spawn = () => {
        const [x, y, w, h, item] = randomMover(rng, m, rng.chance(0.5));
        const eid = addEntity(world, Position, Bounds, Collider);
        Position.x[eid] = x;
        Position.y[eid] = y;
        Bounds.width[eid] = w;
        Bounds.height[eid] = h;
        Collider.layer[eid] = MOVER;
        Collider.mask[eid] = WALL | MOVER;
        Collider.priority[eid] = 200;
        if (item.circle === true) addComponent(world, eid, Circle);
        movers.set(eid, item);
        b.insert(eid, item.minX, item.minY, item.maxX, item.maxY);
        b.setCollider(eid, MOVER, WALL | MOVER, 200);
        if (item.circle === true) b.setShape(eid, 1);
      };
      // Movers before and after the layer: the layer's entities sit among the game's.
      for (let i = 0; i < 6; i++) spawn();
      const layer = layerOf(world, m);
      for (let i = 0; i < 6; i++) spawn();
      perTileTree(b, m, FIRST);
      for (let r = 0; r < m.rows; r++)
        for (let c = 0; c < m.cols; c++)
          if (b.has(FIRST + r * m.cols + c)) b.setCollider(FIRST + r * m.cols + c, WALL, -1, 50);
      const a = getQuadtree(world);
      const cmp = new Compare(a, b, layer, m, FIRST, WALL);
      for (let step = 0; step < 12; step++) {
        frame(world);
        b.step();
        validateTree(a);
        checkEntities(world, layer, m);
        cmp.pairs(movers);
        cmp.queries(rng);
        if (rng.chance(0.5)) {
          const changes = randomChanges(rng, m);
          applyChanges(m, changes);
          layer.setTiles(changes);
          changePerTile(b, m, FIRST, changes);
          for (let i = 0; i < changes.length; i += 3) {
            const id = FIRST + changes[i + 1] * m.cols + changes[i];
            if (b.has(id)) b.setCollider(id, WALL, -1, 50);
          }
        }
        for (const [eid, old] of movers) {
          if (!rng.chance(0.6)) continue;
          const [x, y, w, h, item] = randomMover(rng, m, old.circle === true);
          Position.x[eid] = x;
          Position.y[eid] = y;
          Bounds.width[eid] = w;
          Bounds.height[eid] = h;
          movers.set(eid, item);
          b.move(eid, item.minX, item.minY, item.maxX, item.maxY);
        }
      }
      compared += cmp.compared;
      layer.destroy();
      frame(world);
      expect(query(world, [Static]).length).toBe(0);
      expect(a.size).toBe(movers.size);
      validateTree(a);
    }
    expect(compared).toBeGreaterThan(100);
  });

  /** A layer in a 160 px world: a wall in row 2, columns 1..6, and a pillar far below; after one frame. */
  function wallAndPillar(): { world: World; layer: TileLayer; wall: number; pillar: number } {
    const world = addQuadtree(createWorld(), { width: 160, height: 160 });
    const data = new Array<number>(100).fill(0);
    for (let c = 1; c <= 6; c++) data[20 + c] = 1;
    data[8 * 10 + 5] = 1;
    const layer = addTileLayer(world, { data, width: 10, tileWidth: 16, tileHeight: 16 });
    frame(world);
    return { world, layer, wall: layer.idAt(1, 2), pillar: layer.idAt(5, 8) };
  }

  it('keeps the entities of rectangles that did not change, and removes the others', () => {
    const { world, layer, wall, pillar } = wallAndPillar();
    layer.setTile(3, 2, 0); // a hole in the wall: two pieces
    expect(entityExists(world, wall)).toBe(false);
    expect(layer.idAt(5, 8)).toBe(pillar);
    expect(layer.rectCount).toBe(3);
    frame(world);
    validateTree(getQuadtree(world));
    expect(getQuadtree(world).size).toBe(3);
    layer.setCollider(4, -1, 10);
    frame(world);
    expect(Collider.layer[pillar]).toBe(4);
    const hits: number[] = [];
    getQuadtree(world).queryPoint(5 * 16 + 8, 8 * 16 + 8, hits, 4);
    expect(hits).toEqual([pillar]);
  });

  it("refuses a change after the game removed a rectangle's entity, and never removes the entity that took its id", () => {
    const { world, layer, wall, pillar } = wallAndPillar();
    removeEntity(world, wall);
    // The game's next entity takes the wall's id (bitECS recycles it).
    const game = addEntity(world);
    addComponent(world, game, Position);
    addComponent(world, game, Bounds);
    Bounds.width[game] = Bounds.height[game] = 4;
    expect(game).toBe(wall);
    frame(world);
    expect(() => layer.setTile(3, 2, 0)).toThrow(
      `bitecs-quadtree: tile layer setTile: rectangle ${wall} (columns 1..6, row 2) was removed from the world by ` +
        "hand; a layer's rectangles are its own: change tiles with setTile or setTiles, end the layer with destroy()",
    );
    expect(() => layer.setCollider(4, -1, 10)).toThrow(`tile layer setCollider: rectangle ${wall}`);
    expect([layer.isSolid(3, 2), entityExists(world, game), layer.owns(game)]).toEqual([true, true, false]);
    // A change that leaves that rectangle alone goes on.
    layer.setTile(5, 8, 0);
    expect(entityExists(world, pillar)).toBe(false);
    // Losing Bounds (or Position) is losing the rectangle too.
    const other = addTileLayer(world, { data: [1], width: 1, tileWidth: 16, tileHeight: 16, x: 144, y: 144 });
    removeComponent(world, other.idAt(0, 0), Bounds);
    expect(() => other.setTile(0, 0, 0)).toThrow('was removed from the world by hand');
    layer.destroy();
    frame(world);
    expect(entityExists(world, game)).toBe(true);
    expect(getQuadtree(world).size).toBe(1);
    validateTree(getQuadtree(world));
  });

  it('refuses bad input with a clear error and adds nothing', () => {
    const world = addQuadtree(createWorld());
    const base = { data: [1, 1, 0, 0], width: 2, tileWidth: 16, tileHeight: 16 };
    expect(() => addTileLayer(createWorld(), base)).toThrow('call addQuadtree(world) first');
    expect(() => addTileLayer(world, { ...base, width: 3 })).toThrow(
      'bitecs-quadtree: tile layer data has 4 tiles, not a multiple of width 3 (got length 4)',
    );
    expect(() => addTileLayer(world, { ...base, tileHeight: 0 })).toThrow(
      'tile layer option tileHeight must be a positive finite number (got 0)',
    );
    expect(() => addTileLayer(world, { ...base, ids: 5 } as never)).toThrow('tile layer option ids is not for a world');
    expect(query(world, [Position]).length).toBe(0);
    const layer = addTileLayer(world, base);
    expect(() => layer.setTile(0, 2, 1)).toThrow('tile layer setTile: row must be an integer in 0..1 (got 2)');
    expect(query(world, [Position]).length).toBe(1);
  });
});
