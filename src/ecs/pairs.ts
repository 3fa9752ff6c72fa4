import type { PairList } from '../core/index.js';
import { badVisitor, before as keyBefore, runEnd } from '../core/internal.js';
import { Phase, type PhaseValue } from './components.js';
import { IN_TREE } from './entities.js';
import { stateOf } from './state.js';

/**
 * Receives one pair from {@link forEachPair}; returning `false` stops the walk. `toi` is when
 * in the last frame the two first touched (0..1; 0 unless one is Swept, see the core's
 * `timeOfImpact`), -1 for an exit.
 */
// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- so that a visitor returning nothing type-checks
export type PairVisitor = (a: number, b: number, phase: PhaseValue, priority: number, toi: number) => boolean | void;

/**
 * The fast path: walks the pairs of the last collision step straight from the tree's typed
 * buffers, without ECS queries or pair entities. Pairs come highest priority first, then by
 * entity ids (`a` is the lower one); an exit comes before an enter of the same two
 * entities. Only pairs with `minPriority <= priority <= maxPriority` are visited.
 *
 * Enter and stay pairs of an entity removed (or stripped) since the step are left out: the
 * pair has ended and shows as an exit in the next step. Exits may name entities removed
 * since (their ids may already be reused).
 *
 * For the tightest loop, read `getQuadtree(world).current` (and `entered`, `exited`)
 * directly: the same sorted typed buffers, with entity ids, but without the filtering above.
 *
 * @param phases - bits of {@link Phase} to visit @default Phase.All
 * @returns the number of pairs visited
 */
export function forEachPair(
  world: object,
  visit: PairVisitor,
  phases: number = Phase.All,
  minPriority = 0,
  maxPriority = 255,
): number {
  const s = stateOf(world);
  if (typeof visit !== 'function') badVisitor('forEachPair', visit, 'pair');
  const tree = s.tree;
  const cur = tree.current;
  const en = tree.entered;
  const ex = tree.exited;
  // Read through `ent` every time: a visitor adding entities may grow its arrays.
  const ent = s.entities;
  const wantEnter = (phases & Phase.Enter) !== 0;
  const wantStay = (phases & Phase.Stay) !== 0;
  let i = wantEnter || wantStay ? startAt(cur, maxPriority) : cur.count;
  let j = startAt(en, maxPriority);
  let k = (phases & Phase.Exit) !== 0 ? startAt(ex, maxPriority) : ex.count;
  let visited = 0;
  while (i < cur.count || k < ex.count) {
    if (k < ex.count && (i >= cur.count || !before(cur, i, ex, k))) {
      const p = ex.priority[k];
      if (p < minPriority) {
        k = ex.count;
        continue;
      }
      const a = ex.a[k];
      const b = ex.b[k];
      k++;
      visited++;
      if (visit(a, b, Phase.Exit, p, -1) === false) return visited;
      continue;
    }
    const p = cur.priority[i];
    if (p < minPriority) {
      i = cur.count;
      continue;
    }
    const a = cur.a[i];
    const b = cur.b[i];
    // `entered` is a sorted subset of `current`: walk it alongside.
    while (j < en.count && before(en, j, cur, i)) j++;
    const entered = j < en.count && en.a[j] === a && en.b[j] === b;
    if (entered) j++;
    i++;
    if (entered ? !wantEnter : !wantStay) continue;
    if (ent.status[a] !== IN_TREE || ent.status[b] !== IN_TREE) continue;
    visited++;
    const toi = ent.swept[a] === 1 || ent.swept[b] === 1 ? tree.timeOfImpact(a, b) : 0;
    if (visit(a, b, entered ? Phase.Enter : Phase.Stay, p, toi) === false) return visited;
  }
  return visited;
}

/** True when entry i of x sorts strictly before entry j of y (priority desc, a, b). */
export function before(x: PairList, i: number, y: PairList, j: number): boolean {
  return keyBefore(x.priority[i], x.a[i], x.b[i], y.priority[j], y.a[j], y.b[j]);
}

/** First entry whose priority is at most `max` (the list is sorted by priority, descending). */
function startAt(list: PairList, max: number): number {
  return runEnd(list.priority, 0, list.count, Math.floor(max) + 1);
}
