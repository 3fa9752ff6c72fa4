import { grow } from '../grow.js';
import { CIRCLE, SWEPT } from './ItemStore.js';
import type { KeySorter } from '../lists/radix.js';
import type { ItemStore } from './ItemStore.js';

/** Classes kept apart, the last of them being the shared one (see {@link MIXED}). */
export const MAX_CLASSES = 16;
/** The class of items whose key found no class of its own: it pairs with every class and filters pair by pair. */
export const MIXED = MAX_CLASSES - 1;
/** A class this big or bigger may be detached (see Broadphase.choose). */
export const DETACH_MIN = 1024;

/**
 * Items kept apart by class (a slot region per class and node), so pair finding skips class pairs the filters reject.
 * Keyed by mask, static, self-pairing and tier 0; a class's `layer` is its members' union, so pairs are still filtered.
 */
export class CollisionClasses {
  /** Union of the layers of the items ever placed in the class since it was last empty. */
  readonly layer = new Int32Array(MAX_CLASSES);
  readonly mask = new Int32Array(MAX_CLASSES);
  readonly isStatic = new Uint8Array(MAX_CLASSES);
  /** 1 for a class of tier-0 items (priority 192 or more), which a budget never cuts. */
  readonly top = new Uint8Array(MAX_CLASSES);
  /**
   * Per lower-tier detached class under a budget (see Broadphase.planShares): the round's cursor and end (the list's
   * length when the round began); the next share is places [cursor, planTo) then [0, planWrap) of the next round.
   */
  readonly cursor = new Int32Array(MAX_CLASSES);
  readonly roundEnd = new Int32Array(MAX_CLASSES);
  readonly planTo = new Int32Array(MAX_CLASSES);
  readonly planWrap = new Int32Array(MAX_CLASSES);
  /** Swept items per class (not part of the key): the ECS sync stores a detached class in one loop when it has none. */
  readonly swept = new Int32Array(MAX_CLASSES);
  /** Circles per class: that loop checks circles' boxes only in a class that has some. */
  readonly round = new Int32Array(MAX_CLASSES);
  /** Classes with a key: 0..defined-1 (and MIXED once used). */
  defined = 0;
  readonly size = new Int32Array(MAX_CLASSES);
  /** `allowed[a * MAX_CLASSES + b]`: items of classes a and b may form pairs. */
  readonly allowed = new Uint8Array(MAX_CLASSES * MAX_CLASSES);
  /** `exact[a * MAX_CLASSES + b]`: every item of a may pair with every item of b, so no pair needs filtering. */
  readonly exact = new Uint8Array(MAX_CLASSES * MAX_CLASSES);
  /** Per class, per node: first slot of the class's region in the node, its items, its capacity. */
  readonly start: Int32Array[] = [];
  readonly own: Int32Array[] = [];
  readonly cap: Int32Array[] = [];
  /** Per class, items placed at each depth (`levelItems[k][d]`): levels without any are skipped. */
  readonly levelItems: Int32Array[] = [];
  /**
   * Per class, its members' ids ascending (`ids[k][0..end[k]-1]`), so passes read per-id arrays in memory order.
   * A leaver leaves a hole `~id` (passes skip it) for the same id to take back; {@link tidy} fixes holes and order.
   */
  readonly ids: Int32Array[] = [];
  /** Entries in use in each class's list: members and holes (`end - size` of them). */
  readonly end = new Int32Array(MAX_CLASSES);
  /** Members appended out of id order since the list was last sorted. */
  readonly disorder = new Int32Array(MAX_CLASSES);
  /** 1 for a detached class: kept out of the tree in one slot region in list order ({@link listStart}). */
  readonly detached = new Uint8Array(MAX_CLASSES);
  /** Per detached class: its slot region, parallel to its list (`ids[k][i]` at `listStart[k] + i`), and its size. */
  readonly listStart = new Int32Array(MAX_CLASSES);
  readonly listRoom = new Int32Array(MAX_CLASSES);
  /** Members moved, added or re-filtered since the last step (see Broadphase.choose). */
  readonly moved = new Int32Array(MAX_CLASSES);
  private nodeCapacity: number;

  constructor(nodeCapacity: number, maxDepth: number) {
    this.nodeCapacity = nodeCapacity;
    for (let k = 0; k < MAX_CLASSES; k++) {
      this.start.push(new Int32Array(0));
      this.own.push(new Int32Array(0));
      this.cap.push(new Int32Array(0));
      this.levelItems.push(new Int32Array(maxDepth + 1));
      this.ids.push(new Int32Array(0));
    }
    this.allowed.fill(1);
  }

  /** The class for an item's collider: the one with this key, else a new or emptied one, else {@link MIXED}. */
  find(layer: number, mask: number, isStatic: number, top: number): number {
    // Self-pairing is part of the key: a class's layers all meet its mask, or none does.
    const self = (layer & mask) !== 0;
    for (let k = 0; k < this.defined; k++) {
      const same = this.mask[k] === mask && this.isStatic[k] === isStatic && this.top[k] === top;
      if (!same || ((this.layer[k] & mask) !== 0) !== self) continue;
      if (this.size[k] === 0) this.key(k, layer, mask, isStatic, top);
      else if ((layer & ~this.layer[k]) !== 0) this.key(k, this.layer[k] | layer, mask, isStatic, top);
      return k;
    }
    let k = this.defined < MIXED ? this.defined++ : -1;
    for (let e = 0; k < 0 && e < MIXED; e++) if (this.size[e] === 0) k = e;
    if (k < 0) k = MIXED;
    else this.key(k, layer, mask, isStatic, top);
    // A class gets its arrays when first used.
    if (this.start[k].length === 0) {
      this.start[k] = new Int32Array(this.nodeCapacity);
      this.own[k] = new Int32Array(this.nodeCapacity);
      this.cap[k] = new Int32Array(this.nodeCapacity);
    }
    return k;
  }

  /** True when class k may be detached: not the mixed one, not static, no class it pairs with detached. */
  mayDetach(k: number): boolean {
    if (k === MIXED || this.isStatic[k] === 1) return false;
    for (let o = 0; o < MAX_CLASSES; o++)
      if (o !== k && this.detached[o] === 1 && this.allowed[k * MAX_CLASSES + o] === 1) return false;
    return true;
  }

  /** True for a lower-tier class that does not pair with itself: it may be checked in shares under a budget. */
  waits(k: number): boolean {
    return this.top[k] === 0 && this.allowed[k * MAX_CLASSES + k] === 0 && k !== MIXED;
  }

  ensureNodes(capacity: number): void {
    if (capacity <= this.nodeCapacity) return;
    this.nodeCapacity = capacity;
    for (let k = 0; k < MAX_CLASSES; k++) {
      if (this.start[k].length === 0) continue;
      this.start[k] = grow(this.start[k], capacity);
      this.own[k] = grow(this.own[k], capacity);
      this.cap[k] = grow(this.cap[k], capacity);
    }
  }

  /** Adds an item to class k's list; returns its place: its old hole if `hint` still holds it, else the end. */
  join(k: number, id: number, flags: number, hint: number): number {
    this.count(k, flags, 1);
    this.size[k]++;
    let ids = this.ids[k];
    if (hint >= 0 && hint < this.end[k] && ids[hint] === ~id) {
      ids[hint] = id;
      return hint;
    }
    const at = this.end[k]++;
    // By a quarter: a list is as long as its class, for as long as the class lives.
    if (at === ids.length) ids = this.ids[k] = grow(ids, Math.max(64, at + (at >> 2)));
    // The entry before, member or hole, tells whether the order still holds.
    if (at > 0 && (ids[at - 1] < 0 ? ~ids[at - 1] : ids[at - 1]) > id) this.disorder[k]++;
    ids[at] = id;
    return at;
  }

  /** Counts a member's swept and circle flags (`flags`, see ItemStore) in or out of class k (`by` 1 or -1). */
  count(k: number, flags: number, by: number): void {
    if ((flags & SWEPT) !== 0) this.swept[k] += by;
    if ((flags & CIRCLE) !== 0) this.round[k] += by;
  }

  /** Takes the member at place `at` off class k's list, leaving its hole. */
  leave(k: number, at: number, flags: number): void {
    this.count(k, flags, -1);
    const ids = this.ids[k];
    ids[at] = ~ids[at];
    if (--this.size[k] === 0) {
      this.end[k] = 0;
      this.disorder[k] = 0;
      this.detached[k] = 0;
      this.restartRounds(k);
    }
  }

  /** Starts a budget's rounds over class k afresh, with nothing planned (see {@link cursor}). */
  restartRounds(k: number): void {
    this.cursor[k] = 0;
    this.roundEnd[k] = 0;
    this.planTo[k] = 0;
    this.planWrap[k] = 0;
  }

  /**
   * Between passes, drops class k's holes once a quarter and sorts once a sixteenth is out of order, keeping places
   * and {@link cursor} in step; never sorts with `keepOrder`, so no member waits over a round. True if it changed.
   */
  tidy(k: number, items: ItemStore, sorter: KeySorter, keepOrder: boolean): boolean {
    const end = this.end[k];
    const sort = this.disorder[k] * 16 > this.size[k] && !keepOrder;
    if (!sort && (end - this.size[k]) * 4 <= end) return false;
    const ids = this.ids[k];
    let n = 0;
    if (sort) {
      sorter.count = 0;
      for (let i = 0; i < end; i++) if (ids[i] >= 0) sorter.push(ids[i]);
      sorter.sort();
      const sorted = sorter.keys;
      for (; n < sorter.count; n++) ids[n] = sorted[n];
      this.restartRounds(k);
      this.disorder[k] = 0;
    } else {
      // The cursor and the round's end stay before the same members.
      let cursor = -1;
      let roundEnd = -1;
      for (let i = 0; i < end; i++) {
        if (i === this.cursor[k]) cursor = n;
        if (i === this.roundEnd[k]) roundEnd = n;
        if (ids[i] >= 0) ids[n++] = ids[i];
      }
      this.cursor[k] = cursor < 0 ? n : cursor;
      this.roundEnd[k] = roundEnd < 0 ? n : roundEnd;
    }
    for (let i = 0; i < n; i++) items.setListPlace(ids[i], i);
    this.end[k] = n;
    return true;
  }

  /** Forgets every item (keys stay; regions were dropped with the nodes). */
  clear(): void {
    this.size.fill(0);
    this.end.fill(0);
    this.disorder.fill(0);
    this.moved.fill(0);
    this.swept.fill(0);
    this.round.fill(0);
    this.detached.fill(0);
    this.listRoom.fill(0);
    for (let k = 0; k < MAX_CLASSES; k++) {
      this.restartRounds(k);
      this.levelItems[k].fill(0);
      this.own[k].fill(0);
      this.cap[k].fill(0);
    }
  }

  private key(k: number, layer: number, mask: number, isStatic: number, top: number): void {
    this.layer[k] = layer;
    this.mask[k] = mask;
    this.isStatic[k] = isStatic;
    this.top[k] = top;
    for (let o = 0; o < MAX_CLASSES; o++) {
      // The mixed class filters pair by pair, so it may pair with anything.
      const ok =
        o === MIXED ||
        (o === k
          ? (layer & mask) !== 0 && isStatic === 0
          : (layer & this.mask[o]) !== 0 && (this.layer[o] & mask) !== 0 && (isStatic & this.isStatic[o]) === 0);
      this.allowed[k * MAX_CLASSES + o] = ok ? 1 : 0;
      this.allowed[o * MAX_CLASSES + k] = ok ? 1 : 0;
      // Within a class of self-pairing items every pair is allowed (each layer meets the mask).
      const exact = ok && o !== MIXED && (o === k || ((layer & ~this.mask[o]) === 0 && (this.layer[o] & ~mask) === 0));
      this.exact[k * MAX_CLASSES + o] = exact ? 1 : 0;
      this.exact[o * MAX_CLASSES + k] = exact ? 1 : 0;
    }
  }
}
