/**
 * `bitecs-quadtree/core`: the engine-agnostic index. No bitECS, no PixiJS: integer ids and
 * numbers in, numbers out.
 * @module bitecs-quadtree/core
 */
export { LooseQuadtree } from './LooseQuadtree.js';
export { validateTree } from './validate/validate.js';
export { QuadtreeQueries, type NodeVisitor } from './queries/QuadtreeQueries.js';
export { QuadtreeSnapshot } from './snapshot/Snapshot.js';
export { restoreTree, saveTree } from './snapshot/saveTree.js';
export { snapshotFromBytes, snapshotToBytes } from './snapshot/bytes.js';
export type { Visitor, IdArray } from './queries/QueryEngine.js';
export {
  Shape,
  type BudgetOptions,
  type ColliderValues,
  type Contact,
  type PairList,
  type QuadtreeOptions,
  type QuadtreeStats,
  type RayHit,
  type ShapeValue,
  type SweepHit,
} from './options.js';
export {
  boxesOverlap,
  circleBoxOverlap,
  circlesOverlap,
  pointInBox,
  pointInCircle,
  rayBoxDistance,
  rayCircleDistance,
  pointBoxDistance,
  pointBoxDistanceSq,
  pointCircleDistance,
  sweptContact,
  sweptShapes,
  A_CIRCLE,
  B_CIRCLE,
} from './geometry.js';
export { contactOf, depthAlong } from './contacts.js';
export { tierOf } from './store/ItemStore.js';
