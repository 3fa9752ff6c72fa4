import type { Contender, ContenderSpec, PairSum } from './contender.js';
import type { Scene } from './scene.js';

/** Every pair tested, O(n^2). The oracle for small N. */
class Brute implements Contender {
  setup(): void {}

  frame(scene: Scene, sum: PairSum): void {
    const { n, minX, minY, maxX, maxY } = scene;
    for (let i = 0; i < n; i++) {
      const x0 = minX[i],
        y0 = minY[i],
        x1 = maxX[i],
        y1 = maxY[i];
      for (let j = i + 1; j < n; j++) {
        if (x0 < maxX[j] && minX[j] < x1 && y0 < maxY[j] && minY[j] < y1) sum.add(i, j);
      }
    }
  }
}

export const bruteSpec: ContenderSpec = {
  key: 'brute',
  name: 'brute force',
  note: 'all n(n-1)/2 pairs tested on typed arrays; run up to N = 10k only',
  maxN: 10_000,
  create: () => new Brute(),
};
