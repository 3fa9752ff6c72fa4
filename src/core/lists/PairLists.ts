import { TIERS, tierOf, type ItemStore } from '../store/ItemStore.js';
import type { QuadtreeStats } from '../options.js';
import type { PairPool } from '../pairs/PairPool.js';
import type { IdBits } from '../pairs/IdBits.js';
import { INDEX, PairBuffer } from './PairBuffer.js';
import { ListPatcher, mergeEntries } from './merging.js';
import { comparePairs, isSorted, runEnd } from './order.js';
import { sortPairs } from './quicksort.js';

/**
 * The sorted pair lists a step leaves behind (current, entered, exited) and how a step brings
 * them up to date: patched or merged with the step's entries and exits after per-item checks
 * (see FewMovers), or merged with a sweep's sorted pairs after a sweeping step. All sorted by
 * (priority descending, a, b) (see order.ts).
 */
export class PairLists {
  /** Every pair after the last step; two buffers swapped by the merges. */
  current = new PairBuffer();
  private spare = new PairBuffer();
  /** Pairs that began in the last step (with their pool index after per-item checks). */
  readonly entered = new PairBuffer(64, INDEX);
  /** Pairs ended by the last step (or by removals before it). */
  exited = new PairBuffer(64, INDEX);
  /** Pairs ending now, reported by the next step. */
  private exiting = new PairBuffer(64, INDEX);
  /** Pairs whose priority changed in place: the current list needs a full sort. */
  reorder = false;
  private readonly patcher = new ListPatcher();

  /** Ends pool pair `p`: reported as exited by the next step, with the priority it has. */
  endPair(p: number, pool: PairPool, items: ItemStore): void {
    this.exiting.push(pool.a(p), pool.b(p), pool.priority[p], p);
    pool.destroy(p, items);
  }

  /**
   * Ends this step's per-item checks: sorts the entries and exits and merges the entries into
   * the current list, dropping pairs that ended: O(pairs) only in steps where something changed.
   * After a sweeping step (`swept`) the list and its entries are built in order already.
   * Then counts them into `stats`.
   */
  finish(swept: boolean, pool: PairPool, stats: QuadtreeStats): void {
    const entered = this.entered;
    const exits = this.exiting;
    this.exiting = this.exited;
    this.exiting.count = 0;
    this.exited = exits;
    if (!isSorted(exits)) sortPairs(exits);
    if (!swept) {
      sortPairs(entered);
      // Few changes: patch the list in place; many (or reordered priorities): merge it anew.
      const changes = entered.count + exits.count;
      if (
        this.reorder ||
        changes * 32 > this.current.count ||
        (changes > 0 && !this.patcher.patch(this.current, entered, exits))
      ) {
        this.mergeEntries(pool);
      }
    }
    this.count(stats);
    // Not `exiting`: it is empty now by design, and becomes the next step's exits.
    entered.trim();
    exits.trim();
  }

  private count(stats: QuadtreeStats): void {
    const entered = this.entered;
    const exits = this.exited;
    const byTier = stats.enteredByTier;
    byTier.fill(0);
    for (let i = 0; i < entered.count; i++) byTier[tierOf(entered.priority[i])]++;
    stats.exitedByTier.fill(0);
    for (let i = 0; i < exits.count; i++) stats.exitedByTier[tierOf(exits.priority[i])]++;
    const stayed = stats.stayedByTier;
    stayed.fill(0);
    const cur = this.current;
    // Tiers are contiguous runs in the sorted list: count them by boundaries, not per pair.
    for (let t = 0, i = 0; t < TIERS; t++) {
      const end = runEnd(cur.priority, i, cur.count, (3 - t) << 6);
      stayed[t] = end - i - byTier[t];
      i = end;
    }
    stats.pairs = cur.count;
    stats.entered = entered.count;
    stats.exited = exits.count;
    stats.stayed = cur.count - entered.count;
  }

  /** Merges this step's entries into the current list, dropping pairs that ended (and re-sorting after priority changes). */
  private mergeEntries(pool: PairPool): void {
    const out = this.spare;
    mergeEntries(this.current, this.entered, out, pool);
    if (this.reorder) {
      sortPairs(out);
      this.reorder = false;
    }
    this.spare = this.current;
    this.current = out;
  }

  /**
   * Merges the sorted pairs a sweep found with the current list into the new current list,
   * in one pass: a listed pair that this step's checks covered stays if it was found again and
   * ends if not (every pair, with `all`; else one with a side in `covered`, an item of a
   * detached class joined whole, or in `left`, an item removed; or with a side in `checked`,
   * an item of a node whose probes reached the other side, unless that side is detached: only
   * a join finds the pairs of a detached item); a found pair
   * not listed begins; the other listed pairs are kept as they are. Entries come out in list
   * order, so they need no sort. `pool` is the pair pool while it is kept in step with the
   * list (then its dead pairs are skipped and its start steps read), else null (the list's
   * `born` column is then the truth). `refreshed`: priorities were refreshed this step (see
   * {@link refreshPriorities}), so ending pairs report the one they had in `was`. `touched`:
   * the ids in `checked`, `covered` or `left`, whose listed pairs take the whole test; the
   * others' pass with one look at two bits. The `index` column of the new list is not kept
   * (the pool is out of sync after a merge; see Broadphase.syncPool).
   */
  mergeFound(
    found: PairBuffer,
    all: boolean,
    step: number,
    checked: Int32Array,
    covered: Int32Array,
    left: IdBits,
    touched: Int32Array,
    items: ItemStore,
    pool: PairPool | null,
    refreshed: boolean,
  ): void {
    const old = this.current;
    const out = this.spare;
    out.reserve(found.count + old.count);
    const exiting = this.exiting;
    const entered = this.entered;
    const leftWords = left.words;
    const loose = items.detachedBits;
    const anyLeft = pool === null && left.count > 0;
    const alive = pool === null ? null : pool.alive;
    const oa = old.a,
      ob = old.b,
      op = old.priority,
      oi = old.index,
      oborn = old.born,
      owas = old.was;
    const fa = found.a,
      fb = found.b,
      fp = found.priority;
    // The new list is written through locals, not push: most of a big list is copied as it is,
    // and a call per pair cost most of the merge.
    const na = out.a,
      nb = out.b,
      np = out.priority,
      ni = out.index,
      nborn = out.born;
    const on = old.count,
      fn = found.count;
    // Every listed pair takes the whole test when all were checked, or while the pool's dead
    // pairs must be skipped (the step after per-item checks); else most pass untouched.
    const careful = all || alive !== null;
    let n = 0;
    let i = 0;
    let j = 0;
    while (i < on || j < fn) {
      if (!careful) {
        // The listed pairs before the next found one, neither of whose items a check covered
        // (`touched`), stay as they are: most of a big list, so they take the shortest way.
        const fpj = j < fn ? fp[j] : -1,
          faj = j < fn ? fa[j] : 0,
          fbj = j < fn ? fb[j] : 0;
        while (i < on) {
          const p = op[i],
            a = oa[i],
            b = ob[i];
          if (p === fpj ? a > faj || (a === faj && b >= fbj) : p < fpj) break;
          if ((((touched[a >> 5] >>> (a & 31)) | (touched[b >> 5] >>> (b & 31))) & 1) !== 0) break;
          na[n] = a;
          nb[n] = b;
          np[n] = p;
          nborn[n++] = oborn[i++];
        }
        if (i >= on && j >= fn) break;
      }
      // With the pool kept, pairs ended by a removal since the last step are reported already.
      if (alive !== null && i < on && alive[oi[i]] === 0) {
        i++;
        continue;
      }
      let order = i >= on ? 1 : j >= fn ? -1 : comparePairs(op[i], oa[i], ob[i], fp[j], fa[j], fb[j]);
      // A listed pair of an id removed and inserted again is another pair: it ends, the new one begins.
      if (order === 0 && anyLeft && (left.has(oa[i]) || left.has(ob[i]))) order = -1;
      if (order === 0) {
        na[n] = oa[i];
        nb[n] = ob[i];
        np[n] = op[i];
        ni[n] = -1;
        nborn[n++] = pool !== null ? pool.born(oi[i]) : oborn[i];
        i++;
        j++;
      } else if (order < 0) {
        const a = oa[i],
          b = ob[i];
        const sure =
          (((covered[a >> 5] | leftWords[a >> 5]) >>> (a & 31)) & 1) !== 0 ||
          (((covered[b >> 5] | leftWords[b >> 5]) >>> (b & 31)) & 1) !== 0;
        const probed = (((checked[a >> 5] >>> (a & 31)) | (checked[b >> 5] >>> (b & 31))) & 1) !== 0;
        if (all || sure || (probed && (((loose[a >> 5] >>> (a & 31)) | (loose[b >> 5] >>> (b & 31))) & 1) === 0)) {
          exiting.push(a, b, pool !== null ? pool.priority[oi[i]] : refreshed ? owas[i] : op[i], -1);
        } else {
          na[n] = a;
          nb[n] = b;
          np[n] = op[i];
          ni[n] = -1;
          nborn[n++] = pool !== null ? pool.born(oi[i]) : oborn[i];
        }
        i++;
      } else {
        na[n] = fa[j];
        nb[n] = fb[j];
        np[n] = fp[j];
        ni[n] = -1;
        nborn[n++] = step;
        entered.push(fa[j], fb[j], fp[j], -1);
        j++;
      }
    }
    out.count = n;
    this.spare = old;
    this.current = out;
  }

  /**
   * After a collider's priority changed: gives every listed pair the priority its items have
   * now and sorts the list again, so a merge with a sweep's pairs lines up. The old priority
   * stays in `was` for pairs that end now. `pool` as in {@link mergeFound}.
   */
  refreshPriorities(items: ItemStore, pool: PairPool | null): void {
    const cur = this.current;
    let changed = false;
    for (let i = 0; i < cur.count; i++) {
      if (pool !== null && pool.alive[cur.index[i]] === 0) continue;
      const pa = items.priorityOf(cur.a[i]);
      const pb = items.priorityOf(cur.b[i]);
      const p = pa < pb ? pa : pb;
      cur.was[i] = cur.priority[i];
      if (p !== cur.priority[i]) changed = true;
      cur.priority[i] = p;
    }
    // Most changes touch items without pairs yet (a collider set right after an insert).
    if (changed) sortPairs(cur);
  }
}
