import { grow } from '../grow.js';
import { cellDepth, cellX, cellY, packCell } from './ItemStore.js';
export const NONE = -1;

/**
 * The loose quadtree's nodes as parallel typed arrays. Children come in groups of four (nodes 4g..4g+3: +1 is x-high,
 * +2 y-high); group 0 is reserved (node 0 is the root), and freed groups chain through `firstChild`.
 */
export class NodePool {
  parent: Int32Array;
  /** First node of the child group, or NONE for a leaf. */
  firstChild: Int32Array;
  /** Depth and cell coordinates packed (see packCell): a move tests its node's loose bounds from this one number. */
  cell: Int32Array;
  /** Items in this node and all its descendants (lets traversals skip empty subtrees). */
  total: Int32Array;
  /** Bit k set: class k has items in this node (see CollisionClasses). */
  classBits: Int32Array;

  /** Per group: frames left before an empty group is freed (valid while counting). */
  framesLeft: Uint16Array;
  /** Per group: the lifespan the next countdown starts from (doubles on reuse, capped). */
  nextLifespan: Uint16Array;
  /** Per group: index in the counting list, or NONE when not counting down. */
  countingAt: Int32Array;
  /** Groups counting down, packed; `countingAt` points back into it. */
  counting: Int32Array;
  countingCount = 0;

  /** Groups ever allocated (the pool's high-water mark, group 0 included). */
  groupsUsed = 1;
  freeHead = NONE;
  freeGroups = 0;
  groupsFreed = 0;

  /** Per depth, cell (iy * 2^d + ix) to node, or NONE: 4^d entries, so maxDepth is capped. */
  readonly levelCells: (Int32Array | null)[];
  /** Frames an emptied group is kept, and the cap its doubling on reuse reaches. */
  readonly lifespan: number;
  readonly maxLifespan: number;

  constructor(groupCapacity: number, maxDepth: number, lifespan: number, maxLifespan: number) {
    const cap = Math.max(4, groupCapacity) * 4;
    this.parent = new Int32Array(cap);
    this.firstChild = new Int32Array(cap);
    this.cell = new Int32Array(cap);
    this.total = new Int32Array(cap);
    this.classBits = new Int32Array(cap);
    const groups = cap >> 2;
    this.framesLeft = new Uint16Array(groups);
    this.nextLifespan = new Uint16Array(groups);
    this.countingAt = new Int32Array(groups).fill(NONE);
    this.counting = new Int32Array(groups);
    this.levelCells = new Array<Int32Array | null>(maxDepth + 1).fill(null);
    this.lifespan = lifespan;
    this.maxLifespan = maxLifespan;
    this.initNode(0, NONE, 0);
  }

  /** Drops every group and leaves a lone empty root. Keeps the arrays. */
  reset(): void {
    this.groupsUsed = 1;
    this.freeHead = NONE;
    this.freeGroups = 0;
    this.countingCount = 0;
    this.countingAt.fill(NONE);
    for (const cells of this.levelCells) cells?.fill(NONE);
    this.initNode(0, NONE, 0);
  }

  /** Makes node n an empty leaf of `parent` at the packed `cell`, indexed by its cell. */
  private initNode(n: number, parent: number, cell: number): void {
    this.parent[n] = parent;
    this.firstChild[n] = NONE;
    this.cell[n] = cell;
    this.total[n] = 0;
    this.classBits[n] = 0;
    this.indexCell(n);
  }

  get capacity(): number {
    return this.parent.length;
  }

  stopCounting(g: number): void {
    const at = this.countingAt[g];
    if (at === NONE) return;
    const last = this.counting[--this.countingCount];
    this.counting[at] = last;
    this.countingAt[last] = at;
    this.countingAt[g] = NONE;
  }

  /** Advances the lifespan of empty groups by one frame and frees the expired ones. */
  tick(): void {
    const counting = this.counting;
    for (let i = 0; i < this.countingCount; i++) this.framesLeft[counting[i]]--;
    // From the end: a group leaving the list moves its last entry down into its place, so none is passed unread; an
    // entry read twice was kept (not expired), and a place past the shortened list is stale.
    for (let i = this.countingCount - 1; i >= 0; i--) {
      const g = counting[i];
      if (i >= this.countingCount || this.framesLeft[g] !== 0) continue;
      this.firstChild[this.parent[g << 2]] = NONE;
      this.freeBranch(g);
    }
  }

  /** Walks from `from` down to the node at (d, ix, iy), creating child groups on the way. */
  descend(from: number, d: number, ix: number, iy: number): number {
    let n = from;
    while (cellDepth(this.cell[n]) < d) {
      if (this.firstChild[n] === NONE) this.split(n);
      const k = d - cellDepth(this.cell[n]) - 1;
      n = this.firstChild[n] + ((ix >> k) & 1) + (((iy >> k) & 1) << 1);
    }
    return n;
  }

  private split(n: number): void {
    // A group from the free list, else from the pool's end (the arrays grown by doubling).
    let g: number;
    if (this.freeHead !== NONE) {
      g = this.freeHead >> 2;
      this.freeHead = this.firstChild[this.freeHead];
      this.freeGroups--;
    } else {
      if (this.groupsUsed === this.framesLeft.length) this.growArrays();
      g = this.groupsUsed++;
    }
    this.nextLifespan[g] = this.lifespan;
    this.countingAt[g] = NONE;
    const first = g << 2;
    this.firstChild[n] = first;
    const d = cellDepth(this.cell[n]) + 1;
    const x = cellX(this.cell[n]) << 1;
    const y = cellY(this.cell[n]) << 1;
    for (let c = 0; c < 4; c++) this.initNode(first + c, n, packCell(d, x + (c & 1), y + (c >> 1)));
  }

  indexCell(n: number): void {
    const d = cellDepth(this.cell[n]);
    let cells = this.levelCells[d];
    if (cells === null) {
      cells = new Int32Array(4 ** d).fill(NONE);
      this.levelCells[d] = cells;
    }
    cells[(cellY(this.cell[n]) << d) + cellX(this.cell[n])] = n;
  }

  /** Adds one to the counts from n up to `stop` (exclusive; through the root by default); reuses counting groups. */
  countUp(n: number, stop = NONE): void {
    for (let m = n; m !== stop; m = this.parent[m]) {
      this.total[m]++;
      const g = m >> 2;
      if (g !== 0 && this.countingAt[g] !== NONE) {
        this.stopCounting(g);
        const doubled = this.nextLifespan[g] * 2;
        this.nextLifespan[g] = doubled > this.maxLifespan ? this.maxLifespan : doubled;
      }
    }
  }

  /** Takes one from the counts from n up to `stop` (as countUp); a group left empty starts counting down. */
  countDown(n: number, stop = NONE): void {
    for (let m = n; m !== stop; m = this.parent[m]) {
      if (--this.total[m] !== 0 || m === 0) continue;
      const first = m & ~3;
      const g = m >> 2;
      const groupTotal = this.total[first] + this.total[first + 1] + this.total[first + 2] + this.total[first + 3];
      if (groupTotal === 0 && this.countingAt[g] === NONE) {
        this.framesLeft[g] = this.nextLifespan[g];
        this.countingAt[g] = this.countingCount;
        this.counting[this.countingCount++] = g;
      }
    }
  }

  /** Frees a group and every group below it (all empty). */
  private freeBranch(g: number): void {
    const first = g << 2;
    for (let c = 0; c < 4; c++) {
      const child = this.firstChild[first + c];
      if (child !== NONE) this.freeBranch(child >> 2);
    }
    const d = cellDepth(this.cell[first]);
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- indexed when made (see indexCell)
    const cells = this.levelCells[d]!;
    for (let c = first; c < first + 4; c++) cells[(cellY(this.cell[c]) << d) + cellX(this.cell[c])] = NONE;
    this.stopCounting(g);
    // To the free list (unlinked from its parent by the caller).
    this.firstChild[first] = this.freeHead;
    this.freeHead = first;
    this.freeGroups++;
    this.groupsFreed++;
  }
  private growArrays(): void {
    const cap = this.parent.length * 2;
    this.parent = grow(this.parent, cap);
    this.firstChild = grow(this.firstChild, cap);
    this.cell = grow(this.cell, cap);
    this.total = grow(this.total, cap);
    this.classBits = grow(this.classBits, cap);
    const groups = cap >> 2;
    this.nextLifespan = grow(this.nextLifespan, groups);
    this.framesLeft = grow(this.framesLeft, groups);
    this.countingAt = grow(this.countingAt, groups, NONE);
    this.counting = grow(this.counting, groups);
  }
}
