import type { Broadphase } from './broadphase.js';
import { fail } from './errors.js';
import { MIXED } from './classes.js';
import { ABSENT, CELL, FLAGS, LAYER, MASK, MAX_X, MAX_Y, MIN_X, MIN_Y, NODE, OUTSIDE, PAIR_HEAD, PENDING, STALE, STATIC } from './items.js';
import { MIN_REGION } from './slots.js';
import { before } from './lists.js';
import { NONE } from './nodes.js';
import type { TreeIndex } from './tree.js';

/**
 * Proves the invariants of the index; throws naming the first one broken. Slow on purpose:
 * it recounts everything from scratch instead of trusting any counter.
 */
export function validateIndex(tree: TreeIndex, bp: Broadphase): void {
  const nodes = tree.nodes;
  const items = tree.items;
  const seenGroup = new Uint8Array(nodes.groupsUsed);
  seenGroup[0] = 1;
  let liveGroups = 1;
  let placed = 0;
  let outside = 0;
  const stack = [0];
  const slots = tree.slots;
  const slotOwner = new Uint8Array(slots.used);
  let regionSlots = 0;
  const C = tree.classes;
  const classCounts = new Int32Array(C.size.length * (tree.maxDepth + 1));
  staleListed = new Set(tree.staleIds());
  if (nodes.parent[0] !== NONE || nodes.depth[0] !== 0) fail('validate: root has a parent or a depth');
  while (stack.length > 0) {
    const n = stack.pop()!;
    const d = nodes.depth[n];
    const own = validateRegions(tree, n, slotOwner, classCounts);
    regionSlots += slotsHeld;
    slotsHeld = 0;
    outside += outsideSeen;
    outsideSeen = 0;
    placed += own;
    let total = own;
    const first = nodes.firstChild[n];
    if (first !== NONE) {
      if ((first & 3) !== 0 || first >> 2 >= nodes.groupsUsed) fail(`validate: node ${n} has a bad child group ${first}`);
      const g = first >> 2;
      if (seenGroup[g]) fail(`validate: group ${g} is reachable twice`);
      seenGroup[g] = 1;
      liveGroups++;
      let groupTotal = 0;
      for (let c = first; c < first + 4; c++) {
        if (nodes.parent[c] !== n) fail(`validate: node ${c} has parent ${nodes.parent[c]}, expected ${n}`);
        if (nodes.depth[c] !== d + 1) fail(`validate: node ${c} has depth ${nodes.depth[c]}, expected ${d + 1}`);
        const cx = (nodes.cellX[n] << 1) + ((c - first) & 1);
        const cy = (nodes.cellY[n] << 1) + ((c - first) >> 1);
        if (nodes.cellX[c] !== cx || nodes.cellY[c] !== cy) fail(`validate: node ${c} has the wrong cell`);
        const s = tree.cellSize[d + 1];
        const lx = tree.originX + cx * s - s * 0.5;
        const ly = tree.originY + cy * s - s * 0.5;
        const nb = nodes.bounds;
        if (nb[4 * c] !== lx || nb[4 * c + 1] !== ly || nb[4 * c + 2] !== lx + 2 * s || nb[4 * c + 3] !== ly + 2 * s) {
          fail(`validate: node ${c} has loose bounds that do not match its cell`);
        }
        total += nodes.total[c];
        groupTotal += nodes.total[c];
        stack.push(c);
      }
      const counting = nodes.countingAt[g] !== NONE;
      if (counting !== (groupTotal === 0)) {
        fail(`validate: group ${g} holds ${groupTotal} items but ${counting ? 'is' : 'is not'} counting down`);
      }
      if (counting && (nodes.life[g] < 1 || nodes.life[g] > tree.maxLifespan)) fail(`validate: group ${g} has life ${nodes.life[g]}`);
      if (nodes.span[g] < tree.lifespan || nodes.span[g] > tree.maxLifespan) fail(`validate: group ${g} has span ${nodes.span[g]}`);
    }
    if (total !== nodes.total[n]) fail(`validate: node ${n} counts ${nodes.total[n]} items in its subtree, holds ${total}`);
  }

  // Pool accounting: every group is live, free or the reserved root group, exactly once.
  let free = 0;
  for (let f = nodes.freeHead; f !== NONE; f = nodes.firstChild[f]) {
    const g = f >> 2;
    if (seenGroup[g]) fail(`validate: group ${g} is both live and free`);
    seenGroup[g] = 1;
    free++;
    if (free > nodes.groupsUsed) fail('validate: the free list has a cycle');
  }
  if (free !== nodes.freeGroups) fail(`validate: free list holds ${free} groups, counter says ${nodes.freeGroups}`);
  if (liveGroups + free !== nodes.groupsUsed) {
    fail(`validate: ${liveGroups} live + ${free} free groups != ${nodes.groupsUsed} allocated (leak)`);
  }
  for (let i = 0; i < nodes.countingCount; i++) {
    const g = nodes.counting[i];
    if (nodes.countingAt[g] !== i) fail(`validate: counting list entry ${i} (group ${g}) does not point back`);
  }

  for (let k = 0; k < C.size.length; k++) {
    let size = 0;
    for (let d = 0; d <= tree.maxDepth; d++) {
      const count = classCounts[k * (tree.maxDepth + 1) + d];
      if (C.levelItems[k][d] !== count) fail(`validate: class ${k} counts ${C.levelItems[k][d]} items at depth ${d}, holds ${count}`);
      size += count;
    }
    if (C.size[k] !== size) fail(`validate: class ${k} counts ${C.size[k]} items, holds ${size}`);
    for (let d = 0; d <= tree.maxDepth; d++) {
      const mirror = C.cells[k][d];
      const cells = tree.levelCells[d];
      if (mirror === null || cells === null) continue;
      for (let c = 0; c < cells.length; c++) {
        const n = cells[c];
        const own = n === NONE ? 0 : C.own[k][n];
        if (mirror[2 * c + 1] !== own || (own > 0 && mirror[2 * c] !== C.start[k][n])) fail(`validate: class ${k} cell ${c} of depth ${d} is out of date`);
      }
    }
  }
  if (regionSlots + slots.freeSlots !== slots.used) {
    fail(`validate: ${regionSlots} slots in regions + ${slots.freeSlots} free != ${slots.used} handed out (leak)`);
  }

  // Items: each placed one was reached above; the rest are absent or pending.
  let present = 0;
  let pending = 0;
  for (let id = 0; id < items.capacity; id++) {
    const n = items.i32[(id << 4) | NODE];
    if (n === ABSENT) {
      if (bp.linked && items.i32[(id << 4) | PAIR_HEAD] !== NONE) fail(`validate: absent item ${id} still has pairs`);
      continue;
    }
    present++;
    if (n === PENDING) pending++;
  }
  if (present !== tree.size) fail(`validate: ${present} items present, size says ${tree.size}`);
  if (present - pending !== placed) fail(`validate: ${present - pending} items placed but ${placed} reachable`);
  if (outside !== tree.outside) fail(`validate: ${outside} items outside, counter says ${tree.outside}`);
  if (nodes.total[0] !== placed) fail(`validate: root counts ${nodes.total[0]} items, ${placed} reachable`);

  validatePairs(tree, bp);
}

// What validateRegions found besides its return value, and the lagging items listed (module
// scratch: validate is not re-entrant).
let slotsHeld = 0;
let outsideSeen = 0;
let staleListed = new Set<number>();

/**
 * Node n's class regions: each in the slot pool and owned once, its items pointing back at
 * n, their class, their slot; slot copies equal the records; keyed classes hold only their
 * key; boxes inside n's loose bounds (or flagged outside, in the root). Returns the node's items.
 */
function validateRegions(tree: TreeIndex, n: number, slotOwner: Uint8Array, classCounts: Int32Array): number {
  const nodes = tree.nodes;
  const items = tree.items;
  const slots = tree.slots;
  const C = tree.classes;
  const nb = nodes.bounds;
  const d = nodes.depth[n];
  let total = 0;
  for (let k = 0; k < C.size.length; k++) {
    const own = C.used[k] === 1 ? C.own[k][n] : 0;
    const cap = C.used[k] === 1 ? C.cap[k][n] : 0;
    if (((nodes.classBits[n] >> k) & 1) !== (own > 0 ? 1 : 0)) fail(`validate: node ${n} class bits disagree with class ${k}'s ${own} items`);
    if (own > cap) fail(`validate: node ${n} holds ${own} items of class ${k} in a region of ${cap} slots`);
    if (own === 0 && cap !== 0) fail(`validate: node ${n} keeps an empty region of class ${k}`);
    if (cap !== 0 && (cap < MIN_REGION || (cap & (cap - 1)) !== 0)) fail(`validate: node ${n} has a region of ${cap} slots, not a power of two`);
    if (cap === 0) continue;
    const start = C.start[k][n];
    if (start + cap > slots.used) fail(`validate: node ${n} region runs past the slot pool`);
    for (let s = start; s < start + cap; s++) {
      if (slotOwner[s] !== 0) fail(`validate: slot ${s} belongs to two regions`);
      slotOwner[s] = 1;
    }
    slotsHeld += cap;
    total += own;
    classCounts[k * (tree.maxDepth + 1) + d] += own;
    for (let s = start; s < start + own; s++) {
      const id = slots.id[s];
      if (id < 0 || id >= items.capacity) fail(`validate: slot ${s} of node ${n} holds a bad id ${id}`);
      if (items.i32[(id << 4) | NODE] !== n) fail(`validate: item ${id} is stored in node ${n} but records node ${items.i32[(id << 4) | NODE]}`);
      if (items.slot[id] !== s) fail(`validate: item ${id} is in slot ${s} but records slot ${items.slot[id]}`);
      if (items.classOf(id) !== k) fail(`validate: item ${id} is stored in class ${k} but records class ${items.classOf(id)}`);
      if (items.i32[(id << 4) | CELL] !== ((d << 28) | (nodes.cellY[n] << 14) | nodes.cellX[n])) fail(`validate: item ${id} records another cell than its node's`);
      const layer = items.i32[(id << 4) | LAYER], mask = items.i32[(id << 4) | MASK], isStatic = items.i32[(id << 4) | FLAGS] & STATIC;
      if (k !== MIXED && ((layer & ~C.layer[k]) !== 0 || C.mask[k] !== mask || C.isStatic[k] !== isStatic ||
          C.self[k] !== ((layer & mask) !== 0 ? 1 : 0))) {
        fail(`validate: item ${id} (layer ${layer}, mask ${mask}, static ${isStatic}) is in class ${k} of another key`);
      }
      // A deferred class's moved item lags (see TreeIndex.defer): its slot and node catch up
      // later, but it is listed, off the root, and inside the root's loose bounds.
      const stale = (items.i32[(id << 4) | FLAGS] & STALE) !== 0;
      if (stale) {
        if (C.deferred[k] !== 1) fail(`validate: item ${id} lags in class ${k}, which is not deferred`);
        if (!staleListed.has(id)) fail(`validate: item ${id} lags but is not listed`);
        if (n === 0 || !tree.fitsRoot(id)) fail(`validate: item ${id} lags in the root or outside the root's loose bounds`);
      } else if (slots.box[4 * s] !== items.f64[(id << 3) | MIN_X] || slots.box[4 * s + 1] !== items.f64[(id << 3) | MIN_Y] ||
          slots.box[4 * s + 2] !== items.f64[(id << 3) | MAX_X] || slots.box[4 * s + 3] !== items.f64[(id << 3) | MAX_Y]) {
        fail(`validate: item ${id} slot box differs from its stored box`);
      }
      const meta = slots.meta;
      if (meta[4 * s] !== layer || meta[4 * s + 1] !== mask || meta[4 * s + 2] !== (isStatic | (k << 8)) || meta[4 * s + 3] !== items.priorityOf(id)) {
        fail(`validate: item ${id} slot collider differs from its stored collider`);
      }
      const inside = items.f64[(id << 3) | MIN_X] >= nb[4 * n] && items.f64[(id << 3) | MIN_Y] >= nb[4 * n + 1] &&
        items.f64[(id << 3) | MAX_X] <= nb[4 * n + 2] && items.f64[(id << 3) | MAX_Y] <= nb[4 * n + 3];
      if (n !== 0 && !inside && !stale) {
        fail(`validate: item ${id} box [${items.f64[(id << 3) | MIN_X]}, ${items.f64[(id << 3) | MIN_Y]}, ${items.f64[(id << 3) | MAX_X]}, ${items.f64[(id << 3) | MAX_Y]}] ` +
          `is outside the loose bounds of node ${n} [${nb[4 * n]}, ${nb[4 * n + 1]}, ${nb[4 * n + 2]}, ${nb[4 * n + 3]}]`);
      }
      if (n === 0 && !inside) {
        outsideSeen++;
        if ((items.i32[(id << 4) | FLAGS] & OUTSIDE) === 0) fail(`validate: item ${id} is outside the root but not flagged`);
      } else if ((items.i32[(id << 4) | FLAGS] & OUTSIDE) !== 0) {
        fail(`validate: item ${id} is flagged outside but fits node ${n}`);
      }
    }
  }
  if (nodes.own[n] !== total) fail(`validate: node ${n} counts ${nodes.own[n]} own items, its regions hold ${total}`);
  return total;
}

function validatePairs(tree: TreeIndex, bp: Broadphase): void {
  if (!bp.linked) {
    validateList(tree, bp);
    return;
  }
  const items = tree.items;
  const pairs = bp.pairs;
  let edges = 0;
  for (let id = 0; id < items.capacity; id++) {
    let prev = NONE;
    for (let e = items.i32[(id << 4) | PAIR_HEAD]; e !== NONE; e = pairs.edgeNext(e)) {
      const p = e >> 1;
      if (pairs.alive[p] !== 1) fail(`validate: item ${id} lists dead pair ${p}`);
      if (pairs.edgePrev(e) !== prev) fail(`validate: pair edge ${e} of item ${id} has a broken prev link`);
      const self = (e & 1) === 0 ? pairs.a(p) : pairs.b(p);
      if (self !== id) fail(`validate: pair ${p} is listed under item ${id} but joins ${pairs.a(p)} and ${pairs.b(p)}`);
      prev = e;
      edges++;
    }
  }
  if (edges !== pairs.count * 2) fail(`validate: ${edges} pair edges for ${pairs.count} pairs`);
  const cur = bp.current;
  let prevP = 256, prevA = -1, prevB = -1;
  let live = 0;
  for (let i = 0; i < cur.count; i++) {
    // Pairs ended by a removal since the last step leave the list at the next step.
    if (pairs.alive[cur.index[i]] === 0) continue;
    live++;
    const a = cur.a[i], b = cur.b[i], pr = cur.priority[i];
    if (!(a < b)) fail(`validate: current pair ${i} (${a}, ${b}) is not ordered a < b`);
    const p = pairs.find(a, b);
    if (p === NONE || p !== cur.index[i]) fail(`validate: current pair (${a}, ${b}) is not in the pair set`);
    if (pairs.priority[p] !== pr) fail(`validate: current pair (${a}, ${b}) lists priority ${pr}, pair has ${pairs.priority[p]}`);
    const sorted = pr !== prevP ? pr < prevP : a !== prevA ? a > prevA : b > prevB;
    if (!sorted) fail(`validate: current pairs are out of order at ${i}`);
    if ((items.i32[(a << 4) | FLAGS] & STATIC) !== 0 && (items.i32[(b << 4) | FLAGS] & STATIC) !== 0 &&
        !bp.isDirty(a) && !bp.isDirty(b)) {
      fail(`validate: static items ${a} and ${b} are paired`);
    }
    prevP = pr;
    prevA = a;
    prevB = b;
  }
  if (live !== pairs.count) fail(`validate: current list has ${live} pairs, the set has ${pairs.count}`);
}

/**
 * The current list while the pair pool is not kept (after one-pass steps): ordered, each pair
 * once, no static pairs, begun no later than the last step. Pairs of items removed (or
 * removed and inserted again) since the step are still listed; they end in the next one.
 */
function validateList(tree: TreeIndex, bp: Broadphase): void {
  const i32 = tree.items.i32;
  const cur = bp.current;
  for (let i = 0; i < cur.count; i++) {
    const a = cur.a[i], b = cur.b[i], pr = cur.priority[i];
    if (!(a < b)) fail(`validate: current pair ${i} (${a}, ${b}) is not ordered a < b`);
    if (i > 0 && !before(cur.priority[i - 1], cur.a[i - 1], cur.b[i - 1], pr, a, b)) {
      fail(`validate: current pairs are out of order (or repeated) at ${i}`);
    }
    if (cur.born[i] > bp.stepId || cur.born[i] < 0) fail(`validate: current pair (${a}, ${b}) began at step ${cur.born[i]}, after the last step ${bp.stepId}`);
    if (!bp.pairLeft(a, b) && (i32[(a << 4) | FLAGS] & STATIC) !== 0 && (i32[(b << 4) | FLAGS] & STATIC) !== 0 &&
        !bp.isDirty(a) && !bp.isDirty(b)) {
      fail(`validate: static items ${a} and ${b} are paired`);
    }
  }
}
