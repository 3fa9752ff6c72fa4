import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blocks, filesUnder, pages, root, where } from '../docs/markdown.js';

// The Node examples under examples/ run as a reader runs them (`npx tsx examples/core.ts`),
// and print what their guide says they print: the ```text block marked
// `<!-- output: examples/core.ts -->`. The browser example (examples/pixi/) is opened by
// test/browser/example.test.ts.

const outputs = pages()
  .flatMap(blocks)
  .filter((b) => b.marker?.kind === 'output');
const nodeExamples = filesUnder('examples', '.ts').filter((f) => !f.startsWith('examples/pixi/'));
// Modules the examples import print nothing of their own.
const imported = new Set(
  nodeExamples.flatMap((f) =>
    [...readFileSync(join(root, f), 'utf8').matchAll(/from '\.\/([\w-]+)\.js'/g)].map((m) => `examples/${m[1]}.ts`),
  ),
);
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');

describe('examples', () => {
  it('every Node example has its output shown on a page', () => {
    expect(nodeExamples.length).toBeGreaterThanOrEqual(5);
    const shown = new Set(outputs.map((b) => b.marker!.file));
    expect(nodeExamples.filter((f) => !shown.has(f) && !imported.has(f))).toEqual([]);
  });

  for (const block of outputs) {
    it(`${block.marker!.file} prints what ${where(block)} shows`, () => {
      const run = spawnSync(process.execPath, [tsx, block.marker!.file], {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout.trimEnd()).toBe(block.code.trimEnd());
    }, 60_000);
  }
});
