import { FLOAT32_RANGE, isBits32, isSquare, PREFIX, show } from '../core/internal.js';
import { DEFAULT_COLLIDER } from './components.js';
import type { QuadtreeState } from './state.js';

/** Outcomes of reading an entity's components. */
export const VALID = 0;
export const BAD_BOX = 1;
export const NO_POSITION = 2;
export const BEYOND_LIMIT = 3;
export const BAD_COLLIDER = 4;
export const BAD_CIRCLE = 5;

/**
 * True when the box of centre (x, y) and size (w, h) is one the tree accepts: every value
 * finite, sizes not negative, corners within float32's range (the tree stores them in
 * float32). Written so that NaN and undefined fail.
 */
export function validBox(x: number, y: number, w: number, h: number): boolean {
  const hw = w * 0.5;
  const hh = h * 0.5;
  const dx = Math.fround(x + hw) - Math.fround(x - hw);
  const dy = Math.fround(y + hh) - Math.fround(y - hh);
  // NaN fails every comparison; a corner past float32's range makes dx Infinity or NaN.
  return w >= 0 && h >= 0 && dx < Infinity && dy < Infinity;
}

/**
 * True when a circle's box of centre (x, y) and size (w, h) is square: the corners the tree
 * is handed, to within the rounding the core allows (see the core's `setShape`).
 */
export function squareBox(x: number, y: number, w: number, h: number): boolean {
  const hw = w * 0.5;
  const hh = h * 0.5;
  return isSquare(x - hw, y - hh, x + hw, y + hh);
}

/** Reads an entity's Collider (defaults when absent or unwritten) into `s.colliderRead`. */
export function readCollider(s: QuadtreeState, eid: number, has: boolean): number {
  const collider = s.colliderRead;
  if (!has) {
    collider.layer = DEFAULT_COLLIDER.layer;
    collider.mask = DEFAULT_COLLIDER.mask;
    collider.priority = DEFAULT_COLLIDER.priority;
    return VALID;
  }
  const c = s.collider;
  const layer = c.layer[eid] ?? DEFAULT_COLLIDER.layer;
  const mask = c.mask[eid] ?? DEFAULT_COLLIDER.mask;
  const priority = c.priority[eid] ?? DEFAULT_COLLIDER.priority;
  if (
    !isBits32(layer) ||
    (layer | 0) === 0 ||
    !isBits32(mask) ||
    !Number.isInteger(priority) ||
    priority < 0 ||
    priority > 255
  ) {
    return BAD_COLLIDER;
  }
  collider.layer = layer | 0;
  collider.mask = mask | 0;
  collider.priority = priority;
  return VALID;
}

/** The error message for an entity that failed a check, naming the field and the value. */
export function describe(s: QuadtreeState, eid: number, code: number): string {
  return PREFIX + `entity ${eid} ` + reason(s, eid, code);
}

function reason(s: QuadtreeState, eid: number, code: number): string {
  if (code === BEYOND_LIMIT) {
    return `is past the id limit: ids must be below ${s.idLimit} (raise option maxId)`;
  }
  if (code === NO_POSITION) return 'has Bounds but no Position: add Position too, or remove Bounds';
  if (code === BAD_COLLIDER) {
    const c = s.collider;
    const layer = c.layer[eid] ?? DEFAULT_COLLIDER.layer;
    const mask = c.mask[eid] ?? DEFAULT_COLLIDER.mask;
    const priority = c.priority[eid] ?? DEFAULT_COLLIDER.priority;
    if (!isBits32(layer)) return `has a Collider.layer that is not a 32-bit integer (got ${show(layer)})`;
    if ((layer | 0) === 0) return 'has Collider.layer 0: it would match no mask (got 0)';
    if (!isBits32(mask)) return `has a Collider.mask that is not a 32-bit integer (got ${show(mask)})`;
    return `has a Collider.priority outside the integers 0..255 (got ${show(priority)})`;
  }
  const x = s.position.x[eid];
  const y = s.position.y[eid];
  const w = s.bounds.width[eid];
  const h = s.bounds.height[eid];
  // Undefined when never written (bitECS stores are plain arrays, whatever their type says).
  const hint = (v: number | undefined): string =>
    v === undefined ? ': write Position and Bounds before the sync system runs' : '';
  if (!finite(x)) return `has a non-finite Position.x (got ${show(x)})${hint(x)}`;
  if (!finite(y)) return `has a non-finite Position.y (got ${show(y)})${hint(y)}`;
  if (!finite(w)) return `has a non-finite Bounds.width (got ${show(w)})${hint(w)}`;
  if (!finite(h)) return `has a non-finite Bounds.height (got ${show(h)})${hint(h)}`;
  if (w < 0) return `has a negative Bounds.width (got ${show(w)})`;
  if (h < 0) return `has a negative Bounds.height (got ${show(h)})`;
  if (code === BAD_CIRCLE || (validBox(x, y, w, h) && !squareBox(x, y, w, h))) {
    return (
      `is a Circle but its Bounds are not square (Bounds.width ${show(w)}, Bounds.height ${show(h)}): ` +
      'a circle is inscribed in its box, diameter Bounds.width'
    );
  }
  return (
    `has a box past float32's range (Position.x ${show(x)}, Position.y ${show(y)}, ` +
    `Bounds.width ${show(w)}, Bounds.height ${show(h)}): ${FLOAT32_RANGE}`
  );
}

function finite(v: unknown): boolean {
  return typeof v === 'number' && Number.isFinite(v);
}
