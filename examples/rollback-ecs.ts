import { addComponent, addEntity, createEntityIndex, createWorld, query, removeEntity, type World } from 'bitecs';
import { f64 } from 'bitecs/serialization';
import {
  addQuadtree,
  Bounds,
  Collider,
  Collision,
  onCollision,
  Phase,
  Position,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeSyncSystem,
  restoreQuadtree,
  saveQuadtree,
  type QuadtreeWorldSnapshot,
} from 'bitecs-quadtree';
import { worldSaver, type WorldSave } from './world-save.js';

// Rollback in a bitECS game: 200 drifting boxes and a bullet fired every third frame that
// lives 12 frames (so entity ids are removed and handed out again). The remote player's shove
// of box 1 for frame 40 only arrives at frame 44: the game rolls its world and the collision
// state back to before frame 40 and runs frames 40 to 44 again.
const FRAMES = 60;
const Velocity = { x: f64([]), y: f64([]) };
const Life = { frames: f64([]) };
const components = [Position, Bounds, Collider, Collision, Velocity, Life];

function game() {
  const index = createEntityIndex(); // the world's ids, which a rollback puts back
  const world = addQuadtree(createWorld(index), { width: 512, height: 512 });
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < 200; i++) {
    const eid = addEntity(world);
    addComponent(world, eid, Position);
    addComponent(world, eid, Bounds);
    addComponent(world, eid, Velocity);
    Position.x[eid] = 16 + random() * 480;
    Position.y[eid] = 16 + random() * 480;
    Bounds.width[eid] = Bounds.height[eid] = 8 + random() * 12;
    Velocity.x[eid] = random() * 2 - 1;
    Velocity.y[eid] = random() * 2 - 1;
  }
  const log: string[] = [];
  onCollision(world, (self, other, phase) => log.push(`${phase === Phase.Enter ? '+' : '-'}${self}:${other}`), {
    phases: Phase.Enter | Phase.Exit,
  });
  return { world, index, log };
}

/** One frame: bullets age and fire, everything moves (box 1 by the shove too), then the systems. */
function frame(world: World, f: number, shove: number, log: string[]): string {
  for (const eid of query(world, [Life])) if (--Life.frames[eid] === 0) removeEntity(world, eid);
  if (f % 3 === 0) {
    const eid = addEntity(world);
    addComponent(world, eid, Position);
    addComponent(world, eid, Bounds);
    addComponent(world, eid, Velocity);
    addComponent(world, eid, Life);
    Position.x[eid] = 10;
    Position.y[eid] = 40 + ((f * 37) % 430);
    Bounds.width[eid] = Bounds.height[eid] = 4;
    Velocity.x[eid] = 30;
    Velocity.y[eid] = 0;
    Life.frames[eid] = 12;
  }
  for (const eid of query(world, [Position, Velocity])) {
    Position.x[eid] += Velocity.x[eid] + (eid === 1 ? shove : 0);
    Position.y[eid] += Velocity.y[eid];
  }
  log.length = 0;
  quadtreeDispatchSystem(quadtreeCollisionSystem(quadtreeSyncSystem(world)));
  return `${query(world, [Collision]).length} pair entities, events ${log.join(' ')}`;
}

// The run that had the shove on time, for comparison.
const onTime = game();
const expected: string[] = [];
for (let f = 0; f < FRAMES; f++) expected.push(frame(onTime.world, f, f === 40 ? 30 : 0, onTime.log));

// The rollback run: before every frame, the world and the collision state saved side by side
// in a ring of 8.
const { world, index, log } = game();
const saver = worldSaver(world, index, components);
const ring: { world: WorldSave; quadtree: QuadtreeWorldSnapshot }[] = [];
const got: string[] = [];
let input40 = 0; // not known yet
for (let f = 0; f < FRAMES; f++) {
  ring[f % 8] = { world: saver.save(), quadtree: saveQuadtree(world, ring[f % 8]?.quadtree) };
  got[f] = frame(world, f, f === 40 ? input40 : 0, log);
  if (f === 44) {
    input40 = 30; // the late input arrives: back to before frame 40, and frames 40 to 44 again
    const back = ring[40 % 8];
    saver.restore(back.world); // the world first: the same entities, ids and components
    restoreQuadtree(world, back.quadtree);
    console.log(`at frame 44, back to frame ${back.quadtree.frame}, saved before frame 40`);
    for (let g = 40; g <= 44; g++) {
      ring[g % 8] = { world: saver.save(), quadtree: saveQuadtree(world, ring[g % 8].quadtree) };
      got[g] = frame(world, g, g === 40 ? input40 : 0, log);
    }
  }
}
console.log(`frame 40 on time:           ${expected[40]}`);
console.log(`frame 40 after the rollback: ${got[40]}`);
console.log(`all ${FRAMES} frames match: ${got.every((s, f) => s === expected[f])}`);
