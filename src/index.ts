/**
 * bitecs-quadtree: a persistent loose quadtree and incremental broadphase for bitECS 0.4.
 * The root entry holds the bitECS face and everything of `bitecs-quadtree/core`.
 * @module bitecs-quadtree
 */
export * from './core/index.js';
export * from './tilemap/index.js';
export * from './ecs/index.js';
