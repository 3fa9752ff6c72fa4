import type { Contender, ContenderSpec, PairSum } from './contender.js';
import { CellCounts } from './cells.js';
import type { Scene } from './scene.js';

/** Cell side in px kept with --no-tune. */
export const DEFAULT_CELL = 32;
/** Cell sides in px swept per scene and N: from about the small items' size to the large ones'. */
export const GRID_CELLS = [16, 24, 32, 48, 64, 96];

/**
 * A uniform grid rebuilt every frame by counting sort on typed arrays. An item is entered in
 * every cell it overlaps, with a copy of its box so the pair loop reads memory in order. A
 * pair is reported only in the cell holding the top-left corner of the overlap rectangle:
 * that cell is (max of the two first columns, max of the two first rows), since floor is
 * monotonic, and both boxes cover it.
 */
class UniformGrid implements Contender {
  private readonly cell: number;
  private cells!: CellCounts;
  // Per entry, in cell order, interleaved so one entry is one or two cache lines:
  // box (minX, minY, maxX, maxY) and tag (id, first column, first row).
  private box = new Float64Array(0);
  private tag = new Int32Array(0);

  constructor(cell: number) {
    this.cell = cell;
  }

  setup(scene: Scene): void {
    this.cells = new CellCounts(scene.side, this.cell, scene.n);
    this.reserve(scene.n * 2);
  }

  frame(scene: Scene, sum: PairSum): void {
    this.build(scene);
    const { box, tag } = this;
    const { start, cols } = this.cells;
    for (let r = 0, cell = 0; r < cols; r++) {
      for (let c = 0; c < cols; c++, cell++) {
        const s = start[cell];
        const e = start[cell + 1];
        for (let p = s; p < e - 1; p++) {
          const x0 = box[4 * p],
            y0 = box[4 * p + 1],
            x1 = box[4 * p + 2],
            y1 = box[4 * p + 3];
          const cp = tag[3 * p + 1],
            rp = tag[3 * p + 2];
          for (let q = p + 1; q < e; q++) {
            if (x0 < box[4 * q + 2] && box[4 * q] < x1 && y0 < box[4 * q + 3] && box[4 * q + 1] < y1) {
              const cq = tag[3 * q + 1],
                rq = tag[3 * q + 2];
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
    const { c0, c1, r0, r1, start, cols } = this.cells;
    const total = this.cells.count(minX, minY, maxX, maxY, n);
    if (3 * total > this.tag.length) this.reserve(total * 1.5);
    const { box, tag } = this;
    for (let i = n - 1; i >= 0; i--) {
      const a = c0[i],
        b = c1[i],
        u = r0[i],
        v = r1[i];
      const x0 = minX[i],
        y0 = minY[i],
        x1 = maxX[i],
        y1 = maxY[i];
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
  }

  private reserve(size: number): void {
    const cap = Math.ceil(size);
    this.box = new Float64Array(4 * cap);
    this.tag = new Int32Array(3 * cap);
  }
}

export function gridSpec(cell = DEFAULT_CELL): ContenderSpec {
  return {
    key: 'grid',
    name: 'uniform grid',
    note: `${cell} px cells, rebuilt every frame by counting sort into typed arrays (boxes copied in cell order); each pair reported only in the cell holding its overlap's top-left corner`,
    tuning: { what: 'cell px', candidates: GRID_CELLS, fallback: DEFAULT_CELL, build: gridSpec },
    create: () => new UniformGrid(cell),
  };
}
