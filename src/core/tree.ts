import { ABSENT, FLAGS, ItemStore, LAYER, MASK, MAX_X, MAX_Y, MIN_X, MIN_Y, NODE, OUTSIDE, PENDING, PRIORITY, STATIC, UNSYNCED } from './items.js';
import { growInt32, NodePool, NONE } from './nodes.js';
import type { IdQueue } from './queue.js';
import { MIN_REGION, SlotPool } from './slots.js';

/**
 * The spatial part of the index: placement of items in a loose quadtree (looseness 2),
 * relocation, per-subtree counts and the lifespan of empty groups.
 *
 * Placement. A node at depth d has cell size s = rootSize / 2^d and loose bounds that grow
 * the cell by s/2 on each side. A box whose larger side is at most s and whose centre lies
 * in the cell always fits those loose bounds, so the depth follows from the box size and the
 * cell from its centre: no search. Boxes outside the world climb until a level holds them;
 * boxes that fit nowhere (far outside the world) stay in the root, which every query visits.
 */
export class TreeIndex {
  readonly items: ItemStore;
  readonly nodes: NodePool;
  readonly slots: SlotPool;
  readonly originX: number;
  readonly originY: number;
  readonly rootSize: number;
  readonly maxDepth: number;
  /** Cell side per depth. */
  readonly cellSize: Float64Array;
  /** 1 / cell side per depth, for the cell index of a coordinate. */
  readonly invCellSize: Float64Array;
  readonly idLimit: number;
  readonly lifespan: number;
  readonly maxLifespan: number;

  /**
   * Per depth, a dense index from cell (iy * 2^d + ix) to node, or NONE: the broadphase
   * reaches the few cells around a box directly instead of walking down from the root.
   * A level's array is made when its first node is; 4^d entries, so maxDepth is capped.
   */
  readonly levelCells: (Int32Array | null)[];
  /**
   * Per depth, per cell: the node's slot region start and item count, mirrored from the node
   * pool so a scan of neighbouring cells reads one array instead of chasing node indices.
   */
  readonly levelSlots: (Int32Array | null)[];
  /**
   * Per depth, per cell: the union of its items' layers. A scan skips a cell none of whose
   * items its mask accepts: dust that only collides with walls skips the cells of dust.
   */
  readonly levelLayers: (Int32Array | null)[];
  /** Items stored at each depth (levels without items are skipped). */
  readonly levelItems: Int32Array;

  /** Items in the index, pending ones included. */
  size = 0;
  /** Items in the root because they fit no loose bounds. */
  outside = 0;
  /** Node changes since the counter was last reset by the broadphase. */
  relocated = 0;

  /** Ids queued for insertion, in order; an entry whose item was removed since is stale. */
  pending: Int32Array;
  pendingCount = 0;
  /** Items waiting in {@link pending} (its stale entries left out). */
  waiting = 0;
  /**
   * Items moved since the tree last caught up (flagged UNSYNCED). A move only stores the new
   * box; {@link sync} then re-places them all at once, before anything reads the tree.
   */
  unsyncedCount = 0;
  private stale: Int32Array = new Int32Array(64);

  // Result of the last placement (fields, so placement allocates nothing).
  private targetDepth = 0;
  private targetX = 0;
  private targetY = 0;
  private expired: Int32Array;

  constructor(originX: number, originY: number, rootSize: number, maxDepth: number,
    idLimit: number, lifespan: number, maxLifespan: number) {
    this.originX = originX;
    this.originY = originY;
    this.rootSize = rootSize;
    this.maxDepth = maxDepth;
    this.idLimit = idLimit;
    this.lifespan = lifespan;
    this.maxLifespan = maxLifespan;
    this.cellSize = new Float64Array(maxDepth + 2);
    for (let d = 0; d <= maxDepth + 1; d++) this.cellSize[d] = rootSize / 2 ** d;
    this.invCellSize = this.cellSize.map((s) => 1 / s);
    this.items = new ItemStore(1024);
    this.nodes = new NodePool(256);
    this.slots = new SlotPool(4096);
    this.levelCells = new Array<Int32Array | null>(maxDepth + 1).fill(null);
    this.levelSlots = new Array<Int32Array | null>(maxDepth + 1).fill(null);
    this.levelLayers = new Array<Int32Array | null>(maxDepth + 1).fill(null);
    this.levelItems = new Int32Array(maxDepth + 1);
    this.setNodeBounds(0, 0, 0, 0);
    this.indexCell(0);
    this.pending = new Int32Array(256);
    this.expired = new Int32Array(64);
  }

  /** Places an item whose box is already stored, linking it into its node. */
  place(id: number): void {
    this.findTarget(id);
    const n = this.descend(0, this.targetDepth, this.targetX, this.targetY);
    this.link(id, n);
  }

  /**
   * Re-places an item after its box changed. Keeps the node while the box still fits its
   * loose bounds at the right depth (this is what looseness buys); returns true on relocation.
   */
  update(id: number): boolean {
    const items = this.items;
    const nodes = this.nodes;
    const n = items.i32[(id << 4) | NODE];
    if (this.keepsNode(id, n)) {
      this.writeSlotBox(id);
      // A root item may have come back inside the world (or left it) without changing node.
      if (n === 0) this.markOutside(id);
      return false;
    }
    this.findTarget(id);
    const d = this.targetDepth;
    if (d === nodes.depth[n] && this.targetX === nodes.cellX[n] && this.targetY === nodes.cellY[n]) {
      this.writeSlotBox(id);
      this.markOutside(id);
      return false;
    }
    // Climb to the first ancestor on the target's path, then go down from there.
    let m = n;
    while (nodes.depth[m] > d ||
      (this.targetX >> (d - nodes.depth[m])) !== nodes.cellX[m] ||
      (this.targetY >> (d - nodes.depth[m])) !== nodes.cellY[m]) {
      m = nodes.parent[m];
    }
    const target = this.descend(m, d, this.targetX, this.targetY);
    this.unlinkList(id, n);
    this.addToList(id, target);
    // Only the nodes below the common ancestor m change counts: from m up, one item left and
    // one came. Count up the new path before counting down the old one.
    this.countUp(target, m);
    this.countDown(n, m);
    this.markOutside(id);
    this.relocated++;
    this.moved++;
    return true;
  }

  /** Notes that an item's stored box changed; the tree catches up in {@link sync}. */
  noteMoved(id: number): void {
    const i32 = this.items.i32;
    if ((i32[(id << 4) | FLAGS] & UNSYNCED) !== 0) return;
    i32[(id << 4) | FLAGS] |= UNSYNCED;
    this.unsyncedCount++;
  }

  /**
   * Brings the tree up to date with the moves since the last call. A few moved items are
   * updated one by one. When a quarter or more moved, one pass over the slot regions in cell
   * order copies each moved item's box into its slot and tests it against its node's bounds,
   * read once per node: memory is read and written in order instead of at random per move.
   * The few that left their node are then relocated one by one.
   */
  sync(queues: readonly IdQueue[]): void {
    const count = this.unsyncedCount;
    if (count === 0) return;
    this.unsyncedCount = 0;
    const i32 = this.items.i32;
    if (count * 4 < this.size) {
      // Every moved item is queued for the broadphase too: walk the queues.
      for (const queue of queues) {
        for (let k = 0; k < queue.count; k++) {
          const id = queue.at(k);
          // Not moved (queued for another reason, or listed twice), or removed since.
          if ((i32[(id << 4) | FLAGS] & UNSYNCED) === 0) continue;
          i32[(id << 4) | FLAGS] &= ~UNSYNCED;
          this.update(id);
        }
      }
      return;
    }
    let stale = 0;
    const f64 = this.items.f64;
    const nodes = this.nodes;
    const box = this.slots.box;
    const slotId = this.slots.id;
    for (let d = 0; d <= this.maxDepth; d++) {
      if (this.levelItems[d] === 0) continue;
      const cells = this.levelCells[d]!;
      for (let c = 0; c < cells.length; c++) {
        const n = cells[c];
        if (n === NONE || nodes.own[n] === 0) continue;
        for (let s = nodes.start[n], end = s + nodes.own[n]; s < end; s++) {
          const id = slotId[s];
          if ((i32[(id << 4) | FLAGS] & UNSYNCED) === 0) continue;
          i32[(id << 4) | FLAGS] &= ~UNSYNCED;
          box[4 * s] = f64[(id << 3) | MIN_X];
          box[4 * s + 1] = f64[(id << 3) | MIN_Y];
          box[4 * s + 2] = f64[(id << 3) | MAX_X];
          box[4 * s + 3] = f64[(id << 3) | MAX_Y];
          // Root items go through update too: it keeps their outside flag.
          if (n !== 0 && this.keepsNode(id, n)) continue;
          if (stale === this.stale.length) this.stale = growInt32(this.stale, stale * 2);
          this.stale[stale++] = id;
        }
      }
    }
    for (let k = 0; k < stale; k++) this.update(this.stale[k]);
  }

  /** Unlinks an item from its node, leaving its box in place. */
  unplace(id: number): void {
    const n = this.items.i32[(id << 4) | NODE];
    this.unlinkList(id, n);
    this.countDown(n);
    this.items.i32[(id << 4) | NODE] = ABSENT;
    this.markOutside(id);
  }

  /** Adds an id to the pending queue (its box is stored, `node` is PENDING). */
  enqueue(id: number): void {
    if (this.pendingCount === this.pending.length) {
      const grown = new Int32Array(this.pending.length * 2);
      grown.set(this.pending);
      this.pending = grown;
    }
    this.pending[this.pendingCount++] = id;
    this.items.i32[(id << 4) | NODE] = PENDING;
    this.waiting++;
  }

  /** Takes a pending item out of the queue (its entry stays, stale, until the next flush). */
  unqueue(id: number): void {
    this.items.i32[(id << 4) | NODE] = ABSENT;
    this.waiting--;
  }

  /**
   * Places every pending item. Ids removed while pending were set ABSENT and are skipped;
   * an id queued twice is placed once. Returns the number placed.
   */
  flush(onPlaced: ((id: number) => void) | null): number {
    let placed = 0;
    for (let i = 0; i < this.pendingCount; i++) {
      const id = this.pending[i];
      if (this.items.i32[(id << 4) | NODE] !== PENDING) continue;
      this.place(id);
      placed++;
      if (onPlaced !== null) onPlaced(id);
    }
    this.pendingCount = 0;
    this.waiting = 0;
    return placed;
  }

  /** Advances the lifespan of empty groups by one frame and frees the expired ones. */
  tick(): void {
    const nodes = this.nodes;
    let expiredCount = 0;
    for (let i = 0; i < nodes.countingCount; i++) {
      const g = nodes.counting[i];
      if (--nodes.life[g] === 0) {
        if (expiredCount === this.expired.length) {
          const grown = new Int32Array(this.expired.length * 2);
          grown.set(this.expired);
          this.expired = grown;
        }
        this.expired[expiredCount++] = g;
      }
    }
    for (let i = 0; i < expiredCount; i++) {
      const g = this.expired[i];
      // A group freed as a descendant of an earlier one has already left the list.
      if (nodes.countingAt[g] === NONE) continue;
      nodes.firstChild[nodes.parent[g << 2]] = NONE;
      this.freeBranch(g);
    }
  }

  /** Relocations since the slot regions were last laid out in cell order. */
  private moved = 0;

  /**
   * Lays the slot regions out again in level and row order when enough items changed node
   * since the last time (a quarter of them: more often costs more than the locality saves
   * when every item moves): O(items), sequential copies.
   */
  compactIfScattered(): void {
    if (this.moved * 4 < this.size || this.size === 0) return;
    this.moved = 0;
    const nodes = this.nodes;
    const slots = this.slots;
    const items = this.items;
    slots.beginCompact();
    for (let d = 0; d <= this.maxDepth; d++) {
      const cells = this.levelCells[d];
      if (cells === null || this.levelItems[d] === 0) continue;
      const mirror = this.levelSlots[d]!;
      for (let c = 0; c < cells.length; c++) {
        const n = cells[c];
        if (n === NONE || nodes.size[n] === 0) continue;
        const start = slots.place(nodes.start[n], nodes.own[n], nodes.size[n]);
        nodes.start[n] = start;
        mirror[2 * c] = start;
      }
    }
    slots.endCompact();
    const id = slots.id;
    for (let d = 0; d <= this.maxDepth; d++) {
      const cells = this.levelCells[d];
      if (cells === null || this.levelItems[d] === 0) continue;
      for (let c = 0; c < cells.length; c++) {
        const n = cells[c];
        if (n === NONE) continue;
        for (let s = nodes.start[n], end = s + nodes.own[n]; s < end; s++) items.slot[id[s]] = s;
      }
    }
  }

  /** Empties the index, keeping its arrays for reuse. */
  clear(): void {
    const i32 = this.items.i32;
    for (let id = 0; id < this.items.capacity; id++) {
      i32[(id << 4) | NODE] = ABSENT;
      i32[(id << 4) | FLAGS] &= ~(OUTSIDE | UNSYNCED);
    }
    this.nodes.reset();
    this.slots.reset();
    for (const cells of this.levelCells) cells?.fill(NONE);
    for (const cells of this.levelSlots) cells?.fill(0);
    for (const cells of this.levelLayers) cells?.fill(0);
    this.levelItems.fill(0);
    this.setNodeBounds(0, 0, 0, 0);
    this.indexCell(0);
    this.size = 0;
    this.outside = 0;
    this.pendingCount = 0;
    this.waiting = 0;
    this.unsyncedCount = 0;
  }

  /** Depth a box of this size belongs to: the deepest whose cell is at least its larger side. */
  depthFor(minX: number, minY: number, maxX: number, maxY: number): number {
    const w = maxX - minX;
    const h = maxY - minY;
    const extent = w > h ? w : h;
    const cell = this.cellSize;
    if (!(extent > cell[this.maxDepth])) return this.maxDepth;
    let d = Math.floor(Math.log2(this.rootSize / extent));
    if (d < 0) return 0;
    if (d > this.maxDepth) d = this.maxDepth;
    // log2 may round either way; settle on the exact level.
    while (d > 0 && cell[d] < extent) d--;
    while (d < this.maxDepth && cell[d + 1] >= extent) d++;
    return d;
  }

  /** True when the item's box fits the root's loose bounds. */
  fitsRoot(id: number): boolean {
    const items = this.items;
    const nodes = this.nodes;
    const nb = nodes.bounds;
    return items.f64[(id << 3) | MIN_X] >= nb[0] && items.f64[(id << 3) | MIN_Y] >= nb[1] && items.f64[(id << 3) | MAX_X] <= nb[2] && items.f64[(id << 3) | MAX_Y] <= nb[3];
  }

  /** Keeps the OUTSIDE flag and the outside count in step with the item's node and box. */
  private markOutside(id: number): void {
    const items = this.items;
    const isOutside = items.i32[(id << 4) | NODE] === 0 && !this.fitsRoot(id);
    const wasOutside = (items.i32[(id << 4) | FLAGS] & OUTSIDE) !== 0;
    if (isOutside === wasOutside) return;
    items.i32[(id << 4) | FLAGS] ^= OUTSIDE;
    this.outside += isOutside ? 1 : -1;
  }

  /**
   * True when the item can stay in node n: its box is inside n's loose bounds and not small
   * enough to belong deeper (it does not fit the loose bounds of the deeper cell holding its
   * centre). This is what looseness buys: most moves end here.
   */
  private keepsNode(id: number, n: number): boolean {
    const f64 = this.items.f64;
    const nb = this.nodes.bounds;
    const minX = f64[(id << 3) | MIN_X], minY = f64[(id << 3) | MIN_Y], maxX = f64[(id << 3) | MAX_X], maxY = f64[(id << 3) | MAX_Y];
    if (!(minX >= nb[4 * n] && minY >= nb[4 * n + 1] && maxX <= nb[4 * n + 2] && maxY <= nb[4 * n + 3])) return false;
    const d = this.nodes.depth[n];
    if (d === this.maxDepth) return true;
    const w = maxX - minX;
    const h = maxY - minY;
    return (w > h ? w : h) > this.cellSize[d + 1] && !this.fitsAt(id, d + 1);
  }

  /**
   * True when the item's box fits the loose bounds of the depth-`d` cell holding its centre;
   * that cell goes into the target fields.
   */
  private fitsAt(id: number, d: number): boolean {
    const f64 = this.items.f64;
    const minX = f64[(id << 3) | MIN_X], minY = f64[(id << 3) | MIN_Y], maxX = f64[(id << 3) | MAX_X], maxY = f64[(id << 3) | MAX_Y];
    const s = this.cellSize[d];
    const last = (1 << d) - 1;
    let ix = Math.floor(((minX + maxX) * 0.5 - this.originX) / s);
    let iy = Math.floor(((minY + maxY) * 0.5 - this.originY) / s);
    ix = ix < 0 ? 0 : ix > last ? last : ix;
    iy = iy < 0 ? 0 : iy > last ? last : iy;
    this.targetX = ix;
    this.targetY = iy;
    const lx = this.originX + ix * s - s * 0.5;
    const ly = this.originY + iy * s - s * 0.5;
    return minX >= lx && maxX <= lx + 2 * s && minY >= ly && maxY <= ly + 2 * s;
  }

  /** Finds the node coordinates for an item's stored box into the target fields. */
  private findTarget(id: number): void {
    const f64 = this.items.f64;
    // A box up to twice a cell's side fits that cell's loose bounds when its centre sits near
    // the cell's centre: try one level deeper than the size alone promises first. Fewer
    // levels in use means fewer cells a sweep reaches across levels.
    const bySize = this.depthFor(f64[(id << 3) | MIN_X], f64[(id << 3) | MIN_Y], f64[(id << 3) | MAX_X], f64[(id << 3) | MAX_Y]);
    for (let d = bySize < this.maxDepth ? bySize + 1 : bySize; d >= 0; d--) {
      if (this.fitsAt(id, d)) {
        this.targetDepth = d;
        return;
      }
    }
    this.targetDepth = 0;
    this.targetX = 0;
    this.targetY = 0;
  }

  /** Walks from `from` down to the node at (d, ix, iy), creating child groups on the way. */
  private descend(from: number, d: number, ix: number, iy: number): number {
    const nodes = this.nodes;
    let n = from;
    while (nodes.depth[n] < d) {
      if (nodes.firstChild[n] === NONE) this.split(n);
      const k = d - nodes.depth[n] - 1;
      n = nodes.firstChild[n] + ((ix >> k) & 1) + (((iy >> k) & 1) << 1);
    }
    return n;
  }

  /** Gives a leaf its four children. */
  private split(n: number): void {
    const nodes = this.nodes;
    const g = nodes.allocGroup();
    nodes.span[g] = this.lifespan;
    nodes.countingAt[g] = NONE;
    const first = g << 2;
    nodes.firstChild[n] = first;
    const d = nodes.depth[n] + 1;
    const x = nodes.cellX[n] << 1;
    const y = nodes.cellY[n] << 1;
    for (let c = 0; c < 4; c++) {
      const m = first + c;
      nodes.parent[m] = n;
      nodes.firstChild[m] = NONE;
      nodes.own[m] = 0;
      nodes.total[m] = 0;
      nodes.start[m] = 0;
      nodes.size[m] = 0;
      this.setNodeBounds(m, d, x + (c & 1), y + (c >> 1));
      this.indexCell(m);
    }
  }

  /** Records a node in its level's cell index. */
  private indexCell(n: number): void {
    const nodes = this.nodes;
    const d = nodes.depth[n];
    let cells = this.levelCells[d];
    if (cells === null) {
      cells = new Int32Array(4 ** d).fill(NONE);
      this.levelCells[d] = cells;
      this.levelSlots[d] = new Int32Array(2 * 4 ** d);
      this.levelLayers[d] = new Int32Array(4 ** d);
    }
    cells[(nodes.cellY[n] << d) + nodes.cellX[n]] = n;
  }

  private setNodeBounds(n: number, d: number, ix: number, iy: number): void {
    const nodes = this.nodes;
    const s = this.cellSize[d];
    nodes.depth[n] = d;
    nodes.cellX[n] = ix;
    nodes.cellY[n] = iy;
    // Same arithmetic as findTarget, so a box that fits there fits here.
    const lx = this.originX + ix * s - s * 0.5;
    const ly = this.originY + iy * s - s * 0.5;
    nodes.bounds[4 * n] = lx;
    nodes.bounds[4 * n + 1] = ly;
    nodes.bounds[4 * n + 2] = lx + 2 * s;
    nodes.bounds[4 * n + 3] = ly + 2 * s;
  }

  private link(id: number, n: number): void {
    this.addToList(id, n);
    this.countUp(n);
    this.markOutside(id);
  }

  /** Appends the item to its node's slot region, doubling the region when full. */
  private addToList(id: number, n: number): void {
    const items = this.items;
    const nodes = this.nodes;
    const slots = this.slots;
    const own = nodes.own[n];
    if (own === nodes.size[n]) {
      const size = own === 0 ? MIN_REGION : own * 2;
      const start = slots.alloc(size);
      const old = nodes.start[n];
      for (let i = 0; i < own; i++) {
        slots.copy(old + i, start + i);
        items.slot[slots.id[start + i]] = start + i;
      }
      if (own > 0) slots.free(old, nodes.size[n]);
      nodes.start[n] = start;
      nodes.size[n] = size;
    }
    const slot = nodes.start[n] + own;
    slots.id[slot] = id;
    items.slot[id] = slot;
    this.writeSlotMeta(id);
    nodes.own[n] = own + 1;
    this.mirror(n);
    this.levelItems[nodes.depth[n]]++;
    items.i32[(id << 4) | NODE] = n;
    this.writeSlotBox(id);
  }

  /** Removes the item from its node's region by moving the last slot into its place. */
  private unlinkList(id: number, n: number): void {
    const items = this.items;
    const nodes = this.nodes;
    const slots = this.slots;
    const own = nodes.own[n] - 1;
    const last = nodes.start[n] + own;
    const slot = items.slot[id];
    if (slot !== last) {
      slots.copy(last, slot);
      items.slot[slots.id[slot]] = slot;
    }
    nodes.own[n] = own;
    this.mirror(n);
    this.levelItems[nodes.depth[n]]--;
    if (own === 0) {
      // An empty node gives its region back; a busy one keeps it to avoid churn.
      slots.free(nodes.start[n], nodes.size[n]);
      nodes.size[n] = 0;
    }
  }

  /**
   * Copies a node's region start and item count into its level's cell array, and recomputes
   * the cell's layer union from its items (a few, read in order).
   */
  private mirror(n: number): void {
    const nodes = this.nodes;
    const d = nodes.depth[n];
    const cell = (nodes.cellY[n] << d) + nodes.cellX[n];
    const cells = this.levelSlots[d]!;
    const start = nodes.start[n];
    const own = nodes.own[n];
    cells[2 * cell] = start;
    cells[2 * cell + 1] = own;
    const meta = this.slots.meta;
    let layers = 0;
    for (let s = start; s < start + own; s++) layers |= meta[4 * s];
    this.levelLayers[d]![cell] = layers;
  }

  /** After a collider change: the slot's copy and the cell's layer union. */
  colliderChanged(id: number): void {
    this.writeSlotMeta(id);
    this.mirror(this.items.i32[(id << 4) | NODE]);
  }

  /** Copies the item's collider into its slot, for the one-pass broadphase's filters. */
  private writeSlotMeta(id: number): void {
    const i32 = this.items.i32;
    const meta = this.slots.meta;
    const at = 4 * this.items.slot[id];
    meta[at] = i32[(id << 4) | LAYER];
    meta[at + 1] = i32[(id << 4) | MASK];
    meta[at + 2] = i32[(id << 4) | FLAGS] & STATIC;
    meta[at + 3] = i32[(id << 4) | PRIORITY];
  }

  /** Copies the item's stored box into its slot (the copy queries scan). */
  writeSlotBox(id: number): void {
    const items = this.items;
    const box = this.slots.box;
    const at = 4 * items.slot[id];
    box[at] = items.f64[(id << 3) | MIN_X];
    box[at + 1] = items.f64[(id << 3) | MIN_Y];
    box[at + 2] = items.f64[(id << 3) | MAX_X];
    box[at + 3] = items.f64[(id << 3) | MAX_Y];
  }

  /** Adds one to the subtree counts from n up to `stop` (exclusive; the root by default); a counting group that gains an item is reused. */
  private countUp(n: number, stop = NONE): void {
    const nodes = this.nodes;
    for (let m = n; m !== stop; m = nodes.parent[m]) {
      nodes.total[m]++;
      const g = m >> 2;
      if (g !== 0 && nodes.countingAt[g] !== NONE) {
        nodes.stopCounting(g);
        const doubled = nodes.span[g] * 2;
        nodes.span[g] = doubled > this.maxLifespan ? this.maxLifespan : doubled;
      }
    }
  }

  /** Takes one from the subtree counts from n up to `stop` (exclusive; the root by default); a group left empty starts counting down. */
  private countDown(n: number, stop = NONE): void {
    const nodes = this.nodes;
    for (let m = n; m !== stop; m = nodes.parent[m]) {
      if (--nodes.total[m] === 0 && m !== 0) {
        const first = m & ~3;
        if (nodes.total[first] + nodes.total[first + 1] + nodes.total[first + 2] + nodes.total[first + 3] === 0) {
          nodes.startCounting(m >> 2);
        }
      }
    }
  }

  /** Frees a group and every group below it (all empty). */
  private freeBranch(g: number): void {
    const nodes = this.nodes;
    const first = g << 2;
    for (let c = 0; c < 4; c++) {
      const child = nodes.firstChild[first + c];
      if (child !== NONE) this.freeBranch(child >> 2);
    }
    const d = nodes.depth[first];
    const cells = this.levelCells[d]!;
    for (let c = first; c < first + 4; c++) cells[(nodes.cellY[c] << d) + nodes.cellX[c]] = NONE;
    nodes.stopCounting(g);
    nodes.freeGroup(g);
  }
}
