import type { Broadphase } from '../pairs/Broadphase.js';
import type { SpatialTree } from '../placement/SpatialTree.js';
import { checkPairs } from './pairChecks.js';
import { TreeCheck } from './TreeCheck.js';

/**
 * Proves the invariants of the index (see TreeCheck) and of the pair set (see pairChecks);
 * throws naming the first one broken. O(items + nodes + pairs): for tests.
 */
export function validateIndex(tree: SpatialTree, bp: Broadphase): void {
  new TreeCheck(tree).run();
  checkPairs(tree, bp);
}
