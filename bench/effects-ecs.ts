import { addComponent, addEntity, createWorld, query, removeEntity, type World } from 'bitecs';
import {
  addQuadtree,
  forEachPair,
  getQuadtree,
  Phase,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  type BudgetOptions,
  type CollisionStore,
  type PairVisitor,
} from '../src/index.js';
import { PairSum, type Contender, type ContenderSpec } from './contender.js';
import { DT, snap } from './scene.js';
import { EFFECTS, type EffectsScene } from './effects-scene.js';

/** How the game runs the plugin: not at all, or with pair entities on or off, with or without a budget. */
export interface EffectsGameOptions {
  plugin: boolean;
  pairEntities?: boolean;
  budget?: BudgetOptions;
}

/**
 * The effects as a bitECS game, timed whole: its own systems (particles aged and removed with
 * `removeEntity`, moved with drag, born with `addEntity`; actors moved from the scene's
 * wandering) and, when the plugin runs, its sync and collision systems and reading the pairs.
 * bitECS recycles the ids of removed particles at once, as in any game. Each contender has its
 * own plain-array components, so two worlds in one process do not share stores. The same game
 * without the plugin tells the plugin's own share apart from bitECS's.
 */
export class EffectsGame implements Contender<EffectsScene> {
  private world!: World;
  private readonly o: EffectsGameOptions;
  private readonly position = { x: [] as number[], y: [] as number[] };
  private readonly bounds = { width: [] as number[], height: [] as number[] };
  private readonly collider = { layer: [] as number[], mask: [] as number[], priority: [] as number[] };
  private readonly velocity = { x: [] as number[], y: [] as number[] };
  private readonly life = { frames: [] as number[] };
  private readonly uid = { of: [] as number[] };
  private readonly wall = {};
  private readonly dust = {};
  private readonly collision: CollisionStore = { a: [], b: [], priority: [], phase: [], startedAt: [] };
  /** Entity of each actor (by uid - firstActor). */
  private actorEids = new Int32Array(0);
  /** The frame's sum, set before each search (a placeholder until the first). */
  private sum = new PairSum();
  private readonly visit: PairVisitor = (a, b, _phase, priority) => {
    this.sum.add(this.uid.of[a], this.uid.of[b], priority);
  };

  constructor(o: EffectsGameOptions) {
    this.o = o;
  }

  setup(scene: EffectsScene): void {
    const world = createWorld();
    if (this.o.plugin) {
      addQuadtree(world, {
        width: scene.side,
        height: scene.side,
        pairEntities: this.o.pairEntities ?? false,
        budget: this.o.budget,
        position: this.position,
        bounds: this.bounds,
        collider: this.collider,
        staticTag: this.wall,
        collision: this.collision,
      });
    }
    this.world = world;
    this.actorEids = new Int32Array(scene.actors);
    for (let i = 0; i < scene.firstDust; i++) {
      const isWall = i < scene.firstActor;
      const kind = isWall ? EFFECTS.walls : EFFECTS.actors;
      const eid = addEntity(world);
      this.uid.of[eid] = i;
      this.collider.layer[eid] = kind.layer;
      this.collider.mask[eid] = kind.mask;
      this.collider.priority[eid] = kind.priority;
      this.bounds.width[eid] = scene.w[i];
      this.bounds.height[eid] = scene.h[i];
      this.position.x[eid] = scene.x[i];
      this.position.y[eid] = scene.y[i];
      addComponent(world, eid, this.collider);
      if (isWall) addComponent(world, eid, this.wall);
      else this.actorEids[i - scene.firstActor] = eid;
      addComponent(world, eid, this.position);
      addComponent(world, eid, this.bounds);
    }
    this.spawn(scene);
  }

  frame(scene: EffectsScene, sum: PairSum): void {
    const world = this.world;
    this.ageAndMove();
    this.moveActors(scene);
    this.spawn(scene);
    if (!this.o.plugin) return;
    quadtreeCollisionSystem(quadtreeSyncSystem(world));
    if (this.o.pairEntities !== true) {
      this.sum = sum;
      forEachPair(world, this.visit, Phase.Enter | Phase.Stay);
      return;
    }
    const C = this.collision;
    const pairs = query(world, [C]);
    const uid = this.uid.of;
    for (let k = 0; k < pairs.length; k++) {
      const pe = pairs[k];
      if (C.phase[pe] !== Phase.Exit) sum.add(uid[C.a[pe]], uid[C.b[pe]], C.priority[pe]);
    }
  }

  /** The game's particle systems: the dead are removed, the living fly on with drag. */
  private ageAndMove(): void {
    const world = this.world;
    const frames = this.life.frames;
    const px = this.position.x;
    const py = this.position.y;
    const vx = this.velocity.x;
    const vy = this.velocity.y;
    const drag = EFFECTS.dust.drag;
    const particles = query(world, [this.dust]);
    for (let k = 0; k < particles.length; k++) {
      const eid = particles[k];
      if (--frames[eid] <= 0) {
        removeEntity(world, eid);
        continue;
      }
      px[eid] = snap(px[eid] + vx[eid] * DT);
      py[eid] = snap(py[eid] + vy[eid] * DT);
      vx[eid] *= drag;
      vy[eid] *= drag;
    }
  }

  private moveActors(scene: EffectsScene): void {
    const px = this.position.x;
    const py = this.position.y;
    for (let k = 0; k < this.actorEids.length; k++) {
      const eid = this.actorEids[k];
      px[eid] = scene.x[scene.firstActor + k];
      py[eid] = scene.y[scene.firstActor + k];
    }
  }

  /** This frame's births (all the particles at setup). */
  private spawn(scene: EffectsScene): void {
    const world = this.world;
    const { dust } = EFFECTS;
    for (let k = 0; k < scene.spawnCount; k++) {
      const eid = addEntity(world);
      this.position.x[eid] = scene.spawnX[k];
      this.position.y[eid] = scene.spawnY[k];
      this.velocity.x[eid] = scene.spawnVX[k];
      this.velocity.y[eid] = scene.spawnVY[k];
      this.bounds.width[eid] = scene.spawnW[k];
      this.bounds.height[eid] = scene.spawnH[k];
      this.life.frames[eid] = scene.spawnLife[k];
      this.uid.of[eid] = scene.spawnUid[k];
      this.collider.layer[eid] = dust.layer;
      this.collider.mask[eid] = dust.mask;
      this.collider.priority[eid] = dust.priority;
      addComponent(world, eid, this.dust);
      addComponent(world, eid, this.velocity);
      addComponent(world, eid, this.life);
      addComponent(world, eid, this.collider);
      addComponent(world, eid, this.position);
      addComponent(world, eid, this.bounds);
    }
  }

  pairTests(): number {
    return this.o.plugin ? getQuadtree(this.world).stats.pairTests : -1;
  }

  /** Items the plugin's budget left waiting after the last frame. */
  deferred(): number {
    return this.o.plugin ? getQuadtree(this.world).stats.deferred : 0;
  }

  /** Pair tests the plugin's budget rationed in the last frame. */
  budgetedTests(): number {
    return this.o.plugin ? getQuadtree(this.world).stats.budgetedTests : 0;
  }
}

/** The effects' budget: what a game would set to let particle collisions wait. */
const EFFECTS_PAIR_TESTS = 20_000;
export const EFFECTS_BUDGET: BudgetOptions = { maxPairTests: EFFECTS_PAIR_TESTS };

export const effectsGameSpec: ContenderSpec<EffectsScene> = {
  key: 'game',
  name: 'the bitECS game without the plugin',
  note:
    'the same game (particles born with `addEntity`, aged and removed with `removeEntity`, moved with drag; ' +
    'actors moved) with no plugin: what bitECS itself costs',
  create: () => new EffectsGame({ plugin: false }),
};

export const effectsEcsOffSpec: ContenderSpec<EffectsScene> = {
  key: 'ecs-off',
  name: 'bitECS game + plugin, pair entities off',
  note:
    'the game with `addQuadtree(world, { pairEntities: false })` over plain-array Position, Bounds, Collider and a ' +
    "Static tag; timed whole: the game's systems, `quadtreeSyncSystem`, `quadtreeCollisionSystem` and " +
    '`forEachPair(world, visit, Phase.Enter | Phase.Stay)`',
  create: () => new EffectsGame({ plugin: true, pairEntities: false }),
};

export const effectsEcsOnSpec: ContenderSpec<EffectsScene> = {
  key: 'ecs-on',
  name: 'bitECS game + plugin, pair entities on',
  note: 'the same with `pairEntities: true`; pairs read from `query(world, [Collision])`, skipping `Phase.Exit`',
  create: () => new EffectsGame({ plugin: true, pairEntities: true }),
};

export const effectsEcsBudgetSpec: ContenderSpec<EffectsScene> = {
  key: 'ecs-budget',
  name: `bitECS game + plugin, budget ${EFFECTS_PAIR_TESTS.toLocaleString('en-US')} pair tests`,
  note:
    `pair entities off and \`budget: { maxPairTests: ${EFFECTS_BUDGET.maxPairTests} }\`: particle pairs (tier 3) ` +
    "wait their turn, actor and wall pairs (tier 0) are exact every frame (checked against the grid's)",
  create: () => new EffectsGame({ plugin: true, pairEntities: false, budget: EFFECTS_BUDGET }),
};
