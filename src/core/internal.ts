/**
 * The core's internal entry, for the package's own faces (`ecs/`, `pixi/`): helpers they share
 * with the core that are not public API and may change with it. Nothing else of the core's
 * files is imported from outside `core/`.
 */
export { fail, FLOAT32_MAX, FLOAT32_RANGE, inFloat32, isBits32, isSquare, PREFIX, show } from './errors.js';
export { fit, grow } from './grow.js';
export { checkKeys, QUADTREE_KEYS, type KeysOf } from './optionKeys.js';
export { before, comparePairs, lowerBound, runEnd } from './lists/order.js';
export { IdList } from './lists/IdList.js';
export { spatialTreeOf } from './LooseQuadtree.js';
export type { SpatialTree } from './placement/SpatialTree.js';
export { SCAN_FIELDS, STORE_CENTRES, type GameBoxes } from './placement/GameBoxes.js';
export { applyState, checkState, describe, QuadtreeSnapshot, restoreState, saveState } from './snapshot/Snapshot.js';
export { markOutside } from './snapshot/StatePlan.js';
