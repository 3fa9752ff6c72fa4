import { observe, onRemove } from 'bitecs';
import { fail, show } from '../core/internal.js';
import { stateOf } from '../ecs/state.js';
import { SpriteCuller, type Cullable } from './culling.js';

/** What {@link forgetRemoved} needs of a culler: {@link SpriteCuller} and {@link ParticleCuller} have it. */
export interface Forgetting<T> {
  /** The object registered for an id, if any. */
  get(id: number): T | undefined;
  /** Forgets an id's object. */
  delete(id: number): boolean;
}

/**
 * Makes a culler forget each entity of a bitECS world as it goes: removed from the world, or
 * out of the tree by losing `Position` or `Bounds` (the components the world's quadtree reads).
 * bitECS tells of it at once, inside `removeEntity` or `removeComponent`, so a recycled id
 * given to a new entity right after has no old sprite. A `SpriteCuller`'s sprite is culled (no
 * longer drawn) and a `ParticleCuller`'s particle leaves the container at the next cull; then
 * `onForget`, if given, gets the id and the object, to destroy it or return it to a pool.
 * Returns a function that stops it (for hot reload, or before `removeQuadtree`).
 *
 * Only what the culler holds is touched, and removals cost one call each; nothing runs per frame.
 * @example
 * const stop = forgetRemoved(world, culler, (eid, sprite) => sprite.destroy());
 * removeEntity(world, eid); // the culler forgets eid and the sprite is destroyed
 * @throws if the world has no quadtree, `culler` has no `get` and `delete`, or `onForget` is not a function
 */
export function forgetRemoved<T extends object>(
  world: object,
  culler: Forgetting<T>,
  onForget?: (eid: number, object: T) => void,
): () => void {
  const s = stateOf(world);
  // Typed, but plain JavaScript may pass anything.
  const given = culler as Partial<Forgetting<T>> | null;
  if (
    given === null ||
    typeof given !== 'object' ||
    typeof given.get !== 'function' ||
    typeof given.delete !== 'function'
  ) {
    fail(`forgetRemoved needs a SpriteCuller or ParticleCuller (got ${show(culler)})`);
  }
  if (onForget !== undefined && typeof onForget !== 'function') {
    fail(`forgetRemoved onForget must be a function (got ${show(onForget)})`);
  }
  const hides = culler instanceof SpriteCuller;
  return observe(s.world, onRemove(s.position, s.bounds), (eid: number) => {
    const object = culler.get(eid);
    if (object === undefined) return;
    culler.delete(eid);
    if (hides) (object as Cullable).culled = true;
    onForget?.(eid, object);
  });
}
