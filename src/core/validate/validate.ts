import type { LooseQuadtree } from '../LooseQuadtree.js';
import { checkPairs } from './pairChecks.js';
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
