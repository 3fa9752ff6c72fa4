/**
 * Culling for PixiJS, in Node on stand-in sprites: a shooter's world (2,560 px square, 300
 * wandering enemies as sprites, N sparks as particles, a hundredth of them born and removed
 * every frame with recycled ids, all moving), a 1,280 x 720 view sweeping over it. Each frame
 * runs the systems, then times what the game does to draw: `SpriteCuller.cull` and
 * `placeVisible` for the enemies, `ParticleCuller.cull` and `placeVisible` for the sparks. The
 * cullers run with their default mask ('auto': the layers of the objects they hold), and again
 * with every layer (-1), the cost of a cull that walks the sparks' class whole.
 *
 *   npx tsx --expose-gc bench/cull.ts [--n 20000] [--frames 300] [--runs 3]
 */
import { addComponent, addEntity, createWorld, removeEntity, type World } from 'bitecs';
import { parseArgs } from 'node:util';
import type { IParticle, ParticleContainer } from 'pixi.js';
import { ParticleCuller, SpriteCuller } from '../src/pixi/index.js';
import {
  addQuadtree,
  Bounds,
  Collider,
  getQuadtree,
  Position,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  setStepBudget,
} from '../src/index.js';
import { fmt } from './format.js';
import { mulberry32 } from './scene.js';
import { median } from './summary.js';

const SIDE = 2560;
const VIEW_W = 1280;
const VIEW_H = 720;
const ENEMIES = 300;
const ENEMY = 1;
const SPARK = 2;

/** A sprite or particle as the cullers see it: a flag and a position. */
interface StandIn {
  culled: boolean;
  x: number;
  y: number;
}

/** What a `ParticleContainer` gives a culler: its list of particles, and an upload to ask for. */
function standInContainer(): ParticleContainer<StandIn & IParticle> {
  return { particleChildren: [], update: () => undefined } as unknown as ParticleContainer<StandIn & IParticle>;
}

interface Game {
  world: World;
  velocity: { x: number[]; y: number[] };
  life: number[];
  enemies: number[];
  sparks: number[];
  sprites: SpriteCuller<StandIn>;
  particles: ParticleCuller<StandIn & IParticle>;
  random: () => number;
}

function spawn(g: Game, layer: number, x: number, y: number, size: number, speed: number): number {
  const eid = addEntity(g.world);
  addComponent(g.world, eid, Position);
  addComponent(g.world, eid, Bounds);
  addComponent(g.world, eid, Collider);
  Position.x[eid] = x;
  Position.y[eid] = y;
  Bounds.width[eid] = Bounds.height[eid] = size;
  Collider.layer[eid] = layer;
  Collider.mask[eid] = layer === SPARK ? ENEMY : ENEMY | SPARK;
  Collider.priority[eid] = layer === SPARK ? 10 : 200;
  const a = g.random() * 2 * Math.PI;
  g.velocity.x[eid] = Math.cos(a) * speed;
  g.velocity.y[eid] = Math.sin(a) * speed;
  return eid;
}

function spark(g: Game, x: number, y: number): void {
  const eid = spawn(g, SPARK, x, y, 2 + g.random() * 4, 1 + g.random() * 5);
  g.life[eid] = 45 + Math.floor(g.random() * 105);
  g.sparks.push(eid);
  g.particles.set(eid, { culled: false, x, y } as StandIn & IParticle);
}

function makeGame(n: number, mask: number | 'auto'): Game {
  const world = addQuadtree(createWorld(), { width: SIDE, height: SIDE, pairEntities: false });
  setStepBudget(world, { maxPairTests: 20_000 });
  const g: Game = {
    world,
    velocity: { x: [], y: [] },
    life: [],
    enemies: [],
    sparks: [],
    sprites: new SpriteCuller<StandIn>({ mask }),
    particles: new ParticleCuller(standInContainer(), { mask }),
    random: mulberry32(2654435769),
  };
  for (let i = 0; i < ENEMIES; i++) {
    const eid = spawn(g, ENEMY, g.random() * SIDE, g.random() * SIDE, 24 + g.random() * 16, 0.5 + g.random());
    g.enemies.push(eid);
    g.sprites.set(eid, { culled: false, x: 0, y: 0 });
  }
  for (let i = 0; i < n; i++) spark(g, g.random() * SIDE, g.random() * SIDE);
  return g;
}

/** One frame of the game's own systems: sparks age, die and burst anew, everything moves, then the plugin's. */
function play(g: Game): void {
  let alive = 0;
  for (const eid of g.sparks) {
    if (--g.life[eid] > 0) g.sparks[alive++] = eid;
    else {
      g.particles.delete(eid);
      removeEntity(g.world, eid);
    }
  }
  const born = g.sparks.length - alive;
  g.sparks.length = alive;
  // As many born as died, in bursts of 50 at a point.
  let bx = 0,
    by = 0;
  for (let i = 0; i < born; i++) {
    if (i % 50 === 0) {
      bx = g.random() * SIDE;
      by = g.random() * SIDE;
    }
    spark(g, bx + g.random() * 40, by + g.random() * 40);
  }
  move(g, g.enemies);
  move(g, g.sparks);
  quadtreeCollisionSystem(quadtreeSyncSystem(g.world));
}

function move(g: Game, ids: number[]): void {
  const { x, y } = Position;
  const v = g.velocity;
  for (const eid of ids) {
    x[eid] += v.x[eid];
    y[eid] += v.y[eid];
    if (x[eid] < 0 || x[eid] > SIDE) v.x[eid] *= -1;
    if (y[eid] < 0 || y[eid] > SIDE) v.y[eid] *= -1;
  }
}

/** The draw's share: both cullers' cull and placeVisible, for the view at frame f. */
function draw(g: Game, f: number): number {
  const t = f / 240;
  const vx = (SIDE - VIEW_W) * (0.5 + 0.5 * Math.sin(t));
  const vy = (SIDE - VIEW_H) * (0.5 + 0.5 * Math.cos(0.7 * t));
  const tree = getQuadtree(g.world);
  const start = performance.now();
  g.sprites.cull(tree, vx, vy, vx + VIEW_W, vy + VIEW_H);
  g.sprites.placeVisible(Position);
  g.particles.cull(tree, vx, vy, vx + VIEW_W, vy + VIEW_H);
  g.particles.placeVisible(Position);
  return performance.now() - start;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      n: { type: 'string', default: '20000' },
      frames: { type: 'string', default: '300' },
      runs: { type: 'string', default: '3' },
    },
  });
  const frames = Number(values.frames);
  for (const n of values.n.split(',').map(Number)) {
    const medians: Record<string, number[]> = { auto: [], all: [] };
    let shown = 0;
    for (let run = 0; run < Number(values.runs); run++) {
      // The two masks played side by side, frames interleaved.
      const games = { auto: makeGame(n, 'auto'), all: makeGame(n, -1) };
      const times: Record<string, number[]> = { auto: [], all: [] };
      for (let f = 0; f < frames + 30; f++) {
        for (const [key, g] of Object.entries(games)) {
          play(g);
          const ms = draw(g, f);
          if (f >= 30) times[key].push(ms);
        }
      }
      for (const key of Object.keys(times)) medians[key].push(median(times[key]));
      shown = games.auto.particles.visibleCount;
    }
    const row = (key: string) =>
      `${fmt(median(medians[key]))} ms (${fmt(Math.min(...medians[key]))}-${fmt(Math.max(...medians[key]))})`;
    console.log(
      `${n.toLocaleString('en-US')} sparks, ${ENEMIES} enemies, about ${shown.toLocaleString('en-US')} sparks in view: ` +
        `cull + placeVisible of both cullers ${row('auto')} a frame with the default mask, ${row('all')} with every layer ` +
        `(median frame of ${frames}, median and range over ${values.runs} runs)`,
    );
  }
}

main();
