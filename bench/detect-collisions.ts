import { Box, System } from 'detect-collisions';
import type { Contender, ContenderSpec, PairSum } from './contender.js';
import type { Scene } from './scene.js';

/** `padding` used in the table: the documented knob that spares R-tree reinserts (default 0). */
export const DEFAULT_PADDING = 4;

/**
 * A System of Box bodies (its own R-tree). Per frame: `setPosition` on the movers, which
 * reinserts a body only when its box leaves its padded box, then the System's R-tree
 * `search` per body with the body's exact box: the candidate step of `checkOne`/`checkAll`
 * without their SAT test, which counts touching boxes as colliding and reports each pair
 * from both sides. Candidates are filtered to strict AABB overlap, keeping j > i.
 */
class DetectCollisions implements Contender {
  private system = new System();
  private boxes: Box[] = [];
  private readonly padding: number;
  private readonly query = { minX: 0, minY: 0, maxX: 0, maxY: 0 };

  constructor(padding: number) {
    this.padding = padding;
  }

  setup(scene: Scene): void {
    this.system = new System();
    this.boxes = [];
    for (let i = 0; i < scene.n; i++) {
      const box = new Box({ x: scene.minX[i], y: scene.minY[i] }, scene.w[i], scene.h[i], {
        userData: i,
        padding: this.padding,
      });
      this.system.insert(box);
      this.boxes.push(box);
    }
  }

  frame(scene: Scene, sum: PairSum): void {
    const { boxes, system, query } = this;
    const { n, movers, minX, minY, maxX, maxY } = scene;
    for (let k = 0; k < movers.length; k++) {
      const i = movers[k];
      boxes[i].setPosition(minX[i], minY[i]);
    }
    for (let i = 0; i < n; i++) {
      const x0 = (query.minX = minX[i]),
        y0 = (query.minY = minY[i]);
      const x1 = (query.maxX = maxX[i]),
        y1 = (query.maxY = maxY[i]);
      const found = system.search(query);
      for (let c = 0; c < found.length; c++) {
        const j = (found[c] as { userData: number }).userData;
        if (j > i && x0 < maxX[j] && minX[j] < x1 && y0 < maxY[j] && minY[j] < y1) sum.add(i, j);
      }
    }
  }
}

export function detectCollisionsSpec(padding = DEFAULT_PADDING): ContenderSpec {
  return {
    key: 'detect-collisions',
    name: 'detect-collisions',
    note:
      `System of \`Box\` bodies, padding ${padding}; \`setPosition\` the movers, then the System's R-tree \`search\` per body ` +
      '(the candidate step of `checkAll`, without its SAT test, which no other contender runs), ' +
      'exact test, keep j > i',
    create: () => new DetectCollisions(padding),
  };
}
