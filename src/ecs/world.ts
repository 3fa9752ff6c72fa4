import { $internal, hasComponent, Prefab } from 'bitecs';
import { applyState, describe, fail } from '../core/internal.js';
import { checkRestore, QuadtreeWorldSnapshot, saveCollisionState } from './snapshot.js';
import { ComponentValues } from './componentValues.js';
import { findState } from './state.js';
import { copyMasks } from './masks.js';

/** A set of entity ids as bitECS 0.4 keeps it: `dense` in order, `sparse` from id to place. */
interface IdSet {
  readonly dense: number[] | Uint32Array;
  readonly sparse: (number | undefined)[];
  add(id: number): void;
  reset(): void;
}

/** @internal A registered query: its ids, those removed but not yet committed, and its terms as masks. */
export interface Query extends IdSet {
  readonly toRemove: IdSet;
  readonly masks: Partial<Record<number, number>>;
  readonly notMasks: Partial<Record<number, number>>;
  readonly orMasks: Partial<Record<number, number>>;
  readonly generations: number[];
}

/** @internal The parts of a bitECS 0.4 world that make up its entities and queries (`world[$internal]`). */
export interface Internals {
  readonly entityIndex: {
    aliveCount: number;
    dense: number[];
    sparse: (number | undefined)[];
    maxId: number;
    versioning: boolean;
  };
  readonly entityMasks: (number | undefined)[][];
  readonly entityComponents: Map<number, Set<object>>;
  readonly componentMap: Map<object, { id: number; generationId: number; bitflag: number }>;
  readonly queries: Set<Query>;
  /** Each query by the hash of its terms (for a plain and a buffered query of the same terms, the one made last). */
  readonly queriesHashMap: Map<string, Query>;
  readonly dirtyQueries: Set<Query>;
  readonly entitiesWithRelations: Set<unknown>;
}

/**
 * A bitECS world at one frame: its entities (which are alive, which ids come next and in
 * which order), every component's values and which entities have it, the order in which
 * every query lists its entities, and the collision state when the world has a quadtree.
 * Made by {@link saveWorld}, brought back by {@link restoreWorld}; pass it back to
 * `saveWorld` to reuse its memory.
 */
export class WorldSnapshot {
  /** @internal The world saved, or null before the first save. */
  world: object | null = null;
  /** @internal The collision state, when the world has a quadtree. */
  quadtree: QuadtreeWorldSnapshot | null = null;
  /** @internal The entity index: ids alive first, then those bitECS hands out again, next first. */
  ids: Uint32Array = new Uint32Array(64);
  /** @internal */
  idCount = 0;
  /** @internal */
  alive = 0;
  /** @internal */
  maxId = 0;
  /** @internal Per generation of component bits, each id's mask (ids 0 to maxId). */
  masks: Int32Array[] = [];
  /** @internal The queries registered at the save, each one's ids in order and its uncommitted removals. */
  queries: Query[] = [];
  /** @internal */
  lists: Uint32Array[] = [];
  /** @internal */
  listCounts: number[] = [];
  /** @internal */
  pending: Uint32Array[] = [];
  /** @internal */
  pendingCounts: number[] = [];
  /** @internal */
  dirty: boolean[] = [];
  /** @internal Every component's array fields. */
  readonly values = new ComponentValues();

  /** Entities alive at the save. */
  get entities(): number {
    return this.alive;
  }

  /** Collision steps run at the save (see `getStats(world).frame`), or -1 for a world without a quadtree. */
  get frame(): number {
    return this.quadtree === null ? -1 : this.quadtree.frame;
  }

  /** Bytes of typed-array state this snapshot holds (plain arrays of components not counted). */
  get byteLength(): number {
    let n = this.ids.byteLength + (this.quadtree?.byteLength ?? 0);
    for (const m of this.masks) n += m.byteLength;
    for (const l of this.lists) n += l.byteLength;
    for (const p of this.pending) n += p.byteLength;
    return n + this.values.byteLength;
  }
}

/**
 * Saves a bitECS world for rollback and replays: its entities and ids, every registered
 * component's array fields (the values of ids up to the highest), which entities have which
 * components, every query's order, and the world's collision state if it has a quadtree.
 * Call it between frames (after the dispatch system). Given an older snapshot, it reuses that
 * one's memory: a rollback ring then allocates nothing once warm.
 *
 * Relations are not saved: a world in which an entity has one is refused.
 *
 * @throws if `world` is not a bitECS world, was made with `withVersioning`, has relations, or
 * `into` is not a snapshot
 */
export function saveWorld(world: object, into?: WorldSnapshot): WorldSnapshot {
  const ctx = internalsOf(world, 'saveWorld');
  if (into !== undefined && !(into instanceof WorldSnapshot))
    fail(`saveWorld takes a snapshot to reuse, or nothing (got ${describe(into)})`);
  refuseRelations(ctx, 'saveWorld');
  const snap = into ?? new WorldSnapshot();
  const index = ctx.entityIndex;
  snap.ids = copyIds(index.dense, snap.ids);
  snap.idCount = index.dense.length;
  snap.alive = index.aliveCount;
  snap.maxId = index.maxId;
  copyMasks(ctx, snap.masks, snap.maxId + 1);
  saveQueries(ctx, snap);
  snap.values.save(ctx.componentMap.keys());
  const state = findState(world);
  snap.quadtree =
    state === undefined ? null : saveCollisionState(state, snap.quadtree ?? new QuadtreeWorldSnapshot(), false);
  snap.world = world;
  return snap;
}

/**
 * Brings a world back to a {@link saveWorld} of it: the same entities alive with the same
 * components and values, bitECS handing out the same ids next, every query listing its
 * entities in the saved order, and the collision state as saved. The frames after the restore
 * then run exactly as the frames after the save did. Nothing reacts while it runs: no
 * observer is called, and the plugin takes the collision state back as a whole.
 *
 * Queries registered since the save list their entities in the order of the entity index.
 * `getAllEntities` may list the entities in another order than at the save.
 *
 * Everything is checked before anything is written; a refused snapshot changes nothing.
 *
 * @throws if `snapshot` was not saved from this world or holds nothing, if (with a quadtree)
 * handlers were registered or removed since the save, if the quadtree was added since, or if
 * an entity has a relation now
 */
export function restoreWorld(world: object, snapshot: WorldSnapshot): void {
  const ctx = internalsOf(world, 'restoreWorld');
  if (!(snapshot instanceof WorldSnapshot))
    fail(`restoreWorld takes a snapshot made by saveWorld (got ${describe(snapshot)})`);
  if (snapshot.world === null) fail('restoreWorld of a snapshot that holds nothing yet: pass it to saveWorld first');
  if (snapshot.world !== world)
    fail('restoreWorld of a snapshot saved from another world; a snapshot restores only its own');
  const state = snapshot.quadtree === null ? undefined : checkRestore(world, snapshot.quadtree, 'restoreWorld', false);
  if (snapshot.quadtree === null && findState(world) !== undefined)
    fail('restoreWorld of a snapshot saved before the world had a quadtree; save again after addQuadtree');
  refuseRelations(ctx, 'restoreWorld');
  snapshot.values.restore();
  restoreEntities(ctx, snapshot);
  restoreQueries(world, ctx, snapshot);
  if (state !== undefined && snapshot.quadtree !== null) applyState(state, snapshot.quadtree.state);
}

/** Relations are not saved: a world with one is refused, at a save and at a restore. */
function refuseRelations(ctx: Internals, verb: string): void {
  if (ctx.entitiesWithRelations.size === 0) return;
  // The set holds relation targets too, which need not be entities.
  let eid = -1;
  for (const e of ctx.entitiesWithRelations) if (eid < 0 && typeof e === 'number') eid = e;
  fail(
    `${verb}: ${eid < 0 ? 'the world' : `entity ${eid}`} has a relation, and relations are not ` +
      'saved; keep relations out of a world that rolls back, or save and restore them yourself',
  );
}

/** @internal The world's bitECS internals; refuses anything else, and versioned ids (see addQuadtree). */
export function internalsOf(world: object, verb: string): Internals {
  const ctx = (world as { [$internal]?: Partial<Internals> } | null)?.[$internal];
  if (ctx?.entityIndex === undefined) fail(`${verb} takes a bitECS world (got ${describe(world)})`);
  if (ctx.entityIndex.versioning)
    fail(`${verb} of a world made with withVersioning: its ids are not saved; create the world without it`);
  return ctx as Internals;
}

function saveQueries(ctx: Internals, snap: WorldSnapshot): void {
  let j = 0;
  for (const q of ctx.queries) {
    snap.queries[j] = q;
    snap.lists[j] = copyIds(q.dense, snap.lists[j] ?? NO_IDS);
    snap.listCounts[j] = q.dense.length;
    snap.pending[j] = copyIds(q.toRemove.dense, snap.pending[j] ?? NO_IDS);
    snap.pendingCounts[j] = q.toRemove.dense.length;
    snap.dirty[j] = ctx.dirtyQueries.has(q);
    j++;
  }
  snap.queries.length = snap.listCounts.length = snap.pendingCounts.length = snap.dirty.length = j;
  snap.lists.length = snap.pending.length = j;
}

const NO_IDS = new Uint32Array(0);

/** Copies ids into `to`, or into a copy grown by half when it is short; returns the one holding them. */
function copyIds(from: number[] | Uint32Array, to: Uint32Array): Uint32Array {
  const n = from.length;
  const into = to.length < n ? new Uint32Array(n + (n >> 1)) : to;
  into.set(from);
  return into;
}

/** Writes the entity index, each entity's component set and the masks back. */
function restoreEntities(ctx: Internals, snap: WorldSnapshot): void {
  const index = ctx.entityIndex;
  const { ids, alive, maxId, masks: saved } = snap;
  const entities = ctx.entityComponents;
  const n = Math.max(index.maxId, maxId) + 1;
  // Each id's life: 1 alive now, 2 alive at the save, 3 both. Masks now copied by `set`: a
  // loop over a plain array with holes would be slower.
  const life = lives(n);
  for (let i = 0; i < index.aliveCount; i++) life[index.dense[i]] |= 1;
  for (let i = 0; i < alive; i++) life[ids[i]] |= 2;
  const generations = ctx.entityMasks.length;
  const now = copyMasks(ctx, maskCopies, n);
  let components: ComponentBit[] | null = null;
  const byMask = componentLists;
  const oneGeneration = saved.length === 1;
  for (let id = 0; id < n; id++) {
    const l = life[id];
    if (l === 1) entities.delete(id);
    if (l < 2) continue;
    let same = l === 3;
    for (let g = 0; same && g < generations; g++) same = now[g][id] === (g < saved.length ? saved[g][id] : 0);
    if (same) continue;
    components ??= componentBits(ctx);
    let list = oneGeneration ? byMask.get(saved[0][id]) : undefined;
    if (list === undefined) {
      list = [];
      for (const c of components)
        if (c.generation < saved.length && (saved[c.generation][id] & c.bit) !== 0) list.push(c.component);
      if (oneGeneration) byMask.set(saved[0][id], list);
    }
    entities.set(id, new Set(list));
  }
  life.fill(0, 0, n);
  byMask.clear();
  // A mask is written where it differs from the copy of the masks now; a hole reads as 0 there, as in bitECS.
  for (let g = 0; g < generations; g++) {
    const masks = ctx.entityMasks[g];
    const from = g < saved.length ? saved[g] : null;
    const was = now[g];
    masks.length = maxId + 1;
    for (let id = 0; id <= maxId; id++) {
      const m = from === null ? 0 : from[id];
      if (was[id] !== m) masks[id] = m;
    }
  }
  index.sparse.length = maxId + 1;
  writeIds(index.dense, index.sparse, ids, snap.idCount);
  index.aliveCount = alive;
  index.maxId = maxId;
}

interface ComponentBit {
  component: object;
  generation: number;
  bit: number;
}

/** The components registered at the save's generations, in registration order. */
function componentBits(ctx: Internals): ComponentBit[] {
  const out: ComponentBit[] = [];
  for (const [component, data] of ctx.componentMap)
    out.push({ component, generation: data.generationId, bit: data.bitflag });
  return out;
}

/** Puts every saved query's ids back in their order; queries registered since are filled again. */
function restoreQueries(world: object, ctx: Internals, snap: WorldSnapshot): void {
  for (let j = 0; j < snap.queries.length; j++) {
    const q = snap.queries[j];
    if (!ctx.queries.has(q)) continue;
    restoreIds(q, snap.lists[j], snap.listCounts[j]);
    restoreIds(q.toRemove, snap.pending[j], snap.pendingCounts[j]);
    if (snap.dirty[j]) ctx.dirtyQueries.add(q);
    else ctx.dirtyQueries.delete(q);
  }
  for (const q of ctx.queries) {
    // A few dozen queries at most: a search of the saved ones allocates nothing.
    if (snap.queries.includes(q)) continue;
    q.reset();
    q.toRemove.reset();
    ctx.dirtyQueries.delete(q);
    for (let i = 0; i < snap.alive; i++) {
      const id = snap.ids[i];
      if (!hasComponent(world, id, Prefab) && matches(ctx, q, id)) q.add(id);
    }
  }
}

/** Makes a set hold `count` ids of `ids` in that order (untouched when it does). */
function restoreIds(set: IdSet, ids: Uint32Array, count: number): void {
  const dense = set.dense;
  if (Array.isArray(dense)) {
    writeIds(dense, set.sparse, ids, count);
    return;
  }
  let same = dense.length === count;
  for (let i = 0; same && i < count; i++) same = dense[i] === ids[i];
  if (!same) {
    // A buffered query keeps its length to itself: refilled through its own methods.
    set.reset();
    for (let i = 0; i < count; i++) set.add(ids[i]);
  }
}

/**
 * Makes `dense` the first `count` of `ids`, and `sparse` point back at their places. Only the
 * places that differ are written: bitECS keeps `sparse[dense[i]] === i`, and a stale entry past
 * the end is harmless, as bitECS checks it against `dense`.
 */
function writeIds(dense: number[], sparse: (number | undefined)[], ids: Uint32Array, count: number): void {
  const kept = Math.min(dense.length, count);
  dense.length = count;
  for (let i = 0; i < count; i++) {
    if (i < kept && dense[i] === ids[i]) continue;
    dense[i] = ids[i];
    sparse[ids[i]] = i;
  }
}

/** bitECS's test of an entity against a query's terms. */
function matches(ctx: Internals, q: Query, id: number): boolean {
  let or = Object.keys(q.orMasks).length === 0;
  for (const g of q.generations) {
    const m = ctx.entityMasks[g][id] ?? 0;
    const all = q.masks[g];
    const not = q.notMasks[g];
    const any = q.orMasks[g];
    if (not !== undefined && (m & not) !== 0) return false;
    if (all !== undefined && (m & all) !== all) return false;
    if (any !== undefined && (m & any) !== 0) or = true;
  }
  return or;
}

/** With one generation of bits, an entity's mask names its components: each list is made once a restore. */
const componentLists = new Map<number, object[]>();

/** A zeroed byte per id, and each generation's masks, reused between restores. */
let lifeMarks = new Uint8Array(1024);
const maskCopies: Int32Array[] = [];

function lives(n: number): Uint8Array {
  if (lifeMarks.length < n) lifeMarks = new Uint8Array(n + (n >> 1));
  return lifeMarks;
}
