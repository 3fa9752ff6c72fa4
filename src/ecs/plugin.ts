import { $internal, observe, onAdd, onRemove, query, removeEntity, type InternalWorld, type World } from 'bitecs';
import type { LooseQuadtree } from '../core/index.js';
import { checkKeys, fail, show } from '../core/internal.js';
import { HAS_BOTH, HAS_BOUNDS, HAS_POSITION, UNTRACKED, QUEUED } from './entities.js';
import { DISPATCH_KEYS, WORLD_KEYS, type DispatchBudget, type QuadtreeWorldOptions } from './options.js';
import { DEFAULT_COLLIDER, isPluginCollider, type ColliderStore } from './components.js';
import { findState, QuadtreeState, setState, stateOf } from './state.js';
import type { QuadtreeWorldStats } from './stats.js';
import { refreshCounts, release } from './sync.js';
import { owns, removeIfExited } from './collision.js';

/**
 * Adds a quadtree to a bitECS world: from now on, entities with Position and Bounds are
 * indexed by the systems ({@link quadtreeSyncSystem}, {@link quadtreeCollisionSystem},
 * {@link quadtreeDispatchSystem}). Entities that already have both are picked up by the next
 * sync. Returns the world, so it can wrap `createWorld()`.
 *
 * The tree's item ids are the entity ids. Worlds with a versioned entity index
 * (`withVersioning`) are refused: bitecs 0.4.0 reports live entities as removed once a
 * versioned id is recycled. Plain ids are recycled safely: an entity's pairs end before its
 * id can come back.
 *
 * @throws if the world already has a quadtree, is not a bitECS world, has a versioned entity
 * index, or an option is invalid
 */
export function addQuadtree<W extends object>(world: W, options: QuadtreeWorldOptions = {}): W {
  // Any object may come from plain JavaScript: its parts are looked for, not assumed.
  const internal = (world as unknown as Partial<InternalWorld>)[$internal] as
    Partial<InternalWorld[typeof $internal]> | undefined;
  if (internal?.entityIndex === undefined) {
    fail('addQuadtree expects a bitECS world (made by createWorld)');
  }
  if (findState(world) !== undefined) fail('this world already has a quadtree (addQuadtree was called twice)');
  if (internal.entityIndex.versioning) {
    fail(
      'versioned entity indexes are not supported: bitecs 0.4.0 reports live entities as removed ' +
        'once a versioned id is recycled (got a world made with withVersioning); create the world without it',
    );
  }
  checkKeys('option', options, WORLD_KEYS);
  const s = new QuadtreeState(world, options);
  if (options.dispatch !== undefined) applyBudget(s, options.dispatch);
  setState(world, s);
  watch(s);
  const w = world as unknown as World;
  // The observers' own queries: the entities that have Position or Bounds already.
  for (const eid of query(w, [s.position])) gained(s, eid, HAS_POSITION);
  for (const eid of query(w, [s.bounds])) gained(s, eid, HAS_BOUNDS);
  return world;
}

/**
 * Detaches the quadtree from a world: stops observing its components, removes the pair
 * entities the plugin created and forgets all its state. The components stay on the entities.
 */
export function removeQuadtree(world: object): void {
  const s = stateOf(world);
  for (const stop of s.unsubscribe) stop();
  s.unsubscribe.length = 0;
  const w = world as World;
  if (s.pairs !== null) {
    const map = s.pairs;
    map.forEach((r) => {
      const pe = map.entity[r];
      if (pe !== 0 && owns(s, pe, map.a[r], map.b[r])) removeEntity(w, pe);
    });
  }
  const exits = s.exitedEntities;
  for (let i = 0; i < exits.count; i++) {
    removeIfExited(s, exits.data[i]);
  }
  setState(world, null);
}

/**
 * The world's {@link LooseQuadtree}, for what the ECS face does not wrap (visitor queries,
 * `visitNodes` for debug drawing, `validate()` in tests). Its item ids are entity indices
 * (see {@link addQuadtree}). Moving or removing items through it directly desynchronises the
 * plugin: read from it, write through the components.
 */
export function getQuadtree(world: object): LooseQuadtree {
  return stateOf(world).tree;
}

/** True when {@link addQuadtree} was called on the world (and not undone). */
export function hasQuadtree(world: object): boolean {
  return findState(world) !== undefined;
}

/** The world's stats object (one per world, updated in place by the systems). */
export function getStats(world: object): QuadtreeWorldStats {
  const s = stateOf(world);
  refreshCounts(s);
  s.stats.pairEntities = s.pairEntityCount;
  return s.stats;
}

/** Changes the dispatch budget; omitted fields return to their defaults (no budget). */
export function setDispatchBudget(world: object, budget: DispatchBudget): void {
  applyBudget(stateOf(world), budget);
}

function applyBudget(s: QuadtreeState, budget: DispatchBudget): void {
  checkKeys('dispatch option', budget, DISPATCH_KEYS);
  s.maxCalls = limit('maxCalls', budget.maxCalls);
  s.maxMs = limit('maxMs', budget.maxMs);
  const min = budget.minCalls ?? 16;
  s.minCalls = typeof min === 'number' && min >= 1 ? Math.floor(min) : 1;
}

function limit(field: string, value: number | undefined): number {
  if (value === undefined) return Infinity;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0)
    fail(`dispatch.${field} must be >= 0 (got ${show(value)})`);
  return value;
}

/**
 * Observes the components. Position and Bounds are watched one by one: every observer is a
 * query that bitECS keeps up to date on each add and remove of its components (measured: about
 * 0.5 µs per event each), and a query of the pair besides those of each one would be a third.
 */
function watch(s: QuadtreeState): void {
  const w = s.world as World;
  const on = (hook: ReturnType<typeof onAdd>, fn: (eid: number) => void): void => {
    s.unsubscribe.push(observe(w, hook, fn));
  };
  on(onAdd(s.position), (eid) => gained(s, eid, HAS_POSITION));
  on(onAdd(s.bounds), (eid) => gained(s, eid, HAS_BOUNDS));
  on(onRemove(s.position), (eid) => lost(s, eid, HAS_POSITION));
  on(onRemove(s.bounds), (eid) => lost(s, eid, HAS_BOUNDS));
  on(onAdd(s.staticTag), (eid) => s.staticChanged.push(eid));
  on(onRemove(s.staticTag), (eid) => s.staticChanged.push(eid));
  on(onAdd(s.sweptTag), (eid) => s.sweptChanged.push(eid));
  on(onRemove(s.sweptTag), (eid) => s.sweptChanged.push(eid));
  on(onAdd(s.circleTag), (eid) => s.shapeChanged.push(eid));
  on(onRemove(s.circleTag), (eid) => s.shapeChanged.push(eid));
  on(onAdd(s.collider), (eid) => s.colliderChanged.push(eid));
  on(onRemove(s.collider), (eid) => {
    s.colliderChanged.push(eid);
    if (isPluginCollider(s.collider)) resetCollider(s.collider, eid);
  });
}

/**
 * Gives the plugin's own Collider its defaults back when it leaves an entity: bitECS hands a
 * removed entity's id to the next new one, which would otherwise read the old values. A
 * game's own collider store is the game's to reset.
 */
function resetCollider(collider: ColliderStore, eid: number): void {
  collider.layer[eid] = DEFAULT_COLLIDER.layer;
  collider.mask[eid] = DEFAULT_COLLIDER.mask;
  collider.priority[eid] = DEFAULT_COLLIDER.priority;
}

/**
 * The entity gained Position or Bounds. With both it is queued (its values are not written
 * yet); Bounds alone is bad input, checked at the next sync.
 */
function gained(s: QuadtreeState, eid: number, bit: number): void {
  if (eid >= s.idLimit) {
    // No table entry for it: the next sync reports it if it has Bounds.
    if (bit === HAS_BOUNDS) s.added.push(eid);
    return;
  }
  const ent = s.entities;
  ent.ensure(eid);
  const has = ent.marks[eid] | bit;
  ent.marks[eid] = has;
  if ((has & HAS_BOTH) === HAS_BOTH) {
    s.added.push(eid);
    release(s, eid);
    ent.status[eid] = QUEUED;
  } else if (bit === HAS_BOUNDS) {
    s.checkPosition.push(eid);
  }
}

/** The entity lost Position or Bounds, or was removed: out of the tree now, pairs ended. */
function lost(s: QuadtreeState, eid: number, bit: number): void {
  const ent = s.entities;
  if (!(eid < ent.capacity)) return;
  const had = ent.marks[eid];
  ent.marks[eid] = had & ~bit;
  if ((had & HAS_BOTH) === HAS_BOTH) {
    release(s, eid);
    ent.status[eid] = UNTRACKED;
  }
  // Bounds left without Position: checked at the next sync (unless Bounds goes too).
  if (bit === HAS_POSITION && (had & HAS_BOUNDS) !== 0) s.checkPosition.push(eid);
}
