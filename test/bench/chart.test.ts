import { Window } from 'happy-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { chartSvg, COLOURS, countLabel, LAYOUT, LogScale, msLabel, type Chart } from '../../bench/chart.js';
import { panelOf } from '../../bench/chart-panels.js';
import type { LockstepResult, Series } from '../../bench/lockstep.js';

// The bench's SVG chart: well-formed, a line per contender, points where a log scale puts them.

/** The SVG parsed as XML; fails on a parse error and on a bare `&` (which the parser lets by). */
function parse(svg: string): Document {
  expect(svg).not.toMatch(/&(?!amp;|lt;|gt;|quot;|#\d+;)/);
  const doc = new new Window().DOMParser().parseFromString(svg, 'image/svg+xml') as unknown as Document;
  expect(doc.querySelectorAll('parsererror')).toHaveLength(0);
  expect(doc.documentElement.tagName.toLowerCase()).toBe('svg');
  return doc;
}

const num = (el: Element, name: string) => Number(el.getAttribute(name));

/** Coordinates are written in whole pixels: within half a pixel of the exact place. */
function expectPx(actual: number, exact: number): void {
  expect(Math.abs(actual - exact)).toBeLessThanOrEqual(0.5 + 1e-9);
}

const chart: Chart = {
  title: 'Median ms per frame',
  subtitle: '2026-11-25 · Some CPU · 2 cores · Node v20 · 3 runs',
  panels: [
    {
      title: 'Boxes & <friends>',
      series: [
        {
          name: 'ours',
          emphasis: true,
          points: [
            { n: 1_000, median: 0.5, low: 0.4, high: 0.6 },
            { n: 3_000, median: 2, low: 2, high: 2 },
            { n: 100_000, median: 40, low: 35, high: 50 },
          ],
        },
        { name: 'grid "typed"', points: [{ n: 10_000, median: 1, low: 0.9, high: 1.2 }] },
      ],
    },
    {
      title: 'Second',
      series: [
        {
          name: 'a',
          points: [
            { n: 20_000, median: 3, low: 3, high: 3 },
            { n: 50_000, median: 8, low: 7, high: 9 },
          ],
        },
        { name: 'b', points: [{ n: 20_000, median: 5, low: 4, high: 6 }] },
        { name: 'c', points: [{ n: 50_000, median: 12, low: 11, high: 13 }] },
      ],
    },
  ],
};

/** Where a log scale over 10^lo..10^hi puts v, between `from` and `to`, computed here from scratch. */
function logAt(v: number, lo: number, hi: number, from: number, to: number): number {
  return from + ((Math.log(v) / Math.LN10 - lo) / (hi - lo)) * (to - from);
}

describe('bench chart', () => {
  let doc: Document;
  let panels: Element[];
  beforeAll(() => {
    doc = parse(chartSvg(chart));
    panels = [...doc.querySelectorAll('g.panel')];
  });

  it('is well-formed SVG on a white background, with the title, the subtitle and each panel title', () => {
    const bg = doc.querySelector('rect')!;
    expect(bg.getAttribute('fill')).toBe('#fff');
    const texts = [...doc.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toContain(chart.title);
    expect(texts).toContain(chart.subtitle);
    expect(texts).toContain('Boxes & <friends>');
    expect(texts).toContain('Second');
    expect(panels).toHaveLength(2);
  });

  it('draws a series and a legend entry per contender, in its own colour', () => {
    panels.forEach((panel, p) => {
      const series = [...panel.querySelectorAll('g.series')];
      expect(series.map((g) => g.getAttribute('data-name'))).toEqual(chart.panels[p].series.map((s) => s.name));
      series.forEach((g, i) => {
        expect(g.getAttribute('stroke')).toBe(COLOURS[i]);
        const dots = [...g.children].filter((c) => c.tagName.toLowerCase() === 'circle');
        expect(dots).toHaveLength(chart.panels[p].series[i].points.length);
        expect(g.querySelectorAll('polyline')).toHaveLength(chart.panels[p].series[i].points.length > 1 ? 1 : 0);
      });
      const legend = [...panel.querySelectorAll('g.legend')];
      expect(legend.map((g) => g.querySelector('text')!.textContent)).toEqual(
        chart.panels[p].series.map((s) => s.name),
      );
      legend.forEach((g, i) => expect(g.parentElement!.getAttribute('fill')).toBe(COLOURS[i]));
    });
  });

  it('labels every decade of both axes', () => {
    const labels = (panel: Element, axis: string) =>
      [...panel.querySelectorAll(`text.${axis}`)].map((t) => t.textContent);
    // First panel: 1k..100k items, 0.4..50 ms -> 0.1..100 ms.
    expect(labels(panels[0], 'x')).toEqual(['1k', '10k', '100k']);
    expect(labels(panels[0], 'y')).toEqual(['0.1', '1', '10', '100']);
    // Second: 20k..50k items within one decade; 3..13 ms, on the time scale of its row.
    expect(labels(panels[1], 'x')).toEqual(['10k', '100k']);
    expect(labels(panels[1], 'y')).toEqual(['0.1', '1', '10', '100']);
  });

  it('puts each median, range bar and decade label where the log scales put them', () => {
    const L = LAYOUT;
    // The decades span the plot less its padding on each side.
    const left = L.left + L.pad;
    const right = L.left + L.plotWidth - L.pad;
    const top = L.head + L.top + L.pad;
    const bottom = L.head + L.top + L.plotHeight - L.pad;
    const x = (n: number) => logAt(n, 3, 5, left, right);
    const y = (ms: number) => logAt(ms, -1, 2, bottom, top);
    const [ours, grid] = [...panels[0].querySelectorAll('g.series')];
    const dots = [...ours.children]
      .filter((c) => c.tagName.toLowerCase() === 'circle')
      .map((c) => [num(c, 'cx'), num(c, 'cy')]);
    const expected = chart.panels[0].series[0].points.map((p) => [x(p.n), y(p.median)]);
    dots.forEach(([cx, cy], i) => {
      expectPx(cx, expected[i][0]);
      expectPx(cy, expected[i][1]);
    });
    // 10k is the middle of 1k..100k; 1 ms is a third of the way up from 0.1.
    const g = grid.querySelector('circle')!;
    expectPx(num(g, 'cx'), (left + right) / 2);
    expectPx(num(g, 'cy'), bottom - (bottom - top) / 3);
    // A bar from the lowest run to the highest, none where they are equal.
    const bars = ours.querySelector('path')!.getAttribute('d')!;
    const segments = [...bars.matchAll(/M([\d.]+) ([\d.]+)V([\d.]+)/g)].map((m) => m.slice(1).map(Number));
    expect(segments).toHaveLength(2);
    expectPx(segments[1][0], x(100_000));
    expectPx(segments[1][1], y(35));
    expectPx(segments[1][2], y(50));
    // Decade labels sit on the same scale as the points.
    const xLabel = [...panels[0].querySelectorAll('text.x')].find((t) => t.textContent === '10k')!;
    expectPx(num(xLabel, 'x'), x(10_000));
    const yLabel = [...panels[0].querySelectorAll('text.y')].find((t) => t.textContent === '10')!;
    expectPx(num(yLabel, 'y') - 4, y(10));
  });

  it('puts the panels of a row on one time scale, and a panel alone in its row on its own', () => {
    const ticks = (doc: Document) =>
      [...doc.querySelectorAll('g.panel')].map((p) => [...p.querySelectorAll('text.y')].map((t) => t.textContent));
    const [first, second] = chart.panels;
    const third = { title: 'Third', series: [{ name: 'd', points: [{ n: 10, median: 300, low: 200, high: 400 }] }] };
    expect(ticks(parse(chartSvg({ ...chart, panels: [second, first, third] })))).toEqual([
      ['0.1', '1', '10', '100'],
      ['0.1', '1', '10', '100'],
      ['100', '1000'],
    ]);
    const alone = parse(chartSvg({ ...chart, panels: [second] }));
    expect(ticks(alone)).toEqual([['1', '10', '100']]);
    expect(num(alone.documentElement, 'width')).toBe(LAYOUT.left + LAYOUT.plotWidth + LAYOUT.right);
    expect(num(doc.documentElement, 'width')).toBe(2 * (LAYOUT.left + LAYOUT.plotWidth + LAYOUT.right));
  });

  it('draws the emphasised series thicker', () => {
    const [ours, grid] = [...panels[0].querySelectorAll('g.series')];
    expect(num(ours, 'stroke-width')).toBeGreaterThan(num(grid, 'stroke-width'));
  });
});

describe('log scale', () => {
  it('covers the values with whole decades, at least one, ignoring zeros and NaN', () => {
    expect(LogScale.covering([0.4, 50], 0, 1)).toMatchObject({ lo: -1, hi: 2 });
    expect(LogScale.covering([1000, 100_000], 0, 1)).toMatchObject({ lo: 3, hi: 5 });
    expect(LogScale.covering([1000], 0, 1)).toMatchObject({ lo: 3, hi: 4 });
    expect(LogScale.covering([0, NaN, 20], 0, 1)).toMatchObject({ lo: 1, hi: 2 });
  });

  it('maps decades evenly', () => {
    const s = new LogScale(0, 4, 100, 500);
    expect(s.decades()).toEqual([0, 1, 2, 3, 4]);
    for (const e of s.decades()) expect(s.at(10 ** e)).toBeCloseTo(100 + e * 100, 9);
    expect(s.at(Math.sqrt(10))).toBeCloseTo(150, 9);
  });

  it('labels counts and times', () => {
    expect([2, 3, 4, 5, 6, 7].map(countLabel)).toEqual(['100', '1k', '10k', '100k', '1M', '10M']);
    expect([-3, -2, -1, 0, 1, 3].map(msLabel)).toEqual(['0.001', '0.01', '0.1', '1', '10', '1000']);
  });
});

describe('chart panels from a scene table', () => {
  const series = (key: string, medians: number[], mismatch = ''): Series => ({
    spec: { key, name: key },
    medians,
    prepare: [],
    frames: medians.map(() => 10),
    planned: 10,
    pairTests: [],
    pairs: 0,
    mismatch,
  });
  const result = (...s: Series[]): LockstepResult => ({ series: s, pairs: 0, checked: true });
  const specs = [
    { key: 'ours', name: 'ours' },
    { key: 'slow', name: 'slow' },
    { key: 'none', name: 'none' },
  ];

  it('takes the median and range of the runs per count, and leaves out what did not run', () => {
    const table = {
      ns: [1000, 10_000],
      specs,
      results: new Map([
        [1000, result(series('ours', [3, 1, 2]), series('slow', [10, NaN, 30]), series('none', [NaN]))],
        [10_000, result(series('ours', [20, 25, 21]))],
      ]),
    };
    expect(panelOf('t', table, 'ours')).toEqual({
      title: 't',
      series: [
        {
          name: 'ours',
          emphasis: true,
          points: [
            { n: 1000, median: 2, low: 1, high: 3 },
            { n: 10_000, median: 21, low: 20, high: 25 },
          ],
        },
        { name: 'slow', emphasis: false, points: [{ n: 1000, median: 20, low: 10, high: 30 }] },
      ],
    });
  });

  it('names a contender whose pairs differed, and draws no panel for a single count', () => {
    const two = {
      ns: [1000, 2000],
      specs: specs.slice(0, 1),
      results: new Map([
        [1000, result(series('ours', [1]))],
        [2000, result(series('ours', [2], 'frame 3'))],
      ]),
    };
    expect(panelOf('t', two)?.series[0].name).toBe('ours (INVALID: pairs differ)');
    const one = { ns: [1000], specs, results: new Map([[1000, result(series('ours', [1]))]]) };
    expect(panelOf('t', one)).toBeNull();
  });
});
