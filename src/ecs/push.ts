import { boxesOverlap, fail, show } from '../core/internal.js';
import type { NumberStore } from './components.js';
import { contactIn } from './queries.js';
import { stateOf, type QuadtreeState } from './state.js';
import { squareBox, validBox } from './check.js';
import { markMovedIn } from './sync.js';

/** The contact pushOut reads, reused: it allocates nothing. */
const hit = { nx: 0, ny: 0, depth: 0, x: 0, y: 0 };

/**
 * Pushes `self` out of `other`, a pair of the last collision step, by their contact (see
 * `contact`): `self`'s Position moves against the normal by `share` of the depth (1, the
 * default, when `other` stays put, as a wall does; 0.5 each for two movers, called for both).
 * Given `self`'s velocity, the part of it running into `other` (`v · n > 0`) is taken away, or
 * bounced back times `restitution` (0 stops it, 1 bounces it whole). A `Swept` `self` that
 * passed through `other` within the frame is put back where it first touched it, and its path
 * starts again there: a fast ship stops at a thin wall rather than beyond it. Returns the depth
 * of the contact (0 when they only touch, or have parted since the step). Allocates nothing.
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
  const swept = s.entities.swept[self] === 1;
  if (c.depth > 0 && share > 0) {
    s.position.x[self] -= c.nx * c.depth * share;
    s.position.y[self] -= c.ny * c.depth * share;
    // Seen by the next sync in either detect mode, a Static entity included.
    if (!swept || !restartPath(s, self)) markMovedIn(s, self);
  } else if (share > 0 && swept) {
    rewind(s, self, other);
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

/** The last step's path of a swept entity (see getPath), and the box of what it met, reused. */
const from = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
const to = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
const met = { minX: 0, minY: 0, maxX: 0, maxY: 0 };

/**
 * Puts a swept entity that met `other` within the frame, and is clear of it now, back where they first touched (unless
 * it was inside `other` then: it was leaving), its path starting again there.
 */
function rewind(s: QuadtreeState, self: number, other: number): void {
  const tree = s.tree;
  const toi = tree.timeOfImpact(self, other);
  if (!(toi >= 0)) return;
  tree.getPath(self, from, to);
  const minX = from.minX + toi * (to.minX - from.minX),
    minY = from.minY + toi * (to.minY - from.minY),
    maxX = from.maxX + toi * (to.maxX - from.maxX),
    maxY = from.maxY + toi * (to.maxY - from.maxY);
  tree.getBox(other, met);
  if (boxesOverlap(minX, minY, maxX, maxY, met.minX, met.minY, met.maxX, met.maxY, false)) return;
  s.position.x[self] = minX * 0.5 + maxX * 0.5;
  s.position.y[self] = minY * 0.5 + maxY * 0.5;
  if (!restartPath(s, self)) markMovedIn(s, self);
  if (toi === 0) {
    // Touching at the path's start, where a push left it: the contact's normal is the shapes' now (beyond), so the
    // face they touch along gives the one the velocity is taken against.
    hit.nx = maxX <= met.minX ? 1 : minX >= met.maxX ? -1 : 0;
    hit.ny = hit.nx !== 0 ? 0 : maxY <= met.minY ? 1 : minY >= met.maxY ? -1 : 0;
  }
}

/**
 * Moves a swept entity's box in the tree to its Position now, its path starting there: the next step tests the way on
 * from where a push left it, not the way back from where the last step did. False if its values make no box.
 */
function restartPath(s: QuadtreeState, self: number): boolean {
  const x = s.position.x[self],
    y = s.position.y[self],
    w = s.bounds.width[self],
    h = s.bounds.height[self];
  // Bad values (a circle's unsquare box too) are the sync's to hold out, as its reread does.
  if (!validBox(x, y, w, h) || (w !== h && s.entities.circle[self] === 1 && !squareBox(x, y, w, h))) return false;
  s.tree.moveTo(self, x - w * 0.5, y - h * 0.5, x + w * 0.5, y + h * 0.5);
  return true;
}
