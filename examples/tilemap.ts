import { addEntity, createWorld, pipe } from 'bitecs';
import {
  addQuadtree,
  addTileLayer,
  Bounds,
  Circle,
  Collider,
  contact,
  onCollision,
  Phase,
  Position,
  queryPoint,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeSyncSystem,
} from 'bitecs-quadtree';

// A map as Tiled exports it (map.json): the tile size, and a tile layer whose data is row-major.
const map = {
  tilewidth: 16,
  tileheight: 16,
  layers: [
    {
      type: 'tilelayer',
      name: 'walls',
      width: 8,
      height: 6,
      // prettier-ignore
      data: [
        1, 1, 1, 1, 1, 1, 1, 1,
        1, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 2, 0, 1,
        1, 0, 0, 0, 0, 2, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 1,
        1, 1, 1, 1, 1, 1, 1, 1,
      ],
    },
  ],
};
const WALL = 1,
  SHIP = 2;
const world = addQuadtree(createWorld(), { width: 128, height: 96 });
const tiles = map.layers[0];
const walls = addTileLayer(world, {
  data: tiles.data,
  width: tiles.width,
  height: tiles.height,
  tileWidth: map.tilewidth,
  tileHeight: map.tileheight,
  layer: WALL,
  mask: SHIP,
});
console.log(`${walls.rectCount} rectangles for ${tiles.data.filter((v) => v !== 0).length} wall tiles`);

// A ship thrusting up into the top wall while it slides right, across the tiles' edges.
const ship = addEntity(world, Position, Bounds, Collider, Circle);
Position.x[ship] = 28;
Position.y[ship] = 22;
Bounds.width[ship] = Bounds.height[ship] = 12;
Collider.layer[ship] = SHIP;
Collider.mask[ship] = WALL;
const hit = { nx: 0, ny: 0, depth: 0, x: 0, y: 0 },
  tile = { col: 0, row: 0, value: 0 };
onCollision(
  world,
  (s, wall) => {
    contact(world, s, wall, hit); // normal ship -> wall, depth, point
    walls.tileOfContact(wall, hit.x, hit.y, tile); // the wall tile the point touches
    console.log(`x ${hit.x}: normal (${hit.nx}, ${hit.ny}), depth ${hit.depth}, tile (${tile.col}, ${tile.row})`);
    Position.x[s] -= hit.nx * hit.depth; // out of the wall
    Position.y[s] -= hit.ny * hit.depth;
  },
  { layer: SHIP, other: WALL, phases: Phase.Enter | Phase.Stay },
);
const frame = pipe(quadtreeSyncSystem, quadtreeCollisionSystem, quadtreeDispatchSystem);
for (let f = 0; f < 3; f++) {
  Position.x[ship] += 10;
  Position.y[ship] -= 1;
  frame(world);
}

// A destructible wall: the pillar's top tile goes, the rows around it are merged again. The
// new rectangles are entities, in the tree after the next sync.
walls.setTile(5, 2, 0);
frame(world);
const found: number[] = [];
walls.tileAt(88, 40, tile);
console.log(`${walls.rectCount} rectangles; tile (${tile.col}, ${tile.row}) = ${tile.value}`);
console.log(queryPoint(world, 88, 40, found), queryPoint(world, 88, 56, found), found[0] === walls.idAt(5, 3));
