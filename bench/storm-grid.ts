import type { Contender, ContenderSpec, PairSum } from './contender.js';
import { CellCounts, clamp } from './cells.js';
import type { StormScene } from './storm-scene.js';

/** Cell side in px kept with --no-tune. */
export const STORM_CELL = 128;
/** Cell sides in px swept per N: from under an actor's size to about a long wall's. */
export const STORM_CELLS = [16, 24, 32, 48, 64, 96, 128];

/**
 * What a game programmer would write for the storm: the walls and actors (the "solids")
 * counting-sorted into a uniform grid every frame, boxes copied in cell order; then every
 * actor and every dust particle probes the cells its box covers. Dust never meets dust
 * because dust is never in the grid. A pair found in several cells is reported only in the
 * cell holding the top-left corner of its overlap (max of the two first columns and rows);
 * two actors find each other, so the lower id reports.
 */
class StormGrid implements Contender<StormScene> {
  private readonly cell: number;
  private cells!: CellCounts;
  // Per entry, in cell order: box (minX, minY, maxX, maxY), tag (id, first column, first row, layer, mask).
  private box = new Float64Array(0);
  private tag = new Int32Array(0);

  constructor(cell: number) {
    this.cell = cell;
  }

  setup(scene: StormScene): void {
    const solids = scene.firstDust;
    this.cells = new CellCounts(scene.side, this.cell, solids);
    this.reserve(solids * 4);
  }

  frame(scene: StormScene, sum: PairSum): void {
    this.build(scene);
    this.probe(scene, scene.firstActor, scene.firstDust, scene.firstActor, sum);
    this.probe(scene, scene.firstDust, scene.n, scene.n, sum);
  }

  /**
   * Items from..to-1 each test the solids in the cells their box covers. A solid whose id is
   * in probers..i is skipped: itself, or a fellow prober of lower id that reported the pair.
   */
  private probe(scene: StormScene, from: number, to: number, probers: number, sum: PairSum): void {
    const { minX, minY, maxX, maxY, layer, mask } = scene;
    const { box, tag } = this;
    const { start, inv, cols } = this.cells;
    const last = cols - 1;
    for (let i = from; i < to; i++) {
      const x0 = minX[i],
        y0 = minY[i],
        x1 = maxX[i],
        y1 = maxY[i];
      const li = layer[i],
        mi = mask[i];
      const a = clamp(Math.floor(x0 * inv), last),
        b = clamp(Math.floor(x1 * inv), last);
      const u = clamp(Math.floor(y0 * inv), last),
        v = clamp(Math.floor(y1 * inv), last);
      for (let r = u; r <= v; r++) {
        for (let c = a; c <= b; c++) {
          const cell = r * cols + c;
          for (let p = start[cell], e = start[cell + 1]; p < e; p++) {
            if (!(x0 < box[4 * p + 2] && box[4 * p] < x1 && y0 < box[4 * p + 3] && box[4 * p + 1] < y1)) continue;
            const j = tag[5 * p];
            if ((j >= probers && j <= i) || (mi & tag[5 * p + 3]) === 0 || (tag[5 * p + 4] & li) === 0) continue;
            const cj = tag[5 * p + 1],
              rj = tag[5 * p + 2];
            if ((a > cj ? a : cj) === c && (u > rj ? u : rj) === r) sum.add(i, j);
          }
        }
      }
    }
  }

  /** Counting sort of the solids' entries by cell: cell k gets entries start[k]..start[k+1]-1. */
  private build(scene: StormScene): void {
    const { minX, minY, maxX, maxY, layer, mask } = scene;
    const solids = scene.firstDust;
    const { c0, c1, r0, r1, start, cols } = this.cells;
    const total = this.cells.count(minX, minY, maxX, maxY, solids);
    if (5 * total > this.tag.length) this.reserve(total * 1.5);
    const { box, tag } = this;
    for (let i = solids - 1; i >= 0; i--) {
      const a = c0[i],
        b = c1[i],
        u = r0[i],
        v = r1[i];
      for (let r = u; r <= v; r++) {
        for (let c = a; c <= b; c++) {
          const p = --start[r * cols + c];
          box[4 * p] = minX[i];
          box[4 * p + 1] = minY[i];
          box[4 * p + 2] = maxX[i];
          box[4 * p + 3] = maxY[i];
          tag[5 * p] = i;
          tag[5 * p + 1] = a;
          tag[5 * p + 2] = u;
          tag[5 * p + 3] = layer[i];
          tag[5 * p + 4] = mask[i];
        }
      }
    }
  }

  private reserve(size: number): void {
    const cap = Math.ceil(size);
    this.box = new Float64Array(4 * cap);
    this.tag = new Int32Array(5 * cap);
  }
}

export function stormGrid(cell = STORM_CELL): ContenderSpec<StormScene> {
  return {
    key: 'grid',
    name: 'hand-written grid',
    note:
      `${cell} px cells; every frame the walls and actors are counting-sorted into typed arrays (boxes ` +
      'copied in cell order), then every actor and dust particle probes the cells its box covers, with the layer/mask ' +
      "test; a pair is reported in the cell of its overlap's top-left corner, by the lower id between two actors",
    tuning: { what: 'cell px', candidates: STORM_CELLS, fallback: STORM_CELL, build: stormGrid },
    create: () => new StormGrid(cell),
  };
}

export const stormGridSpec = stormGrid();
