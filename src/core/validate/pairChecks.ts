import type { Broadphase } from '../pairs/Broadphase.js';
import { fail } from '../errors.js';
import { STATIC } from '../store/ItemStore.js';
import { before } from '../lists/order.js';
import { NONE } from '../store/NodePool.js';
import type { SpatialTree } from '../placement/SpatialTree.js';

/**
 * The pair set's invariants: the pool against the current list while they are in sync, the
 * list alone after sweeping steps (see Broadphase.poolInSync). Throws naming the first broken.
 */
export function checkPairs(tree: SpatialTree, bp: Broadphase): void {
  if (bp.poolInSync) {
    checkPoolLinks(tree, bp);
    checkPoolAgainstList(tree, bp);
  } else {
    checkListAlone(tree, bp);
  }
}

/** Each item's pair list: live pairs that name it, prev links intact, every pair listed under both its items. */
function checkPoolLinks(tree: SpatialTree, bp: Broadphase): void {
  const items = tree.items;
  const pairs = bp.pairs;
  let edges = 0;
  for (let id = 0; id < items.capacity; id++) {
    if (items.rec[id] < 0) continue;
    let prev = NONE;
    for (let e = items.pairHead(id); e !== NONE; e = pairs.edgeNext(e)) {
      const p = e >> 1;
      if (pairs.alive[p] !== 1) fail(`validate: item ${id} lists dead pair ${p}`);
      if (pairs.edgePrev(e) !== prev) fail(`validate: pair edge ${e} of item ${id} has a broken prev link`);
      const self = (e & 1) === 0 ? pairs.a(p) : pairs.b(p);
      if (self !== id) fail(`validate: pair ${p} is listed under item ${id} but joins ${pairs.a(p)} and ${pairs.b(p)}`);
      prev = e;
      edges++;
    }
  }
  if (edges !== pairs.count * 2) fail(`validate: ${edges} pair edges for ${pairs.count} pairs`);
}

/** The current list holds exactly the pool's live pairs, ordered, with their priorities, no two static items. */
function checkPoolAgainstList(tree: SpatialTree, bp: Broadphase): void {
  const items = tree.items;
  const pairs = bp.pairs;
  const cur = bp.current;
  let live = 0;
  let prevLive = -1;
  for (let i = 0; i < cur.count; i++) {
    // Pairs ended by a removal since the last step leave the list at the next step.
    if (pairs.alive[cur.index[i]] === 0) continue;
    live++;
    const a = cur.a[i],
      b = cur.b[i],
      pr = cur.priority[i];
    if (!(a < b)) fail(`validate: current pair ${i} (${a}, ${b}) is not ordered a < b`);
    const p = pairs.find(a, b);
    if (p === NONE || p !== cur.index[i]) fail(`validate: current pair (${a}, ${b}) is not in the pair set`);
    if (pairs.priority[p] !== pr)
      fail(`validate: current pair (${a}, ${b}) lists priority ${pr}, pair has ${pairs.priority[p]}`);
    if (prevLive >= 0 && !before(cur.priority[prevLive], cur.a[prevLive], cur.b[prevLive], pr, a, b))
      fail(`validate: current pairs are out of order at ${i}`);
    if (items.hasFlag(a, STATIC) && items.hasFlag(b, STATIC) && !bp.isDirty(a) && !bp.isDirty(b)) {
      fail(`validate: static items ${a} and ${b} are paired`);
    }
    prevLive = i;
  }
  if (live !== pairs.count) fail(`validate: current list has ${live} pairs, the set has ${pairs.count}`);
}

/**
 * The current list while the pair pool is out of sync (after sweeping steps): ordered, each
 * pair once, no static pairs, begun no later than the last step. Pairs of items removed (or
 * removed and inserted again) since the step are still listed; they end in the next one.
 */
function checkListAlone(tree: SpatialTree, bp: Broadphase): void {
  const items = tree.items;
  const cur = bp.current;
  for (let i = 0; i < cur.count; i++) {
    const a = cur.a[i],
      b = cur.b[i],
      pr = cur.priority[i];
    if (!(a < b)) fail(`validate: current pair ${i} (${a}, ${b}) is not ordered a < b`);
    if (i > 0 && !before(cur.priority[i - 1], cur.a[i - 1], cur.b[i - 1], pr, a, b)) {
      fail(`validate: current pairs are out of order (or repeated) at ${i}`);
    }
    if (cur.born[i] > bp.stepId || cur.born[i] < 0)
      fail(`validate: current pair (${a}, ${b}) began at step ${cur.born[i]}, after the last step ${bp.stepId}`);
    if (
      !bp.endedByRemoval(a, b) &&
      items.hasFlag(a, STATIC) &&
      items.hasFlag(b, STATIC) &&
      !bp.isDirty(a) &&
      !bp.isDirty(b)
    ) {
      fail(`validate: static items ${a} and ${b} are paired`);
    }
  }
}
