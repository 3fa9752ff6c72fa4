import { addEntity, createWorld, pipe, query, removeEntity } from 'bitecs';
import {
  addQuadtree,
  Bounds,
  Collider,
  Collision,
  onCollision,
  Phase,
  Position,
  queryCircle,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeSyncSystem,
} from 'bitecs-quadtree';

const BULLET = 1,
  ENEMY = 2;
const world = addQuadtree(createWorld(), { width: 2048, height: 2048 });
function spawn(x: number, y: number, size: number, layer: number) {
  const eid = addEntity(world, Position, Bounds, Collider); // values are read by the sync system
  Position.x[eid] = x;
  Position.y[eid] = y;
  Bounds.width[eid] = Bounds.height[eid] = size;
  Collider.layer[eid] = layer;
  Collider.mask[eid] = BULLET | ENEMY;
  Collider.priority[eid] = layer === BULLET ? 255 : 128;
}
const move = (w: typeof world) => {
  for (const eid of query(w, [Position])) Position.x[eid] += 2;
  return w;
};
onCollision(world, (bullet) => removeEntity(world, bullet), {
  layer: BULLET,
  other: ENEMY,
  priority: 255,
  phases: Phase.Enter,
});
const frame = pipe(move, quadtreeSyncSystem, quadtreeCollisionSystem, quadtreeDispatchSystem);
spawn(100, 100, 4, BULLET);
spawn(110, 100, 32, ENEMY);
spawn(400, 400, 32, ENEMY);
frame(world); // the bullet hit: the handler removed it, and the pair entity (1, 2) is in phase Enter
for (const pe of query(world, [Collision])) console.log(Collision.a[pe], Collision.b[pe], Collision.phase[pe]);
const near: number[] = [];
queryCircle(world, 400, 400, 50, near);
console.log(near); // [3]
