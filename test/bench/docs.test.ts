import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkReadme,
  headlinesOf,
  lineCount,
  PERF_END,
  PERF_START,
  performancePage,
  readmeBlock,
  README_MAX_LINES,
  replaceSection,
  SECTION_MAX_LINES,
  sectionLines,
  writeDocs,
  type Headline,
  type HeadlineTable,
} from '../../bench/docs.js';
import type { LockstepResult, Series } from '../../bench/lockstep.js';
import type { Tuned } from '../../bench/tune.js';

// The pages a full bench run writes: docs/performance.md whole, and the README's Performance
// section between its markers, the README kept within its limits.

const root = resolve(import.meta.dirname, '../..');
const MACHINE = '2026-12-06 · Test CPU · 2 cores · Node v20.0.0 · 3 runs';

function series(key: string, name: string, medians: number[]): Series {
  return {
    spec: { key, name },
    medians,
    prepare: [],
    frames: medians.map(() => 30),
    planned: 30,
    pairTests: [],
    pairs: 0,
    mismatch: '',
  };
}

/** A scene table at 10k and 100k: ours, a grid and two peers, three runs each. */
function table(): HeadlineTable {
  const at = (scale: number): LockstepResult => ({
    series: [
      series(
        'ours',
        'bitecs-quadtree',
        [10, 11, 12].map((v) => v * scale),
      ),
      series(
        'grid',
        'uniform grid',
        [20, 22, 24].map((v) => v * scale),
      ),
      series(
        'flatbush',
        'flatbush',
        [50, 55, 60].map((v) => v * scale),
      ),
      series(
        'planck',
        'planck',
        [40, 44, 48].map((v) => v * scale),
      ),
    ],
    pairs: 0,
    checked: true,
  });
  return {
    ns: [10_000, 100_000],
    results: new Map([
      [10_000, at(0.1)],
      [100_000, at(1)],
    ]),
  };
}

const tuned: Tuned[] = [
  {
    where: 'bounce, 10% of the items move, 100k',
    name: 'uniform grid',
    what: 'cell px',
    setting: 48,
    candidates: [32, 48],
    medians: [25, 22],
    source: 'swept',
    date: '2026-12-06',
    mismatch: '',
  },
];

function headlines(rows: number): Headline[] {
  const one = headlinesOf(
    [
      {
        title: 'boxes, a tenth moving',
        table: table(),
        ours: 'ours',
        grid: 'grid',
        peers: ['flatbush', 'planck'],
        tunedWhere: (n) => `bounce, 10% of the items move, ${n / 1000}k`,
      },
    ],
    tuned,
  );
  return Array.from({ length: rows }, () => one[0]);
}

describe('headlinesOf', () => {
  it("takes the largest count, the fastest other peer, and each peer's time over ours", () => {
    const [h] = headlines(1);
    expect(h.n).toBe(100_000);
    expect(h.peer?.name).toBe('planck');
    expect(h.grid?.setting).toBe('48 px cells');
    const block = readmeBlock(MACHINE, [h]);
    expect(block).toContain(
      '| boxes, a tenth moving, 100k | 11.0 ms | 22.0 ms · 2.00x (48 px cells) | planck: 44.0 ms · 4.00x |',
    );
    expect(block).toContain(MACHINE);
    expect(block).toContain('](docs/performance.md)');
  });
});

describe("the README's Performance section", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  it('has the markers, in order, inside its Performance section', () => {
    const section = sectionLines(readme, '## Performance');
    expect(section).toContain(PERF_START);
    expect(section).toContain(PERF_END);
    expect(section.indexOf(PERF_START)).toBeLessThan(section.indexOf(PERF_END));
  });

  it('is rewritten between the markers and nowhere else, and keeps the README within its limits', () => {
    const block = readmeBlock(MACHINE, headlines(4));
    const out = replaceSection(readme, block);
    expect(out.slice(0, out.indexOf(PERF_START))).toBe(readme.slice(0, readme.indexOf(PERF_START)));
    expect(out.slice(out.indexOf(PERF_END))).toBe(readme.slice(readme.indexOf(PERF_END)));
    expect(out).toContain(`${PERF_START}\n${block}\n${PERF_END}`);
    expect(replaceSection(out, block)).toBe(out);
    expect(() => checkReadme(out)).not.toThrow();
    expect(lineCount(out)).toBeLessThanOrEqual(README_MAX_LINES);
    expect(sectionLines(out, '## Performance').length).toBeLessThanOrEqual(SECTION_MAX_LINES);
  });

  it('refuses a section or a README over its limit', () => {
    expect(() => checkReadme(replaceSection(readme, readmeBlock(MACHINE, headlines(12))))).toThrow(
      /Performance section is \d+ lines, more than 15/,
    );
    const long = replaceSection(readme, readmeBlock(MACHINE, headlines(1))).replace(
      '## License',
      `${'padding\n'.repeat(README_MAX_LINES)}\n## License`,
    );
    expect(() => checkReadme(long)).toThrow(/README.md is \d+ lines, more than 250/);
  });

  it('refuses a README without its markers', () => {
    expect(() => replaceSection('# x\n\n## Performance\n\nnone\n', 'block')).toThrow(/perf:start/);
    expect(() => replaceSection(`${PERF_END}\n${PERF_START}\n`, 'block')).toThrow(/perf:start/);
  });
});

describe('writeDocs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-docs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the page, the chart and the README section, and nothing when the README would be too long', () => {
    mkdirSync(join(dir, 'docs'));
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    writeFileSync(join(dir, 'README.md'), readme);
    const page = performancePage({
      machine: MACHINE,
      runs: 3,
      sections: ['### Bouncing boxes\n\nboxes\n\n#### All items move\n\n| a |\n| --- |\n| 1 |'],
      tuned: '- bounce, 10k, uniform grid: cell px 48',
      chart: true,
    });
    writeDocs(dir, page, '<svg/>', readmeBlock(MACHINE, headlines(4)));
    const written = readFileSync(join(dir, 'README.md'), 'utf8');
    expect(written).toBe(replaceSection(readme, readmeBlock(MACHINE, headlines(4))));
    expect(readFileSync(join(dir, 'docs/performance.svg'), 'utf8')).toBe('<svg/>');
    const text = readFileSync(join(dir, 'docs/performance.md'), 'utf8');
    expect(text).toBe(page);
    // A scene is a section of the page, its tables under it; the headings the guides link to are there.
    for (const heading of [
      '# Performance',
      '## Bouncing boxes',
      '### All items move',
      "## Peers' settings",
      '## Memory, scale and snapshots',
    ]) {
      expect(text.split('\n')).toContain(heading);
    }
    expect(text).toContain(`Measured ${MACHINE}.`);
    expect(text).toContain('![');

    expect(() => writeDocs(dir, 'other page', null, readmeBlock(MACHINE, headlines(12)))).toThrow(/more than 15/);
    expect(readFileSync(join(dir, 'docs/performance.md'), 'utf8')).toBe(page);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(written);
  });
});
