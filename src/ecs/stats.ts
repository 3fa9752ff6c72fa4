import type { QuadtreeStats } from '../core/index.js';

/** The core's numbers for the last step that the world's stats repeat at top level. */
type TreeNumbers = Pick<
  QuadtreeStats,
  | 'relocated'
  | 'nodesLive'
  | 'nodesFree'
  | 'pairTests'
  | 'budgetedTests'
  | 'pairs'
  | 'entered'
  | 'stayed'
  | 'exited'
  | 'enteredByTier'
  | 'stayedByTier'
  | 'exitedByTier'
  | 'deferred'
  | 'waitBound'
>;

/**
 * Numbers about a world's quadtree and its last frame. One object per world, updated in
 * place by the systems: read it, don't keep copies of its arrays across frames. The tree's
 * fields (`relocated`, `nodesLive`, `nodesFree`, `pairTests`, `budgetedTests`, `pairs`, `entered`,
 * `stayed`, `exited`, the per-tier arrays, `deferred`, `waitBound`) mean what they mean in
 * {@link QuadtreeStats}.
 */
export interface QuadtreeWorldStats extends TreeNumbers {
  /** Collision steps run so far: the frame number of {@link Collision}'s `startedAt`. */
  frame: number;
  /** Entities in the tree (static ones included). */
  entities: number;
  /** Static entities in the tree. */
  static: number;
  /** Entities that gained Position + Bounds and wait for the next sync. */
  queued: number;
  /** Entities held out of the tree because of bad values (see the `invalid` option). */
  held: number;
  /** Entities inserted by the last sync. */
  inserted: number;
  /** Entities whose values the last sync compared (every dynamic one when scanning, else the marked ones). */
  scanned: number;
  /**
   * Entities found moved or resized since the last sync began: the dirty ones handed to the
   * tree. A big class of moving particles is read by the collision step and counted then.
   */
  dirty: number;
  /** Pair entities alive (carrying {@link Collision}). */
  pairEntities: number;
  /** Handler calls made by the last dispatch. */
  handlerCalls: number;
  /** Enter and exit calls waiting in handler backlogs after the last dispatch. */
  handlerDeferred: number;
  /** Handlers the dispatch budget cut in the last dispatch (their calls resume next frame). */
  handlersCut: number;
  /** Wall time of the last run of {@link quadtreeSyncSystem}, in milliseconds. */
  syncMs: number;
  /** Wall time of the last run of {@link quadtreeCollisionSystem}, in milliseconds. */
  collisionMs: number;
  /**
   * Wall time of the last run of {@link quadtreeDispatchSystem}, in milliseconds, the
   * handlers' calls included: the plugin's own share is `dispatchMs - handlerMs`.
   */
  dispatchMs: number;
  /**
   * The part of `dispatchMs` spent in the game's collision handlers, in milliseconds: an
   * estimate. Reading the clock around every call would cost more than a small handler, so the
   * first 8 calls of each handler in a dispatch are timed, then one call in 256, each less the
   * same interval around an empty handler (the clock's and the call's own cost), and the
   * handler's time is its timed calls' mean times its calls. Never more than `dispatchMs`. One
   * frame's value is rough when a handler makes many calls; a mean over frames is close.
   */
  handlerMs: number;
  /** The core's own numbers for the last step. */
  tree: QuadtreeStats;
}

/** A zeroed stats object sharing the tree's per-tier arrays. */
export function createStats(tree: QuadtreeStats): QuadtreeWorldStats {
  return {
    frame: 0,
    entities: 0,
    static: 0,
    queued: 0,
    held: 0,
    inserted: 0,
    scanned: 0,
    dirty: 0,
    relocated: 0,
    nodesLive: 1,
    nodesFree: 0,
    pairTests: 0,
    budgetedTests: 0,
    pairs: 0,
    entered: 0,
    stayed: 0,
    exited: 0,
    enteredByTier: tree.enteredByTier,
    stayedByTier: tree.stayedByTier,
    exitedByTier: tree.exitedByTier,
    deferred: 0,
    waitBound: 0,
    pairEntities: 0,
    handlerCalls: 0,
    handlerDeferred: 0,
    handlersCut: 0,
    syncMs: 0,
    collisionMs: 0,
    dispatchMs: 0,
    handlerMs: 0,
    tree,
  };
}
