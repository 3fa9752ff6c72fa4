import type { Contender, ContenderSpec, PairSum } from './contender.js';
import { CellCounts, clamp } from './cells.js';
import { EFFECTS, ParticleArrays, type EffectsScene } from './effects-scene.js';

/** Cell side in px. */
export const EFFECTS_CELL = 128;

/**
 * What a game programmer would write for the effects, the whole job: particles in typed
 * arrays (born, aged, removed by swap-remove, moved with drag), walls and actors
 * counting-sorted into a uniform grid every frame (boxes copied in cell order), then every
 * actor and particle probes the cells its box covers. Particles are never in the grid, so
 * they never meet each other. A pair is reported in the cell of its overlap's top-left
 * corner; two actors find each other, so the lower uid reports.
 */
class EffectsGrid implements Contender<EffectsScene> {
  private cells!: CellCounts;
  private particles!: ParticleArrays;
  /** Walls then actors: corners, layer, mask, priority. */
  private minX!: Float64Array;
  private minY!: Float64Array;
  private maxX!: Float64Array;
  private maxY!: Float64Array;
  private layer!: Int32Array;
  private mask!: Int32Array;
  private priority!: Int32Array;
  // Per entry, in cell order: box, then tag (uid, first column, first row, layer, mask, priority).
  private box = new Float64Array(0);
  private tag = new Int32Array(0);

  setup(scene: EffectsScene): void {
    const solids = scene.firstDust;
    this.cells = new CellCounts(scene.side, EFFECTS_CELL, solids);
    this.minX = new Float64Array(solids);
    this.minY = new Float64Array(solids);
    this.maxX = new Float64Array(solids);
    this.maxY = new Float64Array(solids);
    this.layer = new Int32Array(solids);
    this.mask = new Int32Array(solids);
    this.priority = new Int32Array(solids);
    for (let i = 0; i < solids; i++) {
      const kind = i < scene.firstActor ? EFFECTS.walls : EFFECTS.actors;
      this.layer[i] = kind.layer;
      this.mask[i] = kind.mask;
      this.priority[i] = kind.priority;
    }
    this.copySolids(scene, 0);
    this.reserve(solids * 4);
    this.particles = new ParticleArrays(scene.target * 2);
    this.particles.add(scene, null);
  }

  frame(scene: EffectsScene, sum: PairSum): void {
    this.particles.step(scene, null, null);
    this.copySolids(scene, scene.firstActor);
    this.build(scene);
    this.probeActors(scene, sum);
    this.probeParticles(sum);
  }

  /** Solids from..end take their boxes from the scene (the actors moved). */
  private copySolids(scene: EffectsScene, from: number): void {
    for (let i = from; i < scene.firstDust; i++) {
      const hw = scene.w[i] * 0.5;
      const hh = scene.h[i] * 0.5;
      this.minX[i] = scene.x[i] - hw;
      this.minY[i] = scene.y[i] - hh;
      this.maxX[i] = scene.x[i] + hw;
      this.maxY[i] = scene.y[i] + hh;
    }
  }

  /** Actors probe the solids: actor-wall pairs, and actor-actor pairs reported by the lower uid. */
  private probeActors(scene: EffectsScene, sum: PairSum): void {
    const { box, tag, minX, minY, maxX, maxY, layer, mask, priority } = this;
    const { start, inv, cols } = this.cells;
    const last = cols - 1;
    for (let i = scene.firstActor; i < scene.firstDust; i++) {
      const x0 = minX[i],
        y0 = minY[i],
        x1 = maxX[i],
        y1 = maxY[i];
      const li = layer[i],
        mi = mask[i],
        pi = priority[i];
      const a = clamp(Math.floor(x0 * inv), last),
        b = clamp(Math.floor(x1 * inv), last);
      const u = clamp(Math.floor(y0 * inv), last),
        v = clamp(Math.floor(y1 * inv), last);
      for (let r = u; r <= v; r++) {
        for (let c = a; c <= b; c++) {
          const cell = r * cols + c;
          for (let p = start[cell], e = start[cell + 1]; p < e; p++) {
            if (!(x0 < box[4 * p + 2] && box[4 * p] < x1 && y0 < box[4 * p + 3] && box[4 * p + 1] < y1)) continue;
            const j = tag[6 * p];
            if ((j >= scene.firstActor && j <= i) || (mi & tag[6 * p + 3]) === 0 || (tag[6 * p + 4] & li) === 0)
              continue;
            const cj = tag[6 * p + 1],
              rj = tag[6 * p + 2];
            if ((a > cj ? a : cj) === c && (u > rj ? u : rj) === r)
              sum.add(i, j, pi < tag[6 * p + 5] ? pi : tag[6 * p + 5]);
          }
        }
      }
    }
  }

  /** Every particle probes the solids in the cells its box covers. */
  private probeParticles(sum: PairSum): void {
    const { box, tag } = this;
    const { start, inv, cols } = this.cells;
    const { x, y, w, h, uid, count } = this.particles;
    const { layer: li, mask: mi, priority: pi } = EFFECTS.dust;
    const last = cols - 1;
    for (let i = 0; i < count; i++) {
      const hw = w[i] * 0.5,
        hh = h[i] * 0.5;
      const x0 = x[i] - hw,
        y0 = y[i] - hh,
        x1 = x[i] + hw,
        y1 = y[i] + hh;
      const a = clamp(Math.floor(x0 * inv), last),
        b = clamp(Math.floor(x1 * inv), last);
      const u = clamp(Math.floor(y0 * inv), last),
        v = clamp(Math.floor(y1 * inv), last);
      for (let r = u; r <= v; r++) {
        for (let c = a; c <= b; c++) {
          const cell = r * cols + c;
          for (let p = start[cell], e = start[cell + 1]; p < e; p++) {
            if (!(x0 < box[4 * p + 2] && box[4 * p] < x1 && y0 < box[4 * p + 3] && box[4 * p + 1] < y1)) continue;
            if ((mi & tag[6 * p + 3]) === 0 || (tag[6 * p + 4] & li) === 0) continue;
            const cj = tag[6 * p + 1],
              rj = tag[6 * p + 2];
            if ((a > cj ? a : cj) === c && (u > rj ? u : rj) === r)
              sum.add(uid[i], tag[6 * p], pi < tag[6 * p + 5] ? pi : tag[6 * p + 5]);
          }
        }
      }
    }
  }

  /** Counting sort of the solids' entries by cell. */
  private build(scene: EffectsScene): void {
    const { minX, minY, maxX, maxY, layer, mask, priority } = this;
    const solids = scene.firstDust;
    const { c0, c1, r0, r1, start, cols } = this.cells;
    const total = this.cells.count(minX, minY, maxX, maxY, solids);
    if (6 * total > this.tag.length) this.reserve(total * 1.5);
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
          tag[6 * p] = i;
          tag[6 * p + 1] = a;
          tag[6 * p + 2] = u;
          tag[6 * p + 3] = layer[i];
          tag[6 * p + 4] = mask[i];
          tag[6 * p + 5] = priority[i];
        }
      }
    }
  }

  private reserve(size: number): void {
    const cap = Math.ceil(size);
    this.box = new Float64Array(4 * cap);
    this.tag = new Int32Array(6 * cap);
  }
}

export const effectsGridSpec: ContenderSpec<EffectsScene> = {
  key: 'grid',
  name: 'hand-written grid, whole job',
  note:
    `particles in typed arrays (aged, removed by swap-remove, moved with drag, born from the scene's script); ` +
    `every frame the walls and actors are counting-sorted into ${EFFECTS_CELL} px cells (boxes copied in cell order), ` +
    'then every actor and particle probes the cells its box covers, with the layer/mask test; a pair is reported in ' +
    "the cell of its overlap's top-left corner, by the lower id between two actors",
  create: () => new EffectsGrid(),
};
