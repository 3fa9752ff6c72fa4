import { checkKeys, fail, show, type KeysOf } from '../core/internal.js';
import type { QuadtreeWorldStats } from '../ecs/stats.js';

/**
 * A line of {@link QuadtreeHud}, by name:
 * - `fps`: frames a second and the mean frame time;
 * - `entities`: entities in the tree, and how many of them are static;
 * - `pairs`: current pairs, and how many began and ended in the last step;
 * - `tiers`: current pairs by tier, 0 (priority 192-255) to 3;
 * - `deferred`: items the step budget left waiting, and the most steps one may wait;
 * - `ms`: milliseconds per system: the plugin's total, sync, collision, the dispatch's own
 *   part and the game's handlers (`handlerMs`);
 * - `handlers`: handler calls made by the last dispatch, calls waiting, handlers cut;
 * - `checks`: overlap tests of the last step, entities moved, entities that changed node;
 * - `tree`: tree nodes live and free.
 */
export type HudLine = 'fps' | 'entities' | 'pairs' | 'tiers' | 'deferred' | 'ms' | 'handlers' | 'checks' | 'tree';

/** What {@link QuadtreeHud} reads of a world's stats: `getStats(world)` gives it all. */
export type HudStats = Pick<
  QuadtreeWorldStats,
  | 'entities'
  | 'static'
  | 'pairs'
  | 'entered'
  | 'exited'
  | 'enteredByTier'
  | 'stayedByTier'
  | 'deferred'
  | 'waitBound'
  | 'syncMs'
  | 'collisionMs'
  | 'dispatchMs'
  | 'handlerMs'
  | 'handlerCalls'
  | 'handlerDeferred'
  | 'handlersCut'
  | 'pairTests'
  | 'dirty'
  | 'relocated'
  | 'nodesLive'
  | 'nodesFree'
>;

/** What {@link QuadtreeHud} writes into: a PixiJS `Text`, `BitmapText` or `HTMLText` has it. */
export interface HudText {
  /** The text shown: the HUD's lines, joined by newlines. */
  text: string;
  /** Set when the {@link QuadtreeHudOptions.x | x} option is given. */
  x: number;
  /** Set when the {@link QuadtreeHudOptions.y | y} option is given. */
  y: number;
  /** The text's style, whose fill is set when the {@link QuadtreeHudOptions.color | color} option is given. */
  style: {
    /** The fill colour. */
    fill: unknown;
  };
}

/** Means over the frames of the last refresh of a {@link QuadtreeHud}: what its text shows. */
export interface HudTimings {
  /** Frames a second: the frames counted over their summed `deltaMs`. */
  fps: number;
  /** Mean `deltaMs`. */
  frameMs: number;
  /** The plugin's milliseconds a frame: `syncMs + collisionMs + dispatchMs` here. */
  pluginMs: number;
  /** Mean `syncMs` of the stats. */
  syncMs: number;
  /** Mean `collisionMs` of the stats. */
  collisionMs: number;
  /** The dispatch's own part: mean `dispatchMs - handlerMs` of the stats. */
  dispatchMs: number;
  /** Mean `handlerMs` of the stats: the game's collision handlers. */
  handlerMs: number;
}

/** Options for {@link QuadtreeHud}. */
export interface QuadtreeHudOptions {
  /** The lines shown, in this order (see {@link HudLine}). @default ['fps', 'entities', 'pairs', 'tiers', 'deferred', 'ms'] */
  lines?: readonly HudLine[];
  /**
   * The text is rewritten at most once per this many milliseconds of frame time (the summed
   * `deltaMs` of {@link QuadtreeHud.update}), and its timings are the means over the frames
   * between: single frames jump with the browser's coarse timer. 0 rewrites every frame.
   * @default 250
   */
  refreshMs?: number;
  /** Moves the text to this x when given. @default where the text is */
  x?: number;
  /** Moves the text to this y when given. @default where the text is */
  y?: number;
  /** Sets the text's fill to this colour (`0x000000..0xffffff`) when given. @default the text's own style */
  color?: number;
}

const HUD_KEYS: KeysOf<QuadtreeHudOptions> = { lines: true, refreshMs: true, x: true, y: true, color: true };

const DEFAULT_LINES: readonly HudLine[] = ['fps', 'entities', 'pairs', 'tiers', 'deferred', 'ms'];

/** Integers shown with thousands separators. */
function group(n: number): string {
  const s = String(n);
  if (n < 1000) return s;
  let out = s.slice(0, s.length % 3 || 3);
  for (let i = out.length; i < s.length; i += 3) out += ',' + s.slice(i, i + 3);
  return out;
}

/** A value kept in hundredths (see {@link hundredths}), shown with two decimals. */
function fixed2(v: number): string {
  const cents = v % 100;
  return `${(v - cents) / 100}.${cents < 10 ? '0' : ''}${cents}`;
}

/** A non-negative number as the whole hundredths shown of it. */
function hundredths(v: number): number {
  return v > 0 ? Math.round(v * 100) : 0;
}

/** A line: how many numbers it shows, how to read them as shown, how to write them. */
interface LineSpec {
  readonly size: number;
  read(s: HudStats, t: HudTimings, out: Float64Array, at: number): void;
  write(v: Float64Array, at: number): string;
}

// Labels padded to one width, so the values line up in a monospace font.
const LINES: { readonly [K in HudLine]: LineSpec } = {
  fps: {
    size: 2,
    read: (_s, t, out, at) => {
      out[at] = Math.round(t.fps);
      out[at + 1] = hundredths(t.frameMs);
    },
    write: (v, at) => `fps       ${v[at]} · ${fixed2(v[at + 1])} ms a frame`,
  },
  entities: {
    size: 2,
    read: (s, _t, out, at) => {
      out[at] = s.entities;
      out[at + 1] = s.static;
    },
    write: (v, at) => `entities  ${group(v[at])} · ${group(v[at + 1])} static`,
  },
  pairs: {
    size: 3,
    read: (s, _t, out, at) => {
      out[at] = s.pairs;
      out[at + 1] = s.entered;
      out[at + 2] = s.exited;
    },
    write: (v, at) => `pairs     ${group(v[at])} · +${group(v[at + 1])} -${group(v[at + 2])}`,
  },
  tiers: {
    size: 4,
    read: (s, _t, out, at) => {
      for (let i = 0; i < 4; i++) out[at + i] = s.enteredByTier[i] + s.stayedByTier[i];
    },
    write: (v, at) =>
      `by tier   0: ${group(v[at])} · 1: ${group(v[at + 1])} · 2: ${group(v[at + 2])} · 3: ${group(v[at + 3])}`,
  },
  deferred: {
    size: 2,
    read: (s, _t, out, at) => {
      out[at] = s.deferred;
      out[at + 1] = s.waitBound;
    },
    write: (v, at) =>
      `deferred  ${group(v[at])}` + (v[at + 1] > 0 ? ` · each checked within ${group(v[at + 1])} steps` : ''),
  },
  ms: {
    size: 5,
    read: (_s, t, out, at) => {
      out[at] = hundredths(t.pluginMs);
      out[at + 1] = hundredths(t.syncMs);
      out[at + 2] = hundredths(t.collisionMs);
      out[at + 3] = hundredths(t.dispatchMs);
      out[at + 4] = hundredths(t.handlerMs);
    },
    write: (v, at) =>
      `ms        plugin ${fixed2(v[at])} · sync ${fixed2(v[at + 1])} · collision ${fixed2(v[at + 2])}` +
      ` · dispatch ${fixed2(v[at + 3])} · handlers ${fixed2(v[at + 4])}`,
  },
  handlers: {
    size: 3,
    read: (s, _t, out, at) => {
      out[at] = s.handlerCalls;
      out[at + 1] = s.handlerDeferred;
      out[at + 2] = s.handlersCut;
    },
    write: (v, at) => `handlers  ${group(v[at])} calls · ${group(v[at + 1])} waiting · ${group(v[at + 2])} cut`,
  },
  checks: {
    size: 3,
    read: (s, _t, out, at) => {
      out[at] = s.pairTests;
      out[at + 1] = s.dirty;
      out[at + 2] = s.relocated;
    },
    write: (v, at) => `checks    ${group(v[at])} tests · ${group(v[at + 1])} moved · ${group(v[at + 2])} relocated`,
  },
  tree: {
    size: 2,
    read: (s, _t, out, at) => {
      out[at] = s.nodesLive;
      out[at + 1] = s.nodesFree;
    },
    write: (v, at) => `tree      ${group(v[at])} nodes · ${group(v[at + 1])} free`,
  },
};

/** Checks the options by name; returns the lines to show. */
function checkOptions(options: QuadtreeHudOptions): readonly HudLine[] {
  checkKeys('QuadtreeHud option', options, HUD_KEYS);
  // Typed, but plain JavaScript may pass anything.
  const { lines, refreshMs, x, y, color } = options as { [K in keyof QuadtreeHudOptions]?: unknown };
  if (refreshMs !== undefined && !(typeof refreshMs === 'number' && refreshMs >= 0 && refreshMs < Infinity)) {
    fail(`QuadtreeHud refreshMs must be a number >= 0 (got ${show(refreshMs)})`);
  }
  for (const [name, v] of [
    ['x', x],
    ['y', y],
  ] as const) {
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v))) {
      fail(`QuadtreeHud ${name} must be a finite number (got ${show(v)})`);
    }
  }
  if (
    color !== undefined &&
    !(typeof color === 'number' && Number.isInteger(color) && color >= 0 && color <= 0xffffff)
  ) {
    fail(`QuadtreeHud color must be a colour 0x000000..0xffffff (got ${show(color)})`);
  }
  if (lines === undefined) return DEFAULT_LINES;
  if (!Array.isArray(lines) || lines.length === 0) {
    fail(`QuadtreeHud lines must be a non-empty array of line names (got ${show(lines)})`);
  }
  for (const name of lines as unknown[]) {
    if (typeof name !== 'string') fail(`QuadtreeHud lines must be line names (got ${show(name)})`);
    checkKeys('QuadtreeHud line', { [name]: true }, LINES);
  }
  return [...(lines as HudLine[])];
}

/**
 * A heads-up display of a world's stats in a PixiJS text: FPS, entities, pairs and pairs by
 * tier, what the budget deferred, milliseconds per system (the dispatch's own part apart from
 * the game's handlers), and optionally handler calls, checks and tree nodes (see
 * {@link HudLine}). Call {@link update} once a frame with `getStats(world)`. Timings are means
 * over the frames of each refresh (a few a second), as one frame's timings jump with the
 * browser's coarse timer; the text is rewritten only at a refresh that changes a number it
 * shows, since each rewrite makes PixiJS draw the text anew. Between refreshes an update adds
 * a few numbers and allocates nothing.
 *
 * The HUD writes only the text's `text` (and, when asked, its position and fill): give it a
 * `Text` styled as you like, in a monospace font so that the columns line up.
 * @example
 * const hud = new QuadtreeHud(new Text({ style: { fontFamily: 'monospace', fontSize: 12, fill: 0xffffff } }), { x: 8, y: 8 });
 * app.stage.addChild(hud.text);
 * app.ticker.add((ticker) => hud.update(getStats(world), ticker.elapsedMS));
 */
export class QuadtreeHud<T extends HudText = HudText> {
  /** The text written into; add it to the stage yourself, above the world. */
  readonly text: T;
  /** The lines shown, in order. */
  readonly lines: readonly HudLine[];
  /** See {@link QuadtreeHudOptions.refreshMs}; can be changed between updates. */
  refreshMs: number;
  /** The means the text shows, as of the last refresh. */
  readonly timings: Readonly<HudTimings> = {
    fps: 0,
    frameMs: 0,
    pluginMs: 0,
    syncMs: 0,
    collisionMs: 0,
    dispatchMs: 0,
    handlerMs: 0,
  };
  /** Times the text was rewritten so far. */
  rewrites = 0;

  private readonly specs: readonly LineSpec[];
  private shown: Float64Array;
  private next: Float64Array;
  private refreshed = false;
  // Sums over the frames since the last refresh.
  private frames = 0;
  private deltaSum = 0;
  private syncSum = 0;
  private collisionSum = 0;
  private dispatchSum = 0;
  private handlerSum = 0;

  /**
   * @throws if `text` has no string `text`, an option is out of range, a line name is unknown,
   * or `options` has a key {@link QuadtreeHudOptions} does not (named with the closest valid one)
   */
  constructor(text: T, options: QuadtreeHudOptions = {}) {
    // Typed, but plain JavaScript may pass anything.
    const given = text as Partial<HudText> | null;
    if (given === null || typeof given !== 'object' || typeof given.text !== 'string') {
      fail(`QuadtreeHud needs a PixiJS Text, BitmapText or HTMLText (got ${show(text)})`);
    }
    this.lines = checkOptions(options);
    this.text = text;
    this.refreshMs = options.refreshMs ?? 250;
    if (options.x !== undefined) text.x = options.x;
    if (options.y !== undefined) text.y = options.y;
    if (options.color !== undefined) text.style.fill = options.color;
    this.specs = this.lines.map((name) => LINES[name]);
    const size = this.specs.reduce((n, spec) => n + spec.size, 0);
    // NaN equals nothing: the first refresh always writes.
    this.shown = new Float64Array(size).fill(NaN);
    this.next = new Float64Array(size);
  }

  /**
   * Counts a frame: `stats` as the systems left them, `deltaMs` the milliseconds since the
   * previous frame: PixiJS's `ticker.elapsedMS` (its `deltaMS` stops at 100 ms, 10 FPS, and is
   * scaled by `ticker.speed`). Refreshes the numbers on the first call and then once
   * `refreshMs` of frames have passed. Returns true if it rewrote the text.
   * @throws if `deltaMs` is not a finite number >= 0
   */
  update(stats: HudStats, deltaMs: number): boolean {
    if (!(deltaMs >= 0 && deltaMs < Infinity)) {
      fail(`QuadtreeHud.update deltaMs must be a finite number >= 0 (got ${show(deltaMs)})`);
    }
    this.frames++;
    this.deltaSum += deltaMs;
    this.syncSum += stats.syncMs;
    this.collisionSum += stats.collisionMs;
    this.dispatchSum += Math.max(0, stats.dispatchMs - stats.handlerMs);
    this.handlerSum += stats.handlerMs;
    if (this.refreshed && this.deltaSum < this.refreshMs) return false;
    this.refreshed = true;
    this.takeMeans();
    return this.write(stats);
  }

  /** Sets the timings to the means since the last refresh, and starts the next sums. */
  private takeMeans(): void {
    const t = this.timings as HudTimings;
    const n = this.frames;
    t.fps = this.deltaSum > 0 ? (1000 * n) / this.deltaSum : 0;
    t.frameMs = this.deltaSum / n;
    t.syncMs = this.syncSum / n;
    t.collisionMs = this.collisionSum / n;
    t.dispatchMs = this.dispatchSum / n;
    t.handlerMs = this.handlerSum / n;
    t.pluginMs = t.syncMs + t.collisionMs + t.dispatchMs;
    this.frames = this.deltaSum = this.syncSum = this.collisionSum = this.dispatchSum = this.handlerSum = 0;
  }

  /** Rewrites the text if a number it shows changed. */
  private write(stats: HudStats): boolean {
    const next = this.next;
    const specs = this.specs;
    for (let i = 0, at = 0; i < specs.length; at += specs[i].size, i++) specs[i].read(stats, this.timings, next, at);
    if (same(next, this.shown)) return false;
    this.next = this.shown;
    this.shown = next;
    let text = '';
    for (let i = 0, at = 0; i < specs.length; at += specs[i].size, i++) {
      text += (i > 0 ? '\n' : '') + specs[i].write(next, at);
    }
    this.text.text = text;
    this.rewrites++;
    return true;
  }
}

function same(a: Float64Array, b: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
