import { addComponent, addEntity, createWorld, query, type World } from 'bitecs';
import {
  addQuadtree,
  forEachPair,
  getQuadtree,
  Phase,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  type CollisionStore,
  type PairVisitor,
} from '../src/index.js';
import { PairSum, type Contender, type ContenderSpec } from './contender.js';
import type { StormScene } from './storm-scene.js';

/**
 * The storm as a bitECS game: one entity per item with Position (box centre), Bounds (full
 * size), Collider and, for walls, Static. Each contender has its own plain-array components,
 * passed to `addQuadtree`, so two worlds in one process do not share stores. The movement
 * system is the game's (untimed); the plugin's sync and collision systems and reading the
 * pairs are timed.
 */
class StormGame implements Contender<StormScene> {
  private world!: World;
  private readonly position = { x: [] as number[], y: [] as number[] };
  private readonly bounds = { width: [] as number[], height: [] as number[] };
  private readonly collider = { layer: [] as number[], mask: [] as number[], priority: [] as number[] };
  private readonly wall = {};
  private readonly collision: CollisionStore = { a: [], b: [], priority: [], phase: [], startedAt: [] };
  private readonly pairEntities: boolean;
  /** Scene id of each entity, and the reverse. */
  private idOf = new Int32Array(0);
  private eidOf = new Int32Array(0);
  /** The frame's sum, set before each search (a placeholder until the first). */
  private sum = new PairSum();
  private readonly visit: PairVisitor = (a, b) => {
    this.sum.add(this.idOf[a], this.idOf[b]);
  };

  constructor(pairEntities: boolean) {
    this.pairEntities = pairEntities;
  }

  setup(scene: StormScene): void {
    const { position, bounds, collider } = this;
    const world = addQuadtree(createWorld(), {
      width: scene.side,
      height: scene.side,
      pairEntities: this.pairEntities,
      position,
      bounds,
      collider,
      staticTag: this.wall,
      collision: this.collision,
    });
    this.idOf = new Int32Array(scene.n + 1);
    this.eidOf = new Int32Array(scene.n);
    for (let i = 0; i < scene.n; i++) {
      const eid = addEntity(world);
      if (eid >= this.idOf.length)
        throw new Error(`storm: entity id ${eid} beyond the ${scene.n} items of a fresh world`);
      this.idOf[eid] = i;
      this.eidOf[i] = eid;
      collider.layer[eid] = scene.layer[i];
      collider.mask[eid] = scene.mask[i];
      collider.priority[eid] = scene.priority[i];
      addComponent(world, eid, collider);
      if (scene.isStatic[i] === 1) addComponent(world, eid, this.wall);
      bounds.width[eid] = scene.w[i];
      bounds.height[eid] = scene.h[i];
      position.x[eid] = scene.minX[i] + scene.w[i] * 0.5;
      position.y[eid] = scene.minY[i] + scene.h[i] * 0.5;
      addComponent(world, eid, position);
      addComponent(world, eid, bounds);
    }
    this.world = world;
  }

  /** The game's movement system: writes the movers' new centres. */
  prepare(scene: StormScene): void {
    const { movers, minX, minY, w, h } = scene;
    const { eidOf } = this;
    const px = this.position.x;
    const py = this.position.y;
    for (let k = 0; k < movers.length; k++) {
      const i = movers[k];
      const eid = eidOf[i];
      px[eid] = minX[i] + w[i] * 0.5;
      py[eid] = minY[i] + h[i] * 0.5;
    }
  }

  frame(_scene: StormScene, sum: PairSum): void {
    const world = this.world;
    quadtreeCollisionSystem(quadtreeSyncSystem(world));
    if (!this.pairEntities) {
      this.sum = sum;
      forEachPair(world, this.visit, Phase.Enter | Phase.Stay);
      return;
    }
    const C = this.collision;
    const idOf = this.idOf;
    const pairs = query(world, [C]);
    for (let k = 0; k < pairs.length; k++) {
      const pe = pairs[k];
      if (C.phase[pe] !== Phase.Exit) sum.add(idOf[C.a[pe]], idOf[C.b[pe]]);
    }
  }

  pairTests(): number {
    return getQuadtree(this.world).stats.pairTests;
  }
}

export const stormEcsOffSpec: ContenderSpec<StormScene> = {
  key: 'ecs-off',
  name: 'bitecs-quadtree ECS, pair entities off',
  note:
    '`addQuadtree(world, { pairEntities: false })` with plain-array Position (centre), Bounds, Collider and a Static ' +
    'tag; timed: `quadtreeSyncSystem` + `quadtreeCollisionSystem` + `forEachPair(world, visit, Phase.Enter | Phase.Stay)`; ' +
    "the game's movement system writing Position is not timed",
  create: () => new StormGame(false),
};

export const stormEcsOnSpec: ContenderSpec<StormScene> = {
  key: 'ecs-on',
  name: 'bitecs-quadtree ECS, pair entities on',
  note: 'the same with `pairEntities: true`; pairs read from `query(world, [Collision])`, skipping `Phase.Exit`',
  create: () => new StormGame(true),
};
