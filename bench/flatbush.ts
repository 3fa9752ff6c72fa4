import Flatbush from 'flatbush';
import { PairSum, type Contender, type ContenderSpec } from './contender.js';
import type { Scene } from './scene.js';

/** flatbush's own default node size, kept with --no-tune. */
export const DEFAULT_NODE_SIZE = 16;

/** Rebuilt every frame (static packed Hilbert R-tree); search per item through the filter. */
class FlatbushContender implements Contender {
  private readonly nodeSize: number;
  /** The frame's sum, set before each search (a placeholder until the first). */
  private sum = new PairSum();
  private i = 0;
  private x0 = 0;
  private y0 = 0;
  private x1 = 0;
  private y1 = 0;

  // Reports pairs as they are found and keeps the result array empty.
  private readonly visit = (j: number, x0: number, y0: number, x1: number, y1: number): boolean => {
    if (j > this.i && this.x0 < x1 && x0 < this.x1 && this.y0 < y1 && y0 < this.y1) this.sum.add(this.i, j);
    return false;
  };

  constructor(nodeSize: number) {
    this.nodeSize = nodeSize;
  }

  setup(): void {}

  frame(scene: Scene, sum: PairSum): void {
    const { n, minX, minY, maxX, maxY } = scene;
    const index = new Flatbush(n, this.nodeSize);
    for (let i = 0; i < n; i++) index.add(minX[i], minY[i], maxX[i], maxY[i]);
    index.finish();
    this.sum = sum;
    for (let i = 0; i < n; i++) {
      this.i = i;
      this.x0 = minX[i];
      this.y0 = minY[i];
      this.x1 = maxX[i];
      this.y1 = maxY[i];
      index.search(this.x0, this.y0, this.x1, this.y1, this.visit);
    }
  }
}

export function flatbushSpec(nodeSize = DEFAULT_NODE_SIZE): ContenderSpec {
  return {
    key: 'flatbush',
    name: 'flatbush',
    note: `rebuilt every frame (\`add\` all, \`finish\`, nodeSize ${nodeSize}); \`search\` per item with the exact test in the filter callback (no result arrays), keep j > i`,
    tuning: { what: 'nodeSize', candidates: [4, 8, 16, 32, 64], fallback: DEFAULT_NODE_SIZE, build: flatbushSpec },
    create: () => new FlatbushContender(nodeSize),
  };
}
