import { addComponent, addEntity, entityExists, removeEntity, type World } from 'bitecs';
import { fail } from '../core/internal.js';
import {
  tileLayerWith,
  type RectSink,
  type TileCollider,
  type TileGridOptions,
  type TileLayer,
} from '../tilemap/internal.js';
import type { QuadtreeState } from './state.js';
import { TILE_RECT } from './entities.js';
import { stateOf } from './state.js';

/**
 * Adds static colliders from a tile grid to a world: the solid tiles are merged into few
 * rectangles (see the core's {@link TileLayer}), each an entity with Position (its centre),
 * Bounds, Collider and the Static tag, of the components the world's quadtree was given.
 * The next {@link quadtreeSyncSystem} puts them in the tree, like any entity.
 *
 * The entities are the layer's: change tiles with `layer.setTile` / `setTiles` (entities of
 * rectangles that change are removed and new ones added; the others stay), end the layer
 * with `layer.destroy()`, and do not remove or move them yourself (after a removal by hand,
 * a change that would remove that rectangle throws, naming it). A pair with one of them
 * names its entity: `layer.owns(eid)` tells the layer's entities from others, and
 * `layer.tileOfContact(eid, x, y, out)` gives the tile a contact point touched.
 *
 * @throws if the world has no quadtree, or on bad options (naming the option and the value);
 * nothing is added then
 */
export function addTileLayer(world: object, options: TileGridOptions): TileLayer {
  const s = stateOf(world);
  if (typeof options === 'object' && 'ids' in options)
    fail('tile layer option ids is not for a world: the rectangles are entities, their ids come from bitECS');
  return tileLayerWith((collider) => new EntitySink(s, collider), s, options);
}

/** Rectangles as entities: created and removed through bitECS, their values read by the sync. */
class EntitySink implements RectSink {
  private readonly s: QuadtreeState;
  private readonly collider: TileCollider;

  constructor(s: QuadtreeState, collider: TileCollider) {
    this.s = s;
    this.collider = collider;
  }

  acquire(count: number, out: Int32Array): void {
    const w = this.s.world as World;
    for (let i = 0; i < count; i++) out[i] = addEntity(w);
  }

  add(eid: number, minX: number, minY: number, maxX: number, maxY: number): void {
    const s = this.s;
    const w = s.world as World;
    s.position.x[eid] = minX * 0.5 + maxX * 0.5;
    s.position.y[eid] = minY * 0.5 + maxY * 0.5;
    s.bounds.width[eid] = maxX - minX;
    s.bounds.height[eid] = maxY - minY;
    this.write(eid);
    addComponent(w, eid, s.staticTag);
    addComponent(w, eid, s.collider);
    addComponent(w, eid, s.position);
    addComponent(w, eid, s.bounds);
    // Cleared when the entity loses Position or Bounds: then it is no longer the layer's.
    if (eid < s.entities.capacity) s.entities.marks[eid] |= TILE_RECT;
  }

  holds(eid: number): boolean {
    return !(eid < this.s.entities.capacity) || (this.s.entities.marks[eid] & TILE_RECT) !== 0;
  }

  recollide(eid: number): void {
    this.write(eid);
    this.s.colliderChanged.push(eid);
  }

  private write(eid: number): void {
    const c = this.s.collider,
      v = this.collider;
    c.layer[eid] = v.layer;
    c.mask[eid] = v.mask;
    c.priority[eid] = v.priority;
  }

  remove(eid: number): void {
    const w = this.s.world as World;
    if (entityExists(w, eid)) removeEntity(w, eid);
  }
}
