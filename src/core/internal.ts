/** The core's internal entry for `ecs/` and `pixi/`, their only import from `core/`: not public API. */
export {
  badArrays,
  badVisitor,
  checkFlag,
  describe,
  fail,
  FLOAT32_MAX,
  FLOAT32_RANGE,
  inFloat32,
  isBits32,
  isSquare,
  PREFIX,
  show,
} from './errors.js';
export { fit, grow } from './grow.js';
export { boxesOverlap } from './geometry.js';
export { checkKeys, QUADTREE_KEYS, type KeysOf } from './optionKeys.js';
export { before, lowerBound, runEnd } from './lists/order.js';
export { IdList } from './lists/IdList.js';
export type { SpatialTree } from './placement/SpatialTree.js';
export { MAX_CLASSES, MIXED } from './store/CollisionClasses.js';
export { CIRCLE } from './store/ItemStore.js';
export { applyState, checkState, QuadtreeSnapshot, saveState } from './snapshot/Snapshot.js';
export { markOutside } from './snapshot/StatePlan.js';
// The bytes' reader and writer, which the ECS face shares.
export * from './snapshot/bytes.js';
