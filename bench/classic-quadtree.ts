import { Quadtree, Rectangle } from '@timohausmann/quadtree-ts';
import type { Contender, ContenderSpec, PairSum } from './contender.js';
import type { Scene } from './scene.js';

/** The classic tutorial loop: clear, insert everything, retrieve candidates per item. */
class ClassicQuadtree implements Contender {
  private tree!: Quadtree<Rectangle<number>>;
  private rects: Rectangle<number>[] = [];

  setup(scene: Scene): void {
    this.tree = new Quadtree({ width: scene.side, height: scene.side, maxObjects: 10, maxLevels: 5 });
    this.rects = [];
    for (let i = 0; i < scene.n; i++) {
      this.rects.push(
        new Rectangle({ x: scene.minX[i], y: scene.minY[i], width: scene.w[i], height: scene.h[i], data: i }),
      );
    }
  }

  frame(scene: Scene, sum: PairSum): void {
    const { tree, rects } = this;
    const { movers, minX, minY, maxX, maxY } = scene;
    for (let k = 0; k < movers.length; k++) {
      const i = movers[k];
      rects[i].x = minX[i];
      rects[i].y = minY[i];
    }
    tree.clear();
    for (let i = 0; i < rects.length; i++) tree.insert(rects[i]);
    for (let i = 0; i < rects.length; i++) {
      const x0 = minX[i],
        y0 = minY[i],
        x1 = maxX[i],
        y1 = maxY[i];
      const candidates = tree.retrieve(rects[i]);
      for (let c = 0; c < candidates.length; c++) {
        const j = candidates[c].data as number;
        if (j > i && x0 < maxX[j] && minX[j] < x1 && y0 < maxY[j] && minY[j] < y1) sum.add(i, j);
      }
    }
  }
}

export const classicQuadtreeSpec: ContenderSpec = {
  key: 'quadtree-ts',
  name: '@timohausmann/quadtree-ts',
  note: 'clear and reinsert every frame (maxObjects 10, maxLevels 5), `retrieve` per item, exact test, keep j > i',
  create: () => new ClassicQuadtree(),
};
