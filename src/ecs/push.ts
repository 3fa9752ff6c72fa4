import { fail, show } from '../core/internal.js';
import type { NumberStore } from './components.js';
import { contactIn } from './queries.js';
import { stateOf } from './state.js';
import { markMovedIn } from './sync.js';

/** The contact pushOut reads, reused: it allocates nothing. */
const hit = { nx: 0, ny: 0, depth: 0, x: 0, y: 0 };

/**
 * Pushes `self` out of `other`, a pair of the last collision step, by their contact (see
 * `contact`): `self`'s Position moves against the normal by `share` of the depth (1, the
 * default, when `other` stays put, as a wall does; 0.5 each for two movers, called for both).
 * Given `self`'s velocity, the part of it running into `other` (`v · n > 0`) is taken away, or
 * bounced back times `restitution` (0 stops it, 1 bounces it whole). Returns the depth of the
 * contact (0 when they only touch, or have parted since the step). Allocates nothing.
 *
 * @example
 * onCollision(world, (spark, wall) => pushOut(world, spark, wall, Velocity, 0.5), { layer: SPARK, other: WALL });
 * @throws as `contact` does, and on a `share` outside 0..1 or a negative or non-finite `restitution`
 */
export function pushOut(
  world: object,
  self: number,
  other: number,
  velocity: { x: NumberStore; y: NumberStore } | null = null,
  restitution = 0,
  share = 1,
): number {
  if (!(share >= 0 && share <= 1)) fail(`pushOut of entity ${self}: share must be from 0 to 1 (got ${show(share)})`);
  if (!(restitution >= 0 && restitution < Infinity))
    fail(`pushOut of entity ${self}: restitution must be a finite number of 0 or more (got ${show(restitution)})`);
  const s = stateOf(world);
  const c = contactIn(s, self, other, hit);
  if (c.depth > 0 && share > 0) {
    s.position.x[self] -= c.nx * c.depth * share;
    s.position.y[self] -= c.ny * c.depth * share;
    // Seen by the next sync in either detect mode, a Static entity included.
    markMovedIn(s, self);
  }
  if (velocity !== null) {
    const into = velocity.x[self] * c.nx + velocity.y[self] * c.ny;
    if (into > 0) {
      velocity.x[self] -= (1 + restitution) * into * c.nx;
      velocity.y[self] -= (1 + restitution) * into * c.ny;
    }
  }
  return c.depth;
}
