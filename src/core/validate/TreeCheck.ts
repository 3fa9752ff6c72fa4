import { fail } from '../errors.js';
import { MIXED } from '../store/CollisionClasses.js';
import {
  ABSENT,
  CIRCLE,
  cellDepth,
  cellX,
  cellY,
  CLASS_SHIFT,
  PRIORITY_SHIFT,
  DETACHED,
  packCell,
  PENDING,
  STATIC,
  SWEPT,
  TOP_PRIORITY,
} from '../store/ItemStore.js';
import { FROM, TO } from '../store/SweptStore.js';
import { NONE } from '../store/NodePool.js';
import type { SpatialTree } from '../placement/SpatialTree.js';

/** One check of the spatial index's invariants, recounting rather than trusting counters; throws on the first. */
export class TreeCheck {
  private readonly tree: SpatialTree;
  /** Loose bounds of the node being checked. */
  private readonly nodeBox = new Float64Array(4);
  /** Groups reached so far (live or free), to catch one reached twice. */
  private readonly seenGroup: Uint8Array;
  private liveGroups = 1;
  /** Slots owned by a region, to catch one owned twice. */
  private readonly slotOwner: Uint8Array;
  private regionSlots = 0;
  /** Items per class and depth (`k * (maxDepth + 1) + d`). */
  private readonly classCounts: Int32Array;
  /** Swept items and circles met in each class. */
  private readonly sweptCounts: Int32Array;
  private readonly roundCounts: Int32Array;
  private placed = 0;
  /** Members met in the class lists of detached classes. */
  private detachedItems = 0;

  constructor(tree: SpatialTree) {
    this.tree = tree;
    this.seenGroup = new Uint8Array(tree.nodes.groupsUsed);
    this.seenGroup[0] = 1;
    this.slotOwner = new Uint8Array(tree.slots.used);
    this.classCounts = new Int32Array(tree.classes.size.length * (tree.maxDepth + 1));
    this.sweptCounts = new Int32Array(tree.classes.size.length);
    this.roundCounts = new Int32Array(tree.classes.size.length);
  }

  run(): void {
    this.walkNodes();
    this.checkGroupPool();
    this.checkLists();
    this.checkClasses();
    this.checkItems();
  }

  /** Each class's list: members point back and are in a node exactly when the class is attached; counters add up. */
  private checkLists(): void {
    const tree = this.tree;
    const C = tree.classes;
    const items = tree.items;
    for (let k = 0; k < C.size.length; k++) {
      const ids = C.ids[k];
      const end = C.end[k];
      if (end > ids.length) fail(`validate: class ${k} lists ${end} entries in an array of ${ids.length}`);
      this.checkListRegion(k);
      let members = 0;
      for (let i = 0; i < end; i++) {
        const id = ids[i];
        if (id < 0) continue;
        members++;
        // An id past the map has no slot either.
        if (items.slotOrNone(id) < 0) fail(`validate: class ${k} lists absent item ${id}`);
        if (items.listPlaceOf(id) !== i)
          fail(`validate: item ${id} is at place ${i} of class ${k} but records place ${items.listPlaceOf(id)}`);
        if (items.classOf(id) !== k)
          fail(`validate: item ${id} is listed in class ${k} but records class ${items.classOf(id)}`);
        const n = items.nodeOf(id);
        if (C.detached[k] === 1) {
          if (n !== DETACHED) fail(`validate: item ${id} of detached class ${k} records node ${n}`);
          const s = C.listStart[k] + i;
          // That the slot names it back, checkItems checks.
          if (items.slotOf(id) !== s)
            fail(`validate: item ${id} at place ${i} of detached class ${k} is not in slot ${s} of its region`);
          this.checkMember(id, k, s);
        } else if (n < 0) {
          fail(`validate: item ${id} is listed in class ${k} but records node ${n}`);
        }
      }
      if (members !== C.size[k]) fail(`validate: class ${k} counts ${C.size[k]} items, lists ${members}`);
      // Its counts by depth are checked 0 by checkClasses: checkSlot refuses its items in nodes.
      if (C.detached[k] === 1) this.detachedItems += members;
    }
  }

  /** A detached class owns one region as long as its list's array; a class in the tree owns none. */
  private checkListRegion(k: number): void {
    const C = this.tree.classes;
    const room = C.listRoom[k];
    if (C.detached[k] === 0) {
      if (room !== 0) fail(`validate: class ${k} is in the tree but keeps a region of ${room} slots for its list`);
      return;
    }
    if (room < C.end[k]) fail(`validate: detached class ${k} has ${room} slots for a list of ${C.end[k]}`);
    this.own(C.listStart[k], room, `the list region of class ${k}`);
  }

  private own(start: number, count: number, owner: string): void {
    if (start < 0 || start + count > this.tree.slots.used) fail(`validate: ${owner} runs past the slot pool`);
    for (let s = start; s < start + count; s++) {
      if (this.slotOwner[s] !== 0) fail(`validate: slot ${s} of ${owner} belongs to another region too`);
      this.slotOwner[s] = 1;
    }
    this.regionSlots += count;
  }

  /** Item id's collider fits the key of class k (the mixed class takes any). */
  private checkKey(id: number, k: number): void {
    const items = this.tree.items;
    const C = this.tree.classes;
    const layer = items.layerOf(id),
      mask = items.maskOf(id),
      isStatic = items.hasFlag(id, STATIC) ? STATIC : 0;
    const priority = items.priorityOf(id);
    if (
      k !== MIXED &&
      ((layer & ~C.layer[k]) !== 0 ||
        C.mask[k] !== mask ||
        C.isStatic[k] !== isStatic ||
        ((C.layer[k] & mask) !== 0) !== ((layer & mask) !== 0) ||
        C.top[k] !== (priority >= TOP_PRIORITY ? 1 : 0))
    ) {
      fail(
        `validate: item ${id} (layer ${layer}, mask ${mask}, static ${isStatic}, priority ${priority}) is in class ${k} of another key`,
      );
    }
  }

  /** Every node from the root down: links, cells, loose bounds, subtree counts, lifespans, regions. */
  private walkNodes(): void {
    const nodes = this.tree.nodes;
    if (nodes.parent[0] !== NONE || nodes.cell[0] !== 0) fail('validate: root has a parent or a cell');
    const stack = [0];
    for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
      const own = this.checkRegions(n);
      this.placed += own;
      let total = own;
      const first = nodes.firstChild[n];
      if (first !== NONE) {
        total += this.checkChildren(n, first);
        for (let c = first; c < first + 4; c++) stack.push(c);
      }
      if (total !== nodes.total[n])
        fail(`validate: node ${n} counts ${nodes.total[n]} items in its subtree, holds ${total}`);
    }
  }

  /** Node n's child group at `first`: parent links, cells (with depths), lifespan. Returns their subtree items. */
  private checkChildren(n: number, first: number): number {
    const tree = this.tree;
    const nodes = tree.nodes;
    const d = cellDepth(nodes.cell[n]);
    if ((first & 3) !== 0 || first >> 2 >= nodes.groupsUsed) fail(`validate: node ${n} has a bad child group ${first}`);
    const g = first >> 2;
    if (this.seenGroup[g]) fail(`validate: group ${g} is reachable twice`);
    this.seenGroup[g] = 1;
    this.liveGroups++;
    let groupTotal = 0;
    for (let c = first; c < first + 4; c++) {
      if (nodes.parent[c] !== n) fail(`validate: node ${c} has parent ${nodes.parent[c]}, expected ${n}`);
      const cx = (cellX(nodes.cell[n]) << 1) + ((c - first) & 1);
      const cy = (cellY(nodes.cell[n]) << 1) + ((c - first) >> 1);
      if (nodes.cell[c] !== packCell(d + 1, cx, cy)) fail(`validate: node ${c} has the wrong cell`);
      groupTotal += nodes.total[c];
    }
    const counting = nodes.countingAt[g] !== NONE;
    if (counting !== (groupTotal === 0)) {
      fail(`validate: group ${g} holds ${groupTotal} items but ${counting ? 'is' : 'is not'} counting down`);
    }
    if (counting && (nodes.framesLeft[g] < 1 || nodes.framesLeft[g] > tree.nodes.maxLifespan))
      fail(`validate: group ${g} has framesLeft ${nodes.framesLeft[g]}`);
    if (nodes.nextLifespan[g] < tree.nodes.lifespan || nodes.nextLifespan[g] > tree.nodes.maxLifespan)
      fail(`validate: group ${g} has nextLifespan ${nodes.nextLifespan[g]}`);
    return groupTotal;
  }

  /** Every group is live, free or the reserved root group, exactly once; the counting list points back. */
  private checkGroupPool(): void {
    const nodes = this.tree.nodes;
    let free = 0;
    for (let f = nodes.freeHead; f !== NONE; f = nodes.firstChild[f]) {
      const g = f >> 2;
      if (this.seenGroup[g]) fail(`validate: group ${g} is both live and free`);
      this.seenGroup[g] = 1;
      free++;
      if (free > nodes.groupsUsed) fail('validate: the free list has a cycle');
    }
    if (free !== nodes.freeGroups) fail(`validate: free list holds ${free} groups, counter says ${nodes.freeGroups}`);
    if (this.liveGroups + free !== nodes.groupsUsed) {
      fail(`validate: ${this.liveGroups} live + ${free} free groups != ${nodes.groupsUsed} allocated (leak)`);
    }
    for (let i = 0; i < nodes.countingCount; i++) {
      const g = nodes.counting[i];
      if (nodes.countingAt[g] !== i) fail(`validate: counting list entry ${i} (group ${g}) does not point back`);
    }
  }

  /** Per-class counts by depth and in all, the per-cell region copies, and slot accounting. */
  private checkClasses(): void {
    const tree = this.tree;
    const C = tree.classes;
    for (let k = 0; k < C.size.length; k++) {
      let size = 0;
      for (let d = 0; d <= tree.maxDepth; d++) {
        const count = this.classCounts[k * (tree.maxDepth + 1) + d];
        if (C.levelItems[k][d] !== count)
          fail(`validate: class ${k} counts ${C.levelItems[k][d]} items at depth ${d}, holds ${count}`);
        size += count;
      }
      if (C.detached[k] === 0 && C.size[k] !== size)
        fail(`validate: class ${k} counts ${C.size[k]} items, holds ${size}`);
      if (C.swept[k] !== this.sweptCounts[k])
        fail(`validate: class ${k} counts ${C.swept[k]} swept items, holds ${this.sweptCounts[k]}`);
      if (C.round[k] !== this.roundCounts[k])
        fail(`validate: class ${k} counts ${C.round[k]} circles, holds ${this.roundCounts[k]}`);
    }
  }

  /** Each placed item was reached by the walk; the rest are absent or pending; the counters agree; no slot leaked. */
  private checkItems(): void {
    const tree = this.tree;
    const items = tree.items;
    let present = 0;
    let pending = 0;
    let detached = 0;
    let swept = 0;
    const slots = tree.slots;
    const held = new Int32Array(slots.colliders.handedOut);
    for (let id = 0; id < items.capacity; id++) {
      const s = items.slotOrNone(id);
      if (s !== -1) {
        if (s < 0 || s >= slots.used) fail(`validate: item ${id} maps to slot ${s}, outside 0..${slots.used - 1}`);
        if (slots.id[s] !== id) fail(`validate: item ${id} maps to slot ${s}, which names item ${slots.id[s]}`);
        const c = slots.collider[s];
        if (!(c >= 0 && c < held.length)) fail(`validate: item ${id} holds collider ${c}, never handed out`);
        held[c]++;
      }
      const n = items.nodeOf(id);
      // Between homes (pending, or left since the last step: its record stays until the step ends): a slot of its own.
      if (n === PENDING || (n === ABSENT && s >= 0)) this.own(s, 1, `item ${id}'s own slot`);
      if (n === ABSENT) {
        if (tree.sweeps.has(id)) fail(`validate: absent item ${id} is still swept`);
        continue;
      }
      present++;
      if (n === PENDING) pending++;
      if (n === DETACHED) detached++;
      if (items.hasFlag(id, SWEPT)) {
        swept++;
        if (n === PENDING) this.checkPath(id);
      }
    }
    slots.colliders.check(held);
    if (swept !== tree.sweeps.count) fail(`validate: ${swept} items are swept, ${tree.sweeps.count} paths are kept`);
    if (present !== tree.size) fail(`validate: ${present} items present, size says ${tree.size}`);
    if (detached !== this.detachedItems)
      fail(`validate: ${detached} items record a detached class, ${this.detachedItems} are listed in one`);
    // The root's count is the walk's (see walkNodes).
    if (present - pending - detached !== this.placed)
      fail(`validate: ${present - pending - detached} items placed but ${this.placed} reachable`);
    // Every slot handed out is in a region, an item's own or free.
    if (this.regionSlots + slots.freeSlots !== slots.used) {
      fail(
        `validate: ${this.regionSlots} slots in regions + ${slots.freeSlots} free != ${slots.used} handed out (leak)`,
      );
    }
  }

  /** Node n's class regions: in the slot pool, owned once, big enough; then their items. Returns the node's items. */
  private checkRegions(n: number): number {
    const tree = this.tree;
    const nodes = tree.nodes;
    const C = tree.classes;
    const d = cellDepth(nodes.cell[n]);
    tree.looseBounds(n, this.nodeBox);
    let total = 0;
    for (let k = 0; k < C.size.length; k++) {
      const own = C.own[k].length > n ? C.own[k][n] : 0;
      const cap = C.cap[k].length > n ? C.cap[k][n] : 0;
      if (((nodes.classBits[n] >> k) & 1) !== (own > 0 ? 1 : 0))
        fail(`validate: node ${n} class bits disagree with class ${k}'s ${own} items`);
      if (own > cap) fail(`validate: node ${n} holds ${own} items of class ${k} in a region of ${cap} slots`);
      if (own === 0 && cap !== 0) fail(`validate: node ${n} keeps an empty region of class ${k}`);
      if (cap === 0) continue;
      const start = C.start[k][n];
      this.own(start, cap, `node ${n}'s region of class ${k}`);
      total += own;
      this.classCounts[k * (tree.maxDepth + 1) + d] += own;
      for (let s = start; s < start + own; s++) this.checkSlot(n, k, s);
    }
    return total;
  }

  /** A swept item's box covers its path (after a step possibly still the previous path, until it moves). */
  private checkPath(id: number): void {
    const items = this.tree.items;
    const sweeps = this.tree.sweeps;
    if (!sweeps.has(id)) fail(`validate: swept item ${id} has no path`);
    const b = sweeps.boxes;
    const f = sweeps.at(id) + FROM;
    const t = sweeps.at(id) + TO;
    const box = this.tree.slots.box;
    const r = items.boxAt(id);
    if (
      box[r] > Math.min(b[f], b[t]) ||
      box[r + 1] > Math.min(b[f + 1], b[t + 1]) ||
      box[r + 2] < Math.max(b[f + 2], b[t + 2]) ||
      box[r + 3] < Math.max(b[f + 3], b[t + 3])
    ) {
      fail(`validate: swept item ${id} has a box that does not cover its path`);
    }
  }

  /** Item id of class k in slot s: its collider word, key, path (counted) and circle. */
  private checkMember(id: number, k: number, s: number): void {
    const items = this.tree.items;
    const slots = this.tree.slots;
    this.checkKey(id, k);
    // A circle's box is square, both ends of its path for a swept one.
    if (items.hasFlag(id, CIRCLE)) {
      this.roundCounts[k]++;
      this.tree.checkSquare(id, 'validate: ');
    }
    if (items.hasFlag(id, SWEPT)) {
      this.sweptCounts[k]++;
      this.checkPath(id);
    } else if (this.tree.sweeps.has(id)) fail(`validate: item ${id} has a path but is not swept`);
    const flags = items.flagsWord(id) & (STATIC | SWEPT | CIRCLE);
    if (
      slots.colliders.word[slots.collider[s]] !==
      (flags | (k << CLASS_SHIFT) | (items.priorityOf(id) << PRIORITY_SHIFT))
    ) {
      fail(`validate: item ${id} slot collider differs from its stored collider`);
    }
  }

  /** The item in slot s of class k's region of node n: back-pointers, collider word, key, box in n's loose bounds. */
  private checkSlot(n: number, k: number, s: number): void {
    const tree = this.tree;
    const items = tree.items;
    const slots = tree.slots;
    const C = tree.classes;
    const nb = this.nodeBox;
    const id = slots.id[s];
    if (id < 0 || id >= items.capacity) fail(`validate: slot ${s} of node ${n} holds a bad id ${id}`);
    if (items.nodeOf(id) !== n)
      fail(`validate: item ${id} is stored in node ${n} but records node ${items.nodeOf(id)}`);
    if (items.slotOf(id) !== s) fail(`validate: item ${id} is in slot ${s} but records slot ${items.slotOf(id)}`);
    if (items.classOf(id) !== k)
      fail(`validate: item ${id} is stored in class ${k} but records class ${items.classOf(id)}`);
    if (C.detached[k] === 1) fail(`validate: item ${id} of detached class ${k} is in node ${n}`);
    this.checkMember(id, k, s);
    const minX = slots.box[4 * s],
      minY = slots.box[4 * s + 1],
      maxX = slots.box[4 * s + 2],
      maxY = slots.box[4 * s + 3];
    const inside = minX >= nb[0] && minY >= nb[1] && maxX <= nb[2] && maxY <= nb[3];
    if (n !== 0 && !inside) {
      fail(
        `validate: item ${id} box [${minX}, ${minY}, ${maxX}, ${maxY}] ` +
          `is outside the loose bounds of node ${n} [${nb[0]}, ${nb[1]}, ${nb[2]}, ${nb[3]}]`,
      );
    }
  }
}
