/**
 * The first half of a counting sort into a square grid of uniform cells, shared by the
 * hand-written grid contenders: each item's covered columns and rows, each cell's entry
 * count, and prefix sums that leave each cell's run end in `start`. The caller then fills
 * its entries backwards (`--start[cell]`), which moves each run end to its start.
 */
export class CellCounts {
  readonly cols: number;
  readonly inv: number;
  /** Per item: first and last column and row. */
  readonly c0: Int32Array;
  readonly c1: Int32Array;
  readonly r0: Int32Array;
  readonly r1: Int32Array;
  /** Per cell: its run's end after {@link count}, its start once the caller has filled it; `start[cells]` is free for the total. */
  readonly start: Int32Array;

  constructor(side: number, cell: number, items: number) {
    this.cols = Math.max(1, Math.ceil(side / cell));
    this.inv = 1 / cell;
    this.c0 = new Int32Array(items);
    this.c1 = new Int32Array(items);
    this.r0 = new Int32Array(items);
    this.r1 = new Int32Array(items);
    this.start = new Int32Array(this.cols * this.cols + 1);
  }

  /** Counts items 0..n-1 into the cells their boxes cover (clamped onto the grid). Returns the entries. */
  count(minX: Float64Array, minY: Float64Array, maxX: Float64Array, maxY: Float64Array, n: number): number {
    const { c0, c1, r0, r1, start, inv, cols } = this;
    const cells = cols * cols;
    const last = cols - 1;
    start.fill(0);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const a = clamp(Math.floor(minX[i] * inv), last),
        b = clamp(Math.floor(maxX[i] * inv), last);
      const u = clamp(Math.floor(minY[i] * inv), last),
        v = clamp(Math.floor(maxY[i] * inv), last);
      c0[i] = a;
      c1[i] = b;
      r0[i] = u;
      r1[i] = v;
      for (let r = u; r <= v; r++) for (let c = a; c <= b; c++) start[r * cols + c]++;
      total += (b - a + 1) * (v - u + 1);
    }
    // Inclusive prefix sums give each run's end; filling backwards moves them to the start.
    for (let k = 1; k < cells; k++) start[k] += start[k - 1];
    start[cells] = total;
    return total;
  }
}

export function clamp(v: number, last: number): number {
  return v < 0 ? 0 : v > last ? last : v;
}
