import { LooseQuadtree } from '../src/core/index.js';
import type { Contender, ContenderSpec, PairSum } from './contender.js';
import type { Boxes, Scene } from './scene.js';
import { StormScene } from './storm-scene.js';

/** This library: insert once, then per frame move the movers and step. */
class Ours implements Contender {
  private tree!: LooseQuadtree;
  private readonly maxDepth: number | undefined;

  constructor(maxDepth: number | undefined) {
    this.maxDepth = maxDepth;
  }

  setup(scene: Scene): void {
    this.tree = new LooseQuadtree({ width: scene.side, height: scene.side, maxDepth: this.maxDepth });
    for (let i = 0; i < scene.n; i++) this.tree.insert(i, scene.minX[i], scene.minY[i], scene.maxX[i], scene.maxY[i]);
  }

  frame(scene: Scene, sum: PairSum): void {
    coreFrame(this.tree, scene, sum);
  }
}

/** One frame of the core as every table runs it: `move` each mover, `step()`, sum `current`. */
export function coreFrame(tree: LooseQuadtree, scene: Boxes, sum: PairSum): void {
  const { movers, minX, minY, maxX, maxY } = scene;
  for (let k = 0; k < movers.length; k++) {
    const i = movers[k];
    tree.move(i, minX[i], minY[i], maxX[i], maxY[i]);
  }
  tree.step();
  const { count, a, b } = tree.current;
  for (let p = 0; p < count; p++) sum.add(a[p], b[p]);
}

/** `maxDepth` undefined: the library's default, chosen from the world size. */
export function oursSpec(maxDepth?: number, name = 'bitecs-quadtree'): ContenderSpec {
  return {
    key: maxDepth === undefined ? 'ours' : `ours-d${maxDepth}`,
    name,
    note: `LooseQuadtree sized to the world, ${maxDepth === undefined ? 'default maxDepth (from the world size: 6 at 10k, 7 at 100k)' : `maxDepth ${maxDepth}`}; insert once, then \`move\` the movers and \`step()\`; pairs read from \`current\``,
    create: () => new Ours(maxDepth),
  };
}

/** The core sized to the scene's world with every item inserted (the storm's with its colliders and statics). */
export function coreOver(scene: Scene | StormScene): LooseQuadtree {
  const tree = new LooseQuadtree({ width: scene.side, height: scene.side });
  const storm = scene instanceof StormScene ? scene : null;
  for (let i = 0; i < scene.n; i++) {
    tree.insert(i, scene.minX[i], scene.minY[i], scene.maxX[i], scene.maxY[i]);
    if (storm !== null) {
      tree.setCollider(i, storm.layer[i], storm.mask[i], storm.priority[i]);
      if (storm.isStatic[i] === 1) tree.setStatic(i, true);
    }
  }
  return tree;
}
