/**
 * `bitecs-quadtree/core`: the engine-agnostic index. No bitECS, no PixiJS: integer ids and
 * numbers in, numbers out.
 */
export { LooseQuadtree, type NodeVisitor } from './quadtree.js';
export type { Visitor, IdArray } from './queries.js';
export type { BudgetOptions, PairList, QuadtreeOptions, QuadtreeStats, RayHit } from './types.js';
export { boxesOverlap, circleBoxOverlap, pointInBox, rayBoxDistance, pointBoxDistance, pointBoxDistanceSq } from './geometry.js';
export { tierOf } from './items.js';
