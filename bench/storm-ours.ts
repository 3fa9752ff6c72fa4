import { LooseQuadtree } from '../src/core/index.js';
import type { Contender, ContenderSpec, PairSum } from './contender.js';
import { coreFrame } from './ours.js';
import type { StormScene } from './storm-scene.js';

/** The core on the storm: every item inserted once with its collider, walls static; per frame move the movers and step. */
class StormCore implements Contender<StormScene> {
  private tree!: LooseQuadtree;

  setup(scene: StormScene): void {
    const tree = new LooseQuadtree({ width: scene.side, height: scene.side });
    for (let i = 0; i < scene.n; i++) {
      tree.insert(i, scene.minX[i], scene.minY[i], scene.maxX[i], scene.maxY[i]);
      tree.setCollider(i, scene.layer[i], scene.mask[i], scene.priority[i]);
      if (scene.isStatic[i] === 1) tree.setStatic(i, true);
    }
    this.tree = tree;
  }

  frame(scene: StormScene, sum: PairSum): void {
    coreFrame(this.tree, scene, sum);
  }

  pairTests(): number {
    return this.tree.stats.pairTests;
  }
}

export const stormCoreSpec: ContenderSpec<StormScene> = {
  key: 'core',
  name: 'bitecs-quadtree core',
  note:
    '`LooseQuadtree` sized to the world (default maxDepth); every item inserted once with `setCollider`, ' +
    'walls `setStatic`; per frame `move` every actor and particle, `step()`, pairs read from `current`',
  create: () => new StormCore(),
};
