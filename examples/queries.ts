import { addEntity, createWorld } from 'bitecs';
import {
  addQuadtree,
  Bounds,
  Collider,
  Position,
  queryCircle,
  queryNearest,
  queryPoint,
  queryRect,
  quadtreeSyncSystem,
  raycast,
  raycastAll,
  type RayHit,
} from 'bitecs-quadtree';

const PLAYER = 1,
  ENEMY = 2,
  WALL = 4;
const world = addQuadtree(createWorld(), { width: 1024, height: 1024 });
function spawn(x: number, y: number, w: number, h: number, layer: number) {
  const eid = addEntity(world, Position, Bounds, Collider);
  Position.x[eid] = x;
  Position.y[eid] = y;
  Bounds.width[eid] = w;
  Bounds.height[eid] = h;
  Collider.layer[eid] = layer;
  return eid;
}
spawn(100, 100, 20, 20, PLAYER); // 1
spawn(160, 100, 20, 20, ENEMY); // 2
spawn(300, 100, 20, 20, ENEMY); // 3
spawn(220, 100, 10, 200, WALL); // 4: a wall between them
spawn(110, 180, 20, 20, ENEMY); // 5
quadtreeSyncSystem(world); // queries see the tree as of the last sync

const ids: number[] = [],
  distances: number[] = [];
const sorted = () => [...ids].sort((a, b) => a - b); // area queries return ids in tree order

queryRect(world, 0, 0, 200, 200, ids);
console.log('rect 0,0..200,200:', sorted()); // [ 1, 2, 5 ]
queryCircle(world, 100, 100, 80, ids, ENEMY);
console.log('enemies within 80 of the player:', sorted()); // [ 2, 5 ]
queryPoint(world, 220, 50, ids);
console.log('at (220, 50):', sorted()); // [ 4 ]

const hit: RayHit = { id: -1, distance: 0 };
raycast(world, 110, 100, 1, 0, 500, hit, ENEMY | WALL); // first hit, from the player's right edge
console.log('ray to the right hits', hit.id, 'at', hit.distance); // 2 at 40
raycastAll(world, 110, 100, 1, 0, 500, ids, distances, ENEMY | WALL);
console.log('all along it:', ids, distances); // [ 2, 4, 3 ] [ 40, 105, 180 ]
queryNearest(world, 100, 100, 2, Infinity, ids, distances, ENEMY);
console.log('two nearest enemies:', ids, distances); // [ 2, 5 ] [ 50, 70 ]
