import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContenderSpec, PairSum } from '../../bench/contender.js';
import { pickBest, tuneSpecs, type Tuned, type TuneOptions } from '../../bench/tune.js';

// The sweep of the tunable peers: the fastest median wins, and a choice is kept for later runs.

describe('pickBest', () => {
  it('takes the lowest median', () => {
    expect(pickBest([3.2, 1.5, 2.0])).toBe(1);
    expect(pickBest([0.9, 1.5, 2.0])).toBe(0);
  });

  it('takes the earliest of equal medians', () => {
    expect(pickBest([2, 1, 1, 3])).toBe(1);
  });

  it('never picks a candidate that measured nothing', () => {
    expect(pickBest([NaN, 4, NaN, 3])).toBe(3);
    expect(pickBest([NaN, NaN])).toBe(-1);
    expect(pickBest([])).toBe(-1);
  });
});

/** A scene with nothing in it; the contenders below find one pair a frame. */
class Still {
  advance(): void {}
}

/** A contender whose frame busy-waits `ms` milliseconds. */
function waiting(ms: number): ContenderSpec<Still> {
  return {
    key: 'wait',
    name: 'waiting',
    note: `waits ${ms} ms`,
    tuning: { what: 'ms', candidates: [1.5, 0.2, 0.8], fallback: 1.5, build: waiting },
    create: () => ({
      setup: () => {},
      frame: (_: Still, sum: PairSum) => {
        const end = performance.now() + ms;
        while (performance.now() < end);
        sum.add(0, 1);
      },
    }),
  };
}

describe('tuneSpecs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tune-'));
  const file = join(dir, 'tuned.json');
  const options = (mode: TuneOptions['mode']): TuneOptions => ({ mode, file, warmup: 1, frames: 5, log: () => {} });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs a tunable contender at its fastest setting, leaves the others alone, and keeps the choice', () => {
    const plain: ContenderSpec<Still> = { ...waiting(0), key: 'plain', tuning: undefined };
    const tuned: Tuned[] = [];
    const specs = tuneSpecs([plain, waiting(1.5)], 'still, 1', () => new Still(), options('cached'), tuned);
    expect(specs[0]).toBe(plain);
    expect(specs[1].note).toBe('waits 0.2 ms');
    expect(tuned).toHaveLength(1);
    expect(tuned[0]).toMatchObject({ setting: 0.2, source: 'swept', mismatch: '', candidates: [1.5, 0.2, 0.8] });
    expect(tuned[0].medians).toHaveLength(3);
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { setting: number }>;
    expect(kept['still, 1 · wait'].setting).toBe(0.2);
  });

  it('reuses the kept choice, sweeps again when asked, and keeps the default when told not to tune', () => {
    const again: Tuned[] = [];
    tuneSpecs([waiting(1.5)], 'still, 1', () => new Still(), options('cached'), again);
    tuneSpecs([waiting(1.5)], 'still, 1', () => new Still(), options('sweep'), again);
    const off = tuneSpecs([waiting(1.5)], 'still, 1', () => new Still(), options('off'), again);
    expect(again.map((t) => [t.source, t.setting])).toEqual([
      ['cached', 0.2],
      ['swept', 0.2],
      ['default', 1.5],
    ]);
    expect(off[0].note).toBe('waits 1.5 ms');
  });
});
