/**
 * A small SVG writer for the bench results: ms per frame against the item count, log scale on
 * both axes, one line per contender, the median of the runs as the point and their range as a
 * vertical bar. One panel per scene table, two panels a row, on a white background.
 */

/** One item count of a contender: the median over the runs and the lowest and highest run, in ms. */
export interface ChartPoint {
  readonly n: number;
  readonly median: number;
  readonly low: number;
  readonly high: number;
}

/** One contender's line. */
export interface ChartSeries {
  readonly name: string;
  readonly points: readonly ChartPoint[];
  /** Drawn thicker (the library itself). */
  readonly emphasis?: boolean;
}

/** One scene table. */
export interface ChartPanel {
  readonly title: string;
  readonly series: readonly ChartSeries[];
}

/** The whole picture: a title, the machine line, the panels two to a row. */
export interface Chart {
  readonly title: string;
  /** Date, machine, Node and runs, as the tables print them. */
  readonly subtitle: string;
  readonly panels: readonly ChartPanel[];
}

/** Sizes in px: the head, a panel's plot area and the margins around it. */
export const LAYOUT = {
  head: 52,
  columns: 2,
  plotWidth: 340,
  plotHeight: 220,
  left: 60,
  right: 60,
  top: 28,
  bottom: 40,
  /** Between the frame and the first and last decade, so that no point sits on the frame. */
  pad: 8,
  legendRow: 16,
  /** Legend names up to this many characters go two to a row. */
  legendShortName: 36,
} as const;

/** Okabe-Ito colours (told apart with most colour blindness), yellow darkened to read on white. */
export const COLOURS = ['#000', '#e69f00', '#56b4e9', '#009e73', '#b8a000', '#0072b2', '#d55e00', '#cc79a7'];

/** A log-10 axis over whole decades: `10 ** lo` to `10 ** hi` mapped onto `from` to `to` px. */
export class LogScale {
  constructor(
    readonly lo: number,
    readonly hi: number,
    readonly from: number,
    readonly to: number,
  ) {}

  /** The decades covering every value (at least one). */
  static covering(values: readonly number[], from: number, to: number): LogScale {
    const logs = values.filter((v) => v > 0 && Number.isFinite(v)).map(Math.log10);
    const lo = logs.length === 0 ? 0 : Math.floor(Math.min(...logs) + 1e-9);
    const hi = logs.length === 0 ? 1 : Math.ceil(Math.max(...logs) - 1e-9);
    return new LogScale(lo, Math.max(hi, lo + 1), from, to);
  }

  at(v: number): number {
    return this.from + ((Math.log10(v) - this.lo) / (this.hi - this.lo)) * (this.to - this.from);
  }

  /** The decade exponents lo..hi. */
  decades(): number[] {
    return Array.from({ length: this.hi - this.lo + 1 }, (_, i) => this.lo + i);
  }
}

/** An item count's decade: 100, 1k, 10k, 100k, 1M. */
export function countLabel(exp: number): string {
  if (exp >= 6) return `${10 ** (exp - 6)}M`;
  if (exp >= 3) return `${10 ** (exp - 3)}k`;
  return String(10 ** exp);
}

/** A time's decade in ms: 0.01, 0.1, 1, 10, 100, 1000. */
export function msLabel(exp: number): string {
  return exp >= 0 ? String(10 ** exp) : `0.${'0'.repeat(-exp - 1)}1`;
}

/** The whole chart as an SVG document: panels two to a row, each row on one time scale. */
export function chartSvg(chart: Chart): string {
  const L = LAYOUT;
  const panelWidth = L.left + L.plotWidth + L.right;
  const width = panelWidth * Math.min(L.columns, Math.max(1, chart.panels.length));
  const rows: ChartPanel[][] = [];
  for (let i = 0; i < chart.panels.length; i += L.columns) rows.push(chart.panels.slice(i, i + L.columns));
  const body: string[] = [];
  let y = L.head;
  for (const row of rows) {
    const legendRows = Math.max(...row.map((p) => legendGrid(p.series).rows));
    // One time scale per row, so that panels side by side compare at a glance.
    const times = row.flatMap((p) => p.series.flatMap((s) => s.points.flatMap((q) => [q.low, q.high, q.median])));
    row.forEach((panel, c) => body.push(panelSvg(panel, c * panelWidth, y, times)));
    y += L.top + L.plotHeight + L.bottom + legendRows * L.legendRow + 8;
  }
  const height = Math.round(y);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      `font-family="Helvetica,Arial,sans-serif" font-size="11" fill="#222">`,
    `<style>.x,.m,.t{text-anchor:middle}.y{text-anchor:end}.t{font-size:13px;font-weight:bold}.h{font-size:15px}.a{fill:#555}.k{fill:#222;stroke:none}</style>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text class="t h" x="${width / 2}" y="20">${escape(chart.title)}</text>`,
    `<text class="m a" x="${width / 2}" y="38">${escape(chart.subtitle)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

/** A panel with its top-left corner at (x0, y0), its time axis covering `times`. */
function panelSvg(panel: ChartPanel, x0: number, y0: number, times: readonly number[]): string {
  const L = LAYOUT;
  const left = x0 + L.left;
  const right = left + L.plotWidth;
  const top = y0 + L.top;
  const bottom = top + L.plotHeight;
  const points = panel.series.flatMap((s) => s.points);
  const xs = LogScale.covering(
    points.map((p) => p.n),
    left + L.pad,
    right - L.pad,
  );
  const ys = LogScale.covering(times, bottom - L.pad, top + L.pad);
  const out: string[] = [`<g class="panel">`];
  out.push(`<text class="t" x="${r(left + L.plotWidth / 2)}" y="${r(y0 + 16)}">${escape(panel.title)}</text>`);
  out.push(...axesSvg(xs, ys, left, right, top, bottom));
  panel.series.forEach((s, i) =>
    out.push(
      seriesSvg(s, COLOURS[i % COLOURS.length], xs, ys, legendAt(panel.series, i, left - 40, bottom + L.bottom)),
    ),
  );
  out.push('</g>');
  return out.join('\n');
}

/** Decade grid lines and labels, minor ticks at 2..9, the axis titles. */
function axesSvg(xs: LogScale, ys: LogScale, left: number, right: number, top: number, bottom: number): string[] {
  const grid: string[] = [];
  const minor: string[] = [];
  const labels: string[] = [];
  for (const e of xs.decades()) {
    const x = r(xs.at(10 ** e));
    grid.push(`M${x} ${r(top)}V${r(bottom)}`);
    labels.push(`<text class="x" x="${x}" y="${r(bottom + 14)}" >${countLabel(e)}</text>`);
    if (e < xs.hi) for (let m = 2; m < 10; m++) minor.push(`M${r(xs.at(m * 10 ** e))} ${r(bottom)}v-4`);
  }
  for (const e of ys.decades()) {
    const y = r(ys.at(10 ** e));
    grid.push(`M${r(left)} ${y}H${r(right)}`);
    labels.push(`<text class="y" x="${r(left - 5)}" y="${r(y + 4)}" >${msLabel(e)}</text>`);
    if (e < ys.hi) for (let m = 2; m < 10; m++) minor.push(`M${r(left)} ${r(ys.at(m * 10 ** e))}h4`);
  }
  return [
    `<path d="${grid.join('')}" stroke="#ddd" fill="none"/>`,
    `<path d="${minor.join('')}" stroke="#999" fill="none"/>`,
    `<rect x="${r(left)}" y="${r(top)}" width="${r(right - left)}" height="${r(bottom - top)}" stroke="#888" fill="none"/>`,
    ...labels,
    `<text class="m a" x="${r((left + right) / 2)}" y="${r(bottom + 30)}">items</text>`,
    `<text class="m a" transform="translate(${r(left - 42)} ${r((top + bottom) / 2)}) rotate(-90)">ms per frame</text>`,
  ];
}

/**
 * A contender's group: the line through the medians, a bar over each point's range of runs,
 * the points, then its legend entry (a swatch and the name) at `key`.
 */
function seriesSvg(s: ChartSeries, colour: string, xs: LogScale, ys: LogScale, key: { x: number; y: number }): string {
  const pts = [...s.points].sort((a, b) => a.n - b.n);
  const line = pts.map((p) => `${r(xs.at(p.n))},${r(ys.at(p.median))}`).join(' ');
  const bars = pts
    .filter((p) => p.high > p.low)
    .map((p) => `M${r(xs.at(p.n))} ${r(ys.at(p.low))}V${r(ys.at(p.high))}`)
    .join('');
  const dots = pts.map((p) => `<circle cx="${r(xs.at(p.n))}" cy="${r(ys.at(p.median))}" r="2"/>`);
  const { x, y } = { x: r(key.x), y: r(key.y) };
  return [
    `<g class="series" data-name="${escape(s.name)}" stroke="${colour}" fill="${colour}" stroke-width="${s.emphasis === true ? 2.5 : 1.5}">`,
    pts.length > 1 ? `<polyline points="${line}" fill="none"/>` : '',
    bars === '' ? '' : `<path d="${bars}" stroke-width="1"/>`,
    ...dots,
    `<g class="legend"><path d="M${x} ${y}h18"/><circle cx="${x + 9}" cy="${y}" r="2"/>` +
      `<text class="k" x="${x + 24}" y="${y + 4}">${escape(s.name)}</text></g>`,
    '</g>',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

/** Two columns of names when they are short enough, else one. */
function legendGrid(series: readonly ChartSeries[]): { columns: number; rows: number } {
  const columns = series.every((s) => s.name.length <= LAYOUT.legendShortName) ? 2 : 1;
  return { columns, rows: Math.ceil(series.length / columns) };
}

/** Where the legend entry of series i goes, in columns under the plot from (x0, y0). */
function legendAt(series: readonly ChartSeries[], i: number, x0: number, y0: number): { x: number; y: number } {
  const { columns, rows } = legendGrid(series);
  const columnWidth = (LAYOUT.plotWidth + 80) / columns;
  return { x: x0 + Math.floor(i / rows) * columnWidth, y: y0 + (i % rows) * LAYOUT.legendRow };
}

/** Coordinates to whole pixels: enough on screen, and short. */
function r(v: number): number {
  return Math.round(v);
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
