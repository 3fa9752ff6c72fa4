import { hasComponent, type World } from 'bitecs';
import {
  BAD_BOX,
  BAD_CIRCLE,
  BAD_COLLIDER,
  BEYOND_LIMIT,
  describe,
  NO_POSITION,
  readCollider,
  squareBox,
  VALID,
  validBox,
} from './check.js';
import { HELD, IN_HELD_LIST, IN_TREE, MARK_MOVED, UNTRACKED, QUEUED } from './entities.js';
import { stateOf, type QuadtreeState } from './state.js';
import { Shape } from '../core/index.js';
import { MAX_CLASSES, MIXED } from '../core/internal.js';
import { storeCentres } from './storeCentres.js';

/**
 * The sync system: brings the tree up to date with the components. Inserts the entities that
 * gained Position + Bounds since the last run (all at once), re-reads changed Static tags
 * and Colliders, finds the entities that moved or resized (by comparing every non-static
 * entity with the values it last synced, or only the marked ones with `detect: 'mark'`) and
 * hands them to the tree, and re-checks held entities. Removals need no sync: they leave the
 * tree when the component or entity is removed.
 *
 * With `invalid: 'throw'` (the default) it throws, after finishing its work, the first bad
 * value it met; the tree stays valid and the bad entity is held out. Under a step budget the
 * sync reads a big class of moving particles that does not pair with itself a share at a
 * time: a waiting particle's bad value is thrown when its share comes (see
 * docs/getting-started.md, "Bad input").
 */
export function quadtreeSyncSystem<W extends object>(world: W): W {
  const s = stateOf(world);
  const started = performance.now();
  s.synced = true;
  const stats = s.stats;
  stats.inserted = 0;
  stats.scanned = 0;
  stats.dirty = 0;
  retryHeld(s);
  // Changes to entities in the tree first: the entities admitted next read all their values anew.
  applyStaticChanges(s);
  applySweptChanges(s);
  applyShapeChanges(s);
  applyColliderChanges(s);
  insertAdded(s);
  checkPositions(s);
  if (s.scan) scan(s);
  applyMarks(s);
  // With 'scan', new entities were placed all at once before the scan; with 'mark' they wait
  // in the tree's queue for the collision step (or a query).
  refreshCounts(s);
  stats.syncMs = performance.now() - started;
  if (s.error !== null) {
    const message = s.error;
    s.error = null;
    throw new Error(message);
  }
  return world;
}

/**
 * Asks the next sync to re-read an entity's Position and Bounds. This is how moves are seen
 * with `detect: 'mark'`, and how a Static entity is moved in either mode. Unknown entities
 * are ignored.
 */
export function markMoved(world: object, eid: number): void {
  markMovedIn(stateOf(world), eid);
}

/** {@link markMoved} for a caller that holds the world's state already. */
export function markMovedIn(s: QuadtreeState, eid: number): void {
  const ent = s.entities;
  if (!(eid < ent.capacity) || ent.status[eid] !== IN_TREE || (ent.marks[eid] & MARK_MOVED) !== 0) return;
  ent.marks[eid] |= MARK_MOVED;
  s.marked.push(eid);
}

/**
 * Asks the next sync to re-read an entity's Collider after its fields were written (adding
 * or removing the Collider component is seen without this). Without it a write such as
 * `Collider.mask[eid] = 0` is not seen: bitECS fires nothing for direct writes, and comparing
 * every Collider each frame would cost a pass over all of them.
 */
export function markColliderChanged(world: object, eid: number): void {
  stateOf(world).colliderChanged.push(eid);
}

/** Live counts in the stats. */
export function refreshCounts(s: QuadtreeState): void {
  const stats = s.stats;
  const ent = s.entities;
  stats.entities = ent.inTree;
  stats.static = ent.staticCount;
  stats.held = ent.heldCount + s.beyondLimit.length;
  stats.queued = s.added.count;
}

/** Puts a new entity into the tree, or holds it out if its values are bad. */
function admit(s: QuadtreeState, eid: number): void {
  const world = s.world as World;
  const x = s.position.x[eid];
  const y = s.position.y[eid];
  const w = s.bounds.width[eid];
  const h = s.bounds.height[eid];
  // The corners go straight to the tree's box for a new item, and storeCentres' makesBox test is
  // written out on them: a call with the numbers, when the engine does not inline it, boxes each on
  // the heap, garbage for every entity born.
  const hw = w * 0.5;
  const hh = h * 0.5;
  const tree = s.tree;
  const box = tree.boxIn;
  box[0] = x - hw;
  box[1] = y - hh;
  box[2] = x + hw;
  box[3] = y + hh;
  const isCircle = hasComponent(world, eid, s.circleTag);
  const bad = !(w >= 0 && h >= 0 && box[2] - box[0] < Infinity && box[3] - box[1] < Infinity)
    ? BAD_BOX
    : readCollider(s, eid, hasComponent(world, eid, s.collider)) !== VALID
      ? BAD_COLLIDER
      : isCircle && !squareBox(x, y, w, h)
        ? BAD_CIRCLE
        : VALID;
  if (bad !== VALID) {
    hold(s, eid, bad);
    return;
  }
  const isStatic = hasComponent(world, eid, s.staticTag);
  const collider = s.colliderRead;
  // The collider was checked by readCollider, by the rules of the tree's setCollider.
  tree.queueChecked(eid, collider.layer, collider.mask, collider.priority, isStatic);
  const isSwept = hasComponent(world, eid, s.sweptTag);
  if (isSwept) tree.setSwept(eid, true);
  if (isCircle) tree.setShape(eid, Shape.Circle);
  const ent = s.entities;
  if (ent.status[eid] === HELD) ent.heldCount--;
  ent.status[eid] = IN_TREE;
  ent.layer[eid] = collider.layer;
  ent.isStatic[eid] = isStatic ? 1 : 0;
  ent.swept[eid] = isSwept ? 1 : 0;
  ent.circle[eid] = isCircle ? 1 : 0;
  ent.inTree++;
  if (isStatic) ent.staticCount++;
  s.stats.inserted++;
}

/** Takes an entity out of the tree (ending its pairs) and holds it until its values are valid. */
function hold(s: QuadtreeState, eid: number, code: number): void {
  const ent = s.entities;
  const status = ent.status[eid];
  if (status === IN_TREE) takeOut(s, eid);
  if (status !== HELD) {
    ent.status[eid] = HELD;
    ent.heldCount++;
  }
  if ((ent.marks[eid] & IN_HELD_LIST) === 0) {
    ent.marks[eid] |= IN_HELD_LIST;
    ent.held.push(eid);
  }
  report(s, eid, code);
}

/**
 * Lets go of an entity whatever its status: out of the tree if it was in (its pairs end), off
 * the held count if it was held. Its status is left for the caller to set.
 */
export function release(s: QuadtreeState, eid: number): void {
  const status = s.entities.status[eid];
  if (status === IN_TREE) takeOut(s, eid);
  else if (status === HELD) s.entities.heldCount--;
}

/** Removes an entity of status IN_TREE from the tree (its pairs end) and from the lists. */
export function takeOut(s: QuadtreeState, eid: number): void {
  const ent = s.entities;
  s.tree.remove(eid);
  ent.swept[eid] = 0;
  ent.circle[eid] = 0;
  ent.inTree--;
  if (ent.isStatic[eid] === 1) ent.staticCount--;
  ent.status[eid] = UNTRACKED;
}

function report(s: QuadtreeState, eid: number, code: number): void {
  if (!s.skip && s.error === null) s.error = describe(s, eid, code);
}

/** Re-checks held entities: back into the tree when valid, dropped when gone. */
function retryHeld(s: QuadtreeState): void {
  const world = s.world as World;
  const ent = s.entities;
  const held = ent.held;
  // Compacted in place; admit() and hold() never append an entity already listed.
  let keep = 0;
  for (let i = 0; i < held.count; i++) {
    const eid = held.data[i];
    if (ent.status[eid] === HELD) {
      if (!hasComponent(world, eid, s.bounds)) {
        ent.status[eid] = UNTRACKED;
        ent.heldCount--;
      } else if (!hasComponent(world, eid, s.position)) {
        report(s, eid, NO_POSITION);
      } else {
        admit(s, eid);
      }
    }
    if (ent.status[eid] === HELD) held.data[keep++] = eid;
    else ent.marks[eid] &= ~IN_HELD_LIST;
  }
  held.count = keep;
  retryBeyondLimit(s);
}

function retryBeyondLimit(s: QuadtreeState): void {
  const list = s.beyondLimit;
  if (list.length === 0) return;
  const world = s.world as World;
  let keep = 0;
  for (let i = 0; i < list.length; i++) {
    const eid = list[i];
    if (!hasComponent(world, eid, s.bounds)) continue;
    list[keep++] = eid;
    report(s, eid, BEYOND_LIMIT);
  }
  list.length = keep;
}

function beyondLimit(s: QuadtreeState, eid: number): void {
  if (!s.beyondLimit.includes(eid)) s.beyondLimit.push(eid);
  report(s, eid, BEYOND_LIMIT);
}

function insertAdded(s: QuadtreeState): void {
  const ent = s.entities;
  const list = s.added;
  for (let i = 0; i < list.count; i++) {
    const eid = list.data[i];
    if (eid >= s.idLimit) {
      if (hasComponent(s.world, eid, s.bounds)) beyondLimit(s, eid);
      continue;
    }
    // Skips entities removed since they were queued, and repeats of a recycled id.
    if (ent.status[eid] === QUEUED) admit(s, eid);
  }
  list.clear();
}

/** Bounds without Position is bad input: held and reported. */
function checkPositions(s: QuadtreeState): void {
  const world = s.world as World;
  const ent = s.entities;
  const list = s.checkPosition;
  for (let i = 0; i < list.count; i++) {
    const eid = list.data[i];
    if (eid >= s.idLimit) {
      if (hasComponent(world, eid, s.bounds) && !hasComponent(world, eid, s.position)) beyondLimit(s, eid);
      continue;
    }
    if (!hasComponent(world, eid, s.bounds) || hasComponent(world, eid, s.position)) continue;
    ent.ensure(eid);
    if (ent.status[eid] === UNTRACKED) hold(s, eid, NO_POSITION);
  }
  list.clear();
}

function applyStaticChanges(s: QuadtreeState): void {
  const world = s.world as World;
  const ent = s.entities;
  const list = s.staticChanged;
  for (let i = 0; i < list.count; i++) {
    const eid = list.data[i];
    if (!(eid < ent.capacity) || ent.status[eid] !== IN_TREE) continue;
    const want = hasComponent(world, eid, s.staticTag);
    if (want === (ent.isStatic[eid] === 1)) continue;
    // Moved in the frame it turned static: the scan will not look at it again.
    if (!reread(s, eid)) continue;
    s.tree.setStatic(eid, want);
    ent.isStatic[eid] = want ? 1 : 0;
    ent.staticCount += want ? 1 : -1;
  }
  list.clear();
}

/** Swept tags added or removed: the path of an entity turned swept starts where it is now. */
function applySweptChanges(s: QuadtreeState): void {
  const world = s.world as World;
  const ent = s.entities;
  const list = s.sweptChanged;
  for (let i = 0; i < list.count; i++) {
    const eid = list.data[i];
    if (!(eid < ent.capacity) || ent.status[eid] !== IN_TREE) continue;
    const want = hasComponent(world, eid, s.sweptTag);
    if (want === (ent.swept[eid] === 1)) continue;
    s.tree.setSwept(eid, want);
    ent.swept[eid] = want ? 1 : 0;
  }
  list.clear();
}

/**
 * Circle tags added or removed. A box turned circle must be square: re-read first (it may
 * have changed size in this frame), then held if it is not.
 */
function applyShapeChanges(s: QuadtreeState): void {
  const world = s.world as World;
  const ent = s.entities;
  const list = s.shapeChanged;
  for (let i = 0; i < list.count; i++) {
    const eid = list.data[i];
    if (!(eid < ent.capacity) || ent.status[eid] !== IN_TREE) continue;
    const want = hasComponent(world, eid, s.circleTag);
    if (want === (ent.circle[eid] === 1)) continue;
    if (want) {
      const x = s.position.x[eid],
        y = s.position.y[eid],
        w = s.bounds.width[eid],
        h = s.bounds.height[eid];
      if (!validBox(x, y, w, h)) {
        hold(s, eid, BAD_BOX);
        continue;
      }
      if (!squareBox(x, y, w, h)) {
        hold(s, eid, BAD_CIRCLE);
        continue;
      }
      const hw = w * 0.5,
        hh = h * 0.5;
      // A swept entity's path began at its last step's box, which need not be square: its
      // path starts again where it is now.
      s.tree.moveTo(eid, x - hw, y - hh, x + hw, y + hh);
    }
    s.tree.setShape(eid, want ? Shape.Circle : Shape.Box);
    ent.circle[eid] = want ? 1 : 0;
  }
  list.clear();
}

function applyColliderChanges(s: QuadtreeState): void {
  const world = s.world as World;
  const ent = s.entities;
  const list = s.colliderChanged;
  for (let i = 0; i < list.count; i++) {
    const eid = list.data[i];
    if (!(eid < ent.capacity) || ent.status[eid] !== IN_TREE) continue;
    if (readCollider(s, eid, hasComponent(world, eid, s.collider)) !== VALID) {
      hold(s, eid, BAD_COLLIDER);
      continue;
    }
    const collider = s.colliderRead;
    s.tree.setCollider(eid, collider.layer, collider.mask, collider.priority);
    ent.layer[eid] = collider.layer;
    s.refreshPairs = true;
  }
  list.clear();
}

/**
 * The per-frame scan, one pass from the components to the tree: each dynamic entity's box is
 * handed to the core's `move`, which compares it with the box it holds and, for an entity that
 * stayed inside its node's loose bounds, writes it straight where pair finding reads it. No
 * copy of the components is kept, and nothing is left for a second pass.
 *
 * It walks the core's class lists, which keep their members in id order however bitECS
 * recycles ids: the components and the core's records are both read in memory order.
 * Entities queued by this sync are placed first, so that they are in the lists.
 */
function scan(s: QuadtreeState): void {
  const ent = s.entities;
  const px = s.position.x;
  const py = s.position.y;
  const bw = s.bounds.width;
  const bh = s.bounds.height;
  const tree = s.tree;
  tree.flush();
  const core = tree.tree;
  const C = core.classes;
  let scanned = 0;
  let dirty = 0;
  for (let k = 0; k < MAX_CLASSES; k++) {
    if (C.size[k] === 0 || (C.isStatic[k] === 1 && k !== MIXED)) continue;
    // A detached class is stored in one loop, under a budget only its share; the others move one by one.
    if (C.detached[k] === 1 && C.swept[k] === 0) {
      if (!core.budgeted || !C.waits(k)) {
        scanned += C.size[k];
        dirty += storeRange(s, k, 0, C.end[k]);
      } else {
        scanned += C.planTo[k] - C.cursor[k] + C.planWrap[k];
        dirty += storeRange(s, k, C.cursor[k], C.planTo[k]) + storeRange(s, k, 0, C.planWrap[k]);
      }
      continue;
    }
    const ids = C.ids[k];
    // A held entity leaves a hole behind (and an emptied list ends): the end is re-read.
    for (let i = 0; i < C.end[k]; i++) {
      const eid = ids[i];
      if (eid < 0 || ent.isStatic[eid] === 1) continue;
      scanned++;
      const x = px[eid];
      const y = py[eid];
      const w = bw[eid];
      const h = bh[eid];
      if (!validBox(x, y, w, h)) {
        hold(s, eid, BAD_BOX);
        continue;
      }
      if (w !== h && ent.circle[eid] === 1 && !squareBox(x, y, w, h)) {
        hold(s, eid, BAD_CIRCLE);
        continue;
      }
      // Inline rather than through a helper: every double passed to a call V8 does not inline is boxed.
      const hw = w * 0.5;
      const hh = h * 0.5;
      if (tree.move(eid, x - hw, y - hh, x + hw, y + hh)) dirty++;
    }
  }
  s.stats.scanned += scanned;
  s.stats.dirty += dirty;
}

/** Stores the boxes of detached class k's members at list places [from, to); holds the bad ones. Returns the changed. */
function storeRange(s: QuadtreeState, k: number, from: number, to: number): number {
  const { x, y } = s.position;
  const { width, height } = s.bounds;
  const core = s.tree.tree;
  const moved = core.classes.moved[k];
  for (
    let at = storeCentres(core, k, from, to, x, y, width, height);
    at >= 0;
    at = storeCentres(core, k, at + 1, to, x, y, width, height)
  )
    hold(s, core.classes.ids[k][at], BAD_BOX);
  return core.classes.moved[k] - moved;
}

function applyMarks(s: QuadtreeState): void {
  const ent = s.entities;
  const list = s.marked;
  for (let i = 0; i < list.count; i++) {
    const eid = list.data[i];
    ent.marks[eid] &= ~MARK_MOVED;
    if (ent.status[eid] === IN_TREE) reread(s, eid);
  }
  list.clear();
}

/** Hands one entity's box to the tree (which ignores an unchanged one); false if it was held. */
function reread(s: QuadtreeState, eid: number): boolean {
  const x = s.position.x[eid];
  const y = s.position.y[eid];
  const w = s.bounds.width[eid];
  const h = s.bounds.height[eid];
  s.stats.scanned++;
  if (!validBox(x, y, w, h)) {
    hold(s, eid, BAD_BOX);
    return false;
  }
  if (w !== h && s.entities.circle[eid] === 1 && !squareBox(x, y, w, h)) {
    hold(s, eid, BAD_CIRCLE);
    return false;
  }
  const hw = w * 0.5;
  const hh = h * 0.5;
  if (s.tree.move(eid, x - hw, y - hh, x + hw, y + hh)) s.stats.dirty++;
  return true;
}
