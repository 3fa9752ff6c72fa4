/** The tile layers' internal entry, for the ECS face: not public API. */
export { tileLayerWith, type TileCollider } from './TileLayer.js';
export type { RectSink } from './TileGrid.js';
export type { TileGridOptions } from './options.js';
export type { TileLayer } from './TileLayer.js';
