import { addComponent, addEntity, createWorld, query, removeEntity, type World } from 'bitecs';
import {
  addQuadtree,
  Bounds,
  onCollision,
  Phase,
  Position,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeSyncSystem,
  restoreWorld,
  saveWorld,
  WorldSnapshot,
} from 'bitecs-quadtree';

// Rollback netcode with two peers in one process: 200 drifting boxes that the remote player
// shoves, and bullets that live 6 to 12 frames, so several die in one frame and their ids are
// handed out again. Peer A has every input on time. Peer B gets each input 4 frames late: it
// runs ahead on the last input it knows and, when a late input differs, restores its world to
// the frame the input belongs to and runs the frames since again. Both must see the same
// collision events, frame by frame.
const FRAMES = 120;
const DELAY = 4;
const Velocity = { x: [] as number[], y: [] as number[] };
const Life = { frames: [] as number[] };

/** The remote player's input of frame f: which way to shove box 1 (it changes every 7 frames). */
const input = (f: number) => (Math.floor(f / 7) % 3) - 1;

function peer() {
  const world = addQuadtree(createWorld(), { width: 512, height: 512 });
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
  const events: string[] = [];
  onCollision(world, (self, other, phase) => events.push(`${phase === Phase.Enter ? '+' : '-'}${self}:${other}`), {
    phases: Phase.Enter | Phase.Exit,
  });
  return { world, events };
}

/** One frame of the game, written as games write it: queries in bitECS's order. */
function frame(world: World, f: number, shove: number): void {
  for (const eid of query(world, [Life])) if (--Life.frames[eid] === 0) removeEntity(world, eid);
  for (let k = 0; k < 2; k++) {
    const eid = addEntity(world);
    for (const c of [Position, Bounds, Velocity, Life]) addComponent(world, eid, c);
    Position.x[eid] = 10;
    Position.y[eid] = 20 + ((f * 37 + k * 211) % 470);
    Bounds.width[eid] = Bounds.height[eid] = 4;
    Velocity.x[eid] = 40;
    Velocity.y[eid] = k - 0.5;
    Life.frames[eid] = 6 + ((f + k) % 7);
  }
  for (const eid of query(world, [Position, Velocity])) {
    Position.x[eid] += Velocity.x[eid] + (eid === 1 ? shove * 6 : 0);
    Position.y[eid] += Velocity.y[eid];
  }
  quadtreeDispatchSystem(quadtreeCollisionSystem(quadtreeSyncSystem(world)));
}

// Peer A: every input on time.
const a = peer();
const expected: string[] = [];
for (let f = 0; f < FRAMES; f++) {
  a.events.length = 0;
  frame(a.world, f, input(f));
  expected.push(a.events.join(' '));
}

// Peer B: a snapshot before every frame, in a ring as long as the delay and one.
const b = peer();
const ring = Array.from({ length: DELAY + 1 }, () => new WorldSnapshot());
const used: number[] = []; // the input B ran each frame with
const got: string[] = [];
let rollbacks = 0;
/** Peer B plays frame g with input `shove`: a save before it, its events kept. */
function play(g: number, shove: number): void {
  used[g] = shove;
  saveWorld(b.world, ring[g % ring.length]);
  b.events.length = 0;
  frame(b.world, g, shove);
  got[g] = b.events.join(' ');
}
// Each tick the input of DELAY frames before arrives; the ticks past the end settle the last ones.
for (let f = 0; f < FRAMES + DELAY; f++) {
  const late = f - DELAY;
  if (late >= 0 && used[late] !== input(late)) {
    restoreWorld(b.world, ring[late % ring.length]);
    rollbacks++;
    for (let g = late; g < Math.min(f, FRAMES); g++) play(g, g === late ? input(g) : input(late));
  }
  if (f < FRAMES) play(f, late >= 0 ? input(late) : 0); // the last input known
}
const same = got.every((events, f) => events === expected[f]);
console.log(`peer B rolled back ${rollbacks} times, ${DELAY} frames each at most`);
const firstOf = (events: string) =>
  `${events.split(' ').slice(0, 4).join(' ')} ... (${events.split(' ').length} events)`;
console.log(`frame 60 on peer A: ${firstOf(expected[60])}`);
console.log(`frame 60 on peer B: ${firstOf(got[60])}`);
console.log(`all ${FRAMES} frames the same on both peers: ${same}`);
console.log(`a world snapshot of ${ring[0].entities} entities holds ${(ring[0].byteLength / 1024).toFixed(0)} KiB`);
