import { addComponent, addEntity, createWorld } from 'bitecs';
import {
  addQuadtree,
  Bounds,
  Circle,
  Collider,
  contact,
  onCollision,
  Phase,
  Position,
  Static,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeSyncSystem,
} from 'bitecs-quadtree';

const world = addQuadtree(createWorld(), { width: 256, height: 256 });
const vx: number[] = [],
  vy: number[] = [],
  hit = { nx: 0, ny: 0, depth: 0, x: 0, y: 0 };
function body(x: number, y: number, w: number, h: number, layer: number) {
  const e = addEntity(world, Position, Bounds, Collider);
  Position.x[e] = x;
  Position.y[e] = y;
  Bounds.width[e] = w;
  Bounds.height[e] = h;
  Collider.layer[e] = layer;
  vx[e] = vy[e] = 0;
  return e;
}
// A wall on layer 1, and a round spark on layer 2 falling towards it.
addComponent(world, body(128, 200, 256, 20, 1), Static);
const spark = body(100, 100, 6, 6, 2);
vx[spark] = 1;
vy[spark] = 4;
addComponent(world, spark, Circle);
onCollision(
  world,
  (s, wall) => {
    // The normal from s to the wall, and how deep s is in it.
    contact(world, s, wall, hit);
    // Out of the wall.
    Position.x[s] -= hit.nx * hit.depth;
    Position.y[s] -= hit.ny * hit.depth;
    // Moving into the wall: bounce.
    const into = vx[s] * hit.nx + vy[s] * hit.ny;
    if (into > 0) {
      vx[s] -= 2 * into * hit.nx;
      vy[s] -= 2 * into * hit.ny;
    }
  },
  { layer: 2, other: 1, phases: Phase.Enter | Phase.Stay },
);

for (let frame = 1; frame <= 30; frame++) {
  Position.x[spark] += vx[spark];
  Position.y[spark] += vy[spark];
  quadtreeDispatchSystem(quadtreeCollisionSystem(quadtreeSyncSystem(world)));
  if (frame % 10 === 0) console.log(`frame ${frame}: y ${Position.y[spark]}, vy ${vy[spark]}`);
}
