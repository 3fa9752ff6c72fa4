import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The published shape, not the sources: pack (which builds), install the tarball into an empty
// project (bitecs beside it, not pixi.js), load every entry point from plain Node ESM and from
// CommonJS, and type-check small strict TypeScript consumers against the shipped declarations.
const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  files: string[];
  repository?: { type: string; url: string };
  homepage?: string;
  bugs?: { url: string };
  typesVersions?: Record<string, Record<string, string[]>>;
};
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const repository = 'https://github.com/bitecs-quadtree/bitecs-quadtree';
let dir = '';

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Type-checks `files` of the temp project as a consumer would: strict, with the libraries'
 * declarations checked too unless `options` says otherwise. Returns tsc's report, '' when it
 * found nothing.
 */
function typecheck(name: string, options: Record<string, unknown>, files: Record<string, string>): string {
  for (const [file, code] of Object.entries(files)) writeFileSync(join(dir, file), code);
  const config = `tsconfig.${name}.json`;
  const compilerOptions = { strict: true, noEmit: true, skipLibCheck: false, types: [], target: 'ES2022', ...options };
  writeFileSync(join(dir, config), JSON.stringify({ compilerOptions, files: Object.keys(files) }));
  const r = spawnSync('node', [tsc, '-p', config], { cwd: dir, encoding: 'utf8' });
  return (r.stdout + r.stderr).trim();
}

let strict: { consumer: string[]; pixi: string[] } | null = null;

/**
 * One nodenext run, declarations checked, of a consumer of the root, core and tilemap entries
 * and of one of the pixi entry (pixi.js is not installed): tsc's errors, those in the pixi
 * entry's declarations apart.
 */
function strictCheck(): { consumer: string[]; pixi: string[] } {
  strict ??= (() => {
    const report = typecheck(
      'nodenext',
      { module: 'nodenext', moduleResolution: 'nodenext' },
      {
        'consumer.ts': `
        import { createWorld } from 'bitecs';
        import { addQuadtree, saveQuadtree, type QuadtreeWorldSnapshot, saveTree } from 'bitecs-quadtree';
        import { LooseQuadtree, type QuadtreeSnapshot } from 'bitecs-quadtree/core';
        import { TileLayer } from 'bitecs-quadtree/tilemap';
        const world = addQuadtree(createWorld(), { width: 100, height: 100 });
        const saved: QuadtreeWorldSnapshot = saveQuadtree(world);
        const tree = new LooseQuadtree({ width: 100, height: 100 });
        const snapshot: QuadtreeSnapshot = saveTree(tree);
        const layer = new TileLayer(tree, { data: [0, 1], width: 2, tileWidth: 8, tileHeight: 8, ids: 100 });
        // @ts-expect-error the world snapshot's state is internal
        void saved.state;
        // @ts-expect-error the tree's entry for the ECS face is internal
        tree.queueChecked(1, 1, 1, 0, false);
        export const frames: number = saved.frame + snapshot.stepCount + layer.rectCount;
      `,
        'pixi.ts': `
        import { SpriteCuller } from 'bitecs-quadtree/pixi';
        export const culler = new SpriteCuller();
      `,
      },
    );
    // An error's first line names its file; the lines after it belong to it.
    const errors = report.split('\n').filter((l) => /error TS\d+/.test(l));
    const inPixi = (l: string): boolean => l.startsWith('node_modules/bitecs-quadtree/dist/pixi/');
    return { consumer: errors.filter((l) => !inPixi(l)), pixi: errors.filter(inPixi) };
  })();
  return strict;
}

/** The .d.ts files of the installed package, as paths from its folder. */
function shippedDeclarations(): string[] {
  const base = join(dir, 'node_modules/bitecs-quadtree');
  return readdirSync(join(base, 'dist'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.d.ts'))
    .map((e) => relative(base, join(e.parentPath, e.name)));
}

/** The names declared right after a doc comment tagged `@internal` in a source file. */
function internalNames(source: string): string[] {
  const names: string[] = [];
  for (const m of source.matchAll(/@internal\b/g)) {
    const close = source.indexOf('*/', m.index);
    const next =
      /^\s*(?:export\s+)?(?:(?:readonly|static|private|protected|public|function|class|const|let|get|set)\s+)*(\w+)/.exec(
        source.slice(close + 2),
      );
    if (next !== null) names.push(next[1]);
  }
  return names;
}

/** Whether a declaration file declares `name` as a member, function, class or variable. */
function declares(dts: string, name: string): boolean {
  return new RegExp(
    `^\\s*(?:export\\s+)?(?:declare\\s+)?(?:(?:readonly|static|function|class|const|let|get|set)\\s+)*${name}\\??\\s*[(:<;=]`,
    'm',
  ).test(dts);
}

/** The .ts files under a folder of the root, as paths from the root. */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bitecs-quadtree-pack-'));
  // No build first: packing must build (prepack), or a clone without dist/ would ship none.
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
  it('ships exactly the files a user gets: the build of every source file, the guides, README, LICENSE, CHANGELOG', () => {
    const listing = run('npm', ['pack', '--dry-run', '--json'], root);
    const files = (JSON.parse(listing) as [{ files: { path: string }[] }])[0].files.map((f) => f.path).sort();
    // Every module of src/ is built into dist/ as its code, its types and its source map.
    const modules = sourceFiles('src').map((f) => f.slice('src/'.length, -'.ts'.length));
    const built = modules.flatMap((m) => [`dist/${m}.js`, `dist/${m}.d.ts`, `dist/${m}.js.map`]);
    // The guides, versioned with the code, and the chart the performance guide shows; not the
    // demo's picture (as large as the rest of the package: the pages link it on GitHub).
    const guides = readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md') || f.endsWith('.svg'))
      .map((f) => `docs/${f}`);
    expect(guides).toContain('docs/getting-started.md');
    expect(files).toEqual([...built, ...guides, 'CHANGELOG.md', 'LICENSE', 'README.md', 'package.json'].sort());
    expect(pkg.files).toEqual(['dist', 'docs/*.md', 'docs/*.svg', 'README.md', 'LICENSE', 'CHANGELOG.md']);
  });

  it('names its repository, homepage and issue tracker, for the registry page', () => {
    // The registry page links these, and resolves the README's relative links on the repository.
    expect(pkg.repository).toEqual({ type: 'git', url: `git+${repository}.git` });
    expect(pkg.homepage).toBe(`${repository}#readme`);
    expect(pkg.bugs).toEqual({ url: `${repository}/issues` });
  });

  it('every link of the installed README and guides leads to a file of the package or to a web page', () => {
    const base = join(dir, 'node_modules/bitecs-quadtree');
    const pages = [
      'README.md',
      ...readdirSync(join(base, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    expect(pages.length).toBeGreaterThan(5);
    const broken: string[] = [];
    let relativeLinks = 0;
    for (const page of pages) {
      const text = readFileSync(join(base, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^https:\/\//.test(target)) continue;
        if (/^[a-z]+:/.test(target)) broken.push(`${page}: ${target} (not https)`);
        const path = target.split('#')[0];
        if (path === '') continue;
        relativeLinks++;
        const file = join(dirname(page), path);
        if (!existsSync(join(base, file))) broken.push(`${page}: ${target} (no ${file} in the package)`);
      }
    }
    expect(relativeLinks).toBeGreaterThan(20);
    expect(broken).toEqual([]);
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
      import { LooseQuadtree, validateTree } from 'bitecs-quadtree/core';
      const t = new LooseQuadtree({ width: 100, height: 100 });
      t.insert(1, 0, 0, 10, 10); t.insert(2, 5, 5, 15, 15); t.step(); validateTree(t);
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

  it('ships no @internal member in its declarations', () => {
    // Each name declared just after an @internal comment in src/ is gone from its .d.ts.
    const base = join(dir, 'node_modules/bitecs-quadtree');
    const declarations = shippedDeclarations();
    const kept: string[] = [];
    let internal = 0;
    for (const file of sourceFiles('src')) {
      const names = internalNames(readFileSync(join(root, file), 'utf8'));
      if (names.length === 0) continue;
      internal += names.length;
      const shipped = readFileSync(join(base, `dist/${file.slice('src/'.length, -'.ts'.length)}.d.ts`), 'utf8');
      for (const name of names) if (declares(shipped, name)) kept.push(`${file}: ${name}`);
    }
    expect(internal).toBeGreaterThan(10);
    expect(kept).toEqual([]);
    // The ones a user saw, by name.
    const tree = readFileSync(join(base, 'dist/core/LooseQuadtree.d.ts'), 'utf8');
    for (const name of ['boxIn', 'queueChecked', 'contactOf', 'moveTo', 'attached', 'tree'])
      expect(declares(tree, name), name).toBe(false);
    const world = readFileSync(join(base, 'dist/ecs/snapshot.d.ts'), 'utf8');
    for (const name of ['state', 'tracked', 'handlers']) expect(declares(world, name), name).toBe(false);
    for (const file of declarations) expect(readFileSync(join(base, file), 'utf8'), file).not.toContain('@internal');
  });

  it('a strict TypeScript consumer without pixi.js type-checks against the root, core and tilemap entries', () => {
    // Declarations checked (no skipLibCheck): what is stripped is not referenced by what is
    // shipped, and the root, core and tilemap entries' types never reach for pixi.js.
    expect(existsSync(join(dir, 'node_modules/pixi.js'))).toBe(false);
    const { consumer } = strictCheck();
    expect(consumer).toEqual([]);
  });

  it("without pixi.js the pixi entry's types fail on pixi.js alone, as the guide says", () => {
    const { pixi } = strictCheck();
    expect(pixi.length).toBeGreaterThan(0);
    for (const e of pixi)
      expect(e).toMatch(/^node_modules\/bitecs-quadtree\/dist\/pixi\/.*error TS2307: Cannot find module 'pixi\.js'/);
  });

  it('with moduleResolution node10 every subpath entry resolves through typesVersions', () => {
    // Every subpath of `exports` is mapped, to the same declarations.
    const subpaths = Object.entries(pkg.exports as Record<string, { types: string }>).filter(([k]) => k !== '.');
    expect(pkg.typesVersions).toEqual({ '*': Object.fromEntries(subpaths.map(([k, v]) => [k.slice(2), [v.types]])) });
    // node10 ignores `exports`. The declarations themselves are checked above (skipLibCheck
    // here only keeps the run short, and the pixi entry's lack of pixi.js quiet).
    const report = typecheck(
      'node10',
      { module: 'commonjs', moduleResolution: 'node10', skipLibCheck: true },
      {
        'node10.ts': `
        import { getQuadtree } from 'bitecs-quadtree';
        import { LooseQuadtree } from 'bitecs-quadtree/core';
        import { TileLayer } from 'bitecs-quadtree/tilemap';
        import { SpriteCuller } from 'bitecs-quadtree/pixi';
        const tree = new LooseQuadtree({ width: 100, height: 100 });
        const layer = new TileLayer(tree, { data: [1], width: 1, tileWidth: 8, tileHeight: 8, ids: 100 });
        export const made: [number, typeof getQuadtree, typeof SpriteCuller] = [layer.rectCount, getQuadtree, SpriteCuller];
      `,
      },
    );
    expect(report).toBe('');
  });
});
