import type { PairBuffer } from './pairlist.js';
import type { TreeIndex } from './tree.js';

/**
 * Cell-index margins, in cells: loose bounds reach 1.5 cells before a cell's index and 0.5
 * after it. The 1e-9 widening keeps float rounding from dropping a cell at the boundary.
 */
export const REACH = 1.5 + 1e-9;
export const NEAR = 0.5 + 1e-9;

/**
 * Levels deeper than this keep no tight cell bounds: 4^d boxes would cost more memory than
 * they save (at depth 9, 8 MB). Their cells are then tested item by item.
 */
const MAX_BOUNDS_DEPTH = 9;

/** A cell with more items than this reaches deeper levels item by item, not by its union. */
const UNION_LIMIT = 4;

/**
 * Every overlapping pair of the placed items in one pass, the way a uniform grid finds them,
 * but over the loose quadtree's cells as they are (nothing rebuilt):
 *
 * - Cells are taken level by level in row order; each pairs its items among themselves, with
 *   the forward half of its neighbours on its own level (right, and the row below), and with
 *   every deeper level's cells its items can reach. Each pair is then met exactly once.
 * - Each cell's tight bounds (the union of its items' boxes) are computed first. A cell pair
 *   whose bounds do not overlap is skipped whole, and an item is only tested against a cell
 *   its box overlaps: with items much smaller than the loose bounds, most neighbour cells
 *   hold nothing in reach.
 *
 * Reads only slot memory (box, id and collider copies), in order.
 */
export class PairSweep {
  /** Pair tests made by the last run. */
  tests = 0;
  private readonly tree: TreeIndex;
  private readonly touching: boolean;
  /** Per level: minX, minY, maxX, maxY of each cell's items (valid where the cell has items). */
  private readonly bounds: (Float64Array | null)[];
  private out: PairBuffer | null = null;
  /** Box of the items being paired (a cell's union, or one item's box): numbers stay unboxed. */
  private readonly union = new Float64Array(4);

  constructor(tree: TreeIndex, touching: boolean) {
    this.tree = tree;
    this.touching = touching;
    this.bounds = new Array<Float64Array | null>(tree.maxDepth + 1).fill(null);
  }

  /** Appends every overlapping pair the colliders allow to `out` as (lower id, higher id, pair priority). */
  run(out: PairBuffer): void {
    const tree = this.tree;
    this.out = out;
    this.tests = 0;
    this.computeBounds();
    const r = this.touching ? 2 : 1;
    for (let d = 0; d <= tree.maxDepth; d++) {
      if (tree.levelItems[d] === 0) continue;
      const cells = tree.levelSlots[d]!;
      const b = this.bounds[d];
      const side = 1 << d;
      for (let cy = 0, c = 0; cy < side; cy++) {
        for (let cx = 0; cx < side; cx++, c++) {
          const own = cells[2 * c + 1];
          if (own === 0) continue;
          const first = cells[2 * c];
          const end = first + own;
          this.pairWithin(first, end);
          const u = this.union;
          if (b !== null) {
            u[0] = b[4 * c];
            u[1] = b[4 * c + 1];
            u[2] = b[4 * c + 2];
            u[3] = b[4 * c + 3];
          } else {
            u[0] = u[1] = -Infinity;
            u[2] = u[3] = Infinity;
          }
          const last = side - 1;
          this.pairWithCells(first, end, d, cx + 1, cx + r > last ? last : cx + r, cy, cy);
          if (cy < last) this.pairWithCells(first, end, d, cx - r < 0 ? 0 : cx - r, cx + r > last ? last : cx + r, cy + 1, cy + r > last ? last : cy + r);
          if (b !== null && own <= UNION_LIMIT) {
            for (let deeper = d + 1; deeper <= tree.maxDepth; deeper++) {
              if (tree.levelItems[deeper] !== 0) this.pairWithReach(first, end, deeper);
            }
          } else {
            // Many items (the root's outsiders, a crowd) or no bounds: reach item by item.
            const box = tree.slots.box;
            for (let s = first; s < end; s++) {
              u[0] = box[4 * s];
              u[1] = box[4 * s + 1];
              u[2] = box[4 * s + 2];
              u[3] = box[4 * s + 3];
              for (let deeper = d + 1; deeper <= tree.maxDepth; deeper++) {
                if (tree.levelItems[deeper] !== 0) this.pairWithReach(s, s + 1, deeper);
              }
            }
          }
        }
      }
    }
    this.out = null;
  }

  /** Each cell's tight bounds, for levels that keep them. */
  private computeBounds(): void {
    const tree = this.tree;
    const box = tree.slots.box;
    for (let d = 0; d <= tree.maxDepth && d <= MAX_BOUNDS_DEPTH; d++) {
      if (tree.levelItems[d] === 0) continue;
      const cells = tree.levelSlots[d]!;
      let b = this.bounds[d];
      if (b === null) b = this.bounds[d] = new Float64Array(4 * cells.length / 2);
      for (let c = 0, count = cells.length >> 1; c < count; c++) {
        const own = cells[2 * c + 1];
        if (own === 0) continue;
        let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
        for (let s = cells[2 * c], end = s + own; s < end; s++) {
          if (box[4 * s] < x0) x0 = box[4 * s];
          if (box[4 * s + 1] < y0) y0 = box[4 * s + 1];
          if (box[4 * s + 2] > x1) x1 = box[4 * s + 2];
          if (box[4 * s + 3] > y1) y1 = box[4 * s + 3];
        }
        b[4 * c] = x0;
        b[4 * c + 1] = y0;
        b[4 * c + 2] = x1;
        b[4 * c + 3] = y1;
      }
    }
  }

  /** Pairs the items of slots [first, end) among themselves. */
  private pairWithin(first: number, end: number): void {
    const box = this.tree.slots.box;
    const touching = this.touching;
    this.tests += ((end - first) * (end - first - 1)) >> 1;
    for (let s = first; s < end - 1; s++) {
      const x0 = box[4 * s], y0 = box[4 * s + 1], x1 = box[4 * s + 2], y1 = box[4 * s + 3];
      for (let t = s + 1; t < end; t++) {
        if (touching
          ? x0 <= box[4 * t + 2] && box[4 * t] <= x1 && y0 <= box[4 * t + 3] && box[4 * t + 1] <= y1
          : x0 < box[4 * t + 2] && box[4 * t] < x1 && y0 < box[4 * t + 3] && box[4 * t + 1] < y1) {
          this.emit(s, t);
        }
      }
    }
  }

  /** Pairs slots [first, end), whose union is in `union`, with the cells of level `d` their loose bounds reach. */
  private pairWithReach(first: number, end: number, d: number): void {
    const tree = this.tree;
    const u = this.union;
    const inv = tree.invCellSize[d];
    const last = (1 << d) - 1;
    // Clamped before the conversion to an integer: boxes far outside the world give huge values.
    const lx = Math.ceil((u[0] - tree.originX) * inv - REACH);
    const hx = Math.floor((u[2] - tree.originX) * inv + NEAR);
    const ly = Math.ceil((u[1] - tree.originY) * inv - REACH);
    const hy = Math.floor((u[3] - tree.originY) * inv + NEAR);
    if (hx < 0 || hy < 0 || lx > last || ly > last) return;
    this.pairWithCells(first, end, d, lx < 0 ? 0 : lx | 0, hx > last ? last : hx | 0, ly < 0 ? 0 : ly | 0, hy > last ? last : hy | 0);
  }

  /**
   * Pairs the items of slots [first, end), whose union is in `union`, with the items of the
   * cells [fx0..fx1] x [fy0..fy1] of level `d` (inside the grid, possibly empty ranges).
   */
  private pairWithCells(first: number, end: number, d: number, fx0: number, fx1: number, fy0: number, fy1: number): void {
    const u = this.union;
    const x0 = u[0], y0 = u[1], x1 = u[2], y1 = u[3];
    const tree = this.tree;
    const cells = tree.levelSlots[d]!;
    const layers = tree.levelLayers[d]!;
    const b = this.bounds[d];
    const box = tree.slots.box;
    const meta = tree.slots.meta;
    const touching = this.touching;
    let tests = 0;
    for (let iy = fy0; iy <= fy1; iy++) {
      for (let c = (iy << d) + fx0, rowEnd = (iy << d) + fx1; c <= rowEnd; c++) {
        const own = cells[2 * c + 1];
        if (own === 0) continue;
        // The cell's bounds, or infinite ones on levels that keep none.
        let bx0 = -Infinity, by0 = -Infinity, bx1 = Infinity, by1 = Infinity;
        if (b !== null) {
          bx0 = b[4 * c];
          by0 = b[4 * c + 1];
          bx1 = b[4 * c + 2];
          by1 = b[4 * c + 3];
          if (touching ? x0 > bx1 || bx0 > x1 || y0 > by1 || by0 > y1 : x0 >= bx1 || bx0 >= x1 || y0 >= by1 || by0 >= y1) continue;
        }
        const from = cells[2 * c];
        const to = from + own;
        const cellLayers = layers[c];
        for (let s = first; s < end; s++) {
          const sx0 = box[4 * s], sy0 = box[4 * s + 1], sx1 = box[4 * s + 2], sy1 = box[4 * s + 3];
          // Skip the cell for this item when its box misses the cell's items or its mask all of their layers.
          if ((touching ? sx0 > bx1 || bx0 > sx1 || sy0 > by1 || by0 > sy1 : sx0 >= bx1 || bx0 >= sx1 || sy0 >= by1 || by0 >= sy1) ||
              (cellLayers & meta[4 * s + 1]) === 0) continue;
          tests += own;
          for (let t = from; t < to; t++) {
            if (touching
              ? sx0 <= box[4 * t + 2] && box[4 * t] <= sx1 && sy0 <= box[4 * t + 3] && box[4 * t + 1] <= sy1
              : sx0 < box[4 * t + 2] && box[4 * t] < sx1 && sy0 < box[4 * t + 3] && box[4 * t + 1] < sy1) {
              this.emit(s, t);
            }
          }
        }
      }
    }
    this.tests += tests;
  }

  /** Records the overlapping slots s and t as a pair unless their colliders filter it out. */
  private emit(s: number, t: number): void {
    const slots = this.tree.slots;
    const meta = slots.meta;
    if ((meta[4 * s] & meta[4 * t + 1]) === 0 || (meta[4 * t] & meta[4 * s + 1]) === 0 ||
        (meta[4 * s + 2] & meta[4 * t + 2]) !== 0) return;
    const out = this.out!;
    // Only the three columns a sort and merge read; the list's index and born stay unused.
    if (out.count === out.a.length) out.reserve(out.count * 2);
    const k = out.count++;
    const a = slots.id[s];
    const b = slots.id[t];
    const ps = meta[4 * s + 3];
    const pt = meta[4 * t + 3];
    out.a[k] = a < b ? a : b;
    out.b[k] = a < b ? b : a;
    out.priority[k] = ps < pt ? ps : pt;
  }
}
