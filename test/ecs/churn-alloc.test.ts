import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');

interface Measured {
  bytes: number;
  where: string[];
  entities: number;
  pairs: number;
  checksum: number;
}

/** Runs test/ecs/churn-alloc.run.ts in a process of its own (see there for why). */
function measure(mode: 'frames' | 'control'): Measured {
  const run = spawnSync(process.execPath, [tsx, 'test/ecs/churn-alloc.run.ts', mode], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as Measured;
}

describe('allocation with births and deaths every frame', () => {
  it("the plugin's own code allocates next to nothing while 100 particles a frame die and are born", () => {
    const m = measure('frames');
    expect(m.entities).toBe(4200);
    expect(m.pairs).toBeGreaterThan(0);
    expect(m.checksum).not.toBe(0);
    // Sampled over 1,000 frames: what is left is a few buffers growing to their steady size.
    // Births that boxed their four numbers in a call would make about 6 MB.
    expect(m.bytes, `allocated by the plugin:\n${m.where.join('\n')}`).toBeLessThan(512 << 10);
  }, 120_000);

  it('control: the same measurement sees an allocation in the sources', () => {
    const m = measure('control');
    expect(m.checksum).toBeGreaterThan(0);
    expect(m.bytes).toBeGreaterThan(512 << 10);
  }, 120_000);
});
