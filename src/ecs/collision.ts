import { addComponent, addEntity, hasComponent, removeEntity, type World } from 'bitecs';
import { Phase } from './components.js';
import { fit } from '../core/internal.js';
import { refreshCounts } from './sync.js';
import { PairMap } from './pairmap.js';
import { stateOf, type QuadtreeState } from './state.js';

/**
 * The collision system: runs the tree's broadphase step (only entities that changed are
 * checked; see the core's budget for tiers) and writes the pair changes to the world.
 *
 * With pair entities on, each pair is an entity carrying {@link Collision}: created with
 * phase `Enter` in the frame the pair begins, set to `Stay` by the next run, set to `Exit`
 * in the frame it ends and removed by the run after that. One entity add and one remove per
 * pair lifetime; a pair that ends and begins again (or whose entity id was recycled) gets a
 * new pair entity. A pair entity the game removes is forgotten, never touched again (its id
 * may be reused). Run it after {@link quadtreeSyncSystem}, once per frame.
 *
 * The step reads the Positions and Bounds of big classes of moving entities (a particle
 * effect) itself, in the pass that pairs them: an entity whose numbers make no box is found
 * then, held out like the sync holds one, and (with `invalid: 'throw'`) reported by this
 * system's throw after it finished its work.
 */
export function quadtreeCollisionSystem<W extends object>(world: W): W {
  const s = stateOf(world);
  const started = performance.now();
  if (s.pairEntities) retirePairEntities(s);
  const tree = s.tree;
  tree.step();
  const map = s.pairs;
  if (map !== null) {
    recordExits(s, map);
    recordEnters(s, map);
    if (s.refreshPairs) refreshPairs(s, map);
  }
  // A changed collider of an entity the budget deferred changes its pairs' priorities only
  // when the entity is checked: keep refreshing until nothing waits.
  if (tree.stats.deferred === 0) s.refreshPairs = false;
  const stats = s.stats;
  const ts = tree.stats;
  stats.frame = tree.stepCount;
  stats.relocated = ts.relocated;
  stats.nodesLive = ts.nodesLive;
  stats.nodesFree = ts.nodesFree;
  stats.pairTests = ts.pairTests;
  stats.budgetedTests = ts.budgetedTests;
  stats.pairs = ts.pairs;
  stats.entered = ts.entered;
  stats.stayed = ts.stayed;
  stats.exited = ts.exited;
  stats.deferred = ts.deferred;
  stats.waitBound = ts.waitBound;
  stats.pairEntities = s.pairEntityCount;
  refreshCounts(s);
  warnMissingSystems(s);
  stats.collisionMs = performance.now() - started;
  if (s.error !== null) {
    const message = s.error;
    s.error = null;
    throw new Error(message);
  }
  return world;
}

/** Collision steps after which a game that never ran the sync, or the dispatch with handlers, is told, once. */
export const UNDISPATCHED_STEPS = 60;

/**
 * Warns once of a system missing from the frame in the first {@link UNDISPATCHED_STEPS} steps: no sync with entities
 * waiting (none ever enters the tree), or handlers and no dispatch (none is called). Either says nothing else.
 */
function warnMissingSystems(s: QuadtreeState): void {
  if (s.tree.stepCount < UNDISPATCHED_STEPS) return;
  if (!s.synced && !s.warnedUnsynced && s.added.count > 0) {
    s.warnedUnsynced = true;
    console.warn(
      `bitecs-quadtree: ${s.tree.stepCount} collision steps ran and quadtreeSyncSystem never did, so ` +
        `${s.added.count} ${s.added.count === 1 ? 'entity' : 'entities'} with Position and Bounds never entered the tree: run it before ` +
        'quadtreeCollisionSystem each frame',
    );
  }
  // The list holds only registered handlers: unregistering one or clearing them takes it out.
  if (s.warnedUndispatched || s.dispatchedStep !== 0 || s.handlers.length === 0) return;
  s.warnedUndispatched = true;
  console.warn(
    `bitecs-quadtree: ${s.tree.stepCount} collision steps ran and quadtreeDispatchSystem never did, so no ` +
      'onCollision handler was called: run it after quadtreeCollisionSystem each frame',
  );
}

/** Makes sure live pairs are remembered (for handlers), building the map from the current pairs. */
export function keepPairs(s: QuadtreeState): PairMap {
  if (s.pairs !== null) return s.pairs;
  const map = new PairMap();
  const cur = s.tree.current;
  const ent = s.entities;
  for (let i = 0; i < cur.count; i++) remember(map, ent, cur.a[i], cur.b[i]);
  // This step's exits were not described: do it from what is left.
  const ex = s.tree.exited;
  reserveExits(s, ex.count);
  for (let k = 0; k < ex.count; k++) {
    s.exitLayerA[k] = ent.layer[ex.a[k]];
    s.exitLayerB[k] = ent.layer[ex.b[k]];
  }
  s.pairs = map;
  return map;
}

/**
 * Removes an exited pair entity. The game may have removed it already (its id may even be
 * reused): only an entity that still has Collision in phase Exit is ours to remove.
 */
export function removeIfExited(s: QuadtreeState, pe: number): void {
  const world = s.world as World;
  if (hasComponent(world, pe, s.collision) && s.collision.phase[pe] === Phase.Exit) removeEntity(world, pe);
}

/** Removes last frame's exited pair entities and moves last frame's entered ones to Stay. */
function retirePairEntities(s: QuadtreeState): void {
  const world = s.world as World;
  const C = s.collision;
  const exits = s.exitedEntities;
  try {
    for (let i = 0; i < exits.count; i++) {
      removeIfExited(s, exits.data[i]);
      s.pairEntityCount--;
    }
  } finally {
    exits.clear();
  }
  const entered = s.enteredEntities;
  for (let i = 0; i < entered.count; i++) {
    const pe = entered.data[i];
    if (hasComponent(world, pe, C) && C.phase[pe] === Phase.Enter) C.phase[pe] = Phase.Stay;
  }
  entered.clear();
}

/** Records the layers of the step's exits and marks their pair entities Exit. */
function recordExits(s: QuadtreeState, map: PairMap): void {
  const ex = s.tree.exited;
  const n = ex.count;
  reserveExits(s, n);
  const C = s.collision;
  const ent = s.entities;
  for (let k = 0; k < n; k++) {
    const a = ex.a[k];
    const b = ex.b[k];
    const r = map.find(a, b);
    if (r < 0) {
      // Began before the map was kept: the best description left.
      s.exitLayerA[k] = ent.layer[a];
      s.exitLayerB[k] = ent.layer[b];
      continue;
    }
    s.exitLayerA[k] = map.layerA[r];
    s.exitLayerB[k] = map.layerB[r];
    const pe = map.entity[r];
    if (pe !== 0) {
      if (owns(s, pe, a, b)) {
        C.phase[pe] = Phase.Exit;
        s.exitedEntities.push(pe);
      } else {
        s.pairEntityCount--;
      }
    }
    map.remove(r);
  }
}

function reserveExits(s: QuadtreeState, n: number): void {
  if (n <= s.exitLayerA.length) return;
  s.exitLayerA = fit(s.exitLayerA, n);
  s.exitLayerB = fit(s.exitLayerB, n);
}

/** Adds the pair to the map with its entities' layers as they are now; returns its record. */
function remember(map: PairMap, ent: QuadtreeState['entities'], a: number, b: number): number {
  const r = map.add(a, b);
  map.layerA[r] = ent.layer[a];
  map.layerB[r] = ent.layer[b];
  return r;
}

/** Remembers the step's new pairs and creates their pair entities. */
function recordEnters(s: QuadtreeState, map: PairMap): void {
  const world = s.world as World;
  const en = s.tree.entered;
  const ent = s.entities;
  const C = s.collision;
  const frame = s.tree.stepCount;
  const create = s.pairEntities;
  for (let k = 0; k < en.count; k++) {
    const a = en.a[k];
    const b = en.b[k];
    const r = remember(map, ent, a, b);
    if (!create) continue;
    const pe = addEntity(world);
    // Written before the component is added, so the game's onAdd observers see the data.
    C.a[pe] = a;
    C.b[pe] = b;
    C.priority[pe] = en.priority[k];
    C.phase[pe] = Phase.Enter;
    C.startedAt[pe] = frame;
    if (C.toi !== undefined) C.toi[pe] = ent.swept[a] === 1 || ent.swept[b] === 1 ? s.tree.timeOfImpact(a, b) : 0;
    addComponent(world, pe, C);
    map.entity[r] = pe;
    s.enteredEntities.push(pe);
    s.pairEntityCount++;
  }
}

/** After a collider change: pair priorities (changed in place by the tree) and layers. */
function refreshPairs(s: QuadtreeState, map: PairMap): void {
  const cur = s.tree.current;
  const ent = s.entities;
  const C = s.collision;
  for (let i = 0; i < cur.count; i++) {
    const a = cur.a[i];
    const b = cur.b[i];
    const r = map.find(a, b);
    if (r < 0) continue;
    map.layerA[r] = ent.layer[a];
    map.layerB[r] = ent.layer[b];
    const pe = map.entity[r];
    if (pe !== 0 && owns(s, pe, a, b)) C.priority[pe] = cur.priority[i];
  }
}

/**
 * True if the pair entity is still the plugin's for the pair (a, b). The game may have
 * removed it, and its id may since carry another entity, even another pair of the plugin's.
 */
export function owns(s: QuadtreeState, pe: number, a: number, b: number): boolean {
  const C = s.collision;
  return hasComponent(s.world, pe, C) && C.a[pe] === a && C.b[pe] === b && C.phase[pe] !== Phase.Exit;
}
