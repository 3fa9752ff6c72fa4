import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The published shape, not the sources: build, pack, install the tarball into an empty
// project and import every entry point from plain Node ESM.
const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
let dir = '';

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bitecs-quadtree-pack-'));
  run('npm', ['run', 'build'], root);
  const tarball = run('npm', ['pack', '--pack-destination', dir, '--silent'], root).trim().split('\n').pop()!;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'pack-check', private: true, type: 'module' }));
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--omit=optional', join(dir, tarball), 'bitecs@0.4.0'], dir);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('published package', () => {
  it('ships only the library: no sources of tests, benches or the demo', () => {
    const listing = run('npm', ['pack', '--dry-run', '--json'], root);
    const files = (JSON.parse(listing) as [{ files: { path: string }[] }])[0].files.map((f) => f.path);
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files.filter((f) => /^(test|bench|demo|src)\//.test(f))).toEqual([]);
  });

  it('core entry works from Node ESM', () => {
    const out = run('node', ['--input-type=module', '-e', `
      import { LooseQuadtree } from 'bitecs-quadtree/core';
      const t = new LooseQuadtree({ width: 100, height: 100 });
      t.insert(1, 0, 0, 10, 10); t.insert(2, 5, 5, 15, 15); t.step(); t.validate();
      console.log(t.current.count, t.current.a[0], t.current.b[0]);
    `], dir);
    expect(out.trim()).toBe('1 1 2');
  });

  it('every exported entry point imports', () => {
    for (const entry of Object.keys(pkg.exports)) {
      const spec = entry === '.' ? 'bitecs-quadtree' : 'bitecs-quadtree/' + entry.slice(2);
      // The pixi entry needs pixi.js, an optional peer: only check that it resolves.
      const code = entry === './pixi'
        ? `console.log(typeof import.meta.resolve(${JSON.stringify(spec)}))`
        : `const m = await import(${JSON.stringify(spec)}); console.log(Object.keys(m).length > 0 ? 'string' : 'empty')`;
      expect(run('node', ['--input-type=module', '-e', code], dir).trim(), spec).toBe('string');
    }
  });
});
