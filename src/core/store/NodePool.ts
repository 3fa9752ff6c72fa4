import { grow } from '../grow.js';
/**
 * The node pool: parallel typed arrays by node. Children come in groups of four (group g holds
 * nodes 4g..4g+3: x-low/y-low, x-high/y-low, x-low/y-high, x-high/y-high). Group 0 is reserved
 * (node 0 is the root, 1..3 unused); freed groups are threaded through their first `firstChild`.
 */
export const NONE = -1;

export class NodePool {
  parent: Int32Array;
  /** First node of the child group, or NONE for a leaf. */
  firstChild: Int32Array;
  depth: Uint8Array;
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

  constructor(groupCapacity: number) {
    const cap = Math.max(4, groupCapacity) * 4;
    this.parent = new Int32Array(cap);
    this.firstChild = new Int32Array(cap);
    this.depth = new Uint8Array(cap);
    this.cell = new Int32Array(cap);
    this.total = new Int32Array(cap);
    this.classBits = new Int32Array(cap);
    const groups = cap >> 2;
    this.framesLeft = new Uint16Array(groups);
    this.nextLifespan = new Uint16Array(groups);
    this.countingAt = new Int32Array(groups).fill(NONE);
    this.counting = new Int32Array(groups);
    this.resetRoot();
  }

  /** Drops every group and leaves a lone empty root. Keeps the arrays. */
  reset(): void {
    this.groupsUsed = 1;
    this.freeHead = NONE;
    this.freeGroups = 0;
    this.countingCount = 0;
    this.countingAt.fill(NONE);
    this.resetRoot();
  }

  private resetRoot(): void {
    this.parent[0] = NONE;
    this.firstChild[0] = NONE;
    this.depth[0] = 0;
    this.cell[0] = 0;
    this.total[0] = 0;
    this.classBits[0] = 0;
  }

  /** Nodes the arrays hold (grows by doubling). */
  get capacity(): number {
    return this.parent.length;
  }

  get capacityGroups(): number {
    return this.framesLeft.length;
  }

  /** Takes a group from the free list or the pool's end, growing the arrays by doubling. */
  allocGroup(): number {
    let g: number;
    if (this.freeHead !== NONE) {
      g = this.freeHead >> 2;
      this.freeHead = this.firstChild[this.freeHead];
      this.freeGroups--;
    } else {
      if (this.groupsUsed === this.capacityGroups) this.growArrays();
      g = this.groupsUsed++;
    }
    return g;
  }

  /** Returns a group to the free list. The caller has unlinked it from its parent. */
  freeGroup(g: number): void {
    const first = g << 2;
    this.firstChild[first] = this.freeHead;
    this.depth[first] = 255; // marks a free group for validate()
    this.freeHead = first;
    this.freeGroups++;
    this.groupsFreed++;
  }

  startCounting(g: number): void {
    if (this.countingAt[g] !== NONE) return;
    this.framesLeft[g] = this.nextLifespan[g];
    this.countingAt[g] = this.countingCount;
    this.counting[this.countingCount++] = g;
  }

  stopCounting(g: number): void {
    const at = this.countingAt[g];
    if (at === NONE) return;
    const last = this.counting[--this.countingCount];
    this.counting[at] = last;
    this.countingAt[last] = at;
    this.countingAt[g] = NONE;
  }

  private growArrays(): void {
    const cap = this.parent.length * 2;
    this.parent = grow(this.parent, cap);
    this.firstChild = grow(this.firstChild, cap);
    this.depth = grow(this.depth, cap);
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
