/**
 * The library's part of a game's bundle: small games bundled and minified by esbuild as a
 * game's bundler would, `bitecs` and `pixi.js` left out (they are the game's), then gzipped.
 */
import { buildSync } from 'esbuild';
import { gzipSync } from 'node:zlib';

export interface BundleGame {
  readonly name: string;
  readonly source: string;
}

export const BUNDLE_GAMES: readonly BundleGame[] = [
  {
    name: 'the core: a tree, inserts, a step, its pairs',
    source: `import { LooseQuadtree } from 'bitecs-quadtree/core';
const tree = new LooseQuadtree({ width: 512, height: 512 });
tree.insert(1, 0, 0, 8, 8);
tree.step();
console.log(tree.current.count);`,
  },
  {
    name: 'a bitECS game: the systems, forEachPair',
    source: `import { addComponent, addEntity, createWorld } from 'bitecs';
import { addQuadtree, Bounds, forEachPair, Position, quadtreeCollisionSystem, quadtreeSyncSystem } from 'bitecs-quadtree';
const world = addQuadtree(createWorld(), { width: 512, height: 512 });
const eid = addEntity(world);
addComponent(world, eid, Position);
addComponent(world, eid, Bounds);
quadtreeCollisionSystem(quadtreeSyncSystem(world));
forEachPair(world, (a, b) => console.log(a, b));`,
  },
  {
    name: 'the same with handlers, queries and saveWorld',
    source: `import { createWorld } from 'bitecs';
import { addQuadtree, onCollision, queryRect, quadtreeCollisionSystem, quadtreeDispatchSystem, quadtreeSyncSystem, saveWorld } from 'bitecs-quadtree';
const world = addQuadtree(createWorld(), { width: 512, height: 512 });
onCollision(world, (a, b) => console.log(a, b));
quadtreeDispatchSystem(quadtreeCollisionSystem(quadtreeSyncSystem(world)));
console.log(queryRect(world, 0, 0, 9, 9, []), saveWorld(world).entities);`,
  },
  {
    name: 'the pixi entry: cullers, overlay, HUD',
    source: `import { ParticleCuller, QuadtreeHud, QuadtreeOverlay, SpriteCuller } from 'bitecs-quadtree/pixi';
console.log(ParticleCuller, QuadtreeHud, QuadtreeOverlay, SpriteCuller);`,
  },
];

export interface BundleSize {
  readonly name: string;
  /** Bytes minified, and minified then gzipped. */
  readonly min: number;
  readonly gzip: number;
}

/** Bundles each game from `root` (the repository, whose tsconfig paths name the sources). */
export function bundleSizes(root: string): BundleSize[] {
  return BUNDLE_GAMES.map((game) => {
    const out = buildSync({
      stdin: { contents: game.source, resolveDir: root, loader: 'ts' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      external: ['bitecs', 'bitecs/*', 'pixi.js'],
      write: false,
      logLevel: 'error',
    }).outputFiles[0].contents;
    return { name: game.name, min: out.length, gzip: gzipSync(out, { level: 9 }).length };
  });
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The page's section: a row per game. */
export function bundleSection(sizes: readonly BundleSize[]): string {
  return [
    '## Bundle size',
    '',
    "The library's part of a game's bundle: small games bundled and minified by esbuild, `bitecs` and " +
      "`pixi.js` left out (they are the game's), then gzipped (`bench/bundle.ts`; `test/package/bundle.test.ts` " +
      'keeps them under a ceiling).',
    '',
    '| game | minified | minified + gzip |',
    '| --- | ---: | ---: |',
    ...sizes.map((s) => `| ${s.name} | ${kib(s.min)} | ${kib(s.gzip)} |`),
  ].join('\n');
}
