import { KeySorter } from '../lists/radix.js';
import { declareScratch } from '../snapshot/StatePlan.js';
import { NONE } from '../store/NodePool.js';
import { MIN_SLOTS, roomFor, runRoomFor } from '../store/SlotPool.js';
import type { SpatialTree } from './SpatialTree.js';

/** Items beyond which the slots outgrow a core's cache: regions are then relaid more often. */
const LARGE_TREE = 1 << 15;

/** Memory order between steps: lists by id, regions by class, level and row; passes read in order. */
export class Layout {
  private readonly tree: SpatialTree;

  constructor(tree: SpatialTree) {
    this.tree = tree;
    // Written before it is read, in each relayout: not state.
    declareScratch(this, 'from');
  }

  /** Scratch: each member's slot before {@link relayList}, by new place. */
  private from: Int32Array = new Int32Array(0);

  private readonly sorter = new KeySorter();

  /** Puts every class's list in order (see CollisionClasses.tidy). Between passes only. */
  tidy(): void {
    const C = this.tree.classes;
    for (let k = 0; k < C.size.length; k++) {
      if (C.end[k] === 0) continue;
      const changed = C.tidy(k, this.tree.items, this.sorter, this.tree.budgeted && C.detached[k] === 1 && C.waits(k));
      // A detached class's slots follow their members' new places.
      if (changed && C.detached[k] === 1) this.relayList(k);
    }
  }

  /** Moves detached class k's slots to its members' new list places, within its region. */
  relayList(k: number): void {
    const C = this.tree.classes;
    const items = this.tree.items;
    const ids = C.ids[k];
    const base = C.listStart[k];
    const end = C.end[k];
    if (this.from.length < end) this.from = new Int32Array(end);
    for (let i = 0; i < end; i++) this.from[i] = items.slotOf(ids[i]);
    this.tree.slots.gather(base, C.listRoom[k], this.from, end);
    for (let i = 0; i < end; i++) items.setSlot(ids[i], base + i);
  }

  /**
   * Relays the slot regions, so probes read cells' slots in order, once half are free or enough items changed node (a
   * quarter, a sixteenth past cache size). At a step's end only: no item is then between homes (see SlotPool.allocOne).
   */
  compactIfScattered(): void {
    const slots = this.tree.slots;
    const sparse = slots.freeSlots * 2 > slots.used && slots.capacity > MIN_SLOTS;
    const share = this.tree.size > LARGE_TREE ? 16 : 4;
    if (!sparse && (this.tree.moved * share < this.tree.size || this.tree.size === 0)) return;
    this.tree.moved = 0;
    slots.beginCompact();
    this.relayRegions();
    slots.endCompact();
  }

  /** Copies every region for a compaction in class, level, row order, and points its items to their new slots. */
  private relayRegions(): void {
    const C = this.tree.classes;
    const slots = this.tree.slots;
    const items = this.tree.items;
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
      for (let d = 0; d <= this.tree.maxDepth; d++) {
        const cells = this.tree.nodes.levelCells[d];
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
}
