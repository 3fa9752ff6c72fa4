/** Options for {@link LooseQuadtree}. Every field is optional. */
export interface QuadtreeOptions {
  /** Left edge of the world. @default 0 */
  x?: number;
  /** Top edge of the world. @default 0 */
  y?: number;
  /**
   * World width; the root cell is a square of side `max(width, height)`. Items outside the
   * world are kept and found, at more cost (see docs/core.md, "Outside the world").
   * @default 1024
   */
  width?: number;
  /** World height. @default 1024 */
  height?: number;
  /**
   * Deepest level of the tree (root is 0), clamped to 0..11; the smallest cell is
   * `max(width, height) / 2 ** maxDepth`. Each level in use keeps a 4^depth-entry cell index.
   * @default the depth whose cells are closest to 40 units: `round(log2(max(width, height) / 40))`
   */
  maxDepth?: number;
  /**
   * Count touching edges as overlap. When false, boxes sharing only an edge or corner do not
   * collide. The same rule holds in every query.
   * @default false
   */
  touching?: boolean;
  /** Frames an emptied group of four nodes waits before it is freed. Clamped to 1..65535. @default 8 */
  lifespan?: number;
  /** Cap for the lifespan, which doubles each time a counting group is reused. @default 64 */
  maxLifespan?: number;
  /** Largest id accepted plus one. Typed arrays grow by doubling up to it. @default 2 ** 24 */
  maxId?: number;
  /** Per-step work budget for {@link LooseQuadtree.step}. @default no budget */
  budget?: BudgetOptions;
}

/**
 * A cap on the broadphase work of one step. Tier 0 movers (priority 192-255) are always
 * checked; tiers 1-3 in order, oldest first, while the budget lasts; the rest wait. A big
 * lower-tier class that does not pair with itself is checked in round-robin shares instead.
 * {@link QuadtreeStats.waitBound} tells the longest wait. See docs/layers-and-budgets.md.
 */
export interface BudgetOptions {
  /**
   * Pair tests per step (deterministic). A share charges one test per item it checks on top
   * of its pair tests, so `stats.pairTests` may stay under this while items wait.
   * @default Infinity
   */
  maxPairTests?: number;
  /** Milliseconds per step, checked every 32 movers (not deterministic). @default Infinity */
  maxMs?: number;
  /**
   * Movers of each lower tier checked every step even when the budget is spent, and the least
   * share of a class checked in shares. Bounds a deferred item's wait to
   * `floor(position / minChecksPerTier) + 1` steps (in shares, two rounds of
   * `ceil(length / minChecksPerTier) + 1`, `length` its class's list). Clamped to at least 1.
   * @default 32
   */
  minChecksPerTier?: number;
}

/** Caller-owned result of {@link LooseQuadtree.raycast}. */
export interface RayHit {
  /** Id of the first item hit, or -1. */
  id: number;
  /** Distance along the ray to the hit (0 when the ray starts inside the box). */
  distance: number;
}

/** Result of {@link LooseQuadtree.sweepBox}. */
export interface SweepHit {
  /** Id of the first item the moving box meets, or -1. */
  id: number;
  /** Fraction of the move (0..1) at first contact: 0 when the box starts overlapping it. */
  toi: number;
}

/**
 * Caller-owned result of {@link LooseQuadtree.contact}: the contact geometry of a pair of
 * overlapping shapes (see README, "Contacts and shapes").
 */
export interface Contact {
  /** x of the unit normal, which points from the first item to the second. */
  nx: number;
  /** y of the unit normal. */
  ny: number;
  /** How far the first item must move against the normal to end the overlap (0 when they only touch). */
  depth: number;
  /** x of a contact point, where the two meet (see {@link contactOf} for each pair of shapes). */
  x: number;
  /** y of the contact point. */
  y: number;
}

/**
 * The shape of an item: its box, or the circle inscribed in its box (centre the box's centre,
 * diameter its width; the box must be square, and where rounding left it a hair off, the
 * diameter is its smaller side). See {@link LooseQuadtree.setShape}.
 */
export const Shape = {
  /** The item is its box (the default). */
  Box: 0,
  /** The item is the circle inscribed in its square box. */
  Circle: 1,
} as const;
/** One of the {@link Shape} values. */
export type ShapeValue = (typeof Shape)[keyof typeof Shape];

/** An item's collision filter and priority, as {@link LooseQuadtree.getCollider} writes them. */
export interface ColliderValues {
  /** The item's category bits. */
  layer: number;
  /** The categories it collides with. */
  mask: number;
  /** 0..255, higher is more important. */
  priority: number;
}

/**
 * Pairs in typed buffers, sorted by priority (highest first), then `a`, then `b`; `a < b`.
 * Read entries `0..count-1`; the buffers are reused, so do not keep them across steps.
 */
export interface PairList {
  /** Pairs in the list: read entries `0..count-1`. */
  count: number;
  /** The lower id of each pair. */
  a: Int32Array;
  /** The higher id of each pair. */
  b: Int32Array;
  /** Each pair's priority: the lower of its two items' priorities. */
  priority: Uint8Array;
}

/** Numbers about the index and the last {@link LooseQuadtree.step}, updated in place by `step()` and `tick()`. */
export interface QuadtreeStats {
  /** Items in the index (pending inserts included). */
  items: number;
  /** Items outside the root's loose bounds (kept in the root, tested by every query). */
  outside: number;
  /** Items checked by the last step: the movers, or every item when half or more moved and there is no budget. */
  moved: number;
  /** Moves since the last step that changed an item's node. */
  relocated: number;
  /** Nodes in use (the root counts as one). */
  nodesLive: number;
  /** Nodes in free groups waiting for reuse. */
  nodesFree: number;
  /** Empty groups counting down their lifespan. */
  groupsCounting: number;
  /** Groups freed by lifespan expiry since creation. */
  groupsFreed: number;
  /** Overlap tests made by the last step. */
  pairTests: number;
  /**
   * The part of `pairTests` the budget rationed (lower tiers' movers and shares); 0 without a
   * budget. When the rest alone nears `maxPairTests`, a budget saves little.
   */
  budgetedTests: number;
  /** Current pairs after the last step. */
  pairs: number;
  /** Pairs that began in the last step. */
  entered: number;
  /** Pairs that began earlier and still overlap. */
  stayed: number;
  /** Pairs that ended in the last step. */
  exited: number;
  /** `entered` per tier 0..3 (tier 0 = priority 192-255, tier 3 = 0-63). */
  enteredByTier: Int32Array;
  /** `stayed` per tier 0..3. */
  stayedByTier: Int32Array;
  /** `exited` per tier 0..3. */
  exitedByTier: Int32Array;
  /** Items the budget left unchecked in the last step; greater than 0 exactly when the budget cut something. */
  deferred: number;
  /** The most steps a waiting item may still wait (see {@link BudgetOptions.minChecksPerTier}); 0 without a budget. */
  waitBound: number;
  /** Wall time of the last step in milliseconds. */
  stepMs: number;
}
