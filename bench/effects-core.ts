import { LooseQuadtree } from '../src/core/index.js';
import type { Contender, ContenderSpec, PairSum } from './contender.js';
import { EFFECTS, ParticleArrays, type EffectsScene } from './effects-scene.js';

/**
 * The core on the effects, the whole job like the grid's: particles in typed arrays, each
 * with a core id taken from a free list last-removed-first (as bitECS recycles entity ids);
 * a dying particle is removed from the index, a new one inserted with its collider; every
 * living one moved; then `step()` and the pairs read from `current`.
 */
class EffectsCore implements Contender<EffectsScene> {
  private tree!: LooseQuadtree;
  private particles!: ParticleArrays;
  /** Core id of each particle slot, and the uid of each core id. */
  private idOf = new Int32Array(0);
  private uidOf = new Int32Array(0);
  private free = new Int32Array(0);
  private freeCount = 0;
  private nextId = 0;
  private readonly onRemove = (slot: number, last: number): void => {
    const id = this.idOf[slot];
    this.tree.remove(id);
    this.free[this.freeCount++] = id;
    this.idOf[slot] = this.idOf[last];
  };
  private readonly onAdd = (slot: number): void => {
    const p = this.particles;
    const id = this.freeCount > 0 ? this.free[--this.freeCount] : this.nextId++;
    this.idOf[slot] = id;
    this.uidOf[id] = p.uid[slot];
    const hw = p.w[slot] * 0.5;
    const hh = p.h[slot] * 0.5;
    this.tree.insert(id, p.x[slot] - hw, p.y[slot] - hh, p.x[slot] + hw, p.y[slot] + hh);
    this.tree.setCollider(id, EFFECTS.dust.layer, EFFECTS.dust.mask, EFFECTS.dust.priority);
  };

  setup(scene: EffectsScene): void {
    const capacity = scene.firstDust + scene.target * 2;
    this.tree = new LooseQuadtree({ width: scene.side, height: scene.side });
    this.idOf = new Int32Array(scene.target * 2);
    this.uidOf = new Int32Array(capacity);
    this.free = new Int32Array(capacity);
    for (let i = 0; i < scene.firstDust; i++) {
      const kind = i < scene.firstActor ? EFFECTS.walls : EFFECTS.actors;
      const hw = scene.w[i] * 0.5;
      const hh = scene.h[i] * 0.5;
      this.tree.insert(i, scene.x[i] - hw, scene.y[i] - hh, scene.x[i] + hw, scene.y[i] + hh);
      this.tree.setCollider(i, kind.layer, kind.mask, kind.priority);
      if (kind === EFFECTS.walls) this.tree.setStatic(i, true);
      this.uidOf[i] = i;
    }
    this.nextId = scene.firstDust;
    this.particles = new ParticleArrays(scene.target * 2);
    this.particles.add(scene, this.onAdd);
  }

  frame(scene: EffectsScene, sum: PairSum): void {
    const tree = this.tree;
    const p = this.particles;
    p.step(scene, this.onRemove, this.onAdd);
    for (let i = scene.firstActor; i < scene.firstDust; i++) {
      const hw = scene.w[i] * 0.5;
      const hh = scene.h[i] * 0.5;
      tree.move(i, scene.x[i] - hw, scene.y[i] - hh, scene.x[i] + hw, scene.y[i] + hh);
    }
    const { x, y, w, h, count } = p;
    const idOf = this.idOf;
    for (let i = 0; i < count; i++) {
      const hw = w[i] * 0.5;
      const hh = h[i] * 0.5;
      tree.move(idOf[i], x[i] - hw, y[i] - hh, x[i] + hw, y[i] + hh);
    }
    tree.step();
    const cur = tree.current;
    const uid = this.uidOf;
    for (let k = 0; k < cur.count; k++) sum.add(uid[cur.a[k]], uid[cur.b[k]], cur.priority[k]);
  }

  pairTests(): number {
    return this.tree.stats.pairTests;
  }
}

export const effectsCoreSpec: ContenderSpec<EffectsScene> = {
  key: 'core',
  name: 'bitecs-quadtree core, whole job',
  note:
    "particles in typed arrays like the grid's, each with a core id recycled last-removed-first; a dying " +
    'particle is `remove`d, a new one `insert`ed with `setCollider`; every actor and particle `move`d, then ' +
    '`step()`, pairs read from `current`',
  create: () => new EffectsCore(),
};
