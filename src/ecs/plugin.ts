import {
  $internal,
  hasComponent,
  Not,
  observe,
  onAdd,
  onRemove,
  query,
  registerComponent,
  registerQuery,
  removeEntity,
  type InternalWorld,
  type World,
} from 'bitecs';
import type { BudgetOptions, LooseQuadtree } from '../core/index.js';
import { checkKeys, fail, show } from '../core/internal.js';
import { HAS_COLLIDER, TILE_RECT, UNTRACKED, QUEUED } from './entities.js';
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
 * `visitNodes` for debug drawing, `validateTree` in tests). Its item ids are entity indices
 * (see {@link addQuadtree}). Moving or removing items through it directly desynchronises the
 * plugin: read from it, write through the components, and change its budget with
 * {@link setStepBudget}.
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

/**
 * Changes the world's step budget, the `budget` option of {@link addQuadtree}: the pair tests
 * (`maxPairTests`) or milliseconds (`maxMs`) a collision step may spend on tiers 1-3, and the
 * least of each checked every step (`minChecksPerTier`). Omitted fields return to their
 * defaults: `setStepBudget(world, {})` turns the budget off. It applies from the next
 * collision step. The handler budget is {@link setDispatchBudget}'s.
 *
 * @example
 * setStepBudget(world, { maxPairTests: 20_000, minChecksPerTier: 256 }); // a busy scene
 * setStepBudget(world, {}); // exact pairs again
 * @throws if the world has no quadtree, a field is invalid, or `budget` has a key
 * {@link BudgetOptions} does not (named with the closest valid one); a refused budget changes
 * nothing
 */
export function setStepBudget(world: object, budget: BudgetOptions): void {
  // The core checks every field before it sets any, and refuses unknown keys.
  stateOf(world).tree.setBudget(budget);
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
 * Observes the components, and takes in the entities that have them already. Every observer is
 * a query that bitECS keeps up to date on each add and remove of its components, and each
 * removed entity costs time in every query it is in, which adds up when particles die by the
 * thousand a frame. So a particle with Position, Bounds and a Collider is in one of the plugin's
 * queries:
 * - Position and Bounds as one query, which an entity joins when it has both and leaves when
 *   it loses either (or is removed);
 * - Bounds without Position, bad input: a query that holds only such entities;
 * - Collider through the entities with Position and Bounds but no Collider: an entity leaves
 *   that query when it gains a Collider and joins it when it loses one.
 */
function watch(s: QuadtreeState): void {
  const w = s.world as World;
  const on = (hook: ReturnType<typeof onAdd>, fn: (eid: number) => void): void => {
    s.unsubscribe.push(observe(w, hook, fn));
  };
  /**
   * Observes a query whose joins matter, an entity joining again included: bitECS does not tell
   * of an entity joining a query it has not left yet (it leaves at bitECS's next commit), so a
   * leaver is dropped at once. The query has a marker no entity has, so that a game's query of
   * the same components is never this one (a game's loop over it would skip entities).
   */
  const own = (terms: object[], joined: (eid: number) => void, left: (eid: number) => void): object[] => {
    const mine = [...terms, Not({})];
    const q = registerQuery(w, mine) as unknown as BitecsQuery;
    on(onAdd(...mine), joined);
    on(onRemove(...mine), (eid) => {
      q.toRemove.remove(eid);
      q.remove(eid);
      left(eid);
    });
    return mine;
  };
  own(
    [s.position, s.bounds, Not(s.collider)],
    (eid) => colliderLost(s, eid),
    (eid) => colliderGained(s, eid),
  );
  const boundsAlone = own(
    [s.bounds, Not(s.position)],
    (eid) => s.checkPosition.push(eid),
    () => {},
  );
  on(onAdd(s.position, s.bounds), (eid) => gained(s, eid));
  on(onRemove(s.position, s.bounds), (eid) => lost(s, eid));
  on(onAdd(s.staticTag), (eid) => s.staticChanged.push(eid));
  on(onRemove(s.staticTag), (eid) => s.staticChanged.push(eid));
  on(onAdd(s.sweptTag), (eid) => s.sweptChanged.push(eid));
  on(onRemove(s.sweptTag), (eid) => s.sweptChanged.push(eid));
  on(onAdd(s.circleTag), (eid) => s.shapeChanged.push(eid));
  on(onRemove(s.circleTag), (eid) => s.shapeChanged.push(eid));
  // Every component of the plugin's registered now, in one order: a world read from bytes needs the same.
  registerComponent(w, s.collision);
  // The entities that had the components before the plugin: bitECS tells observers of changes only.
  for (const eid of query(w, [s.position, s.bounds])) gained(s, eid);
  for (const eid of query(w, boundsAlone)) s.checkPosition.push(eid);
}

/** The parts of a bitECS 0.4 query the plugin's own queries use: its members, and those it is to drop. */
interface BitecsQuery {
  remove(eid: number): void;
  toRemove: { remove(eid: number): void };
}

/**
 * The entity left the query of those without a Collider: it gained one, or it lost Position or
 * Bounds, or it is being removed (then it has no Collider either).
 */
function colliderGained(s: QuadtreeState, eid: number): void {
  const ent = s.entities;
  if (!(eid < ent.capacity) || !hasComponent(s.world, eid, s.collider)) return;
  ent.marks[eid] |= HAS_COLLIDER;
  s.colliderChanged.push(eid);
}

/**
 * An entity with Position and Bounds has no Collider now: it lost it, or it has just gained
 * the other two without one. Only in the first case is the Collider re-read and the plugin's
 * own reset: a new entity's fields may be written before its Collider is added.
 */
function colliderLost(s: QuadtreeState, eid: number): void {
  const ent = s.entities;
  if (!(eid < ent.capacity) || (ent.marks[eid] & HAS_COLLIDER) === 0) return;
  ent.marks[eid] &= ~HAS_COLLIDER;
  s.colliderChanged.push(eid);
  if (isPluginCollider(s.collider)) resetCollider(s.collider, eid);
}

/**
 * Gives the plugin's own Collider its defaults back when it leaves an entity in the tree, or
 * such an entity is removed: bitECS hands a removed entity's id to the next new one, which
 * would otherwise read the old values. A game's own collider store is the game's to reset.
 */
function resetCollider(collider: ColliderStore, eid: number): void {
  collider.layer[eid] = DEFAULT_COLLIDER.layer;
  collider.mask[eid] = DEFAULT_COLLIDER.mask;
  collider.priority[eid] = DEFAULT_COLLIDER.priority;
}

/** The entity has Position and Bounds now: queued (its values are not written yet). */
function gained(s: QuadtreeState, eid: number): void {
  // Beyond the table: the next sync reports it.
  s.added.push(eid);
  if (eid >= s.idLimit) return;
  const ent = s.entities;
  ent.ensure(eid);
  release(s, eid);
  ent.status[eid] = QUEUED;
  if (hasComponent(s.world, eid, s.collider)) ent.marks[eid] |= HAS_COLLIDER;
  else ent.marks[eid] &= ~HAS_COLLIDER;
}

/**
 * The entity lost Position or Bounds (or was removed): out of the tree, its pairs end. If it
 * keeps Bounds, it joins the query of Bounds alone and the next sync reports it.
 */
function lost(s: QuadtreeState, eid: number): void {
  // Both still there: the entity itself is being removed (removeComponent clears its bit first).
  const w = s.world as World;
  if (isPluginCollider(s.collider) && hasComponent(w, eid, s.position) && hasComponent(w, eid, s.bounds))
    resetCollider(s.collider, eid);
  const ent = s.entities;
  if (!(eid < ent.capacity)) return;
  release(s, eid);
  ent.status[eid] = UNTRACKED;
  ent.marks[eid] &= ~(HAS_COLLIDER | TILE_RECT);
}
