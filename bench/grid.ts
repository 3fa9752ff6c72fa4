import type { Contender, ContenderSpec, PairSum } from './contender.js';
import type { Scene } from './scene.js';

/** Cell side in px used in the table. */
export const DEFAULT_CELL = 32;

/**
 * A uniform grid rebuilt every frame by counting sort on typed arrays. An item is entered in
 * every cell it overlaps, with a copy of its box so the pair loop reads memory in order. A
 * pair is reported only in the cell holding the top-left corner of the overlap rectangle:
 * that cell is (max of the two first columns, max of the two first rows), since floor is
 * monotonic, and both boxes cover it.
 */
class UniformGrid implements Contender {
  private readonly cell: number;
  private cols = 0;
  private rows = 0;
  private inv = 0;
  // Per item: first and last column and row.
  private c0 = new Int32Array(0);
  private c1 = new Int32Array(0);
  private r0 = new Int32Array(0);
  private r1 = new Int32Array(0);
  // Per cell: first entry of its run; start[cells] is the entry count.
  private start = new Int32Array(0);
  // Per entry, in cell order, interleaved so one entry is one or two cache lines:
  // box (minX, minY, maxX, maxY) and tag (id, first column, first row).
  private box = new Float64Array(0);
  private tag = new Int32Array(0);

  constructor(cell: number) {
    this.cell = cell;
  }

  setup(scene: Scene): void {
    this.cols = Math.max(1, Math.ceil(scene.side / this.cell));
    this.rows = this.cols;
    this.inv = 1 / this.cell;
    this.c0 = new Int32Array(scene.n);
    this.c1 = new Int32Array(scene.n);
    this.r0 = new Int32Array(scene.n);
    this.r1 = new Int32Array(scene.n);
    this.start = new Int32Array(this.cols * this.rows + 1);
    this.reserve(scene.n * 2);
  }

  frame(scene: Scene, sum: PairSum): void {
    this.build(scene);
    const { start, box, tag, cols, rows } = this;
    for (let r = 0, cell = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++, cell++) {
        const s = start[cell];
        const e = start[cell + 1];
        for (let p = s; p < e - 1; p++) {
          const x0 = box[4 * p], y0 = box[4 * p + 1], x1 = box[4 * p + 2], y1 = box[4 * p + 3];
          const cp = tag[3 * p + 1], rp = tag[3 * p + 2];
          for (let q = p + 1; q < e; q++) {
            if (x0 < box[4 * q + 2] && box[4 * q] < x1 && y0 < box[4 * q + 3] && box[4 * q + 1] < y1) {
              const cq = tag[3 * q + 1], rq = tag[3 * q + 2];
              if ((cp > cq ? cp : cq) === c && (rp > rq ? rp : rq) === r) sum.add(tag[3 * p], tag[3 * q]);
            }
          }
        }
      }
    }
  }

  /** Counting sort of the entries by cell: cell k gets entries start[k]..start[k+1]-1. */
  private build(scene: Scene): void {
    const { n, minX, minY, maxX, maxY } = scene;
    const { c0, c1, r0, r1, start, inv, cols } = this;
    const cells = cols * this.rows;
    const last = cols - 1;
    start.fill(0);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const a = clamp(Math.floor(minX[i] * inv), last), b = clamp(Math.floor(maxX[i] * inv), last);
      const u = clamp(Math.floor(minY[i] * inv), last), v = clamp(Math.floor(maxY[i] * inv), last);
      c0[i] = a;
      c1[i] = b;
      r0[i] = u;
      r1[i] = v;
      for (let r = u; r <= v; r++) for (let c = a; c <= b; c++) start[r * cols + c]++;
      total += (b - a + 1) * (v - u + 1);
    }
    // Inclusive prefix sums give each run's end; filling backwards moves them to the start.
    for (let k = 1; k < cells; k++) start[k] += start[k - 1];
    if (3 * total > this.tag.length) this.reserve(total * 1.5);
    const { box, tag } = this;
    for (let i = n - 1; i >= 0; i--) {
      const a = c0[i], b = c1[i], u = r0[i], v = r1[i];
      const x0 = minX[i], y0 = minY[i], x1 = maxX[i], y1 = maxY[i];
      for (let r = u; r <= v; r++) {
        for (let c = a; c <= b; c++) {
          const p = --start[r * cols + c];
          box[4 * p] = x0;
          box[4 * p + 1] = y0;
          box[4 * p + 2] = x1;
          box[4 * p + 3] = y1;
          tag[3 * p] = i;
          tag[3 * p + 1] = a;
          tag[3 * p + 2] = u;
        }
      }
    }
    start[cells] = total;
  }

  private reserve(size: number): void {
    const cap = Math.ceil(size);
    this.box = new Float64Array(4 * cap);
    this.tag = new Int32Array(3 * cap);
  }
}

function clamp(v: number, last: number): number {
  return v < 0 ? 0 : v > last ? last : v;
}

export function gridSpec(cell = DEFAULT_CELL): ContenderSpec {
  return {
    key: 'grid',
    name: 'uniform grid',
    note: `${cell} px cells, rebuilt every frame by counting sort into typed arrays (boxes copied in cell order); each pair reported only in the cell holding its overlap's top-left corner`,
    create: () => new UniformGrid(cell),
  };
}
