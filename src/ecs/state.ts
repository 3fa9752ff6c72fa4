import { LooseQuadtree, type QuadtreeOptions } from '../core/index.js';
import { checkFlag, fail, markOutside, QUADTREE_KEYS } from '../core/internal.js';
import { Bounds, Circle, Collider, Collision, Position, Static, Swept } from './components.js';
import type { BoundsStore, ColliderStore, CollisionStore, PositionStore } from './components.js';
import { EntityTable } from './entities.js';
import type { HandlerRecord } from './handlers.js';
import { IdList } from '../core/internal.js';
import type { QuadtreeWorldOptions } from './options.js';
import { PairMap } from './pairmap.js';
import { createStats, type QuadtreeWorldStats } from './stats.js';

/** Everything the plugin keeps for one world. Not exported from the package. */
export class QuadtreeState {
  readonly world: object;
  readonly tree: LooseQuadtree;
  readonly position: PositionStore;
  readonly bounds: BoundsStore;
  readonly collider: ColliderStore;
  readonly staticTag: object;
  readonly sweptTag: object;
  readonly circleTag: object;
  readonly collision: CollisionStore;
  readonly skip: boolean;
  readonly scan: boolean;
  readonly pairEntities: boolean;
  /** Largest entity id plus one (the tree's `maxId`). */
  readonly idLimit: number;
  readonly stats: QuadtreeWorldStats;
  readonly entities = new EntityTable();

  /** Entity ids whose Position + Bounds were added, to insert at the next sync. */
  readonly added = new IdList();
  /** Entity ids that gained Bounds or lost Position: checked for a missing Position at the next sync. */
  readonly checkPosition = new IdList();
  /** Entity indices whose Static tag or Collider changed, to re-read at the next sync. */
  readonly staticChanged = new IdList();
  /** Entity indices whose Swept tag changed, to apply at the next sync. */
  readonly sweptChanged = new IdList();
  /** Entity indices whose Circle tag changed, to apply at the next sync. */
  readonly shapeChanged = new IdList();
  readonly colliderChanged = new IdList();
  /** Entity indices passed to markMoved. */
  readonly marked = new IdList();
  /** Entity ids beyond the id limit, held out (rare: a plain array). */
  readonly beyondLimit: number[] = [];
  /** First error found by the running sync, thrown when it ends (mode 'throw'). */
  error: string | null = null;

  /** Live pairs, kept while pair entities or handlers need them. */
  pairs: PairMap | null = null;
  /** Layers the last step's exits began with, by index in `tree.exited` (when `pairs` is kept). */
  exitLayerA = new Int32Array(64);
  exitLayerB = new Int32Array(64);
  /** Pair entities created by the last collision step (phase enter, to become stay). */
  readonly enteredEntities = new IdList();
  /** Pair entities set to exit by the last collision step (to remove at the next). */
  readonly exitedEntities = new IdList();
  /** Pair entities alive. */
  pairEntityCount = 0;
  /** A collider changed: pair priorities and layers must be refreshed after the next step. */
  refreshPairs = false;
  /** The collision step the dispatch system last served. */
  dispatchedStep = 0;
  /** Whether the warning of handlers that no dispatch ever served was given (see collision.ts). */
  warnedUndispatched = false;
  /** Whether the sync system ever ran, and whether the warning of a world it never served was given. */
  synced = false;
  warnedUnsynced = false;
  /** The collider the sync system last read (see check.readCollider). */
  readonly colliderRead = { layer: 1, mask: -1, priority: 128 };
  /** Reads an entity's box for `contact` (see queries.contact); made by the first contact. */
  boxNow: ((eid: number, out: Float64Array, o: number) => void) | null = null;

  handlers: HandlerRecord[] = [];
  /**
   * Bookkeeping of the running dispatch: calls made in all and by the current handler, the
   * budget's clock, and the current handler's timed calls (see the stats' `handlerMs`).
   */
  readonly dispatch = {
    calls: 0,
    made: 0,
    over: false,
    started: 0,
    nextClock: 0,
    timed: 0,
    timedMs: 0,
    handlerMs: 0,
    /** Which one in 256 of a handler's calls past the first 8 is timed: turns with the step. */
    offset: 0,
  };
  /** What handlers threw during the running dispatch, in call order: thrown once it ends. */
  readonly handlerErrors: unknown[] = [];
  handlerOrder = 0;
  maxCalls = Infinity;
  maxMs = Infinity;
  minCalls = 16;

  readonly unsubscribe: (() => void)[] = [];
  /** Tile layers made on this world: their state is part of the world's (saved by saveQuadtree). */
  readonly attached: object[] = [];
  /** What errors of a tile layer call this state (see TileLayer's owner). */
  readonly name = 'world';

  constructor(world: object, options: QuadtreeWorldOptions) {
    this.world = world;
    this.tree = new LooseQuadtree(treeOptions(options));
    this.position = options.position ?? Position;
    this.bounds = options.bounds ?? Bounds;
    this.collider = options.collider ?? Collider;
    this.staticTag = options.staticTag ?? Static;
    this.sweptTag = options.sweptTag ?? Swept;
    this.circleTag = options.circleTag ?? Circle;
    this.collision = options.collision ?? Collision;
    checkStores('position', this.position, ['x', 'y']);
    checkStores('bounds', this.bounds, ['width', 'height']);
    checkStores('collider', this.collider, ['layer', 'mask', 'priority']);
    checkStores('collision', this.collision, ['a', 'b', 'priority', 'phase', 'startedAt']);
    // Typed, but plain JavaScript may pass anything.
    const invalid: unknown = options.invalid ?? 'throw';
    if (invalid !== 'throw' && invalid !== 'skip')
      fail(`option invalid must be 'throw' or 'skip' (got ${JSON.stringify(invalid)})`);
    const detect: unknown = options.detect ?? 'scan';
    if (detect !== 'scan' && detect !== 'mark')
      fail(`option detect must be 'scan' or 'mark' (got ${JSON.stringify(detect)})`);
    this.skip = invalid === 'skip';
    this.scan = detect === 'scan';
    this.pairEntities = checkFlag('option pairEntities', options.pairEntities ?? true);
    // The tree's, as its options checked and clamped it.
    this.idLimit = this.tree.tree.idLimit;
    this.stats = createStats(this.tree.stats);
    if (this.pairEntities) this.pairs = new PairMap();
    // The game's world and components: snapshots of this state hold them by reference only.
    for (const o of [world, this.position, this.bounds, this.collider, this.collision]) markOutside(o);
    for (const o of [this.staticTag, this.sweptTag, this.circleTag]) markOutside(o);
  }
}

/** The tree's own options out of the world's (the tree refuses keys it does not know). */
function treeOptions(options: QuadtreeWorldOptions): QuadtreeOptions {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(QUADTREE_KEYS)) {
    if (key in options) picked[key] = (options as Record<string, unknown>)[key];
  }
  return picked;
}

function checkStores(option: string, component: unknown, fields: string[]): void {
  if (typeof component !== 'object' || component === null)
    fail(`option ${option} must be a component object (got ${String(component)})`);
  for (const field of fields) {
    const store = (component as Record<string, unknown>)[field];
    if (typeof store !== 'object' || store === null) {
      fail(`option ${option} has no ${field} array (got ${String(store)}); expected { ${fields.join(', ')} }`);
    }
  }
}

const states = new WeakMap<object, QuadtreeState>();

/** The state of a world the plugin was added to; throws a clear error otherwise. */
export function stateOf(world: object): QuadtreeState {
  const s = states.get(world);
  if (s === undefined) fail('this world has no quadtree: call addQuadtree(world) first');
  return s;
}

/** The state of a world, or undefined if the plugin was not added. */
export function findState(world: object): QuadtreeState | undefined {
  return states.get(world);
}

/** Attaches (or with null, detaches) a world's state. */
export function setState(world: object, state: QuadtreeState | null): void {
  if (state === null) states.delete(world);
  else states.set(world, state);
}
