import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The A/B script builds the bench's contenders from HEAD and from the working tree and plays
// them in lockstep: it must keep working as the bench changes.

const root = resolve(import.meta.dirname, '../..');

describe('npm run ab', () => {
  it('plays the working tree against HEAD and prints new / old per run', () => {
    const out = execFileSync(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        'scripts/ab.ts',
        '--base',
        'HEAD',
        '--scene',
        'storm',
        '--n',
        '2000',
        '--only',
        'core',
        '--runs',
        '2',
        '--warmup',
        '1',
        '--frames',
        '3',
      ],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(out).toMatch(/run 2\/2 storm, N=2000: core@old [\d.]+ ms · core@new [\d.]+ ms/);
    expect(out).toMatch(/^core N=2000: new \/ old [\d.]+ [\d.]+, median [\d.]+/m);
  }, 120_000);
});
