import { describe, fail } from '../errors.js';
import { LooseQuadtree } from '../LooseQuadtree.js';
import { applyState, checkState, QuadtreeSnapshot, saveState } from './Snapshot.js';

/**
 * Saves a tree's whole collision state (items, pairs, budget state, swept paths, lifespans, tile layers): after
 * {@link restoreTree}, steps give the same pairs, events and answers in the same order, as rollback and replays need.
 * `into` is an older snapshot whose memory to reuse. A function, so a game that never saves leaves it out of its
 * bundle. See docs/rollback.md.
 * @throws if `tree` is not a LooseQuadtree, or `into` is given and is not a snapshot
 */
export function saveTree(tree: LooseQuadtree, into?: QuadtreeSnapshot): QuadtreeSnapshot {
  checkTree(tree, 'saveTree');
  return saveState(tree, into, tree.stepCount);
}

/**
 * Brings back the state a {@link saveTree} of this tree took, whatever happened since; ids inserted since are gone.
 * @throws if `tree` is not a LooseQuadtree, or `snapshot` is not one saved from it or is damaged; nothing changes then
 */
export function restoreTree(tree: LooseQuadtree, snapshot: QuadtreeSnapshot): void {
  checkTree(tree, 'restoreTree');
  // All is checked first, so a refused snapshot changes nothing.
  applyState(tree, checkState(tree, snapshot, 'tree'));
}

/** Refuses anything but a LooseQuadtree, naming the call `verb`. */
export function checkTree(tree: unknown, verb: string): void {
  if (!(tree instanceof LooseQuadtree)) fail(`${verb} takes a LooseQuadtree (got ${describe(tree)})`);
}
