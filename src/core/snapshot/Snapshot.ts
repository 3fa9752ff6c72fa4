import { describe, fail, show } from '../errors.js';
import { StatePlan } from './StatePlan.js';
import { runsReplaced } from '../queries/RunIndex.js';

/** The plan that fits each saved structure's state as of its last save or restore (see StatePlan). */
const plans = new WeakMap<object, StatePlan>();

/**
 * A tree's whole collision state, made by `saveTree` and brought back by `restoreTree`; it belongs to the tree that
 * saved it. Passing it back to `saveTree` reuses its memory, so a rollback ring allocates nothing.
 */
export class QuadtreeSnapshot {
  /** @internal The structure saved, or null before the first save. */
  owner: object | null = null;
  /** @internal */
  plan: StatePlan | null = null;
  /** @internal Numbers and booleans, by the plan's slots. */
  numbers = new Float64Array(0);
  /** @internal References, by the plan's slots. */
  refs: unknown[] = [];
  /** @internal One copy per buffer of the plan. */
  copies: Uint8Array[] = [];
  /** @internal Per buffer, the bytes saved (its part in use, see declareExtent). */
  used = new Int32Array(0);
  /** @internal Contents of the plan's lists of primitives. */
  lists: unknown[][] = [];
  /** @internal Entries of the plan's maps, key then value. */
  maps: unknown[][] = [];
  /** Steps the tree had run when this was saved (its {@link LooseQuadtree.stepCount}). */
  stepCount = -1;

  /** Bytes of typed-array state this snapshot holds. */
  get byteLength(): number {
    let n = this.numbers.byteLength;
    for (const c of this.copies) n += c.byteLength;
    return n;
  }
}

/** Saves `root`'s state into `into`, or a new snapshot. */
export function saveState(root: object, into: QuadtreeSnapshot | undefined, stepCount: number): QuadtreeSnapshot {
  if (into !== undefined && !(into instanceof QuadtreeSnapshot))
    fail(`saveTree takes a snapshot to reuse, or nothing (got ${describe(into)})`);
  const snap = into ?? new QuadtreeSnapshot();
  // The last plan, if the state kept its shape.
  let plan = plans.get(root);
  if (plan === undefined || !plan.fits()) {
    plan = new StatePlan(root);
    plans.set(root, plan);
  }
  if (snap.plan !== plan) {
    // Arrays sized to this plan; reused while it lasts (the same size, the same buffers).
    if (snap.numbers.length !== plan.numbers) snap.numbers = new Float64Array(plan.numbers);
    snap.refs.length = plan.refs;
    const copies = snap.copies;
    copies.length = plan.buffers.length;
    if (snap.used.length !== plan.buffers.length) snap.used = new Int32Array(plan.buffers.length);
    for (let b = 0; b < plan.buffers.length; b++) {
      const size = plan.buffers[b].length;
      // Past the old length the array holds holes (undefined), hence the optional chain.
      if ((copies[b] as Uint8Array | undefined)?.length !== size) copies[b] = new Uint8Array(size);
    }
    resize(snap.lists, plan.lists.length);
    resize(snap.maps, plan.maps.length);
    snap.plan = plan;
  }
  snap.owner = root;
  plan.save(snap);
  snap.stepCount = stepCount;
  return snap;
}

/** Refuses a snapshot that does not fit `root`'s state, writing nothing; returns it for {@link applyState}. */
export function checkState(root: object, snap: unknown, what: string): QuadtreeSnapshot {
  if (!(snap instanceof QuadtreeSnapshot))
    fail(`restoreTree takes a snapshot made by saveTree (got ${describe(snap)})`);
  const plan = snap.plan;
  if (plan === null || snap.owner === null)
    fail('restoreTree of a snapshot that holds nothing yet: pass it to saveTree first');
  if (snap.owner !== root)
    fail(`restoreTree of a snapshot saved from another ${what}; a snapshot restores only its own`);
  const damaged = damage(snap, plan);
  if (damaged !== null) fail(`restore of a damaged snapshot (${damaged}); nothing was changed`);
  return snap;
}

/** Writes a snapshot {@link checkState} took back into `root`. */
export function applyState(root: object, snap: QuadtreeSnapshot): void {
  // Checked (see checkState): it holds a plan.
  const plan = snap.plan as StatePlan;
  plan.restore(snap);
  runsReplaced();
  // The state now has the shape of the plan it was saved with.
  plans.set(root, plan);
}

/** What no longer matches between a snapshot's arrays and its plan, or null. */
function damage(snap: QuadtreeSnapshot, plan: StatePlan): string | null {
  const n = plan.buffers.length;
  if (
    !(snap.numbers instanceof Float64Array && snap.numbers.length === plan.numbers) ||
    !(Array.isArray(snap.refs) && snap.refs.length === plan.refs) ||
    !(Array.isArray(snap.copies) && snap.copies.length === n) ||
    !(snap.used instanceof Int32Array && snap.used.length === n) ||
    snap.lists.length !== plan.lists.length ||
    snap.maps.length !== plan.maps.length
  )
    return 'its arrays are not the sizes of its plan';
  for (let b = 0; b < n; b++) {
    const c = snap.copies[b];
    if (!(c instanceof Uint8Array) || c.length !== plan.buffers[b].length)
      return `buffer ${b}: ${plan.buffers[b].length} bytes expected (got ${c instanceof Uint8Array ? c.length : show(c)})`;
    if (!(snap.used[b] >= 0 && snap.used[b] <= c.length))
      return `buffer ${b}: ${snap.used[b]} bytes in use of ${c.length}`;
  }
  return null;
}

function resize(a: unknown[][], n: number): void {
  while (a.length > n) a.pop();
  while (a.length < n) a.push([]);
}
