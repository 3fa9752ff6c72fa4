import { checkKeys, fail, FLOAT32_RANGE, inFloat32, isBits32, show, type KeysOf } from '../core/internal.js';

/**
 * Which tile values are solid: `'nonzero'` (every value but 0, as Tiled leaves empty cells),
 * the values themselves (an array or a `Set`), or a test called once per value.
 */
export type TileSolid = 'nonzero' | Iterable<number> | ((value: number) => boolean);

/** Where a tile layer takes the item ids of its rectangles from, when not a range. */
export interface TileIds {
  /** Returns an id not in the tree, for a new rectangle. */
  acquire(): number;
  /** Takes back an id whose rectangle was removed (or that a refused change did not use). */
  release(id: number): void;
}

/**
 * A tile layer's grid and colliders, shared by the core's {@link TileLayer} and the ECS's
 * `addTileLayer`. The grid is row-major, as Tiled and most editors export it: the tile at
 * column `c`, row `r` is `data[r * width + c]`.
 */
export interface TileGridOptions {
  /** Tile values, row-major (`data[row * width + col]`). Copied: later writes to it change nothing. */
  data: ArrayLike<number>;
  /** Columns: tiles per row (Tiled's layer `width`). */
  width: number;
  /** Rows (Tiled's layer `height`); when given, `data.length` must be `width * height`. */
  height?: number;
  /** Width of a tile in world units (Tiled's map `tilewidth`). */
  tileWidth: number;
  /** Height of a tile in world units (Tiled's map `tileheight`). */
  tileHeight: number;
  /**
   * World x of the grid's left edge.
   * @default 0
   */
  x?: number;
  /**
   * World y of the grid's top edge.
   * @default 0
   */
  y?: number;
  /**
   * Which values are solid.
   * @default 'nonzero'
   */
  solid?: TileSolid;
  /**
   * Collision layer bits of every rectangle.
   * @default 1
   */
  layer?: number;
  /**
   * Layers the rectangles collide with.
   * @default -1 (all)
   */
  mask?: number;
  /**
   * Priority of the rectangles, 0..255.
   * @default 128
   */
  priority?: number;
}

/** Options of a core {@link TileLayer}: the grid, and where its item ids come from. */
export interface TileLayerOptions extends TileGridOptions {
  /**
   * The item ids of the rectangles: the first id of a range of `width * height` ids (a
   * rectangle per tile at most) reserved for the layer, from which a new rectangle takes the
   * id freed last or else the next never used; or an allocator. Ids must not be in the tree.
   */
  ids: number | TileIds;
}

/** Keys of {@link TileGridOptions}. */
export const TILE_GRID_KEYS: KeysOf<TileGridOptions> = {
  data: true,
  width: true,
  height: true,
  tileWidth: true,
  tileHeight: true,
  x: true,
  y: true,
  solid: true,
  layer: true,
  mask: true,
  priority: true,
};

/** Keys of {@link TileLayerOptions}. */
export const TILE_LAYER_KEYS: KeysOf<TileLayerOptions> = { ...TILE_GRID_KEYS, ids: true };

/** A tile layer's options, checked and copied. */
export interface ParsedTileGrid {
  values: TileValues;
  solid: Uint8Array;
  isSolid: (value: number) => boolean;
  columns: number;
  x: number;
  y: number;
  tileWidth: number;
  tileHeight: number;
  layer: number;
  mask: number;
  priority: number;
}

/** Tile values, in the smallest array that holds them. */
export type TileValues = Uint8Array | Uint16Array | Int32Array | Uint32Array | Float64Array;

/**
 * The smallest array for values from `lo` to `hi`: editors' tile ids are small integers (Tiled's
 * up to 2^32 with its flip bits), and a 200 x 200 map of doubles would be 320 KB.
 */
export function valueArray(length: number, lo: number, hi: number, whole: boolean): TileValues {
  if (!whole) return new Float64Array(length);
  if (lo >= 0 && hi <= 0xff) return new Uint8Array(length);
  if (lo >= 0 && hi <= 0xffff) return new Uint16Array(length);
  if (lo >= -(2 ** 31) && hi < 2 ** 31) return new Int32Array(length);
  if (lo >= 0 && hi < 2 ** 32) return new Uint32Array(length);
  return new Float64Array(length);
}

/** Checks a tile layer's options (naming the option and the value) and copies the grid. */
export function parseTileGrid(options: TileGridOptions, keys: object): ParsedTileGrid {
  checkKeys('tile layer option', options, keys);
  const { data, width } = options;
  if (typeof data !== 'object' || typeof (data as { length?: unknown }).length !== 'number')
    fail(`tile layer option data must be an array of tile values (got ${show(data)})`);
  if (typeof width !== 'number' || !Number.isInteger(width) || width <= 0)
    fail(`tile layer option width must be a positive integer: the number of columns (got ${show(width)})`);
  // With a height, the length it implies is the one to name; without, only a whole row count.
  if (options.height !== undefined) {
    const h = options.height;
    if (typeof h !== 'number' || !Number.isInteger(h) || h < 0)
      fail(`tile layer option height must be a non-negative integer: the number of rows (got ${show(h)})`);
    if (data.length !== width * h)
      fail(`tile layer data must hold width * height = ${width * h} tiles (got length ${data.length})`);
  } else if (data.length % width !== 0) {
    fail(`tile layer data has ${data.length} tiles, not a multiple of width ${width} (got length ${data.length})`);
  }
  const tileWidth = positive('tileWidth', options.tileWidth);
  const tileHeight = positive('tileHeight', options.tileHeight);
  const x = finite('x', options.x ?? 0);
  const y = finite('y', options.y ?? 0);
  // Its rectangles are boxes, stored in float32: the whole layer lies within float32's range.
  const right = x + width * tileWidth,
    bottom = y + (data.length / width) * tileHeight;
  if (!inFloat32(x) || !inFloat32(y) || !inFloat32(right) || !inFloat32(bottom))
    fail(
      `tile layer spans (${show(x)}, ${show(y)}) to (${show(right)}, ${show(bottom)}), past float32's range: ` +
        FLOAT32_RANGE,
    );
  const isSolid = solidTest(options.solid ?? 'nonzero');
  const n = data.length;
  const solid = new Uint8Array(n);
  // One pass, kept lean: it runs over every tile, often before the engine has compiled it.
  const nonzero = options.solid === undefined || options.solid === 'nonzero';
  let lo = 0,
    hi = 0,
    whole = true;
  for (let i = 0; i < n; i++) {
    const v = data[i];
    // `v - v === 0` is false for NaN, ±Infinity and non-numbers: the message is built only then.
    if (!(v - v === 0)) checkValue(`tile layer data[${i}]`, v);
    // A 32-bit integer (most tiles) is whole without the call to Math.floor.
    if ((v | 0) !== v && whole && Math.floor(v) !== v) whole = false;
    if (v < lo) lo = v;
    else if (v > hi) hi = v;
    if (nonzero ? v !== 0 : isSolid(v)) solid[i] = 1;
  }
  const values = valueArray(n, lo, hi, whole);
  values.set(data);
  const { layer, mask, priority } = parseCollider(options.layer ?? 1, options.mask ?? -1, options.priority ?? 128);
  return { values, solid, isSolid, columns: width, x, y, tileWidth, tileHeight, layer, mask, priority };
}

/** Checks a collider's fields as the tree's setCollider does, before anything changes. */
export function parseCollider(
  layer: number,
  mask: number,
  priority: number,
): { layer: number; mask: number; priority: number } {
  if (typeof layer !== 'number' || !isBits32(layer) || (layer | 0) === 0)
    fail(`tile layer option layer must be non-zero 32-bit layer bits (got ${show(layer)})`);
  if (typeof mask !== 'number' || !isBits32(mask))
    fail(`tile layer option mask must be 32-bit layer bits (got ${show(mask)})`);
  if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0 || priority > 255)
    fail(`tile layer option priority must be an integer in 0..255 (got ${show(priority)})`);
  return { layer: layer | 0, mask: mask | 0, priority };
}

/** Checks a tile value: any finite number. */
export function checkValue(what: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value))
    fail(`${what} must be a finite number (got ${show(value)})`);
}

function positive(option: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    fail(`tile layer option ${option} must be a positive finite number (got ${show(value)})`);
  return value;
}

function finite(option: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    fail(`tile layer option ${option} must be a finite number (got ${show(value)})`);
  return value;
}

function solidTest(solid: TileSolid): (value: number) => boolean {
  if (solid === 'nonzero') return (v) => v !== 0;
  if (typeof solid === 'function') return solid;
  if (typeof solid === 'object' && Symbol.iterator in solid) {
    const set = new Set<number>(solid);
    return (v) => set.has(v);
  }
  return fail(`tile layer option solid must be 'nonzero', a list of solid values or a test (got ${show(solid)})`);
}
