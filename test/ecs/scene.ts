import { addComponent, addEntity, createWorld, type World } from 'bitecs';
import {
  addQuadtree,
  Bounds,
  Collider,
  Position,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeSyncSystem,
  Static,
  type QuadtreeWorldOptions,
} from '../../src/index.js';

/** A small world with the plugin, a spawner and a frame function, for hand-made cases. */
export class Scene {
  readonly world: World;

  constructor(options: QuadtreeWorldOptions = {}) {
    this.world = addQuadtree(createWorld(), { width: 1024, height: 1024, ...options });
  }

  /** An entity with Position and Bounds (and a Collider when a layer or priority is given). */
  spawn(
    x: number,
    y: number,
    w = 10,
    h = 10,
    collider?: { layer?: number; mask?: number; priority?: number },
    isStatic = false,
  ): number {
    const eid = addEntity(this.world);
    Position.x[eid] = x;
    Position.y[eid] = y;
    Bounds.width[eid] = w;
    Bounds.height[eid] = h;
    addComponent(this.world, eid, Position);
    addComponent(this.world, eid, Bounds);
    if (collider !== undefined) {
      Collider.layer[eid] = collider.layer ?? 1;
      Collider.mask[eid] = collider.mask ?? -1;
      Collider.priority[eid] = collider.priority ?? 128;
      addComponent(this.world, eid, Collider);
    }
    if (isStatic) addComponent(this.world, eid, Static);
    return eid;
  }

  move(eid: number, x: number, y: number): void {
    Position.x[eid] = x;
    Position.y[eid] = y;
  }

  /** Sync, collision and dispatch, as a game's pipe runs them. */
  frame(): void {
    quadtreeDispatchSystem(quadtreeCollisionSystem(quadtreeSyncSystem(this.world)));
  }
}
