/**
 * `bitecs-quadtree/core`: the engine-agnostic index. No bitECS, no PixiJS: integer ids and
 * numbers in, numbers out.
 * @module bitecs-quadtree/core
 */
export { LooseQuadtree, type NodeVisitor } from './LooseQuadtree.js';
export type { Visitor, IdArray } from './queries/QueryEngine.js';
export type { BudgetOptions, PairList, QuadtreeOptions, QuadtreeStats, RayHit, SweepHit } from './options.js';
export { boxesOverlap, circleBoxOverlap, pointInBox, rayBoxDistance, pointBoxDistance, pointBoxDistanceSq, sweptContact } from './geometry.js';
export { tierOf } from './store/ItemStore.js';
