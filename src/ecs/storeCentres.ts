import { CIRCLE, isSquare, type SpatialTree } from '../core/internal.js';

/** Numbers by id: a plain array, a typed array or any indexable store. */
type Numbers = { readonly [id: number]: number };

/** Rounds to float32, as the slots store a box's corners. */
const fround = Math.fround;

/** True when a centre's half sizes and the corners made from them give a box: one inlinable test, not four. */
function makesBox(hw: number, hh: number, minX: number, minY: number, maxX: number, maxY: number): boolean {
  return (+(hw >= 0) & +(hh >= 0) & +(maxX - minX < Infinity) & +(maxY - minY < Infinity)) !== 0;
}

/**
 * Stores detached class k's boxes at list places [from, to) from per-id centres and full sizes: the core's `move` for
 * a whole class without a call per item, reading the components in id order as the class's run keeps them. Returns
 * the place of the first member with no valid box (or an unsquare circle), else -1; the changed count in `moved`.
 */
export function storeCentres(
  tree: SpatialTree,
  k: number,
  from: number,
  to: number,
  px: Numbers,
  py: Numbers,
  bw: Numbers,
  bh: Numbers,
): number {
  const C = tree.classes;
  const ids = C.ids[k];
  const box = tree.slots.box;
  const base = 4 * C.listStart[k];
  let changed = 0;
  const end = to < C.end[k] ? to : C.end[k];
  const round = C.round[k] > 0;
  let i = from;
  for (; i < end; i++) {
    const id = ids[i];
    if (id < 0) continue;
    const x = px[id],
      y = py[id],
      hw = bw[id] * 0.5,
      hh = bh[id] * 0.5;
    // The corners as the slot holds them (float32): past its range they are infinite.
    const minX = fround(x - hw),
      minY = fround(y - hh),
      maxX = fround(x + hw),
      maxY = fround(y + hh);
    if (!makesBox(hw, hh, minX, minY, maxX, maxY)) break;
    if (round && hw !== hh && tree.items.hasFlag(id, CIRCLE) && !isSquare(x - hw, y - hh, x + hw, y + hh)) break;
    const b = base + 4 * i;
    if (box[b] === minX && box[b + 1] === minY && box[b + 2] === maxX && box[b + 3] === maxY) continue;
    box[b] = minX;
    box[b + 1] = minY;
    box[b + 2] = maxX;
    box[b + 3] = maxY;
    changed++;
  }
  C.moved[k] += changed;
  return i < end ? i : -1;
}
