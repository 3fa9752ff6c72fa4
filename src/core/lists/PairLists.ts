import { DETACHED, TIERS, type ItemStore } from '../store/ItemStore.js';
import type { QuadtreeStats } from '../options.js';
import type { IdBits } from '../pairs/IdBits.js';
import { PairBuffer } from './PairBuffer.js';
import { comparePairs, isSorted, lowerBound, runEnd } from './order.js';
import { PairRadix } from './radix.js';
import { grow, Slack } from '../grow.js';
import { declareScratch } from '../snapshot/StatePlan.js';

/** Runs of listed pairs at least this long move with copyWithin (a memmove); shorter ones entry by entry. */
const MEMMOVE_RUN = 16;

/** The sorted pair lists a step leaves (current, entered, exited) and the step's in-place merge. */
export class PairLists {
  /** The one sort of pair lists: the step's found pairs, unordered exits, the list after a priority change. */
  readonly radix = new PairRadix();
  /** Every pair after the last step. */
  readonly current = new PairBuffer();
  /** Pairs that began in the last step. */
  readonly entered = new PairBuffer(64, false);
  /** Pairs ended by the last step (or by removals before it). */
  exited = new PairBuffer(64, false);
  /** Pairs ending now, reported by the next step. */
  private exiting = new PairBuffer(64, false);
  /** List positions of this merge's exits, ascending (scratch: written before read). */
  private exitAt = new Int32Array(64);
  /** Per entry of this merge, the list position it goes before, ascending (scratch). */
  private entryAt = new Int32Array(64);
  /** A chunk of the list positions whose pairs have a touched side (scratch, see mergeFound). */
  private readonly touchedAt = new Int32Array(4096);
  /** Per listed pair, its priority before {@link refreshPriorities}, which a pair ending that step reports. */
  private was = new Uint8Array(0);
  private readonly wasSlack = new Slack();
  /** Whether this step refreshed the priorities (the room in `was` is in use). */
  private refreshed = false;

  constructor() {
    // Never read before written in one merge: not state.
    declareScratch(this, 'exitAt', 'entryAt', 'touchedAt', 'was', 'refreshed');
  }

  /** Ends the step: its exits become the sorted exited list, and the lists are counted into `stats`. */
  finish(stats: QuadtreeStats): void {
    const exits = this.exiting;
    this.exiting = this.exited;
    this.exiting.count = 0;
    this.exited = exits;
    // In list order already, unless priorities changed: exits report the ones they had.
    if (!isSorted(exits)) this.radix.sort(exits);
    const cur = this.current;
    countTiers(this.entered, stats.enteredByTier);
    countTiers(exits, stats.exitedByTier);
    countTiers(cur, stats.stayedByTier);
    for (let t = 0; t < TIERS; t++) stats.stayedByTier[t] -= stats.enteredByTier[t];
    stats.pairs = cur.count;
    stats.entered = this.entered.count;
    stats.exited = exits.count;
    stats.stayed = cur.count - this.entered.count;
    // Not `exiting`: it is empty now, and becomes the next step's exits.
    this.entered.trim();
    exits.trim();
    const used = Math.max(this.entered.count, exits.count);
    if (this.positionsSlack.due(used, Math.max(this.exitAt.length, this.entryAt.length))) {
      this.exitAt = new Int32Array(Math.max(64, 2 * used));
      this.entryAt = new Int32Array(Math.max(64, 2 * used));
    }
    // Steps that leave priorities alone leave `was` unused: after 64 of them it goes.
    if (this.wasSlack.due(this.refreshed ? this.was.length : 0, this.was.length)) this.was = new Uint8Array(0);
    this.refreshed = false;
  }

  private readonly positionsSlack = new Slack();

  /** Merges the sorted found pairs in place: only a listed pair with a side touched (see Broadphase) or left may end. */
  mergeFound(found: PairBuffer, step: number, touched: Int32Array, left: IdBits, items: ItemStore): void {
    const list = this.current;
    const exiting = this.exiting;
    const entered = this.entered;
    const leftWords = left.words;
    const anyLeft = left.count > 0;
    const la = list.a,
      lb = list.b,
      lp = list.priority,
      lwas = this.was;
    const refreshed = this.refreshed;
    const fa = found.a,
      fb = found.b,
      fp = found.priority;
    const on = list.count,
      fn = found.count;
    const touchedAt = this.touchedAt;
    const chunk = touchedAt.length;
    // The step emptied `entered` before its one merge: entry e is entered's entry e.
    let exits = 0;
    let i = 0;
    let j = 0;
    // The last touched place merged: the entries after it go among the untouched pairs after it.
    let prev = -1;
    for (;;) {
      let m = 0;
      for (; i < on; i++) {
        const a = la[i],
          b = lb[i];
        const wa = touched[a >> 5] | leftWords[a >> 5],
          wb = touched[b >> 5] | leftWords[b >> 5];
        if ((((wa >>> (a & 31)) | (wb >>> (b & 31))) & 1) !== 0) {
          touchedAt[m++] = i;
          if (m === chunk) {
            i++;
            break;
          }
        }
      }
      // With the list read to its end, the found pairs after the last touched one follow.
      const end = i >= on;
      for (let t = 0; t < m || end; t++) {
        const at = t < m ? touchedAt[t] : on;
        // The found pairs before this listed pair begin, in place among the untouched ones.
        for (; j < fn && (at === on || comparePairs(fp[j], fa[j], fb[j], lp[at], la[at], lb[at]) < 0); j++) {
          const place = lowerBound(list, at, fp[j], fa[j], fb[j], prev + 1);
          // Listed already (with no touched side: not expected, but then it simply stays).
          if (place < at && la[place] === fa[j] && lb[place] === fb[j] && lp[place] === fp[j]) continue;
          const e = entered.count;
          if (e === this.entryAt.length) this.entryAt = grow(this.entryAt, 2 * e);
          this.entryAt[e] = place;
          entered.push(fa[j], fb[j], fp[j]);
        }
        if (at === on) break;
        prev = at;
        const a = la[at],
          b = lb[at];
        // Found again (the common case): stays, unless a side was re-inserted (then it ends and the new one begins).
        if (j < fn && fa[j] === a && fb[j] === b && fp[j] === lp[at] && (!anyLeft || !(left.has(a) || left.has(b)))) {
          j++;
          continue;
        }
        // A touched detached item was joined (all its pairs re-found), any other probed: a probe reaches items of nodes.
        const ta = ((touched[a >> 5] >>> (a & 31)) & 1) !== 0,
          tb = ((touched[b >> 5] >>> (b & 31)) & 1) !== 0;
        if (
          left.has(a) ||
          left.has(b) ||
          (ta && (items.nodeOf(a) === DETACHED || items.nodeOf(b) !== DETACHED)) ||
          (tb && (items.nodeOf(b) === DETACHED || items.nodeOf(a) !== DETACHED))
        ) {
          exiting.push(a, b, refreshed ? lwas[at] : lp[at]);
          if (exits === this.exitAt.length) this.exitAt = grow(this.exitAt, 2 * exits);
          this.exitAt[exits++] = at;
        }
      }
      if (end) break;
    }
    if (exits > 0 || entered.count > 0) this.apply(exits, step);
  }

  /** After a step that checked every item, the found pairs replace the list in one pass; `born` is scratch for them. */
  replaceWithFound(found: PairBuffer, step: number, left: IdBits, born: Int32Array): void {
    const { current: list, exiting, entered } = this;
    const anyLeft = left.count > 0;
    const { a: la, b: lb, priority: lp, born: lborn, count: on } = list;
    const { was: lwas, refreshed } = this;
    const { a: fa, b: fb, priority: fp, count: fn } = found;
    let i = 0;
    let j = 0;
    while (i < on || j < fn) {
      // Pairs found again: most of the list. Taken in a tight loop.
      if (!anyLeft) {
        while (i < on && j < fn && la[i] === fa[j] && lb[i] === fb[j] && lp[i] === fp[j]) born[j++] = lborn[i++];
        if (i >= on && j >= fn) break;
      }
      let order = i >= on ? 1 : j >= fn ? -1 : comparePairs(lp[i], la[i], lb[i], fp[j], fa[j], fb[j]);
      // A listed pair of an id removed and inserted again is another pair: it ends, the new one begins.
      if (order === 0 && anyLeft && (left.has(la[i]) || left.has(lb[i]))) order = -1;
      if (order === 0) {
        born[j++] = lborn[i++];
      } else if (order < 0) {
        exiting.push(la[i], lb[i], refreshed ? lwas[i] : lp[i]);
        i++;
      } else {
        entered.push(fa[j], fb[j], fp[j]);
        born[j++] = step;
      }
    }
    // Whole arrays, as memcpy (a view of the first fn would allocate): the list takes the found list's capacity.
    list.reserve(Math.max(fa.length, born.length));
    list.a.set(fa);
    list.b.set(fb);
    list.priority.set(fp);
    list.born.set(born);
    list.count = fn;
  }

  /** Drops the exits and inserts the entries in one forward pass; unread pairs move to the end, ahead of the writes. */
  private apply(exits: number, step: number): void {
    const list = this.current;
    const entered = this.entered;
    const entries = entered.count;
    const on = list.count;
    list.reserve(on + entries);
    const la = list.a,
      lb = list.b,
      lp = list.priority,
      lborn = list.born;
    const exitAt = this.exitAt;
    const entryAt = this.entryAt;
    // Listed pair k (not read yet) sits at base + k; the new list is written at n.
    let base = 0;
    let n = 0;
    let i = 0;
    let x = 0;
    let e = 0;
    for (;;) {
      const nextExit = x < exits ? exitAt[x] : on;
      const nextEntry = e < entries ? entryAt[e] : on;
      const stop = nextExit < nextEntry ? nextExit : nextEntry;
      const run = stop - i;
      if (run > 0) {
        const from = base + i;
        if (n !== from) {
          if (run >= MEMMOVE_RUN) {
            moveEntries(list, n, from, from + run);
          } else {
            for (let k = from, end = from + run, to = n; k < end; k++, to++) {
              la[to] = la[k];
              lb[to] = lb[k];
              lp[to] = lp[k];
              lborn[to] = lborn[k];
            }
          }
        }
        n += run;
        i = stop;
      }
      if (e < entries && entryAt[e] === i) {
        if (n === base + i && i < on) {
          base = la.length - on;
          moveEntries(list, base + i, i, on);
        }
        la[n] = entered.a[e];
        lb[n] = entered.b[e];
        lp[n] = entered.priority[e++];
        lborn[n++] = step;
      } else if (x < exits && exitAt[x] === i) {
        x++;
        i++;
      } else {
        break;
      }
    }
    list.count = n;
  }

  /** After a priority change: gives every listed pair its items' priority and re-sorts (old ones in {@link was}). */
  refreshPriorities(items: ItemStore): void {
    const cur = this.current;
    if (this.was.length < cur.count) this.was = new Uint8Array(cur.a.length);
    const was = this.was;
    this.refreshed = true;
    let changed = false;
    for (let i = 0; i < cur.count; i++) {
      const pa = items.priorityOf(cur.a[i]);
      const pb = items.priorityOf(cur.b[i]);
      const p = pa < pb ? pa : pb;
      was[i] = cur.priority[i];
      if (p !== cur.priority[i]) changed = true;
      cur.priority[i] = p;
    }
    // Most changes touch items without pairs yet (a collider set right after an insert).
    if (changed) this.radix.sort(cur, was);
  }
}

/** Moves entries [from, end) of every column to `to` (a memmove). */
function moveEntries(list: PairBuffer, to: number, from: number, end: number): void {
  list.a.copyWithin(to, from, end);
  list.b.copyWithin(to, from, end);
  list.priority.copyWithin(to, from, end);
  list.born.copyWithin(to, from, end);
}

/** Pairs per tier of a sorted list: tiers are runs, counted by their boundaries rather than pair by pair. */
function countTiers(list: PairBuffer, into: Int32Array): void {
  for (let t = 0, i = 0; t < TIERS; t++) {
    const end = runEnd(list.priority, i, list.count, (3 - t) << 6);
    into[t] = end - i;
    i = end;
  }
}
