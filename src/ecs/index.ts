/**
 * The bitECS 0.4 face of the quadtree: components, the sync, collision and dispatch systems,
 * collision pairs as entities or straight from typed buffers, handlers by priority, and
 * spatial queries that return entity ids.
 */
export {
  Position,
  Bounds,
  Collider,
  Static,
  Swept,
  Circle,
  Collision,
  Phase,
  DEFAULT_COLLIDER,
  createQuadtreeComponents,
  type QuadtreeComponents,
  type NumberStore,
  type PositionStore,
  type BoundsStore,
  type ColliderStore,
  type CollisionStore,
  type PhaseValue,
} from './components.js';
export type { QuadtreeWorldOptions, DispatchBudget } from './options.js';
export type { QuadtreeWorldStats } from './stats.js';
export {
  addQuadtree,
  removeQuadtree,
  getQuadtree,
  hasQuadtree,
  getStats,
  setStepBudget,
  setDispatchBudget,
} from './plugin.js';
export { quadtreeSyncSystem, markMoved, markColliderChanged } from './sync.js';
export { quadtreeCollisionSystem } from './collision.js';
export { quadtreeDispatchSystem, onCollision, getCollisionHandlers, clearCollisionHandlers } from './dispatch.js';
export type { CollisionHandler, CollisionHandlerOptions } from './handlers.js';
export { forEachPair, type PairVisitor } from './pairs.js';
export {
  queryRect,
  queryCircle,
  queryPoint,
  raycast,
  raycastAll,
  queryNearest,
  sweepBox,
  timeOfImpact,
  contact,
} from './queries.js';
export { pushOut } from './push.js';
export { addTileLayer } from './tilemap.js';
export { saveQuadtree, restoreQuadtree, QuadtreeWorldSnapshot } from './snapshot.js';
export { quadtreeFromBytes, quadtreeToBytes, worldFromBytes, worldToBytes } from './bytes.js';
export { saveWorld, restoreWorld, WorldSnapshot } from './world.js';
