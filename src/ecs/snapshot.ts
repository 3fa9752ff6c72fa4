import { $internal, entityExists, type InternalWorld, type World } from 'bitecs';
import { applyState, checkState, describe, fail, fit, QuadtreeSnapshot, saveState } from '../core/internal.js';
import type { HandlerRecord } from './handlers.js';
import { stateOf, type QuadtreeState } from './state.js';
import { copyMasks } from './masks.js';
import type { Internals } from './world.js';

/**
 * A saved copy of a world's whole collision state: the tree's (items, pairs with their phases
 * and start steps, the budget's waiting items, swept paths, tile layers) and the plugin's
 * beside it (what the sync last read, the pairs' layers and pair entities, the handlers'
 * deferred calls). Made by {@link saveQuadtree}, brought back by {@link restoreQuadtree}.
 *
 * It does not hold the world's entities or components: the game rolls those back itself, with
 * the same entity ids (see docs/rollback.md). Pass it back to `saveQuadtree` to reuse its
 * memory.
 */
export class QuadtreeWorldSnapshot {
  /** @internal The plugin's state, tree included. */
  readonly state = new QuadtreeSnapshot();
  /** @internal Entities with Position or Bounds at the save, and which of the two (POSITION, BOUNDS bits). */
  tracked = new Int32Array(64);
  /** @internal */
  trackedMarks = new Uint8Array(64);
  /** @internal */
  trackedCount = 0;
  /** @internal The plugin's pair entities at the save, with the pair each stood for (pe, a, b). */
  pairEntities = new Int32Array(96);
  /** @internal */
  pairEntityCount = 0;
  /** @internal The handlers registered at the save: a restore keeps registrations as they are. */
  handlers: readonly HandlerRecord[] = [];

  /** The frame (collision steps run) when this was saved. */
  get frame(): number {
    return this.state.stepCount;
  }

  /** Bytes of typed-array state this snapshot holds. */
  get byteLength(): number {
    return (
      this.state.byteLength + this.tracked.byteLength + this.trackedMarks.byteLength + this.pairEntities.byteLength
    );
  }
}

/**
 * Saves the world's collision state, for rollback and replays. Call it between frames (after
 * the dispatch system, before the next sync), beside the game's own save of its entities and
 * components. Given an older snapshot of the same world, it reuses that one's memory.
 *
 * @throws if the world has no quadtree, or `into` is not a snapshot
 */
export function saveQuadtree(world: object, into?: QuadtreeWorldSnapshot): QuadtreeWorldSnapshot {
  const s = stateOf(world);
  if (into !== undefined && !(into instanceof QuadtreeWorldSnapshot))
    fail(`saveQuadtree takes a snapshot to reuse, or nothing (got ${describe(into)})`);
  return saveCollisionState(s, into ?? new QuadtreeWorldSnapshot(), true);
}

/**
 * Saves the state into `snap`; `entities` false leaves out the lists a restore checks the
 * world against (a world snapshot puts the world back itself and checks none).
 */
export function saveCollisionState(
  s: QuadtreeState,
  snap: QuadtreeWorldSnapshot,
  entities: boolean,
): QuadtreeWorldSnapshot {
  saveState(s, snap.state, s.tree.stepCount);
  snap.trackedCount = snap.pairEntityCount = 0;
  if (entities) {
    listTracked(s, snap);
    listPairEntities(s, snap);
  }
  snap.handlers = s.handlers;
  return snap;
}

/**
 * Brings back the collision state a {@link saveQuadtree} of this world took. The world's
 * entities and components must be back at the same frame first, with the same ids: then the
 * frames after the restore give the same pairs, phases, events, handler calls, budget
 * decisions and query answers, in the same order, as the frames after the save did.
 *
 * Everything is checked before anything is written; a refused snapshot changes nothing.
 *
 * @throws if `snapshot` was not saved from this world or is damaged; if the entities with
 * Position or Bounds now are not those of the save with the same components (one was added,
 * removed, given or stripped of one since), or a pair entity of the plugin's is gone (the
 * world was not rolled back first); or if handlers were registered or removed since the save
 */
export function restoreQuadtree(world: object, snapshot: QuadtreeWorldSnapshot): void {
  const s = checkRestore(world, snapshot, 'restoreQuadtree', true);
  applyState(s, snapshot.state);
}

/**
 * Refuses what {@link restoreQuadtree} refuses, writing nothing, and returns the world's state
 * for `applyState`; `entities` false skips the check of the world's entities (a world restore
 * puts them back itself).
 */
export function checkRestore(world: object, snapshot: unknown, verb: string, entities: boolean): QuadtreeState {
  const s = stateOf(world);
  if (!(snapshot instanceof QuadtreeWorldSnapshot))
    fail(`${verb} takes a snapshot made by saveQuadtree (got ${describe(snapshot)})`);
  if (snapshot.state.owner === null)
    fail(`${verb} of a snapshot that holds nothing yet: pass it to saveQuadtree first`);
  if (snapshot.state.owner !== s)
    fail(`${verb} of a snapshot saved from another world's quadtree; a snapshot restores only its own`);
  if (entities) checkWorld(s, snapshot);
  checkHandlers(s, snapshot, verb);
  checkState(s, snapshot.state, "world's quadtree");
  return s;
}

/** Bits of {@link QuadtreeWorldSnapshot.trackedMarks}. */
const POSITION = 1;
const BOUNDS = 2;

/** Entities with Position or Bounds at the save, read from bitECS's entity masks. */
function listTracked(s: QuadtreeState, snap: QuadtreeWorldSnapshot): void {
  const end = markTracked(s);
  const marks = marksNow;
  let tracked = snap.tracked;
  let trackedMarks = snap.trackedMarks;
  let n = 0;
  for (let eid = 0; eid < end; eid++) {
    const m = marks[eid];
    if (m === 0) continue;
    if (n === tracked.length) {
      tracked = snap.tracked = fit(tracked, n + 1);
      trackedMarks = snap.trackedMarks = fit(trackedMarks, n + 1);
    }
    tracked[n] = eid;
    trackedMarks[n++] = m;
  }
  snap.trackedCount = n;
}

/** Scratch of {@link markTracked}: each id's POSITION and BOUNDS bits, and each generation's masks. */
let marksNow = new Uint8Array(1024);
const masksNow: Int32Array[] = [];

/** Writes each id's POSITION and BOUNDS bits now into {@link marksNow}, from one copy of bitECS's masks; the ids' end. */
function markTracked(s: QuadtreeState): number {
  const ctx = (s.world as unknown as { [$internal]: Internals })[$internal];
  let end = 0;
  for (const m of ctx.entityMasks) end = Math.max(end, m.length);
  const masks = copyMasks(ctx, masksNow, end);
  if (marksNow.length < end) marksNow = new Uint8Array(end + (end >> 1));
  const marks = marksNow;
  marks.fill(0, 0, end);
  addMarks(ctx, masks, s.position, POSITION, end);
  addMarks(ctx, masks, s.bounds, BOUNDS, end);
  return end;
}

/** Adds `mark` in {@link marksNow} to the ids below `end` that have `component` in the masks copied. */
function addMarks(ctx: Internals, masks: Int32Array[], component: object, mark: number, end: number): void {
  const data = ctx.componentMap.get(component);
  if (data === undefined) return;
  const from = masks[data.generationId];
  const bit = data.bitflag;
  const marks = marksNow;
  for (let eid = 0; eid < end; eid++) if ((from[eid] & bit) !== 0) marks[eid] |= mark;
}

/** The plugin's pair entities: of live pairs, and of exits still to be removed. */
function listPairEntities(s: QuadtreeState, snap: QuadtreeWorldSnapshot): void {
  snap.pairEntityCount = 0;
  const map = s.pairs;
  if (map !== null && s.pairEntities) {
    // Over the records, not map.forEach: a save every frame allocates no closure.
    for (let r = 0; r < map.records; r++) {
      if (map.a[r] >= 0 && map.entity[r] !== 0) pushPairEntity(snap, map.entity[r], map.a[r], map.b[r]);
    }
  }
  const C = s.collision;
  const exits = s.exitedEntities;
  for (let i = 0; i < exits.count; i++) {
    const pe = exits.data[i];
    pushPairEntity(snap, pe, C.a[pe], C.b[pe]);
  }
}

function pushPairEntity(snap: QuadtreeWorldSnapshot, pe: number, a: number, b: number): void {
  const at = 3 * snap.pairEntityCount++;
  if (at + 3 > snap.pairEntities.length) snap.pairEntities = fit(snap.pairEntities, at + 3);
  snap.pairEntities[at] = pe;
  snap.pairEntities[at + 1] = a;
  snap.pairEntities[at + 2] = b;
}

/**
 * Refuses a world that was not rolled back with the snapshot: the entities that have Position
 * or Bounds now must be exactly those of the save; the pair entities must be alive with
 * Collision for the same two entities.
 */
function checkWorld(s: QuadtreeState, snap: QuadtreeWorldSnapshot): void {
  const advice =
    'roll the world back to the saved frame first, with the same entity ids (see docs/rollback.md); nothing was changed';
  const w = s.world as World;
  const end = markTracked(s);
  const marks = marksNow;
  let i = 0;
  for (let eid = 0; eid < end || i < snap.trackedCount; eid++) {
    const now = eid < end ? marks[eid] : 0;
    const then = i < snap.trackedCount && snap.tracked[i] === eid ? snap.trackedMarks[i++] : 0;
    if (now === then) continue;
    fail(`restoreQuadtree: ${changedSince(w, eid, then, now)}; ${advice}`);
  }
  const C = s.collision;
  const has = componentTest(w, C).has;
  for (let p = 0; p < snap.pairEntityCount; p++) {
    const pe = snap.pairEntities[3 * p];
    const a = snap.pairEntities[3 * p + 1];
    const b = snap.pairEntities[3 * p + 2];
    if (!entityExists(w, pe) || !has(pe) || C.a[pe] !== a || C.b[pe] !== b)
      fail(
        `restoreQuadtree: pair entity ${pe} (Collision of ${a} and ${b}) was alive at the save and is not now; ${advice}`,
      );
  }
}

/** What became of an entity whose Position and Bounds (`then`, `now`: POSITION, BOUNDS bits) differ since the save. */
function changedSince(w: World, eid: number, then: number, now: number): string {
  if (then === 0)
    return (
      `entity ${eid} was not in the snapshot: it has ${parts(now)} now and had neither at the save ` +
      '(it was added, or given them, after the save)'
    );
  if (now === 0 && !entityExists(w, eid))
    return `entity ${eid} had ${parts(then)} at the save and is not alive now (it was removed after the save)`;
  if (now === 0) return `entity ${eid} had ${parts(then)} at the save and has neither now`;
  return `entity ${eid} had ${parts(then)} at the save and has ${parts(now)} now`;
}

/** POSITION, BOUNDS bits in words. */
function parts(m: number): string {
  if (m === (POSITION | BOUNDS)) return 'Position and Bounds';
  return m === POSITION ? 'Position without Bounds' : 'Bounds without Position';
}

/**
 * `hasComponent` for many entities of one component: its bit in bitECS's entity masks, read
 * once (a save and a restore check every entity; the call per entity cost a map lookup each),
 * and the end of the masks (no entity at or past it has the component).
 */
function componentTest(w: World, component: object): { has: (eid: number) => boolean; end: number } {
  const ctx = (w as unknown as InternalWorld)[$internal];
  const data = ctx.componentMap.get(component);
  if (data === undefined) return { has: () => false, end: 0 };
  const masks = ctx.entityMasks[data.generationId];
  const bit = data.bitflag;
  return { has: (eid) => ((masks[eid] ?? 0) & bit) !== 0, end: masks.length };
}

/** Handlers are the game's code, not state: a restore does not register or remove any. */
function checkHandlers(s: QuadtreeState, snap: QuadtreeWorldSnapshot, verb: string): void {
  const now = s.handlers;
  const then = snap.handlers;
  const same = now.length === then.length && now.every((h, i) => h === then[i]);
  if (same) return;
  // As many as at the save, but other functions: registered anew, as a hot reload does.
  const what =
    now.length === then.length
      ? `the handlers are other functions than at the save (${now.length}, registered anew, as after a hot reload?)`
      : `handlers were registered or removed since the save (${then.length} then, ${now.length} now)`;
  fail(`${verb}: ${what}; register handlers before saving; nothing was changed`);
}
