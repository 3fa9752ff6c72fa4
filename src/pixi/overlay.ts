import type { Graphics } from 'pixi.js';
import { checkFlag, checkKeys, fail, show, type KeysOf } from '../core/internal.js';
import { Shape, tierOf } from '../core/index.js';
import { FLOAT32_MAX, fit, grow, isBits32 } from '../core/internal.js';
import type { LooseQuadtree, NodeVisitor } from '../core/index.js';

/** What the overlay reads from a tree: {@link LooseQuadtree} or anything shaped like it. */
export type OverlayTree = Pick<
  LooseQuadtree,
  'visitNodes' | 'queryRect' | 'getBox' | 'has' | 'current' | 'isSwept' | 'getPath' | 'shapeOf'
>;

/** Options for {@link QuadtreeOverlay}. Every field is optional and can be changed later on the overlay. */
export interface QuadtreeOverlayOptions {
  /**
   * Depth the default node colours reach pure red at (shallower nodes fade to white), and the
   * second argument of a {@link QuadtreeOverlayOptions.nodeColors | nodeColors} function.
   * Give the tree's `maxDepth`. Clamped to 1..20.
   * @default 8
   */
  maxDepth?: number;
  /**
   * Colours of node outlines by depth: a palette (depth `d` takes entry `d`, the deeper ones
   * the last entry: `[0x4488ff]` draws every node blue), or a function of the depth and
   * {@link QuadtreeOverlayOptions.maxDepth | maxDepth}, called once per depth drawn. Colours
   * are integers `0x000000..0xffffff`. Change it when the default's reds clash with red or
   * orange sprites.
   * @default {@link depthColor} (white root to red at `maxDepth`)
   */
  nodeColors?: readonly number[] | ((depth: number, maxDepth: number) => number);
  /** Skip nodes whose subtree holds no item (empty nodes still counting down their lifespan). @default false */
  skipEmpty?: boolean;
  /**
   * Which rectangle of a node to draw: `'loose'` (the bounds its items may reach) or `'cell'`
   * (the quadrant itself: the familiar grid).
   * @default 'loose'
   */
  bounds?: 'loose' | 'cell';
  /**
   * Draw lines one screen pixel wide at any zoom (GPU line primitives, cheapest to rebuild);
   * when false, `lineWidth` wide.
   * @default true
   */
  pixelLine?: boolean;
  /** Line width in the graphics' local units, when `pixelLine` is off. @default 1 */
  lineWidth?: number;
  /** Opacity of node outlines. @default 0.5 */
  alpha?: number;
  /** Draw every item inside the view: its box, or its circle (see the core's `setShape`). @default false */
  items?: boolean;
  /** Colour of item boxes. @default 0x33ff99 */
  itemColor?: number;
  /** At most this many items in view are drawn, boxes and swept paths (the rest are skipped). @default 20000 */
  maxItems?: number;
  /**
   * Draw only the items, pairs and swept paths of these collision layers (see `setCollider`): an
   * item is drawn when its layer has a bit of the mask, a pair when one of its items is drawn.
   * Node outlines are drawn whatever the layers. A 32-bit integer.
   * @default -1 (all layers)
   */
  layers?: number;
  /** Draw a line for every current pair with an item overlapping the view (see `pairLines`). @default false */
  pairs?: boolean;
  /**
   * Where pair lines end. `'nearest'`: at each item's point nearest the other's centre, so a
   * line stays beside the smaller item however big the other is (a merged wall rectangle draws
   * no fan of lines to its far centre). `'centers'`: at the two box centres.
   * @default 'nearest'
   */
  pairLines?: 'nearest' | 'centers';
  /**
   * At most this many pair lines per draw with both ends out of the view (a pair of items
   * overlapping the view whose line lies outside it, or crosses it); 0 leaves them all out.
   * @default 0
   */
  maxOffscreenPairs?: number;
  /**
   * Colour of pair lines per tier, tier 0 (priority 192-255) first; `[c, c, c, c]` for one
   * colour. Four integers `0x000000..0xffffff`.
   * @default [0xffee00, 0xff8800, 0x33ccff, 0x8888aa]
   */
  pairColors?: readonly [number, number, number, number];
  /** At most this many pair lines per draw. @default 20000 */
  maxPairs?: number;
  /** Draw each swept item's last tested path in view: its covering box and a start-to-end line. @default false */
  paths?: boolean;
  /** Colour of swept paths. @default 0xff44ff */
  pathColor?: number;
}

const OVERLAY_KEYS: KeysOf<QuadtreeOverlayOptions> = {
  maxDepth: true,
  nodeColors: true,
  skipEmpty: true,
  bounds: true,
  pixelLine: true,
  lineWidth: true,
  alpha: true,
  items: true,
  itemColor: true,
  maxItems: true,
  layers: true,
  pairs: true,
  pairLines: true,
  maxOffscreenPairs: true,
  pairColors: true,
  maxPairs: true,
  paths: true,
  pathColor: true,
};

/** The colour of a node at `depth`: white at the root, pure red at `maxDepth` and below. */
export function depthColor(depth: number, maxDepth: number): number {
  const t = maxDepth > 0 ? Math.min(1, Math.max(0, depth / maxDepth)) : 1;
  const gb = Math.round(255 * (1 - t));
  return 0xff0000 | (gb << 8) | gb;
}

function isColour(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffff;
}

/** Refuses a colour that is not one, naming it `what` (`what[index]` for an entry of a list): no string is made else. */
function checkColour(what: string, value: unknown, index = -1): void {
  if (isColour(value)) return;
  const name = index < 0 ? what : `${what}[${index}]`;
  fail(`QuadtreeOverlay ${name} must be a colour 0x000000..0xffffff (got ${show(value)})`);
}

/** A value for a message, an array in brackets (`String([])` is empty). */
function showList(value: unknown): string {
  return Array.isArray(value) ? `[${value.map(show).join(', ')}]` : show(value);
}

/**
 * Checks the colour options given to the constructor, by name, and the fields at each draw (a game may set them);
 * the colours a `nodeColors` function returns are checked as drawn.
 */
function checkColours(options: QuadtreeOverlayOptions): void {
  // Typed, but plain JavaScript may pass anything.
  const { nodeColors, pairColors, itemColor, pathColor } = options as { [K in keyof QuadtreeOverlayOptions]?: unknown };
  if (nodeColors !== undefined && typeof nodeColors !== 'function') {
    if (!Array.isArray(nodeColors) || nodeColors.length === 0) {
      fail(
        `QuadtreeOverlay nodeColors must be a non-empty array of colours or a function (got ${showList(nodeColors)})`,
      );
    }
    for (let i = 0; i < nodeColors.length; i++) checkColour('nodeColors', nodeColors[i], i);
  }
  if (pairColors !== undefined) {
    if (!Array.isArray(pairColors) || pairColors.length !== 4) {
      fail(`QuadtreeOverlay pairColors must be 4 colours, one per tier (got ${showList(pairColors)})`);
    }
    for (let i = 0; i < 4; i++) checkColour('pairColors', pairColors[i], i);
  }
  if (itemColor !== undefined) checkColour('itemColor', itemColor);
  if (pathColor !== undefined) checkColour('pathColor', pathColor);
}

/** Checks the layer and pair-line options given to the constructor, by name, and the fields at each draw. */
function checkPairOptions(options: QuadtreeOverlayOptions): void {
  // Typed, but plain JavaScript may pass anything.
  const { layers, pairLines, maxOffscreenPairs } = options as { [K in keyof QuadtreeOverlayOptions]?: unknown };
  if (layers !== undefined && (typeof layers !== 'number' || !isBits32(layers))) {
    fail(`QuadtreeOverlay layers must be a 32-bit integer mask of collision layers (got ${show(layers)})`);
  }
  if (pairLines !== undefined && pairLines !== 'nearest' && pairLines !== 'centers') {
    fail(`QuadtreeOverlay pairLines must be 'nearest' or 'centers' (got ${show(pairLines)})`);
  }
  if (maxOffscreenPairs !== undefined && !(typeof maxOffscreenPairs === 'number' && maxOffscreenPairs >= 0)) {
    fail(`QuadtreeOverlay maxOffscreenPairs must be a number >= 0 (got ${show(maxOffscreenPairs)})`);
  }
}

/** The overlay's true-or-false options, and its sizes (numbers >= 0). */
const SWITCHES = ['skipEmpty', 'pixelLine', 'items', 'pairs', 'paths'] as const;
const SIZES = ['maxDepth', 'lineWidth', 'maxItems', 'maxPairs'] as const;

/** Checks the switches, sizes and bounds, by name (a string or NaN would be drawn with), and the fields at each draw. */
function checkDrawOptions(options: QuadtreeOverlayOptions): void {
  // Typed, but plain JavaScript may pass anything.
  const o = options as { [K in keyof QuadtreeOverlayOptions]?: unknown };
  for (const key of SWITCHES) if (o[key] !== undefined) checkFlag(`QuadtreeOverlay ${key}`, o[key]);
  for (const key of SIZES) {
    const v = o[key];
    if (v !== undefined && !(typeof v === 'number' && v >= 0))
      fail(`QuadtreeOverlay ${key} must be a number >= 0 (got ${show(v)})`);
  }
  if (o.alpha !== undefined && !(typeof o.alpha === 'number' && o.alpha >= 0 && o.alpha <= 1))
    fail(`QuadtreeOverlay alpha must be a number from 0 to 1 (got ${show(o.alpha)})`);
  if (o.bounds !== undefined && o.bounds !== 'loose' && o.bounds !== 'cell')
    fail(`QuadtreeOverlay bounds must be 'loose' or 'cell' (got ${show(o.bounds)})`);
}

const FAR = Number.MAX_VALUE;

/** A view bound within float32's range, which queries keep to (items stand within it too, so no item is lost). */
function inRange(v: number): number {
  return v < -FLOAT32_MAX ? -FLOAT32_MAX : v > FLOAT32_MAX ? FLOAT32_MAX : v;
}
const BOX = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
const END = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
/** Whether the first `n` numbers of `sorted` (ascending) hold `id`. */
function holds(sorted: Int32Array, n: number, id: number): boolean {
  let lo = 0,
    hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && sorted[lo] === id;
}

/** The two ends of the pair line being drawn. */
const LINE = { ax: 0, ay: 0, bx: 0, by: 0 };

const NEAR = { x: 0, y: 0 };

/** The radius of the circle inscribed in a box: its smaller half-side, as the core's `inscribedRadius`. */
function inscribedRadius(box: typeof BOX): number {
  return Math.min(box.maxX - box.minX, box.maxY - box.minY) / 2;
}

/** The point of a box (or of the circle inscribed in it) nearest (x, y), into {@link NEAR}. */
function nearestPoint(box: typeof BOX, circle: boolean, x: number, y: number): void {
  if (!circle) {
    NEAR.x = x < box.minX ? box.minX : x > box.maxX ? box.maxX : x;
    NEAR.y = y < box.minY ? box.minY : y > box.maxY ? box.maxY : y;
    return;
  }
  const cx = (box.minX + box.maxX) / 2;
  const cy = (box.minY + box.maxY) / 2;
  const r = inscribedRadius(box);
  const d = Math.hypot(x - cx, y - cy);
  // Inside the circle (or at its centre), the point itself.
  const t = d > r ? r / d : 1;
  NEAR.x = cx + (x - cx) * t;
  NEAR.y = cy + (y - cy) * t;
}

/**
 * Debug drawing of a quadtree into a PixiJS v8 `Graphics`: node bounds coloured by depth,
 * and optionally items, pairs and swept paths. One stroke per depth (and per pair tier), so
 * redrawing every frame stays cheap. Uses no `Text`.
 * @example
 * const overlay = new QuadtreeOverlay(new Graphics(), { maxDepth: 8, pairs: true });
 * app.stage.addChild(overlay.graphics);
 * app.ticker.add(() => overlay.draw(tree, 0, 0, app.screen.width, app.screen.height));
 */
export class QuadtreeOverlay {
  /** The graphics drawn into; add it to the stage (or a camera container) yourself. */
  readonly graphics: Graphics;
  // The options, as fields: change any of them between draws.
  /** See {@link QuadtreeOverlayOptions.maxDepth}. */
  maxDepth: number;
  /** See {@link QuadtreeOverlayOptions.nodeColors}. */
  nodeColors: readonly number[] | ((depth: number, maxDepth: number) => number);
  /** See {@link QuadtreeOverlayOptions.skipEmpty}. */
  skipEmpty: boolean;
  /** See {@link QuadtreeOverlayOptions.bounds}. */
  bounds: 'loose' | 'cell';
  /** See {@link QuadtreeOverlayOptions.pixelLine}. */
  pixelLine: boolean;
  /** See {@link QuadtreeOverlayOptions.lineWidth}. */
  lineWidth: number;
  /** See {@link QuadtreeOverlayOptions.alpha}. */
  alpha: number;
  /** See {@link QuadtreeOverlayOptions.items}. */
  items: boolean;
  /** See {@link QuadtreeOverlayOptions.itemColor}. */
  itemColor: number;
  /** See {@link QuadtreeOverlayOptions.maxItems}. */
  maxItems: number;
  /** See {@link QuadtreeOverlayOptions.layers}. */
  layers: number;
  /** See {@link QuadtreeOverlayOptions.pairs}. */
  pairs: boolean;
  /** See {@link QuadtreeOverlayOptions.pairLines}. */
  pairLines: 'nearest' | 'centers';
  /** See {@link QuadtreeOverlayOptions.maxOffscreenPairs}. */
  maxOffscreenPairs: number;
  /** See {@link QuadtreeOverlayOptions.pairColors}. */
  pairColors: readonly [number, number, number, number];
  /** See {@link QuadtreeOverlayOptions.maxPairs}. */
  maxPairs: number;
  /** See {@link QuadtreeOverlayOptions.paths}. */
  paths: boolean;
  /** See {@link QuadtreeOverlayOptions.pathColor}. */
  pathColor: number;
  /** Nodes drawn by the last {@link draw}. */
  nodesDrawn = 0;
  /** Item boxes drawn by the last {@link draw}. */
  itemsDrawn = 0;
  /** Pair lines drawn by the last {@link draw}, those with both ends out of view included. */
  pairsDrawn = 0;
  /** Pair lines the last {@link draw} drew with both ends out of view (see {@link maxOffscreenPairs}). */
  offscreenPairsDrawn = 0;
  /** Swept paths drawn by the last {@link draw}. */
  pathsDrawn = 0;

  // Node rectangles of the current draw, 4 numbers each, and their depths.
  private rects: Float64Array = new Float64Array(4 * 256);
  private depths: Uint8Array = new Uint8Array(256);
  private count = 0;
  private deepest = 0;
  private viewMinX = -FAR;
  private viewMinY = -FAR;
  private viewMaxX = FAR;
  private viewMaxY = FAR;
  private readonly ids: number[] = [];
  /** The items the view query found at this draw (with a layer drawn), sorted for look-ups by id. */
  private seen: Int32Array = new Int32Array(256);
  private readonly collect: NodeVisitor;

  constructor(graphics: Graphics, options: QuadtreeOverlayOptions = {}) {
    // Typed, but plain JavaScript may pass anything.
    const given = graphics as Partial<Graphics> | null;
    if (given === null || typeof given !== 'object' || typeof given.clear !== 'function') {
      fail(`QuadtreeOverlay needs a PixiJS Graphics (got ${show(graphics)})`);
    }
    checkKeys('QuadtreeOverlay option', options, OVERLAY_KEYS);
    checkColours(options);
    checkPairOptions(options);
    checkDrawOptions(options);
    this.graphics = graphics;
    this.maxDepth = Math.min(20, Math.max(1, Math.floor(options.maxDepth ?? 8)));
    this.nodeColors = options.nodeColors ?? depthColor;
    this.skipEmpty = options.skipEmpty ?? false;
    this.bounds = options.bounds ?? 'loose';
    this.pixelLine = options.pixelLine ?? true;
    this.lineWidth = options.lineWidth ?? 1;
    this.alpha = options.alpha ?? 0.5;
    this.items = options.items ?? false;
    this.itemColor = options.itemColor ?? 0x33ff99;
    this.maxItems = options.maxItems ?? 20000;
    this.layers = options.layers ?? -1;
    this.pairs = options.pairs ?? false;
    this.pairLines = options.pairLines ?? 'nearest';
    this.maxOffscreenPairs = options.maxOffscreenPairs ?? 0;
    this.pairColors = options.pairColors ?? [0xffee00, 0xff8800, 0x33ccff, 0x8888aa];
    this.maxPairs = options.maxPairs ?? 20000;
    this.paths = options.paths ?? false;
    this.pathColor = options.pathColor ?? 0xff44ff;
    this.collect = (minX, minY, maxX, maxY, depth, items) => {
      if (items === 0 && this.skipEmpty) return;
      if (maxX < this.viewMinX || minX > this.viewMaxX || maxY < this.viewMinY || minY > this.viewMaxY) return;
      const i = this.count++;
      if (i === this.depths.length) this.grow();
      this.rects[4 * i] = minX;
      this.rects[4 * i + 1] = minY;
      this.rects[4 * i + 2] = maxX;
      this.rects[4 * i + 3] = maxY;
      this.depths[i] = depth;
      if (depth > this.deepest) this.deepest = depth;
    };
  }

  /** Clears the graphics and draws what overlaps the view (all without one). Returns the nodes drawn. */
  draw(tree: OverlayTree, minX = -FAR, minY = -FAR, maxX = FAR, maxY = FAR): number {
    // The fields as the constructor would check them: a game may have set them since.
    checkColours(this);
    checkPairOptions(this);
    checkDrawOptions(this);
    const g = this.graphics;
    g.clear();
    this.viewMinX = minX;
    this.viewMinY = minY;
    this.viewMaxX = maxX;
    this.viewMaxY = maxY;
    this.count = 0;
    this.deepest = 0;
    tree.visitNodes(this.collect);
    this.nodesDrawn = this.count;
    this.strokeNodes();
    // Items in view, found once for their boxes, their pairs and their paths.
    const found =
      this.items || this.paths || this.pairs
        ? tree.queryRect(inRange(minX), inRange(minY), inRange(maxX), inRange(maxY), this.ids, this.layers)
        : 0;
    const inView = Math.min(found, this.maxItems);
    this.itemsDrawn = this.items ? this.drawItems(tree, inView) : 0;
    this.offscreenPairsDrawn = 0;
    this.pairsDrawn = this.pairs ? this.drawPairs(tree, found) : 0;
    this.pathsDrawn = this.paths ? this.drawPaths(tree, inView) : 0;
    return this.nodesDrawn;
  }

  /** Sorts the first `n` items of {@link ids} into {@link seen}: memory follows the items in view, not the largest id. */
  private sortSeen(n: number): void {
    if (this.seen.length < n) this.seen = fit(this.seen, n);
    const seen = this.seen;
    for (let i = 0; i < n; i++) seen[i] = this.ids[i];
    seen.subarray(0, n).sort();
  }

  private strokeNodes(): void {
    const g = this.graphics;
    const { rects, depths, count } = this;
    // A cell is the middle half of its loose bounds.
    const inset = this.bounds === 'cell' ? 0.25 : 0;
    // Deepest first: a cell's edges lie on its children's, and the coarser level stays on top.
    for (let d = this.deepest; d >= 0; d--) {
      let any = false;
      for (let i = 0; i < count; i++) {
        if (depths[i] !== d) continue;
        const w = rects[4 * i + 2] - rects[4 * i];
        const h = rects[4 * i + 3] - rects[4 * i + 1];
        g.rect(rects[4 * i] + w * inset, rects[4 * i + 1] + h * inset, w * (1 - 2 * inset), h * (1 - 2 * inset));
        any = true;
      }
      if (any)
        g.stroke({
          width: this.lineWidth,
          pixelLine: this.pixelLine,
          color: this.nodeColor(d),
          alpha: this.alpha,
        });
    }
  }

  /** The outline colour of nodes at `depth`; checked here, as the field may have changed since the constructor. */
  private nodeColor(depth: number): number {
    const colors = this.nodeColors;
    const c = typeof colors === 'function' ? colors(depth, this.maxDepth) : colors[Math.min(depth, colors.length - 1)];
    if (!isColour(c)) fail(`QuadtreeOverlay nodeColors gave no colour for depth ${depth} (got ${show(c)})`);
    return c;
  }

  /** Shapes (boxes or circles) of the first `n` items of {@link ids}. */
  private drawItems(tree: OverlayTree, n: number): number {
    const g = this.graphics;
    const ids = this.ids;
    for (let i = 0; i < n; i++) {
      tree.getBox(ids[i], BOX);
      if (tree.shapeOf(ids[i]) === Shape.Circle) {
        g.circle((BOX.minX + BOX.maxX) / 2, (BOX.minY + BOX.maxY) / 2, inscribedRadius(BOX));
      } else {
        g.rect(BOX.minX, BOX.minY, BOX.maxX - BOX.minX, BOX.maxY - BOX.minY);
      }
    }
    if (n > 0)
      g.stroke({
        width: this.lineWidth,
        pixelLine: this.pixelLine,
        color: this.itemColor,
        alpha: Math.min(1, this.alpha + 0.3),
      });
    return n;
  }

  /** Paths of the swept ones among the first `n` items of {@link ids}. */
  private drawPaths(tree: OverlayTree, n: number): number {
    const g = this.graphics;
    const ids = this.ids;
    let drawn = 0;
    for (let i = 0; i < n; i++) {
      if (!tree.isSwept(ids[i])) continue;
      tree.getPath(ids[i], BOX, END);
      const minX = Math.min(BOX.minX, END.minX),
        minY = Math.min(BOX.minY, END.minY);
      g.rect(minX, minY, Math.max(BOX.maxX, END.maxX) - minX, Math.max(BOX.maxY, END.maxY) - minY);
      g.moveTo((BOX.minX + BOX.maxX) / 2, (BOX.minY + BOX.maxY) / 2).lineTo(
        (END.minX + END.maxX) / 2,
        (END.minY + END.maxY) / 2,
      );
      drawn++;
    }
    if (drawn > 0) g.stroke({ width: this.lineWidth, pixelLine: this.pixelLine, color: this.pathColor, alpha: 1 });
    return drawn;
  }

  /** Lines of the current pairs with an item among the first `found` of {@link ids}. */
  private drawPairs(tree: OverlayTree, found: number): number {
    const g = this.graphics;
    const pairs = tree.current;
    const n = pairs.count;
    this.sortSeen(found);
    const seen = this.seen;
    let drawn = 0;
    let pending = 0;
    let tier = -1;
    // Pairs come sorted by priority, highest first: one stroke per run of a tier.
    for (let p = 0; p < n && drawn < this.maxPairs; p++) {
      const t = tierOf(pairs.priority[p]);
      if (t !== tier) {
        if (pending > 0)
          g.stroke({ width: this.lineWidth, pixelLine: this.pixelLine, color: this.pairColors[tier], alpha: 1 });
        pending = 0;
        tier = t;
      }
      const a = pairs.a[p];
      const b = pairs.b[p];
      if (!holds(seen, found, a) && !holds(seen, found, b)) continue;
      // A pair lists until the next step an item removed since the last one.
      if (!tree.has(a) || !tree.has(b)) continue;
      this.lineEnds(tree, a, b);
      if (!this.inView(LINE.ax, LINE.ay) && !this.inView(LINE.bx, LINE.by)) {
        if (this.offscreenPairsDrawn >= this.maxOffscreenPairs) continue;
        this.offscreenPairsDrawn++;
      }
      g.moveTo(LINE.ax, LINE.ay).lineTo(LINE.bx, LINE.by);
      pending++;
      drawn++;
    }
    if (pending > 0)
      g.stroke({ width: this.lineWidth, pixelLine: this.pixelLine, color: this.pairColors[tier], alpha: 1 });
    return drawn;
  }

  /** The ends of the line of pair (a, b) into {@link LINE}: the centres, or each item's point nearest the other's centre. */
  private lineEnds(tree: OverlayTree, a: number, b: number): void {
    tree.getBox(a, BOX);
    tree.getBox(b, END);
    const ax = (BOX.minX + BOX.maxX) / 2;
    const ay = (BOX.minY + BOX.maxY) / 2;
    const bx = (END.minX + END.maxX) / 2;
    const by = (END.minY + END.maxY) / 2;
    if (this.pairLines === 'centers') {
      LINE.ax = ax;
      LINE.ay = ay;
      LINE.bx = bx;
      LINE.by = by;
      return;
    }
    nearestPoint(BOX, tree.shapeOf(a) === Shape.Circle, bx, by);
    LINE.ax = NEAR.x;
    LINE.ay = NEAR.y;
    nearestPoint(END, tree.shapeOf(b) === Shape.Circle, ax, ay);
    LINE.bx = NEAR.x;
    LINE.by = NEAR.y;
  }

  private inView(x: number, y: number): boolean {
    return x >= this.viewMinX && x <= this.viewMaxX && y >= this.viewMinY && y <= this.viewMaxY;
  }

  private grow(): void {
    this.rects = grow(this.rects, this.rects.length * 2);
    this.depths = grow(this.depths, this.depths.length * 2);
  }
}
