import { addComponent, addEntity, createWorld, query, removeEntity } from 'bitecs';
import {
  addQuadtree,
  Bounds,
  Collider,
  getStats,
  onCollision,
  Phase,
  Position,
  Static,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeSyncSystem,
} from 'bitecs-quadtree';

const WALL = 1,
  ACTOR = 2,
  DUST = 4;
/** The game's own component: a particle's velocity and the frames it has left. */
const Spark = { vx: [] as number[], vy: [] as number[], life: [] as number[] };

// Particle pairs have priority 10 (tier 3): they may wait. Walls and actors pair in tier 0: never.
// At least 256 sparks are checked each step, whatever the budget: that bounds their wait.
const world = addQuadtree(createWorld(), {
  width: 1024,
  height: 1024,
  pairEntities: false,
  budget: { maxPairTests: 1_000, minChecksPerTier: 256 },
});

let seed = 42;
const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647; // deterministic runs

function spawn(x: number, y: number, w: number, h: number, layer: number, mask: number, priority: number) {
  const eid = addEntity(world, Position, Bounds, Collider);
  Position.x[eid] = x;
  Position.y[eid] = y;
  Bounds.width[eid] = w;
  Bounds.height[eid] = h;
  Collider.layer[eid] = layer;
  Collider.mask[eid] = mask;
  Collider.priority[eid] = priority;
  return eid;
}
for (let i = 0; i < 8; i++) addComponent(world, spawn(64 + i * 128, 512, 16, 600, WALL, ACTOR | DUST, 255), Static);
const actors: number[] = [];
for (let i = 0; i < 40; i++) actors.push(spawn(random() * 1024, random() * 1024, 24, 24, ACTOR, -1, 250));

function burst(x: number, y: number) {
  for (let i = 0; i < 300; i++) {
    const eid = spawn(x, y, 4, 4, DUST, WALL | ACTOR, 10);
    const angle = random() * 2 * Math.PI,
      speed = 1 + random() * 4;
    addComponent(world, eid, Spark);
    Spark.vx[eid] = Math.cos(angle) * speed;
    Spark.vy[eid] = Math.sin(angle) * speed;
    Spark.life[eid] = 40 + Math.floor(random() * 40);
  }
}

let hits = 0;
onCollision(
  world,
  () => {
    hits++;
  },
  { layer: DUST, other: ACTOR, phases: Phase.Enter, priority: 10 },
);

for (let frame = 1; frame <= 120; frame++) {
  if (frame % 10 === 1) burst(random() * 1024, random() * 1024);
  for (const eid of query(world, [Spark])) {
    if (--Spark.life[eid] === 0)
      removeEntity(world, eid); // its id comes back with the next spark
    else {
      Position.x[eid] += Spark.vx[eid];
      Position.y[eid] += Spark.vy[eid];
    }
  }
  for (const eid of actors) Position.x[eid] = (Position.x[eid] + 1) % 1024;
  quadtreeDispatchSystem(quadtreeCollisionSystem(quadtreeSyncSystem(world)));
  if (frame % 30 === 0) {
    const s = getStats(world);
    const tier0 = s.enteredByTier[0] + s.stayedByTier[0];
    console.log(
      `frame ${frame}: ${s.entities} entities, ${tier0} tier-0 pairs, ${s.pairTests} pair tests, ` +
        `${s.deferred} waiting, each checked within ${s.waitBound} steps`,
    );
  }
}
console.log(`sparks that hit an actor: ${hits}`);
