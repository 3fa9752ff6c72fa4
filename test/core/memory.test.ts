import { describe, expect, it } from 'vitest';
import { LooseQuadtree, validateTree } from '../../src/core/index.js';
import { ItemStore, PENDING } from '../../src/core/store/ItemStore.js';
import { SlotPool } from '../../src/core/store/SlotPool.js';

const gc = (globalThis as { gc?: () => void }).gc;

/** Bytes held in array buffers now, after full collections. */
function arrayBytes(): number {
  for (let i = 0; i < 4; i++) gc!();
  return process.memoryUsage().arrayBuffers;
}

describe('memory follows the items (needs node --expose-gc)', () => {
  it("keeps each record in its item's slot through births, deaths, relayouts and compactions", () => {
    const tree = new LooseQuadtree({ width: 2048, height: 2048 });
    let state = 7;
    const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const live: number[] = [];
    for (let id = 0; id < 5000; id++) {
      const x = next() * 2000;
      const y = next() * 2000;
      tree.insert(id, x, y, x + 4, y + 4);
      live.push(id);
    }
    tree.step();
    const inside = (tree as unknown as Inside).tree;
    // Each step a tenth die and as many are born, under ids that died in earlier steps; a few move far.
    let older: number[] = [];
    for (let id = 5000; id < 5500; id++) older.push(id);
    for (let step = 0; step < 30; step++) {
      const died: number[] = [];
      for (let i = 0; i < 500; i++) {
        const at = Math.floor(next() * live.length);
        const id = live[at];
        live[at] = live[live.length - 1];
        live.pop();
        tree.remove(id);
        died.push(id);
      }
      for (const id of older) {
        const x = next() * 2000;
        const y = next() * 2000;
        tree.insert(id, x, y, x + 4, y + 4);
        live.push(id);
      }
      for (let i = 0; i < 200; i++) {
        const id = live[Math.floor(next() * live.length)];
        const x = next() * 2000;
        const y = next() * 2000;
        tree.move(id, x, y, x + 4, y + 4);
      }
      older = died;
      tree.step();
      validateTree(tree);
      // The record read through the id is the one in the slot that names the id.
      const { items, slots } = inside;
      for (const id of live) {
        expect(slots.id[items.slotOf(id)]).toBe(id);
        expect(inside.classes.ids[items.classOf(id)][items.listPlaceOf(id)]).toBe(id);
      }
    }
  });

  it("keeps a removed id's slot and list place until the step ends, then frees the slot", () => {
    const slots = new SlotPool(16);
    const store = new ItemStore(16, slots);
    for (let id = 0; id < 3; id++) store.add(id);
    store.setListPlace(1, 7);
    const slot = store.slotOf(1);
    store.depart(1);
    store.add(1); // back before the step ends: the same slot, the list place as a hint
    store.setNode(1, PENDING); // as an insert queues it
    expect([store.slotOf(1), store.listPlaceOf(1)]).toEqual([slot, 7]);
    store.depart(2);
    store.releaseDeparted();
    expect(store.rec[2]).toBe(-1);
    expect(slots.freeSlots).toBe(1);
    for (const id of [0, 1]) expect(slots.id[store.slotOf(id)]).toBe(id);
  });

  it('a far id costs the id map, not a record per id below it: id 16,000,000 beside id 1', () => {
    expect(gc, 'run with node --expose-gc (the unit project sets it)').toBeTypeOf('function');
    const before = arrayBytes();
    const tree = new LooseQuadtree({ width: 1024, height: 1024 });
    tree.insert(1, 0, 0, 10, 10);
    tree.insert(16_000_000, 5, 5, 15, 15);
    tree.step();
    expect(tree.current.count).toBe(1);
    const hits: number[] = [];
    expect(tree.queryRect(0, 0, 20, 20, hits)).toBe(2);
    tree.move(16_000_000, 500, 500, 510, 510);
    tree.step();
    expect(tree.exited.count).toBe(1);
    tree.remove(16_000_000);
    tree.insert(16_000_001, 0, 0, 4, 4);
    tree.step();
    validateTree(tree);
    expect(tree.current.count).toBe(1);
    const grown = arrayBytes() - before;
    // 4 bytes an id for the map and a few bits an id for the step's sets: about 72 MB.
    expect(grown, `${(grown / 2 ** 20).toFixed(1)} MB`).toBeLessThan(80 * 2 ** 20);
    expect(tree.size).toBe(2);
  });

  it('slots follow the items: 20,000 inserted and removed over and over hold the slots of 20,000', () => {
    const tree = new LooseQuadtree({ width: 4096, height: 4096 });
    // Ids spread over a wide range, as recycled and versioned ids can be.
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 20_000; i++)
        tree.insert(round * 20_000 + i, i % 4000, (i * 7) % 4000, (i % 4000) + 3, ((i * 7) % 4000) + 3);
      tree.step();
      for (let i = 0; i < 20_000; i++) tree.remove(round * 20_000 + i);
      tree.step();
      validateTree(tree);
    }
    // 20,000 live again, under ids never used before.
    for (let i = 0; i < 20_000; i++)
      tree.insert(100_000 + i, i % 4000, (i * 7) % 4000, (i % 4000) + 3, ((i * 7) % 4000) + 3);
    tree.step();
    const probe = new LooseQuadtree({ width: 4096, height: 4096 });
    for (let i = 0; i < 20_000; i++) probe.insert(i, i % 4000, (i * 7) % 4000, (i % 4000) + 3, ((i * 7) % 4000) + 3);
    probe.step();
    // The id map spans 120,000 ids; the slots (and the records in them), the 20,000 live at a time.
    expect(slotsOf(tree)).toBe(slotsOf(probe));
    // A compaction keeps a sixteenth more than the slots in use, and an eighth at most for those handed out since.
    expect(slotsOf(tree)).toBeLessThanOrEqual(20_000 * (1 + 1 / 16 + 1 / 8));
  });

  it('keeps each distinct collider once, and forgets those no item holds: priorities changed every step', () => {
    const tree = new LooseQuadtree({ width: 2048, height: 2048 });
    const colliders = () => (tree as unknown as Inside).tree.slots.colliders;
    for (let id = 0; id < 10_000; id++) {
      const x = (id * 37) % 2000;
      const y = (id * 101) % 2000;
      tree.insert(id, x, y, x + 4, y + 4);
      tree.setCollider(id, 1 << (id % 3), -1, 100);
    }
    tree.step();
    validateTree(tree);
    // Three layers, one mask, one priority, one class: three colliders for 10,000 items.
    expect(colliders().count).toBe(3);
    // Each step every item takes a priority of that step's: the last step's are forgotten.
    for (let step = 0; step < 40; step++) {
      for (let id = 0; id < 10_000; id++) tree.setCollider(id, 1 << (id % 3), -1, (step * 7 + (id & 1)) & 255);
      tree.step();
      validateTree(tree);
      expect(colliders().count).toBe(6);
    }
    expect(colliders().handedOut).toBeLessThanOrEqual(12);
    // Removed items give theirs back once their records are freed (the step after).
    for (let id = 0; id < 10_000; id++) if (id % 3 !== 0) tree.remove(id);
    tree.step();
    validateTree(tree);
    expect(colliders().count).toBe(2);
  });

  it("gives back the grid a world's first step joined every item in, once no step builds one", () => {
    const tree = new LooseQuadtree({ width: 4096, height: 4096 });
    const place = (i: number, dx: number) =>
      tree.move(i, ((i * 37) % 4000) + dx, (i * 91) % 4000, ((i * 37) % 4000) + 6 + dx, ((i * 91) % 4000) + 6);
    for (let i = 0; i < 20_000; i++)
      tree.insert(i, (i * 37) % 4000, (i * 91) % 4000, ((i * 37) % 4000) + 6, ((i * 91) % 4000) + 6);
    // Every item is new: the step joins the class whole, in a grid of every item.
    tree.step();
    expect(gridEntries(tree)).toBeGreaterThanOrEqual(20_000);
    // A tenth moving takes the movers' probes of the tree: no grid.
    for (let step = 1; step <= 70; step++) {
      for (let i = step % 10; i < 20_000; i += 10) place(i, step % 2);
      tree.step();
    }
    validateTree(tree);
    expect(gridEntries(tree)).toBe(0);
    // Every item moving again: a grid is built anew, and the pairs are the same as a new tree's.
    for (let i = 0; i < 20_000; i++) place(i, 3);
    tree.step();
    validateTree(tree);
    const fresh = new LooseQuadtree({ width: 4096, height: 4096 });
    for (let i = 0; i < 20_000; i++)
      fresh.insert(i, ((i * 37) % 4000) + 3, (i * 91) % 4000, ((i * 37) % 4000) + 9, ((i * 91) % 4000) + 6);
    fresh.step();
    expect(tree.current.count).toBe(fresh.current.count);
    expect(Array.from(tree.current.a.subarray(0, tree.current.count))).toEqual(
      Array.from(fresh.current.a.subarray(0, fresh.current.count)),
    );
    expect(Array.from(tree.current.b.subarray(0, tree.current.count))).toEqual(
      Array.from(fresh.current.b.subarray(0, fresh.current.count)),
    );
  });
});

interface Inside {
  tree: {
    items: ItemStore;
    slots: SlotPool;
    classes: { ids: Int32Array[]; end: Int32Array };
  };
}

/** Entries the probe grid has room for. */
function gridEntries(tree: LooseQuadtree): number {
  return (
    (tree as unknown as { broadphase: { finder: { grid: { tag: Int32Array } } } }).broadphase.finder.grid.tag.length / 4
  );
}

function slotsOf(tree: LooseQuadtree): number {
  return (tree as unknown as Inside).tree.slots.record.length / 4;
}
