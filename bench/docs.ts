/**
 * The pages a full run writes (`npm run bench -- --write-docs .`): docs/performance.md whole,
 * its chart, and the README's Performance section between its markers. Everything here is
 * plain text in, text out, so that a test can hold the README to its limits.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LockstepResult } from './lockstep.js';
import { fmt, label } from './format.js';
import { cellLegend, seriesOf } from './report.js';
import { fmtRatio, median, ratios } from './summary.js';
import type { Tuned } from './tune.js';

export const PERF_START = '<!-- perf:start -->';
export const PERF_END = '<!-- perf:end -->';
/** The README's length, and its Performance section's (heading to the next heading). */
export const README_MAX_LINES = 250;
export const SECTION_MAX_LINES = 15;
export const PERFORMANCE_PAGE = 'docs/performance.md';
export const PERFORMANCE_CHART = 'docs/performance.svg';

/** A scene table as the headlines read it. */
export interface HeadlineTable {
  readonly ns: readonly number[];
  readonly results: Map<number, LockstepResult>;
}

/** One row of the README's table: a scene at its largest count. */
export interface HeadlineSpec {
  title: string;
  table: HeadlineTable;
  /** The contender that is bitecs-quadtree in this row. */
  ours: string;
  /** The grid's key; its tuned setting is looked up in `tuned` by `tunedWhere`. */
  grid: string;
  /** The other peers; the fastest of them is shown. */
  peers: readonly string[];
  /** The `where` of the grid's tuned setting at a count (see bench/tune.ts), when it is tuned. */
  tunedWhere?: (n: number) => string;
}

export interface Headline {
  title: string;
  n: number;
  /** Each run's median ms of ours, the grid and the fastest other peer. */
  ours: number[];
  grid: { medians: number[]; setting: string } | null;
  peer: { name: string; medians: number[] } | null;
}

/** The rows of the README's table, from the scene tables that ran (a scene that did not is left out). */
export function headlinesOf(specs: readonly HeadlineSpec[], tuned: readonly Tuned[]): Headline[] {
  const out: Headline[] = [];
  for (const s of specs) {
    const n = [...s.table.ns].reverse().find((m) => seriesOf(s.table, s.ours, m) !== undefined);
    if (n === undefined) continue;
    const ours = seriesOf(s.table, s.ours, n)?.medians ?? [];
    const grid = seriesOf(s.table, s.grid, n);
    const where = s.tunedWhere?.(n);
    const setting = tuned.find((t) => t.where === where && t.source !== 'default' && t.what === 'cell px');
    let peer: Headline['peer'] = null;
    for (const key of s.peers) {
      const series = seriesOf(s.table, key, n);
      if (series === undefined || !Number.isFinite(median(series.medians))) continue;
      if (peer === null || median(series.medians) < median(peer.medians)) {
        peer = { name: series.spec.name, medians: series.medians };
      }
    }
    out.push({
      title: s.title,
      n,
      ours,
      grid:
        grid === undefined ? null : { medians: grid.medians, setting: setting ? `${setting.setting} px cells` : '' },
      peer,
    });
  }
  return out;
}

/** "22.1 ms · 0.77x": a peer's median and its time over ours, the median of the runs' ratios. */
function versus(medians: number[], ours: number[]): string {
  return `${fmt(median(medians))} ms · ${fmtRatio(median(ratios(medians, ours)))}`;
}

/** The lines between the README's markers: a small table and a link to the whole page. */
export function readmeBlock(machine: string, headlines: readonly Headline[]): string {
  const rows = headlines.map((h) => {
    const grid =
      h.grid === null ? '–' : `${versus(h.grid.medians, h.ours)}${h.grid.setting ? ` (${h.grid.setting})` : ''}`;
    const peer = h.peer === null ? '–' : `${h.peer.name}: ${versus(h.peer.medians, h.ours)}`;
    return `| ${h.title}, ${label(h.n)} | ${fmt(median(h.ours))} ms | ${grid} | ${peer} |`;
  });
  return [
    "Median ms per frame; a peer's ratio is its time over bitecs-quadtree's (above 1x it is slower),",
    `every peer at its fastest setting, all finding the same pairs each frame. ${machine}:`,
    '',
    '| scene, items | bitecs-quadtree | grid rebuilt each frame | fastest other peer |',
    '| --- | ---: | ---: | ---: |',
    ...rows,
    '',
    'Every table, how it is measured, and the chart: [Performance](docs/performance.md).',
  ].join('\n');
}

/** The README with `block` between its markers; throws when they are missing or out of order. */
export function replaceSection(readme: string, block: string): string {
  const start = readme.indexOf(PERF_START);
  const end = readme.indexOf(PERF_END);
  if (start < 0 || end < start) {
    throw new Error(`README.md has no ${PERF_START} ... ${PERF_END} section to rewrite`);
  }
  return `${readme.slice(0, start + PERF_START.length)}\n${block.trim()}\n${readme.slice(end)}`;
}

/** The lines of a Markdown section: its heading and what follows, up to the next heading of its level or above. */
export function sectionLines(text: string, heading: string): string[] {
  const lines = text.split('\n');
  const at = lines.indexOf(heading);
  if (at < 0) return [];
  const level = /^#+/.exec(heading)?.[0].length ?? 1;
  let end = at + 1;
  while (end < lines.length && !new RegExp(`^#{1,${level}} `).test(lines[end])) end++;
  while (end > at + 1 && lines[end - 1].trim() === '') end--;
  return lines.slice(at, end);
}

/** Lines of a text, not counting the newline that ends the last. */
export function lineCount(text: string): number {
  return text.replace(/\n$/, '').split('\n').length;
}

/** Throws unless the README is within its limits. */
export function checkReadme(readme: string): void {
  const lines = lineCount(readme);
  const section = sectionLines(readme, '## Performance').length;
  if (section > SECTION_MAX_LINES) {
    throw new Error(`README.md's Performance section is ${section} lines, more than ${SECTION_MAX_LINES}`);
  }
  if (lines > README_MAX_LINES) throw new Error(`README.md is ${lines} lines, more than ${README_MAX_LINES}`);
}

/** A scene's section, its `### ` headings raised to `## ` (the page's scenes) and `#### ` to `### `. */
export function asPageSection(section: string): string {
  return section.replace(/^###(#?) /gm, '##$1 ');
}

export interface PageInput {
  /** Date, CPU, cores, Node and runs (report.ts machineLine). */
  machine: string;
  runs: number;
  /** The scene sections as --markdown prints them, in order. */
  sections: readonly string[];
  /** The tuned peers' settings (tune.ts tunedSection), or ''. */
  tuned: string;
  /** Whether the chart was drawn (docs/performance.svg, beside the page). */
  chart: boolean;
  /** The bundle sizes' section (bundle.ts bundleSection), or ''. */
  bundle?: string;
}

/** docs/performance.md whole. */
export function performancePage(o: PageInput): string {
  const parts = [
    '# Performance',
    '<!-- Written by `npm run bench -- --write-docs .` from one full run: change bench/docs.ts, not this page. -->',
    'The benchmark plays seeded game scenes through bitecs-quadtree and its peers, their frames ' +
      'interleaved in one process, and checks every frame that each contender found the same pairs as ' +
      "the scene's reference (brute force, a hand-written grid, or bitecs-quadtree where brute force is " +
      'too slow). The peers with a setting to tune (the grid cell size, flatbush nodeSize, rbush ' +
      'maxEntries, planck lengthUnitsPerMeter) ' +
      (o.tuned === ''
        ? 'ran at their defaults in this run.'
        : 'run at the fastest of their candidates for each scene and count, swept on the machine before ' +
          'the tables; [the settings that won](#peers-settings) close this page.'),
    [
      '```sh',
      'npm run bench                     # every scene, 3 runs',
      'npm run bench -- --quick          # a smoke run: small scenes, few frames',
      'npm run bench -- --write-docs .   # rewrite this page, its chart and the README summary',
      'npm run bench -- --help           # scenes, counts, contenders, profiling',
      '```',
    ].join('\n'),
    `Measured ${o.machine}.`,
    cellLegend(o.runs),
    o.chart
      ? '![Milliseconds per frame against the item count, log scales, a line per contender and a panel per scene](performance.svg)'
      : '',
    'Which to pick for your game, read against these tables: [what to pick when](getting-started.md#what-to-pick-when).',
    ...o.sections.map(asPageSection),
    o.tuned === '' ? '' : `## Peers' settings\n\n${o.tuned}`,
    MEMORY_AND_SNAPSHOTS,
    o.bundle ?? '',
  ];
  return `${parts
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join('\n\n')}\n`;
}

const MEMORY_AND_SNAPSHOTS = `## Memory, scale and snapshots

\`npx tsx --expose-gc bench/memory.ts\` builds the core over the bouncing boxes and the storm from 100k to a million items, runs 100 frames, and prints the typed-array bytes it holds per item and per current pair, and the frame time per item. \`test/core/scale.test.ts\` checks a tree of 100,000 items against a grid and linear scans in \`npm test\`, and \`npm run fuzz\` a million. \`npx tsx --expose-gc bench/snapshot.ts\` times \`saveTree\` into a reused snapshot and \`restoreTree\` of it, in the core and through a bitECS world, and \`snapshotToBytes\` and \`snapshotFromBytes\` into a new tree, \`worldToBytes\` and \`worldFromBytes\` into a new world (each write over the last write's bytes), and prints the bytes a snapshot holds and a save copies per item ([rollback and replays](rollback.md)). \`npx tsx --expose-gc bench/cull.ts\` times the PixiJS cullers' \`cull\` and \`placeVisible\` in a shooter's world of 20,000 sparks, on stand-in sprites ([PixiJS](pixi.md)). \`npx tsx bench/queries.ts\` times rectangles, circles, nearest items and rays over placed boxes against flatbush and rbush, and rectangles over a class of boxes all moving.`;

/** Writes the page, the chart (when there is one) and the README's section under `root`; checks the README. */
export function writeDocs(root: string, page: string, svg: string | null, block: string): void {
  const readmePath = join(root, 'README.md');
  const readme = replaceSection(readFileSync(readmePath, 'utf8'), block);
  checkReadme(readme);
  writeFileSync(join(root, PERFORMANCE_PAGE), page);
  if (svg !== null) writeFileSync(join(root, PERFORMANCE_CHART), svg);
  writeFileSync(readmePath, readme);
}

/** The bench scenes' `where` of a tuned bounce setting (bench/bounce.ts names them so). */
export function bounceWhere(modeTitle: string): (n: number) => string {
  return (n) => `bounce, ${modeTitle.toLowerCase()}, ${label(n)}`;
}
