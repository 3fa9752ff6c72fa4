import type { Internals } from './world.js';

/**
 * Each generation's masks for ids below n into `into` (grown by half when short), holes as 0:
 * by `set`, as a loop over a plain array with holes would be slower.
 */
export function copyMasks(ctx: Internals, into: Int32Array[], n: number): Int32Array[] {
  const generations = ctx.entityMasks.length;
  into.length = Math.min(into.length, generations);
  for (let g = 0; g < generations; g++) {
    const from = ctx.entityMasks[g];
    const size = Math.max(n, from.length);
    if (g === into.length || into[g].length < size) into[g] = new Int32Array(size + (size >> 1));
    into[g].set(from as number[]);
    into[g].fill(0, from.length, n);
  }
  return into;
}
