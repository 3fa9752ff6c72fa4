import type { Broadphase } from '../pairs/Broadphase.js';
import type { SpatialTree } from '../placement/SpatialTree.js';
import { checkPairs } from './pairChecks.js';
import { TreeCheck } from './TreeCheck.js';

/** Proves the invariants of the index and pair set; throws naming the first broken. O(items + nodes + pairs). */
export function validateIndex(tree: SpatialTree, bp: Broadphase): void {
  new TreeCheck(tree).run();
  checkPairs(tree, bp);
}
