import type { QuadtreeOptions } from '../core/index.js';
import { QUADTREE_KEYS, type KeysOf } from '../core/internal.js';
import type { BoundsStore, ColliderStore, CollisionStore, PositionStore } from './components.js';

/**
 * Options of {@link addQuadtree}. Every field is optional. The tree options (`x`, `y`,
 * `width`, `height`, `maxDepth`, `touching`, `lifespan`, `maxLifespan`, `maxId`, `budget`)
 * are the core's {@link QuadtreeOptions}, with the same defaults. The default components are
 * shared by every world that uses them: spread {@link createQuadtreeComponents}`()` into the
 * options to give a world its own.
 */
export interface QuadtreeWorldOptions extends QuadtreeOptions {
  /** The game's own position component (box centre). @default Position */
  position?: PositionStore;
  /** The game's own size component (full width and height). @default Bounds */
  bounds?: BoundsStore;
  /** The game's own collider component. @default Collider */
  collider?: ColliderStore;
  /** The game's own static tag. @default Static */
  staticTag?: object;
  /** The game's own tag for swept entities. @default Swept */
  sweptTag?: object;
  /** The game's own tag for round entities. @default Circle */
  circleTag?: object;
  /** The component put on pair entities. @default Collision */
  collision?: CollisionStore;
  /**
   * What to do with bad component values (NaN or infinite position or size, negative size,
   * Bounds without Position, an id beyond `maxId`, a bad Collider). Either way the entity is
   * held out of the tree, counted in `stats.held`, and put back once its values are valid.
   * `'throw'` also throws an error naming the entity, the field and the value at the end of
   * the sync, every frame while the values stay bad (under a step budget, a waiting particle's
   * when its share is read: see {@link quadtreeSyncSystem}); `'skip'` stays silent.
   * @default 'throw'
   */
  invalid?: 'throw' | 'skip';
  /**
   * How the sync system finds moved entities. `'scan'` compares every non-static entity's
   * Position and Bounds with the values it last synced; `'mark'` looks only at entities
   * passed to {@link markMoved} (for games that know what they moved).
   * @default 'scan'
   */
  detect?: 'scan' | 'mark';
  /**
   * Create a pair entity carrying {@link Collision} for every overlapping pair. Turn off for
   * games that read pairs only through {@link forEachPair} or handlers.
   * @default true
   */
  pairEntities?: boolean;
  /** Per-frame budget of the dispatch system (handler calls). @default no budget */
  dispatch?: DispatchBudget;
}

/**
 * A cap on the handler calls of one frame. Handlers of priority 192-255 (tier 0) are never
 * cut. Other handlers run in priority order while the budget lasts, each at least
 * `minCalls` times; what does not fit waits for the next frame. See {@link onCollision}.
 */
export interface DispatchBudget {
  /** Handler calls per frame, tier 0 included (deterministic). @default Infinity */
  maxCalls?: number;
  /** Milliseconds per frame, checked every 8 calls past the minimums (not deterministic). @default Infinity */
  maxMs?: number;
  /**
   * Calls every handler below tier 0 gets each frame even when the budget is spent. Bounds
   * the wait of a deferred call (see {@link onCollision}). Clamped to at least 1.
   * @default 16
   */
  minCalls?: number;
}

/** Keys of {@link QuadtreeWorldOptions}: the core's and the plugin's own. */
export const WORLD_KEYS: KeysOf<QuadtreeWorldOptions> = {
  ...QUADTREE_KEYS,
  position: true,
  bounds: true,
  collider: true,
  staticTag: true,
  sweptTag: true,
  circleTag: true,
  collision: true,
  invalid: true,
  detect: true,
  pairEntities: true,
  dispatch: true,
};

/** Keys of {@link DispatchBudget}. */
export const DISPATCH_KEYS: KeysOf<DispatchBudget> = { maxCalls: true, maxMs: true, minCalls: true };
