import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLE_GAMES, bundleSizes } from '../../bench/bundle.js';

// The library's part of a game's bundle (bench/bundle.ts: esbuild, minified, bitecs and
// pixi.js left out, gzipped) stays under a ceiling a little above today's, so that code added
// to every game's bundle is a decision. docs/performance.md shows the sizes of the last run.

const KIB = 1024;
/** Ceilings in the order of BUNDLE_GAMES, min + gzip. */
const CEILINGS = [32.5 * KIB, 38.5 * KIB, 44 * KIB, 7 * KIB];

describe('bundle size', () => {
  it('each small game bundles under its ceiling, and the pixi entry leaves the core out', () => {
    const sizes = bundleSizes(resolve(import.meta.dirname, '../..'));
    expect(sizes.map((s) => s.name)).toEqual(BUNDLE_GAMES.map((g) => g.name));
    for (const [i, s] of sizes.entries()) {
      expect(s.gzip, `${s.name}: ${s.gzip} bytes min + gzip`).toBeLessThanOrEqual(CEILINGS[i]);
      expect(s.gzip).toBeLessThan(s.min);
    }
    // The cullers, the overlay and the HUD read a tree by its shape: none of the core comes along.
    expect(sizes[3].gzip).toBeLessThan(sizes[0].gzip / 4);
  });
});
