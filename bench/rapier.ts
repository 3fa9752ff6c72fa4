import RAPIER from '@dimforge/rapier2d-compat';
import type { Contender, ContenderSpec, PairSum } from './contender.js';
import { PairPool } from './pair-pool.js';
import { DT, type Boxes } from './scene.js';
import type { StormScene } from './storm-scene.js';

/** Loads Rapier's WebAssembly; every Rapier call waits on it. */
export async function initRapier(): Promise<void> {
  await RAPIER.init();
}

// Rapier counts touching boxes as intersecting; the scenes are on a 1/64 px grid, so this
// shrink of every half-extent drops exact touching and keeps every real overlap.
const SHRINK = 1 / 512;

/** What Rapier needs of a scene: the boxes, and the storm's layers, masks and statics when there. */
type RapierScene = Boxes & { readonly n: number } & Partial<Pick<StormScene, 'layer' | 'mask' | 'isStatic'>>;

const handleBits = new Float64Array(1);
const handleIndex = new Uint32Array(handleBits.buffer);

/** A collider handle's index in the collider set: its low 32 bits (the rest is its generation). */
function indexOf(handle: number): number {
  handleBits[0] = handle;
  return handleIndex[0];
}

/**
 * A Rapier world holding every item as a sensor cuboid collider without a body, moved by
 * `collider.setTranslation`: bodies (kinematic or fixed) only add work to each step here.
 * Parentless colliders count as fixed, so FIXED_FIXED is switched on for them to pair; the
 * storm's layer and mask are the collision groups (they keep walls from pairing).
 */
export class RapierWorld {
  readonly world: RAPIER.World;
  /** Collider handles by item id. */
  readonly colliders: number[] = [];

  constructor(scene: RapierScene) {
    const world = new RAPIER.World({ x: 0, y: 0 });
    world.timestep = DT;
    const { n, minX, minY, w, h, layer, mask } = scene;
    // Rapier's flags combine as bits; its enum type has no member for the union.
    const types = (RAPIER.ActiveCollisionTypes.ALL |
      RAPIER.ActiveCollisionTypes.FIXED_FIXED) as RAPIER.ActiveCollisionTypes;
    for (let i = 0; i < n; i++) {
      const hx = w[i] / 2,
        hy = h[i] / 2;
      const desc = RAPIER.ColliderDesc.cuboid(hx - SHRINK, hy - SHRINK)
        .setTranslation(minX[i] + hx, minY[i] + hy)
        .setSensor(true)
        .setActiveCollisionTypes(types)
        .setActiveEvents(RAPIER.ActiveEvents.COLLISION_EVENTS);
      if (layer !== undefined && mask !== undefined) desc.setCollisionGroups(((layer[i] << 16) | mask[i]) >>> 0);
      const collider = world.createCollider(desc);
      if (indexOf(collider.handle) !== i) throw new Error(`Rapier collider ${i} has index ${indexOf(collider.handle)}`);
      this.colliders.push(collider.handle);
    }
    this.world = world;
  }
}

/** Moves the movers' colliders to their new centres. */
function place(scene: RapierScene, colliders: readonly RAPIER.Collider[]): void {
  const { movers, minX, minY, w, h } = scene;
  const at = { x: 0, y: 0 };
  for (let k = 0; k < movers.length; k++) {
    const i = movers[k];
    at.x = minX[i] + w[i] / 2;
    at.y = minY[i] + h[i] / 2;
    colliders[i].setTranslation(at);
  }
}

/** One step of a world: the movers moved, `world.step`; what a snapshot bench times between saves. */
export function stepWorld(
  scene: RapierScene,
  world: RAPIER.World,
  handles: readonly number[],
  events: RAPIER.EventQueue,
): void {
  place(
    scene,
    handles.map((h) => world.getCollider(h)),
  );
  world.step(events);
}

/**
 * Rapier's broadphase and sensor intersections through its public API: per frame the movers'
 * colliders are moved and the world stepped; the started and stopped intersection events keep
 * the pair set (an `intersectionPairsWith` walk over every collider finds the same pairs, slower).
 */
class RapierContender implements Contender<RapierScene> {
  private rapier!: RapierWorld;
  private events!: RAPIER.EventQueue;
  private pool = new PairPool(0);
  private collider: RAPIER.Collider[] = [];

  private readonly onEvent = (h1: number, h2: number, started: boolean): void => {
    const x = indexOf(h1),
      y = indexOf(h2);
    const a = x < y ? x : y,
      b = x < y ? y : x;
    if (started) this.pool.add(a, b);
    else {
      const c = this.pool.find(a, b);
      if (c >= 0) this.pool.remove(c);
    }
  };

  setup(scene: RapierScene): void {
    this.rapier = new RapierWorld(scene);
    this.events = new RAPIER.EventQueue(true);
    this.pool = new PairPool(scene.n);
    this.collider = this.rapier.colliders.map((h) => this.rapier.world.getCollider(h));
  }

  frame(scene: RapierScene, sum: PairSum): void {
    place(scene, this.collider);
    this.rapier.world.step(this.events);
    this.events.drainCollisionEvents(this.onEvent);
    const { count, ca, cb } = this.pool;
    for (let c = 0; c < count; c++) sum.add(ca[c], cb[c]);
  }
}

export function rapierSpec<S extends RapierScene>(): ContenderSpec<S> {
  return {
    key: 'rapier',
    name: 'Rapier',
    note:
      '`@dimforge/rapier2d-compat` (WebAssembly): a sensor cuboid collider per item, without a body (FIXED_FIXED ' +
      'collision types on; layer and mask as collision groups), half-extents 1/512 px short so touching boxes do not ' +
      'count; per frame `collider.setTranslation` the movers and `world.step`, the pair set kept from the ' +
      'started/stopped collision events (kinematic bodies measured slower, and `intersectionPairsWith` per collider too)',
    create: () => new RapierContender(),
  };
}
