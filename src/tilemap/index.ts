/**
 * `bitecs-quadtree/tilemap`: tile grids merged into few rectangles, kept as static items of a
 * core `LooseQuadtree`. A client of the core's public API; the ECS face's
 * `addTileLayer` builds on it.
 * @module bitecs-quadtree/tilemap
 */
export { TileLayer, type TileRef, type TileRect, type TileRectVisitor } from './TileLayer.js';
export type { TileGridOptions, TileLayerOptions, TileIds, TileSolid } from './options.js';
