import { CollisionClasses, DETACH_MIN, MAX_CLASSES } from '../store/CollisionClasses.js';
import {
  ABSENT,
  TOP_PRIORITY,
  cellDepth,
  cellX,
  cellY,
  DETACHED,
  ItemStore,
  MAX_X,
  MAX_Y,
  MIN_X,
  MIN_Y,
  packCell,
  PENDING,
  STATIC,
  SWEPT,
} from '../store/ItemStore.js';
import { NodePool, NONE } from '../store/NodePool.js';
import { IdList } from '../lists/IdList.js';
import { FROM, SweptStore, TO } from '../store/SweptStore.js';
import { isSquare, refuseCircleBox, STORED } from '../errors.js';
import type { QuadtreeStats } from '../options.js';
import { MIN_REGION, MIN_SLOTS, SlotPool, roomFor, runRoomFor } from '../store/SlotPool.js';
import { runsReplaced } from '../queries/RunIndex.js';
import { KeySorter } from '../lists/radix.js';
import { declareScratch } from '../snapshot/StatePlan.js';

/** Items beyond which the slots outgrow a core's cache: regions are then relaid more often. */
const LARGE_TREE = 1 << 15;

/**
 * The spatial part of the index: a loose quadtree (looseness 2) with one slot region per class and node. A depth-d
 * node has cell side s = rootSize / 2^d and loose bounds s/2 wider each side, so a box of larger side ≤ s centred in
 * the cell always fits: depth follows from size, cell from centre, no search. Boxes that fit nowhere stay in the root.
 */
export class SpatialTree {
  readonly items: ItemStore;
  readonly nodes: NodePool;
  readonly slots: SlotPool;
  readonly classes: CollisionClasses;
  /** Paths of swept items (see LooseQuadtree.setSwept). */
  readonly sweeps = new SweptStore();
  readonly originX: number;
  readonly originY: number;
  readonly rootSize: number;
  readonly maxDepth: number;
  /** Cell side per depth. */
  readonly cellSize: Float64Array;
  /** 1 / cell side per depth, for the cell index of a coordinate. */
  readonly invCellSize: Float64Array;
  readonly idLimit: number;

  /** Items in the index, pending ones included. */
  size = 0;
  /** Node changes since the counter was last reset by the broadphase. */
  relocated = 0;

  /** Relocations and placements since the slot regions were last laid out (see {@link compactIfScattered}). */
  moved = 0;

  /** Scratch: each member's slot before {@link relayList}, by new place. */
  private from: Int32Array = new Int32Array(0);
  private readonly sorter = new KeySorter();

  /** Items placed in a detached class since last taken: under a budget, they are checked at once. */
  readonly born = new IdList();

  /** Per class, the items placed in nodes since the last step (see {@link place}); the step zeroes it. */
  readonly burst = new Int32Array(MAX_CLASSES);

  /** Ids queued for insertion, in order; an entry whose item was removed since is stale. */
  readonly pending = new IdList(256);
  /** Items waiting in {@link pending} (its stale entries left out). */
  waiting = 0;

  constructor(
    originX: number,
    originY: number,
    rootSize: number,
    maxDepth: number,
    idLimit: number,
    lifespan: number,
    maxLifespan: number,
  ) {
    this.originX = originX;
    this.originY = originY;
    this.rootSize = rootSize;
    this.maxDepth = maxDepth;
    this.idLimit = idLimit;
    this.cellSize = new Float64Array(maxDepth + 2);
    for (let d = 0; d <= maxDepth + 1; d++) this.cellSize[d] = rootSize / 2 ** d;
    this.invCellSize = this.cellSize.map((s) => 1 / s);
    this.slots = new SlotPool(MIN_SLOTS);
    this.items = new ItemStore(1024, this.slots);
    this.nodes = new NodePool(256, maxDepth, lifespan, maxLifespan);
    this.classes = new CollisionClasses(this.nodes.capacity, maxDepth);
    // Written before it is read, in each relayout: not state.
    declareScratch(this, 'from');
  }

  /** Places an item whose box is stored, into its class list and node; true when it went into a node. */
  place(id: number): boolean {
    const k = this.classFor(id);
    const items = this.items;
    const C = this.classes;
    // In a slot of its own until now (see ItemStore.add): the box moves to its home, that slot goes back.
    const own = items.slotOf(id);
    const at = C.join(k, id, items.flagsWord(id), items.listPlaceOf(id));
    items.setListPlace(id, at);
    items.setClass(id, k);
    if (C.detached[k] === 1) {
      // Room for the items still queued too: a level's load moves its run once, not at every growth.
      if (at >= C.listRoom[k]) this.moveRun(k, Math.max(at + 1 + this.waiting, C.listRoom[k] + (C.listRoom[k] >> 1)));
      const to = C.listStart[k] + at;
      this.slots.copy(own, to);
      items.setSlot(id, to);
      items.setNode(id, DETACHED);
      this.items.syncColliderWord(id);
      this.slots.free(own, 1);
      C.moved[k]++;
      this.born.push(id);
      return false;
    }
    this.placeInNode(id, k);
    this.slots.free(own, 1);
    // A class placed mostly since the last step (a level loading) is detached: one run, joined in memory order.
    if (++this.burst[k] < DETACH_MIN || 2 * this.burst[k] < C.size[k] || !C.mayDetach(k)) return true;
    this.detach(k);
    C.moved[k] += this.burst[k];
    // Newborns all, as those placed in the run from now on: under a budget they are checked at once.
    const ids = C.ids[k];
    for (let i = 0, end = C.end[k]; i < end; i++) if (ids[i] >= 0) this.born.push(ids[i]);
    return false;
  }

  /**
   * Moves class k's members to a new run of at least `room` slots in list order: on detaching (out of their nodes), or
   * once the list outgrew its run.
   */
  private moveRun(k: number, room: number): void {
    const C = this.classes;
    const slots = this.slots;
    const items = this.items;
    const start = slots.alloc(room);
    const size = slots.allocated;
    const ids = C.ids[k];
    for (let i = 0, end = C.end[k]; i < end; i++) {
      const id = ids[i];
      if (id < 0) continue;
      const n = items.nodeOf(id);
      const slot = items.slotOf(id);
      slots.copy(slot, start + i);
      items.setSlot(id, start + i);
      // In the run already, or being placed (see place).
      if (n < 0) continue;
      this.removeFromRegion(k, n, slot);
      this.nodes.countDown(n);
      items.setNode(id, DETACHED);
    }
    if (C.listRoom[k] > 0) slots.free(C.listStart[k], C.listRoom[k]);
    C.listStart[k] = start;
    C.listRoom[k] = size;
  }

  /** Gives back the region of a class that stopped being detached (emptied or attached). */
  dropListRegion(k: number): void {
    const C = this.classes;
    if (C.detached[k] === 1 || C.listRoom[k] === 0) return;
    this.slots.free(C.listStart[k], C.listRoom[k]);
    C.listRoom[k] = 0;
  }

  /** Links an item of class k into the node its box belongs in. */
  private placeInNode(id: number, k: number): void {
    const target = this.targetCell(this.items.boxAt(id));
    const n = this.nodeAt(0, cellDepth(target), cellX(target), cellY(target));
    this.addToRegion(id, k, n);
    this.nodes.countUp(n);
    // A burst of insertions scatters slots as relocations do: it gets laid out at step end.
    this.moved++;
  }

  /** Re-places an item after its box changed; true when it needs no check of its own (detached or pending). */
  update(id: number): boolean {
    // One function so it stays out of `LooseQuadtree.move`, which must be small enough to inline into callers' loops.
    const items = this.items;
    const nodes = this.nodes;
    const n = items.nodeOf(id);
    if (n === DETACHED) {
      this.classes.moved[items.classOf(id)]++;
      return true;
    }
    if (n === PENDING) return true;
    const f32 = this.slots.box;
    const slot = items.slotOf(id);
    const b = 4 * slot;
    const w = f32[b | MAX_X] - f32[b | MIN_X],
      h = f32[b | MAX_Y] - f32[b | MIN_Y];
    // Stay while the box fits the loose bounds but not the deeper cell holding its centre.
    const cell = nodes.cell[n];
    const depth = cellDepth(cell);
    if (
      this.fitsCell(b, cell) &&
      (depth === this.maxDepth ||
        (w > h ? w : h) > this.cellSize[depth + 1] ||
        !this.fitsCell(b, this.centreCell(b, depth + 1)))
    ) {
      // A root item may have come back inside the world (or left it) without changing node.
      return false;
    }
    const target = this.targetCell(b);
    if (target === cell) return false;
    // Climb to the first ancestor on the target's path, then go down from there.
    const d = cellDepth(target),
      tx = cellX(target),
      ty = cellY(target);
    let m = n;
    for (;;) {
      const dm = cellDepth(nodes.cell[m]);
      if (dm <= d && packCell(dm, tx >> (d - dm), ty >> (d - dm)) === nodes.cell[m]) break;
      m = nodes.parent[m];
    }
    const to = this.nodeAt(m, d, tx, ty);
    const k = items.classOf(id);
    // The new slot takes the box before the old one is given up.
    this.addToRegion(id, k, to);
    this.removeFromRegion(k, n, slot);
    // Only nodes below the common ancestor m change counts; count up the new path first.
    this.nodes.countUp(to, m);
    this.nodes.countDown(n, m);
    this.relocated++;
    this.moved++;
    return false;
  }

  /** Takes class k out of the tree into one slot region in list order (see CollisionClasses.detached). O(class). */
  detach(k: number): void {
    const C = this.classes;
    C.detached[k] = 1;
    C.restartRounds(k);
    this.moveRun(k, runRoomFor(C.end[k]));
  }

  /** Puts detached class k back into the tree: each item into the node its box belongs in. O(class). */
  attach(k: number): void {
    const C = this.classes;
    const ids = C.ids[k];
    C.detached[k] = 0;
    for (let i = 0, end = C.end[k]; i < end; i++) {
      const id = ids[i];
      if (id >= 0) this.placeInNode(id, k);
    }
    this.dropListRegion(k);
  }

  /** Whether a budget is set: lower tiers are then read in shares. */
  budgeted = false;

  /** Unlinks an item from its node (or its detached class); its box moves to a slot of its own. */
  unplace(id: number): void {
    const items = this.items;
    const n = items.nodeOf(id);
    const k = items.classOf(id);
    const slot = items.slotOf(id);
    const own = this.slots.allocOne();
    this.slots.copy(slot, own);
    items.setSlot(id, own);
    this.classes.leave(k, items.listPlaceOf(id), items.flagsWord(id));
    items.setNode(id, ABSENT);
    if (n === DETACHED) {
      this.dropListRegion(k);
      return;
    }
    this.removeFromRegion(k, n, slot);
    this.nodes.countDown(n);
  }

  /** After a collider or static change of an indexed item: rewrites its flags and moves it to its new class. */
  colliderChanged(id: number): void {
    const items = this.items;
    const C = this.classes;
    const k = items.classOf(id);
    const to = this.classFor(id);
    const n = items.nodeOf(id);
    if (to === k) {
      if (n === DETACHED) C.moved[k]++;
      this.items.syncColliderWord(id);
      return;
    }
    if (n !== DETACHED && C.detached[to] === 0) {
      const slot = items.slotOf(id);
      C.leave(k, items.listPlaceOf(id), items.flagsWord(id));
      items.setListPlace(id, C.join(to, id, items.flagsWord(id), items.listPlaceOf(id)));
      this.addToRegion(id, to, n);
      this.removeFromRegion(k, n, slot);
      return;
    }
    this.unplace(id);
    this.place(id);
  }

  /** After an item's swept or circle flag changed from `before`: its class counts and collider flags. */
  flagsChanged(id: number, before: number): void {
    const k = this.items.classOf(id);
    this.classes.count(k, before, -1);
    this.classes.count(k, this.items.flagsWord(id), 1);
    this.items.syncColliderWord(id);
  }

  /** Empties the index, keeping its arrays for reuse. */
  clear(): void {
    runsReplaced();
    this.items.reset();
    this.born.clear();
    this.sweeps.clear();
    this.nodes.reset();
    this.slots.reset();
    this.classes.clear();
    this.size = 0;
    this.pending.clear();
    this.waiting = 0;
    this.moved = 0;
  }

  /** Puts every class's list in order (see CollisionClasses.tidy), so passes read in memory order. Between passes only. */
  tidy(): void {
    const C = this.classes;
    for (let k = 0; k < C.size.length; k++) {
      if (C.end[k] === 0) continue;
      const changed = C.tidy(k, this.items, this.sorter, this.budgeted && C.detached[k] === 1 && C.waits(k));
      // A detached class's slots follow their members' new places.
      if (changed && C.detached[k] === 1) this.relayList(k);
    }
  }

  /** Moves detached class k's slots to its members' new list places, within its region. */
  private relayList(k: number): void {
    const C = this.classes;
    const items = this.items;
    const ids = C.ids[k];
    const base = C.listStart[k];
    const end = C.end[k];
    if (this.from.length < end) this.from = new Int32Array(end);
    for (let i = 0; i < end; i++) this.from[i] = items.slotOf(ids[i]);
    this.slots.gather(base, C.listRoom[k], this.from, end);
    for (let i = 0; i < end; i++) items.setSlot(ids[i], base + i);
  }

  /**
   * Relays the slot regions by class, level and row, so probes read cells' slots in order, once half are free or
   * enough items changed node (a quarter, a sixteenth past cache size). At a step's end only: no item is then between
   * homes (see SlotPool.allocOne).
   */
  compactIfScattered(): void {
    const slots = this.slots;
    const sparse = slots.freeSlots * 2 > slots.used && slots.capacity > MIN_SLOTS;
    const share = this.size > LARGE_TREE ? 16 : 4;
    if (!sparse && (this.moved * share < this.size || this.size === 0)) return;
    this.moved = 0;
    slots.beginCompact();
    this.relayRegions();
    slots.endCompact();
  }

  /** Copies every region for a compaction in class, level, row order, and points its items to their new slots. */
  private relayRegions(): void {
    const C = this.classes;
    const slots = this.slots;
    const items = this.items;
    // Each detached class's run, outside the nodes. None is between homes after a step (see compactIfScattered).
    for (let k = 0; k < C.size.length; k++) {
      if (C.listRoom[k] === 0) continue;
      const room = Math.min(C.listRoom[k], runRoomFor(C.end[k]));
      const start = (C.listStart[k] = slots.place(C.listStart[k], room));
      C.listRoom[k] = room;
      const ids = C.ids[k];
      for (let i = 0, end = C.end[k]; i < end; i++) if (ids[i] >= 0) items.setSlot(ids[i], start + i);
    }
    for (let k = 0; k < C.size.length; k++) {
      if (C.size[k] === 0) continue;
      const start = C.start[k];
      const own = C.own[k];
      for (let d = 0; d <= this.maxDepth; d++) {
        const cells = this.nodes.levelCells[d];
        if (cells === null || C.levelItems[k][d] === 0) continue;
        for (let c = 0; c < cells.length; c++) {
          const n = cells[c];
          if (n === NONE || own[n] === 0) continue;
          const room = Math.min(C.cap[k][n], roomFor(own[n]));
          const old = start[n];
          start[n] = slots.place(old, room);
          C.cap[k][n] = room;
          // The old ids stay readable until endCompact.
          for (let i = 0; i < own[n]; i++) items.setSlot(slots.id[old + i], start[n] + i);
        }
      }
    }
  }

  describe(s: QuadtreeStats): void {
    const nodes = this.nodes;
    const C = this.classes;
    // Root items fitting no loose bounds (far outside the world): cheap, as the root holds few.
    let outside = 0;
    for (let bits = nodes.classBits[0]; bits !== 0; bits &= bits - 1) {
      const k = 31 - Math.clz32(bits & -bits);
      for (let b = 4 * C.start[k][0], end = b + 4 * C.own[k][0]; b < end; b += 4) if (!this.fitsCell(b, 0)) outside++;
    }
    s.items = this.size;
    s.outside = outside;
    s.relocated = this.relocated;
    s.nodesFree = nodes.freeGroups * 4;
    s.nodesLive = 1 + (nodes.groupsUsed - 1 - nodes.freeGroups) * 4;
    s.groupsCounting = nodes.countingCount;
    s.groupsFreed = nodes.groupsFreed;
  }

  /** Writes an item's box into `out[o..o+3]`: a swept item's at `path` of its entry, by default where it is now. */
  boxNow(id: number, out: Float64Array, o: number, path = TO): void {
    const swept = this.items.hasFlag(id, SWEPT);
    const b = swept ? this.sweeps.boxes : this.slots.box;
    const at = swept ? this.sweeps.at(id) + path : this.items.boxAt(id);
    for (let i = 0; i < 4; i++) out[o + i] = b[at + i];
  }

  /** Stores in a swept item's slot the box covering its path (see SweptStore). */
  coverPath(id: number): void {
    const b = this.sweeps.boxes;
    const f = this.sweeps.at(id) + FROM;
    const t = this.sweeps.at(id) + TO;
    this.items.setBox(
      id,
      Math.min(b[f], b[t]),
      Math.min(b[f + 1], b[t + 1]),
      Math.max(b[f + 2], b[t + 2]),
      Math.max(b[f + 3], b[t + 3]),
    );
  }
  /** Refuses to make a circle of an item whose box (both ends of its path, if swept) is not square. */
  checkSquare(id: number, verb = ''): void {
    // A swept item's two path ends lie side by side (FROM, then TO); another's one box is its slot's.
    const swept = this.items.hasFlag(id, SWEPT);
    const b = swept ? this.sweeps.boxes : this.slots.box;
    const from = swept ? this.sweeps.at(id) + FROM : this.items.boxAt(id);
    for (let o = from; o <= from + (swept ? TO : 0); o += 4) {
      if (!isSquare(b[o], b[o + 1], b[o + 2], b[o + 3], STORED))
        refuseCircleBox(id, b[o], b[o + 1], b[o + 2], b[o + 3], verb);
    }
  }
  /** The class an item's collider and static flag belong to. */
  private classFor(id: number): number {
    const items = this.items;
    return this.classes.find(
      items.layerOf(id),
      items.maskOf(id),
      items.hasFlag(id, STATIC) ? 1 : 0,
      items.priorityOf(id) >= TOP_PRIORITY ? 1 : 0,
    );
  }

  // These read the slot's box at `r` (see ItemStore.boxAt) directly: un-inlined accessors would box every number.

  /** The depth-`d` cell holding the centre of the box at `r` (clamped to the grid), packed (see packCell). */
  private centreCell(r: number, d: number): number {
    const f32 = this.slots.box;
    const s = this.cellSize[d];
    const last = (1 << d) - 1;
    let ix = Math.floor(((f32[r | MIN_X] + f32[r | MAX_X]) * 0.5 - this.originX) / s);
    let iy = Math.floor(((f32[r | MIN_Y] + f32[r | MAX_Y]) * 0.5 - this.originY) / s);
    ix = ix < 0 ? 0 : ix > last ? last : ix;
    iy = iy < 0 ? 0 : iy > last ? last : iy;
    return packCell(d, ix, iy);
  }

  /** True when the box at `r` fits the loose bounds of the packed cell (same arithmetic as looseBounds). */
  private fitsCell(r: number, cell: number): boolean {
    const f32 = this.slots.box;
    const s = this.cellSize[cellDepth(cell)];
    const lx = this.originX + cellX(cell) * s - s * 0.5;
    const ly = this.originY + cellY(cell) * s - s * 0.5;
    return f32[r | MIN_X] >= lx && f32[r | MAX_X] <= lx + 2 * s && f32[r | MIN_Y] >= ly && f32[r | MAX_Y] <= ly + 2 * s;
  }

  /** The packed depth and cell of the node the box at `r` belongs in. */
  private targetCell(r: number): number {
    const f32 = this.slots.box;
    const w = f32[r | MAX_X] - f32[r | MIN_X],
      h = f32[r | MAX_Y] - f32[r | MIN_Y];
    // From the deepest level whose loose bounds are as big as the box: it fits there if centred near its cell's centre.
    let d = this.maxDepth;
    while (d > 0 && 2 * this.cellSize[d] < (w > h ? w : h)) d--;
    for (; d >= 0; d--) {
      const cell = this.centreCell(r, d);
      if (this.fitsCell(r, cell)) return cell;
    }
    return packCell(0, 0, 0);
  }

  /** The node at (d, ix, iy), made on the way down from `from` if missing (see NodePool.descend). */
  private nodeAt(from: number, d: number, ix: number, iy: number): number {
    const n = this.nodes.descend(from, d, ix, iy);
    this.classes.ensureNodes(this.nodes.capacity);
    return n;
  }

  /** Writes node n's loose bounds into `out` at `at`, with the arithmetic of fitsCell so both agree. */
  looseBounds(n: number, out: Float64Array, at = 0): void {
    const nodes = this.nodes;
    const s = this.cellSize[cellDepth(nodes.cell[n])];
    const lx = this.originX + cellX(nodes.cell[n]) * s - s * 0.5;
    const ly = this.originY + cellY(nodes.cell[n]) * s - s * 0.5;
    out[at] = lx;
    out[at + 1] = ly;
    out[at + 2] = lx + 2 * s;
    out[at + 3] = ly + 2 * s;
  }

  /** Appends the item to class k's region of node n (grown by half when full) and moves its box there. */
  private addToRegion(id: number, k: number, n: number): void {
    const items = this.items;
    const nodes = this.nodes;
    const slots = this.slots;
    const C = this.classes;
    const from = items.slotOf(id);
    const own = C.own[k][n];
    if (own === C.cap[k][n]) {
      const start = slots.alloc(own === 0 ? MIN_REGION : own + (own >> 1) + 1);
      const size = slots.allocated;
      const old = C.start[k][n];
      for (let i = 0; i < own; i++) {
        slots.copy(old + i, start + i);
        items.setSlot(slots.id[start + i], start + i);
      }
      if (own > 0) slots.free(old, C.cap[k][n]);
      C.start[k][n] = start;
      C.cap[k][n] = size;
    }
    const slot = C.start[k][n] + own;
    slots.copy(from, slot);
    items.setSlot(id, slot);
    C.own[k][n] = own + 1;
    if (own === 0) nodes.classBits[n] |= 1 << k;
    C.levelItems[k][cellDepth(nodes.cell[n])]++;
    items.setClass(id, k);
    items.setNode(id, n);
    this.items.syncColliderWord(id);
  }

  /** Gives up `slot` of class k's region in node n by moving the region's last slot into it. */
  private removeFromRegion(k: number, n: number, slot: number): void {
    const items = this.items;
    const nodes = this.nodes;
    const slots = this.slots;
    const C = this.classes;
    const own = C.own[k][n] - 1;
    const last = C.start[k][n] + own;
    if (slot !== last) {
      slots.copy(last, slot);
      items.setSlot(slots.id[slot], slot);
    }
    C.own[k][n] = own;
    C.levelItems[k][cellDepth(nodes.cell[n])]--;
    if (own === 0) {
      // An empty region is given back; a busy one is kept to avoid churn.
      slots.free(C.start[k][n], C.cap[k][n]);
      C.cap[k][n] = 0;
      nodes.classBits[n] &= ~(1 << k);
    }
  }
}
