import type { PairSum } from './contender.js';
import type { Oracle } from './lockstep.js';
import { accepts, type StormScene } from './storm-scene.js';

/** Largest dust count the brute-force check runs at (n(n-1)/2 tests: 74M at 10k). */
export const STORM_BRUTE_MAX_DUST = 10_000;

/**
 * Every pair of the storm tested, O(n^2), with the pair rule applied as written (no use of
 * the kinds): the second check, run untimed on a few frames.
 */
export function stormBrute(every: number): Oracle<StormScene> {
  return { name: 'brute force', every, find };
}

function find(scene: StormScene, sum: PairSum): void {
  const { n, minX, minY, maxX, maxY } = scene;
  for (let i = 0; i < n; i++) {
    const x0 = minX[i],
      y0 = minY[i],
      x1 = maxX[i],
      y1 = maxY[i];
    for (let j = i + 1; j < n; j++) {
      if (x0 < maxX[j] && minX[j] < x1 && y0 < maxY[j] && minY[j] < y1 && accepts(scene, i, j)) sum.add(i, j);
    }
  }
}
