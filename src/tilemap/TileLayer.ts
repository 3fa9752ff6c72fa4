import type { LooseQuadtree } from '../core/index.js';
import { fail, markOutside, show } from '../core/internal.js';
import { TileGrid, type RectSink } from './TileGrid.js';
import {
  checkValue,
  parseCollider,
  parseTileGrid,
  TILE_GRID_KEYS,
  TILE_LAYER_KEYS,
  type TileGridOptions,
  type TileIds,
  type TileLayerOptions,
} from './options.js';

/** A tile, as the point helpers of a {@link TileLayer} give it back. */
export interface TileRef {
  /** Column, from 0 at the grid's left edge. */
  col: number;
  /** Row, from 0 at the grid's top edge. */
  row: number;
  /** The tile's value. */
  value: number;
}

/** A rectangle of tiles (a merged collider), in tiles. */
export interface TileRect {
  /** First column. */
  col: number;
  /** First row. */
  row: number;
  /** Columns covered. */
  width: number;
  /** Rows covered. */
  height: number;
}

/** Visits a rectangle of a {@link TileLayer}: its item id and its box in world units. */
export type TileRectVisitor = (id: number, minX: number, minY: number, maxX: number, maxY: number) => void;

/** The collider every rectangle of a layer gets, read by the sinks when they add one. */
export interface TileCollider {
  layer: number;
  mask: number;
  priority: number;
}

/** Builds the sink of a layer made by another face (the ECS): see {@link tileLayerWith}. */
export type SinkMaker = (collider: TileCollider) => RectSink;

/**
 * What saves a layer with its snapshots, and says whether a restore took it away: the tree,
 * or another face's state (the ECS face's world). `name` is what errors call it.
 */
export interface LayerOwner {
  readonly name: string;
  /** The parts saved with the owner's snapshots; a restore to before a layer was made takes it away. */
  readonly attached: object[];
}

let madeSink: SinkMaker | null = null;
let madeOwner: LayerOwner | null = null;

/**
 * Static colliders from a tile grid: the solid tiles merged into few rectangles, each an
 * ordinary static item of the tree (queries, pairs and contacts see them), kept merged as
 * tiles change.
 *
 * The merge takes each row's runs of solid tiles and stacks a run onto an identical run
 * directly above: a wall is one rectangle, with no seams inside it where a sliding body
 * could snag, and a 200 x 200 map of 12,000 wall tiles is a few hundred items. The result
 * depends only on the tiles, so it is the same whatever order they were set in.
 * {@link setTile} re-merges the rows around the change only; a rectangle that comes out the
 * same keeps its id, so its pairs go on.
 *
 * A pair with a rectangle names its id; {@link tileOfContact} turns the pair's contact point
 * into the tile it touched, and {@link tileAt} any point into the tile under it.
 */
export class TileLayer {
  /** Columns. */
  readonly width: number;
  /** Rows. */
  readonly height: number;
  /** Width of a tile in world units. */
  readonly tileWidth: number;
  /** Height of a tile in world units. */
  readonly tileHeight: number;
  /** World x of the grid's left edge. */
  readonly x: number;
  /** World y of the grid's top edge. */
  readonly y: number;

  private readonly grid: TileGrid;
  private readonly isSolidValue: (value: number) => boolean;
  private readonly collider: TileCollider;
  private destroyed = false;
  private readonly one = [0, 0, 0];
  /** What saves the layer with its snapshots: the core tree its rectangles are items of, or another face's state. */
  private readonly owner: Omit<LayerOwner, 'name'>;
  private readonly ownerName: string;

  /**
   * Merges the solid tiles of `options.data` and adds the rectangles to `tree` as static
   * items (pending: placed by the next step, flush or query), with the options' collider.
   * @throws on bad options (naming the option and the value), or if an id of the layer is
   * already in the tree; nothing is added then
   */
  constructor(tree: LooseQuadtree, options: TileLayerOptions) {
    const sinkOf = madeSink;
    const p = parseTileGrid(options, sinkOf === null ? TILE_LAYER_KEYS : TILE_GRID_KEYS);
    this.collider = { layer: p.layer, mask: p.mask, priority: p.priority };
    const sink =
      sinkOf === null ? new TreeSink(tree, options.ids, p.values.length, this.collider) : sinkOf(this.collider);
    this.grid = new TileGrid(sink, p.values, p.solid, p.columns, p.x, p.y, p.tileWidth, p.tileHeight);
    this.isSolidValue = p.isSolid;
    this.width = p.columns;
    this.height = this.grid.rows;
    this.tileWidth = p.tileWidth;
    this.tileHeight = p.tileHeight;
    this.x = p.x;
    this.y = p.y;
    this.grid.load();
    this.owner = madeOwner ?? tree;
    this.ownerName = madeOwner?.name ?? 'tree';
    this.owner.attached.push(this);
  }

  /** Rectangles (items) the solid tiles are merged into; 0 once the layer is gone (see {@link isGone}). */
  get rectCount(): number {
    return this.isGone ? 0 : this.grid.count;
  }

  /**
   * True once the layer's rectangles are gone from the tree: destroyed, or its tree (world)
   * cleared or restored to a snapshot saved before the layer was made. A gone layer names no
   * rectangle (`owns` is false, `idAt` -1), and its changing methods throw.
   */
  get isGone(): boolean {
    return this.destroyed || !this.owner.attached.includes(this);
  }

  /**
   * The value of a tile.
   * @throws if the tile is outside the grid
   */
  getTile(col: number, row: number): number {
    return this.grid.values[this.indexOf('getTile', col, row)];
  }

  /**
   * Whether a tile is solid.
   * @throws if the tile is outside the grid
   */
  isSolid(col: number, row: number): boolean {
    return this.grid.solid[this.indexOf('isSolid', col, row)] !== 0;
  }

  /**
   * Sets a tile's value. If that makes it solid or empty, the rows around it are merged again:
   * rectangles that change are removed and new ones added (their pairs exit and enter at the
   * next step); the others keep their ids.
   * @throws if the tile is outside the grid or the value is not a finite number; nothing changes
   */
  setTile(col: number, row: number, value: number): void {
    const one = this.one;
    one[0] = col;
    one[1] = row;
    one[2] = value;
    this.change(one, 'setTile');
  }

  /**
   * Sets many tiles at once, as flat triples `[col, row, value, col, row, value, ...]`, and
   * merges the rows they touch once. Later triples win for a tile given twice.
   * @throws if the length is not a multiple of 3, a tile is outside the grid or a value is not
   * a finite number; nothing changes
   */
  setTiles(triples: ArrayLike<number>): void {
    this.change(triples, 'setTiles');
  }

  private change(triples: ArrayLike<number>, verb: string): void {
    this.checkLive(verb);
    if (triples.length % 3 !== 0)
      fail(`tile layer ${verb} takes [col, row, value] triples (got ${triples.length} numbers)`);
    for (let i = 0; i < triples.length; i += 3) {
      this.indexOf(verb, triples[i], triples[i + 1]);
      checkValue(`tile layer ${verb} value at column ${triples[i]}, row ${triples[i + 1]}`, triples[i + 2]);
    }
    const lost = this.grid.change(triples, this.isSolidValue);
    if (lost >= 0) this.refuseLost(verb, lost);
  }

  /**
   * The id of the rectangle covering a tile, or -1 for a tile that is not solid.
   * @throws if the tile is outside the grid
   */
  idAt(col: number, row: number): number {
    const s = this.grid.slotAt[this.indexOf('idAt', col, row)];
    return s < 0 || this.isGone ? -1 : this.grid.ids[s];
  }

  /** True when `id` is one of the layer's rectangles (never once the layer is gone, or the rectangle removed by hand). */
  owns(id: number): boolean {
    return this.grid.slotOfId.has(id) && !this.isGone && this.grid.sink.holds(id);
  }

  /**
   * Writes the tiles a rectangle covers into `out` and returns it.
   * @throws if `id` is not a rectangle of the layer
   */
  rectOf<T extends TileRect>(id: number, out: T): T {
    const g = this.grid;
    const s = this.slotOf('rectOf', id);
    out.col = g.c0[s];
    out.row = g.r0[s];
    out.width = g.c1[s] - g.c0[s] + 1;
    out.height = g.r1[s] - g.r0[s] + 1;
    return out;
  }

  /** Calls `visit` with each rectangle's id and box, in no particular order (none once the layer is gone). */
  visitRects(visit: TileRectVisitor): void {
    if (this.isGone) return;
    const g = this.grid;
    const tw = this.tileWidth,
      th = this.tileHeight;
    for (let s = 0; s < g.ids.length; s++) {
      if (g.ids[s] < 0) continue;
      visit(
        g.ids[s],
        this.x + g.c0[s] * tw,
        this.y + g.r0[s] * th,
        this.x + (g.c1[s] + 1) * tw,
        this.y + (g.r1[s] + 1) * th,
      );
    }
  }

  /**
   * The tile under a point, written into `out`; returns false (leaving `out` alone) for a point
   * outside the grid. A point on the line between tiles (to within rounding) touches them all:
   * a solid one among them wins, so a contact point on a wall's face gives the wall's tile.
   */
  tileAt(x: number, y: number, out: TileRef): boolean {
    const fx = (x - this.x) / this.tileWidth,
      fy = (y - this.y) / this.tileHeight;
    const c = Math.floor(fx),
      r = Math.floor(fy);
    const cAlt = onLine(fx) ? (c === Math.round(fx) ? c - 1 : c + 1) : c;
    const rAlt = onLine(fy) ? (r === Math.round(fy) ? r - 1 : r + 1) : r;
    let col = -1,
      row = -1;
    for (let i = 0; i < 4; i++) {
      const cc = (i & 1) === 0 ? c : cAlt,
        rr = (i & 2) === 0 ? r : rAlt;
      if (!this.inside(cc, rr)) continue;
      if (col < 0) {
        col = cc;
        row = rr;
      }
      if (this.grid.solid[rr * this.width + cc] !== 0) {
        col = cc;
        row = rr;
        break;
      }
    }
    if (col < 0) return false;
    out.col = col;
    out.row = row;
    out.value = this.grid.values[row * this.width + col];
    return true;
  }

  /**
   * The tile of rectangle `id` nearest a point, written into `out` (and returned): for a
   * pair's contact point, the solid tile the other body touched, even when the point is on the
   * rectangle's edge or a little off it by rounding.
   * @throws if `id` is not a rectangle of the layer, or the point is not finite
   */
  tileOfContact<T extends TileRef>(id: number, x: number, y: number, out: T): T {
    const g = this.grid;
    const s = this.slotOf('tileOfContact', id);
    if (!(x - x === 0 && y - y === 0))
      fail(`tile layer tileOfContact: the point must be finite (got ${show(x)}, ${show(y)})`);
    const col = clamp(Math.floor((x - this.x) / this.tileWidth), g.c0[s], g.c1[s]);
    const row = clamp(Math.floor((y - this.y) / this.tileHeight), g.r0[s], g.r1[s]);
    out.col = col;
    out.row = row;
    out.value = g.values[row * this.width + col];
    return out;
  }

  /**
   * Gives every rectangle, now and later, this collider (as the tree's `setCollider`).
   * @throws on a bad value, naming it; nothing changes
   */
  setCollider(layer: number, mask: number, priority: number): void {
    this.checkLive('setCollider');
    const c = parseCollider(layer, mask, priority);
    for (let s = 0; s < this.grid.ids.length; s++)
      if (this.grid.ids[s] >= 0 && !this.grid.sink.holds(this.grid.ids[s])) this.refuseLost('setCollider', s);
    this.collider.layer = c.layer;
    this.collider.mask = c.mask;
    this.collider.priority = c.priority;
    const g = this.grid;
    for (let s = 0; s < g.ids.length; s++) if (g.ids[s] >= 0) g.sink.recollide(g.ids[s]);
  }

  /**
   * Removes every rectangle from the tree (their pairs exit at the next step); the layer is done.
   * A rectangle removed by hand before is left alone: its id may be another's by now.
   */
  destroy(): void {
    this.checkLive('destroy');
    this.grid.removeAll();
    this.destroyed = true;
    this.owner.attached.splice(this.owner.attached.indexOf(this), 1);
  }

  private indexOf(verb: string, col: number, row: number): number {
    if (!Number.isInteger(col) || col < 0 || col >= this.width)
      fail(`tile layer ${verb}: column must be an integer in 0..${this.width - 1} (got ${show(col)})`);
    if (!Number.isInteger(row) || row < 0 || row >= this.height)
      fail(`tile layer ${verb}: row must be an integer in 0..${this.height - 1} (got ${show(row)})`);
    return row * this.width + col;
  }

  private inside(col: number, row: number): boolean {
    return col >= 0 && col < this.width && row >= 0 && row < this.height;
  }

  private slotOf(verb: string, id: number): number {
    const s = this.grid.slotOfId.get(id);
    if (s === undefined || this.isGone) fail(`tile layer ${verb}: item ${show(id)} is not a rectangle of this layer`);
    return s;
  }

  private checkLive(verb: string): void {
    if (this.destroyed) fail(`tile layer ${verb}: the layer was destroyed`);
    // A clear, or a restore of a snapshot saved before the layer was made, takes its items away.
    if (!this.owner.attached.includes(this))
      fail(
        `tile layer ${verb}: the ${this.ownerName} no longer holds this layer's rectangles ` +
          '(it was cleared, or restored to a snapshot saved before the layer was made)',
      );
  }

  /** Refuses to touch the rectangle in slot `s`, which the game took away by hand: its id may be another's now. */
  private refuseLost(verb: string, s: number): never {
    const g = this.grid;
    const rows = g.r0[s] === g.r1[s] ? `row ${g.r0[s]}` : `rows ${g.r0[s]}..${g.r1[s]}`;
    return fail(
      `tile layer ${verb}: rectangle ${g.ids[s]} (columns ${g.c0[s]}..${g.c1[s]}, ${rows}) was removed from the ` +
        `${this.ownerName} by hand; a layer's rectangles are its own: change tiles with setTile or setTiles, ` +
        'end the layer with destroy() (which leaves that one alone)',
    );
  }
}

/**
 * Makes a {@link TileLayer} whose rectangles go to `sinkOf`'s sink instead of a tree (the ECS
 * face makes entities), saved with `owner`'s snapshots. The options are those of the layer
 * without `ids`. Not public API, but not tagged internal either: only the tile layers'
 * internal entry exports it, and that entry's declarations must still find it.
 */
export function tileLayerWith(sinkOf: SinkMaker, owner: LayerOwner, options: TileGridOptions): TileLayer {
  madeSink = sinkOf;
  madeOwner = owner;
  try {
    return new TileLayer(null as unknown as LooseQuadtree, options as TileLayerOptions);
  } finally {
    madeSink = null;
    madeOwner = null;
  }
}

/** True when `f` lies on a whole number to within rounding. */
function onLine(f: number): boolean {
  const d = f - Math.round(f);
  return (d < 0 ? -d : d) <= 1e-9 * Math.max(1, f < 0 ? -f : f);
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

/** Rectangles as static items of a core tree, their ids from a range or an allocator. */
class TreeSink implements RectSink {
  private readonly tree: LooseQuadtree;
  private readonly allocator: TileIds | null;
  private readonly first: number;
  private readonly end: number;
  private next: number;
  private readonly free: number[] = [];
  private readonly collider: TileCollider;

  constructor(tree: LooseQuadtree, ids: number | TileIds, tiles: number, collider: TileCollider) {
    this.tree = tree;
    this.collider = collider;
    if (typeof ids === 'number') {
      if (!Number.isInteger(ids) || ids < 0)
        fail(`tile layer option ids must be a non-negative integer first id or an allocator (got ${show(ids)})`);
      this.allocator = null;
      this.first = this.next = ids;
      this.end = ids + tiles;
    } else {
      if (typeof ids !== 'object' || typeof ids.acquire !== 'function' || typeof ids.release !== 'function')
        fail(`tile layer option ids must be a first id or an object with acquire and release (got ${show(ids)})`);
      this.allocator = ids;
      // The game's allocator: a snapshot of the tree keeps it as it is.
      markOutside(ids);
      this.first = this.next = this.end = 0;
    }
  }

  acquire(count: number, out: Int32Array): void {
    for (let i = 0; i < count; i++) {
      let id: number;
      try {
        id = this.take();
      } catch (e) {
        this.giveBack(out, i);
        throw e;
      }
      const problem = this.problemWith(id);
      if (problem !== null) {
        this.release(id);
        this.giveBack(out, i);
        fail(problem);
      }
      out[i] = id;
    }
  }

  /** Why an id cannot be a rectangle's, or null. */
  private problemWith(id: number): string | null {
    const limit = this.tree.tree.idLimit;
    if (!Number.isInteger(id) || id < 0 || id >= limit)
      return `tile layer ids: the allocator gave an invalid id (got ${show(id)}); expected an integer in 0..${limit - 1}`;
    if (this.tree.has(id)) return `tile layer ids: item ${id} is already in the tree; the layer's ids must be free`;
    return null;
  }

  private take(): number {
    if (this.allocator !== null) return this.allocator.acquire();
    if (this.free.length > 0) return this.free.pop() as number;
    if (this.next >= this.end) fail(`tile layer ids: the range ${this.first}..${this.end - 1} is used up`);
    return this.next++;
  }

  private giveBack(ids: Int32Array, count: number): void {
    for (let i = count - 1; i >= 0; i--) this.release(ids[i]);
  }

  private release(id: number): void {
    if (this.allocator !== null) this.allocator.release(id);
    else this.free.push(id);
  }

  add(id: number, minX: number, minY: number, maxX: number, maxY: number): void {
    const c = this.collider;
    const box = this.tree.boxIn;
    box[0] = minX;
    box[1] = minY;
    box[2] = maxX;
    box[3] = maxY;
    this.tree.queueChecked(id, c.layer, c.mask, c.priority, true);
  }

  recollide(id: number): void {
    const c = this.collider;
    this.tree.setCollider(id, c.layer, c.mask, c.priority);
  }

  remove(id: number): void {
    this.tree.remove(id);
    this.release(id);
  }

  holds(id: number): boolean {
    return this.tree.has(id);
  }
}
