import { fail } from '../errors.js';
import { before } from '../lists/order.js';
import type { LooseQuadtree } from '../LooseQuadtree.js';
import type { Broadphase } from '../pairs/Broadphase.js';
import type { SpatialTree } from '../placement/SpatialTree.js';
import { STATIC } from '../store/ItemStore.js';
import { TreeCheck } from './TreeCheck.js';

/**
 * Checks every invariant of a tree (links, counts, each item inside its node's loose bounds, class lists and slots,
 * the pair list) and throws naming the first broken one. For tests: O(items + nodes + pairs). A function, not a
 * method, so that a game's bundle leaves it out.
 */
export function validateTree(tree: LooseQuadtree): void {
  new TreeCheck(tree.tree).run();
  checkPairs(tree.tree, tree.broadphase);
}

/**
 * The current list's invariants: ordered, each pair once, no static pairs, begun by the last step (pairs of items
 * removed since stay until the next). Throws naming the first broken.
 */
function checkPairs(tree: SpatialTree, bp: Broadphase): void {
  const items = tree.items;
  const cur = bp.lists.current;
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
