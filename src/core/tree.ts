import { ABSENT, ItemStore, OUTSIDE, PENDING } from './items.js';
import { NodePool, NONE } from './nodes.js';

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
  readonly originX: number;
  readonly originY: number;
  readonly rootSize: number;
  readonly maxDepth: number;
  /** Cell side per depth. */
  readonly cellSize: Float64Array;
  readonly idLimit: number;
  readonly lifespan: number;
  readonly maxLifespan: number;

  /** Items in the index, pending ones included. */
  size = 0;
  /** Items in the root because they fit no loose bounds. */
  outside = 0;
  /** Node changes since the counter was last reset by the broadphase. */
  relocated = 0;

  pending: Int32Array;
  pendingCount = 0;

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
    this.items = new ItemStore(1024);
    this.nodes = new NodePool(256);
    this.setNodeBounds(0, 0, 0, 0);
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
    const n = items.node[id];
    const minX = items.minX[id], minY = items.minY[id], maxX = items.maxX[id], maxY = items.maxY[id];
    if (minX >= nodes.minX[n] && maxX <= nodes.maxX[n] && minY >= nodes.minY[n] && maxY <= nodes.maxY[n] &&
        this.depthFor(minX, minY, maxX, maxY) === nodes.depth[n]) {
      return false;
    }
    this.findTarget(id);
    const d = this.targetDepth;
    if (d === nodes.depth[n] && this.targetX === nodes.cellX[n] && this.targetY === nodes.cellY[n]) {
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
    // Count up the new path before counting down the old one, so shared ancestors never
    // look empty for a moment and restart a lifespan countdown.
    this.countUp(target);
    this.countDown(n);
    this.markOutside(id);
    this.relocated++;
    return true;
  }

  /** Unlinks an item from its node, leaving its box in place. */
  unplace(id: number): void {
    const n = this.items.node[id];
    this.unlinkList(id, n);
    this.countDown(n);
    this.items.node[id] = ABSENT;
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
    this.items.node[id] = PENDING;
  }

  /**
   * Places every pending item. Ids removed while pending were set ABSENT and are skipped;
   * an id queued twice is placed once. Returns the number placed.
   */
  flush(onPlaced: ((id: number) => void) | null): number {
    let placed = 0;
    for (let i = 0; i < this.pendingCount; i++) {
      const id = this.pending[i];
      if (this.items.node[id] !== PENDING) continue;
      this.place(id);
      placed++;
      if (onPlaced !== null) onPlaced(id);
    }
    this.pendingCount = 0;
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

  /** Empties the index, keeping its arrays for reuse. */
  clear(): void {
    this.items.node.fill(ABSENT);
    for (let i = 0; i < this.items.flags.length; i++) this.items.flags[i] &= ~OUTSIDE;
    this.nodes.reset();
    this.setNodeBounds(0, 0, 0, 0);
    this.size = 0;
    this.outside = 0;
    this.pendingCount = 0;
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
    return items.minX[id] >= nodes.minX[0] && items.maxX[id] <= nodes.maxX[0] &&
      items.minY[id] >= nodes.minY[0] && items.maxY[id] <= nodes.maxY[0];
  }

  /** Keeps the OUTSIDE flag and the outside count in step with the item's node and box. */
  private markOutside(id: number): void {
    const items = this.items;
    const isOutside = items.node[id] === 0 && !this.fitsRoot(id);
    const wasOutside = (items.flags[id] & OUTSIDE) !== 0;
    if (isOutside === wasOutside) return;
    items.flags[id] ^= OUTSIDE;
    this.outside += isOutside ? 1 : -1;
  }

  /** Finds the node coordinates for an item's stored box into the target fields. */
  private findTarget(id: number): void {
    const items = this.items;
    const minX = items.minX[id], minY = items.minY[id], maxX = items.maxX[id], maxY = items.maxY[id];
    const cx = (minX + maxX) * 0.5;
    const cy = (minY + maxY) * 0.5;
    for (let d = this.depthFor(minX, minY, maxX, maxY); d >= 0; d--) {
      const s = this.cellSize[d];
      const last = (1 << d) - 1;
      let ix = Math.floor((cx - this.originX) / s);
      let iy = Math.floor((cy - this.originY) / s);
      ix = ix < 0 ? 0 : ix > last ? last : ix;
      iy = iy < 0 ? 0 : iy > last ? last : iy;
      const lx = this.originX + ix * s - s * 0.5;
      const ly = this.originY + iy * s - s * 0.5;
      if (minX >= lx && maxX <= lx + 2 * s && minY >= ly && maxY <= ly + 2 * s) {
        this.targetDepth = d;
        this.targetX = ix;
        this.targetY = iy;
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
      nodes.head[m] = NONE;
      this.setNodeBounds(m, d, x + (c & 1), y + (c >> 1));
    }
  }

  private setNodeBounds(n: number, d: number, ix: number, iy: number): void {
    const nodes = this.nodes;
    const s = this.cellSize[d];
    nodes.depth[n] = d;
    nodes.cellX[n] = ix;
    nodes.cellY[n] = iy;
    // Same arithmetic as findTarget, so a box that fits there fits here.
    nodes.minX[n] = this.originX + ix * s - s * 0.5;
    nodes.minY[n] = this.originY + iy * s - s * 0.5;
    nodes.maxX[n] = nodes.minX[n] + 2 * s;
    nodes.maxY[n] = nodes.minY[n] + 2 * s;
  }

  private link(id: number, n: number): void {
    this.addToList(id, n);
    this.countUp(n);
    this.markOutside(id);
  }

  private addToList(id: number, n: number): void {
    const items = this.items;
    const nodes = this.nodes;
    const head = nodes.head[n];
    items.next[id] = head;
    items.prev[id] = NONE;
    if (head !== NONE) items.prev[head] = id;
    nodes.head[n] = id;
    nodes.own[n]++;
    items.node[id] = n;
  }

  private unlinkList(id: number, n: number): void {
    const items = this.items;
    const nodes = this.nodes;
    const next = items.next[id];
    const prev = items.prev[id];
    if (prev === NONE) nodes.head[n] = next;
    else items.next[prev] = next;
    if (next !== NONE) items.prev[next] = prev;
    nodes.own[n]--;
  }

  /** Adds one to the subtree counts up to the root; a counting group that gains an item is reused. */
  private countUp(n: number): void {
    const nodes = this.nodes;
    for (let m = n; m !== NONE; m = nodes.parent[m]) {
      nodes.total[m]++;
      const g = m >> 2;
      if (g !== 0 && nodes.countingAt[g] !== NONE) {
        nodes.stopCounting(g);
        const doubled = nodes.span[g] * 2;
        nodes.span[g] = doubled > this.maxLifespan ? this.maxLifespan : doubled;
      }
    }
  }

  /** Takes one from the subtree counts up to the root; a group left empty starts counting down. */
  private countDown(n: number): void {
    const nodes = this.nodes;
    for (let m = n; m !== NONE; m = nodes.parent[m]) {
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
    nodes.stopCounting(g);
    nodes.freeGroup(g);
  }
}
