import { fit } from '../grow.js';

/** Changes of every run at once (a step, a restore, a clear): an index built before one is stale. */
let epoch = 0;

/** Marks every run index stale: the runs may have changed without their class counting a move. */
export function runsReplaced(): void {
  epoch++;
}

/** Cells a side at most: 2^20 cells, 4 MB of starts, for runs of two million places. */
const MAX_SIDE = 1024;

/** Queries that scan a run as it is before the next one builds its cells: a build costs about four scans. */
const SCANS_BEFORE_BUILD = 4;

/**
 * A grid over a detached class's run, so queries read cells, not the run: each place is in its top-left corner's cell.
 * Built once a few queries scanned one version: a run changes about once a frame and is mostly read once or twice.
 */
export class RunIndex {
  /** The run's version (epoch, moves counted since the step) the last query saw, how often, and the grid's. */
  private seenEpoch = -1;
  private seenMoves = -1;
  private scans = 0;
  private builtEpoch = -1;
  private builtMoves = -1;
  /** Per cell, its first entry; `start[side * side]` is the entry count. */
  private start = new Int32Array(2);
  /** Run places, by cell; and each place's cell, while building. */
  private places = new Int32Array(64);
  private keys = new Int32Array(64);
  private side = 1;
  /** The grid's origin, 1 / cell size per axis, and the run's largest box size per axis. */
  private readonly frame = new Float64Array(6);

  /**
   * Whether to read the run of `count` places from slot `first` through the grid: true when the grid holds the run as
   * it is now (`moves`: its class's moves counted since the step), built now when enough queries scanned it so.
   */
  use(box: Float32Array, first: number, count: number, ids: Int32Array, moves: number): boolean {
    if (this.builtEpoch === epoch && this.builtMoves === moves) return true;
    if (this.seenEpoch !== epoch || this.seenMoves !== moves) {
      this.seenEpoch = epoch;
      this.seenMoves = moves;
      this.scans = 0;
    }
    if (++this.scans <= SCANS_BEFORE_BUILD) return false;
    this.build(box, first, count, ids);
    this.builtEpoch = epoch;
    this.builtMoves = moves;
    return true;
  }

  /** Lists the run's places (holes, named by `ids[place] < 0`, left out) by cell. */
  private build(box: Float32Array, first: number, count: number, ids: Int32Array): void {
    let minX = Infinity,
      minY = Infinity,
      maxX = -Infinity,
      maxY = -Infinity,
      sizeX = 0,
      sizeY = 0,
      n = 0;
    for (let i = 0, b = 4 * first; i < count; i++, b += 4) {
      if (ids[i] < 0) continue;
      const x = box[b],
        y = box[b + 1];
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (box[b + 2] - x > sizeX) sizeX = box[b + 2] - x;
      if (box[b + 3] - y > sizeY) sizeY = box[b + 3] - y;
      n++;
    }
    // About two places a cell.
    const side = Math.max(1, Math.min(MAX_SIDE, Math.round(Math.sqrt(n / 2))));
    const f = this.frame;
    f[0] = minX;
    f[1] = minY;
    f[2] = maxX > minX ? side / (maxX - minX) : 0;
    f[3] = maxY > minY ? side / (maxY - minY) : 0;
    // A hair more: the query's reach back, computed with rounding, must not fall short of a corner.
    f[4] = sizeX * (1 + 2 ** -40);
    f[5] = sizeY * (1 + 2 ** -40);
    this.side = side;
    const cells = side * side;
    const start = (this.start = fit(this.start, cells + 1));
    start.fill(0, 0, cells + 1);
    // Each place's cell first, counted; the cells' starts; then the places, backwards so each cell keeps run order.
    const keys = (this.keys = fit(this.keys, count));
    for (let i = 0, b = 4 * first; i < count; i++, b += 4) {
      if (ids[i] < 0) continue;
      const c = this.cell(box[b + 1], 1) * side + this.cell(box[b], 0);
      keys[i] = c;
      start[c]++;
    }
    for (let c = 1; c <= cells; c++) start[c] += start[c - 1];
    const places = (this.places = fit(this.places, n));
    for (let i = count - 1; i >= 0; i--) if (ids[i] >= 0) places[--start[keys[i]]] = i;
  }

  /** Writes into `out` (grown as needed, returned) the places whose box may meet the closed box; see {@link count}. */
  gather(x0: number, y0: number, x1: number, y1: number, out: Int32Array): Int32Array {
    const f = this.frame;
    const side = this.side;
    // Top-left corners as far back as the largest box reaches.
    const c0 = this.cell(x0 - f[4], 0),
      c1 = this.cell(x1, 0),
      r0 = this.cell(y0 - f[5], 1),
      r1 = this.cell(y1, 1);
    this.count = 0;
    const start = this.start;
    const places = this.places;
    for (let r = r0; r <= r1; r++) {
      const from = start[r * side + c0],
        to = start[r * side + c1 + 1];
      if (this.count + to - from > out.length) out = fit(out, this.count + to - from);
      for (let e = from; e < to; e++) out[this.count++] = places[e];
    }
    return out;
  }

  /** Places the last {@link gather} wrote. */
  count = 0;

  /** The grid column (axis 0) or row (axis 1) of coordinate v, clamped to the grid (NaN to 0). */
  private cell(v: number, axis: number): number {
    const c = (v - this.frame[axis]) * this.frame[2 + axis];
    return c >= 1 ? (c < this.side ? c | 0 : this.side - 1) : 0;
  }
}
