/** bitecs-quadtree: a persistent loose quadtree and incremental broadphase for bitECS 0.4. */
export * from './core/index.js';
export * from './ecs/index.js';
