import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';

// The API reference is generated from the doc comments (`npm run docs`). TypeDoc's validation
// (typedoc.json) warns about an exported symbol without a doc comment and about a {@link}
// that resolves to nothing, and treats warnings as errors: this runs it without writing pages.
const root = resolve(import.meta.dirname, '../..');

describe('API reference', () => {
  it('every exported symbol has a doc comment and every doc link resolves', () => {
    const run = spawnSync(process.execPath, [join(root, 'node_modules/typedoc/bin/typedoc'), '--emit', 'none'], {
      cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    const output = stripVTControlCharacters(`${run.stdout}${run.stderr}`);
    expect(output.split('\n').filter((line) => /\[(warning|error)\]/.test(line)), output).toEqual([]);
    expect(run.status, output).toBe(0);
  }, 120_000);
});
