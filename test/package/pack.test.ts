import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The published shape, not the sources: build, pack, install the tarball into an empty
// project and load every entry point from plain Node ESM and from CommonJS.
const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  files: string[];
};
let dir = '';

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The .ts files under a folder of the root, as paths from the root. */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bitecs-quadtree-pack-'));
  run('npm', ['run', 'build'], root);
  const tarball = run('npm', ['pack', '--pack-destination', dir, '--silent'], root).trim().split('\n').pop()!;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'pack-check', private: true, type: 'module' }));
  run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--omit=optional', join(dir, tarball), 'bitecs@0.4.0'],
    dir,
  );
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('published package', () => {
  it('ships exactly the files a user gets: the build of every source file, README, LICENSE, CHANGELOG', () => {
    const listing = run('npm', ['pack', '--dry-run', '--json'], root);
    const files = (JSON.parse(listing) as [{ files: { path: string }[] }])[0].files.map((f) => f.path).sort();
    // Every module of src/ is built into dist/ as its code, its types and its source map.
    const modules = sourceFiles('src').map((f) => f.slice('src/'.length, -'.ts'.length));
    const built = modules.flatMap((m) => [`dist/${m}.js`, `dist/${m}.d.ts`, `dist/${m}.js.map`]);
    expect(files).toEqual([...built, 'CHANGELOG.md', 'LICENSE', 'README.md', 'package.json'].sort());
    expect(pkg.files).toEqual(['dist', 'README.md', 'LICENSE', 'CHANGELOG.md']);
  });

  it('ships source maps that carry the sources, so stack traces lead to code that is there', () => {
    const maps = sourceFiles('src').map((f) => `dist/${f.slice('src/'.length, -'.ts'.length)}.js.map`);
    expect(maps.length).toBeGreaterThan(10);
    for (const map of maps) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(join(root, map), 'utf8')) as {
        sources: string[];
        sourcesContent?: string[];
      };
      expect(sources, map).toHaveLength(1);
      const source = resolve(dirname(join(root, map)), sources[0]);
      expect(sourcesContent, map).toEqual([readFileSync(source, 'utf8')]);
    }
  });

  it('core entry works from Node ESM', () => {
    const out = run(
      'node',
      [
        '--input-type=module',
        '-e',
        `
      import { LooseQuadtree } from 'bitecs-quadtree/core';
      const t = new LooseQuadtree({ width: 100, height: 100 });
      t.insert(1, 0, 0, 10, 10); t.insert(2, 5, 5, 15, 15); t.step(); t.validate();
      console.log(t.current.count, t.current.a[0], t.current.b[0]);
    `,
      ],
      dir,
    );
    expect(out.trim()).toBe('1 1 2');
  });

  it('every exported entry point imports', () => {
    for (const entry of Object.keys(pkg.exports)) {
      const spec = entry === '.' ? 'bitecs-quadtree' : 'bitecs-quadtree/' + entry.slice(2);
      // The pixi entry needs pixi.js, an optional peer: only check that it resolves.
      const code =
        entry === './pixi'
          ? `console.log(typeof import.meta.resolve(${JSON.stringify(spec)}))`
          : `const m = await import(${JSON.stringify(spec)}); console.log(Object.keys(m).length > 0 ? 'string' : 'empty')`;
      expect(run('node', ['--input-type=module', '-e', code], dir).trim(), spec).toBe('string');
    }
  });

  it('every entry point loads with require() from a CommonJS project, one copy with import', () => {
    // A project as `npm init -y` makes it (no "type": CommonJS), using the installed package.
    const cjs = join(dir, 'cjs');
    mkdirSync(cjs, { recursive: true });
    writeFileSync(join(cjs, 'package.json'), JSON.stringify({ name: 'cjs-check', private: true }));
    writeFileSync(
      join(cjs, 'main.js'),
      `
      const { LooseQuadtree } = require('bitecs-quadtree/core');
      const t = new LooseQuadtree({ width: 100, height: 100 });
      t.insert(1, 0, 0, 10, 10); t.insert(2, 5, 5, 15, 15); t.step();
      const { addEntity, createWorld } = require('bitecs');
      const q = require('bitecs-quadtree');
      const world = q.addQuadtree(createWorld(), { width: 100, height: 100 });
      for (const x of [10, 14]) {
        const eid = addEntity(world, q.Position, q.Bounds);
        q.Position.x[eid] = x; q.Position.y[eid] = 10; q.Bounds.width[eid] = q.Bounds.height[eid] = 8;
      }
      q.quadtreeCollisionSystem(q.quadtreeSyncSystem(world));
      const pairs = [];
      q.forEachPair(world, (a, b) => { pairs.push(a + '-' + b); });
      // The pixi entry needs pixi.js, an optional peer: only check that it resolves.
      require.resolve('bitecs-quadtree/pixi');
      import('bitecs-quadtree/core').then((m) => {
        console.log(t.current.count, t.current.a[0], t.current.b[0], pairs.join(), m.LooseQuadtree === LooseQuadtree);
      });
    `,
    );
    expect(run('node', ['main.js'], cjs).trim()).toBe('1 1 2 1-2 true');
  });
});
