const EMPTY = -1;

/**
 * A map from a pair of ids (a < b) to a non-negative integer: open addressing with linear
 * probing in one typed array (four ints a slot: value, a, b and one unused, so a slot never
 * straddles a cache line), deletion by backward shift (no tombstones pile up), doubling at
 * half load. The record of live pairs finds its pairs with it (see pairmap.ts).
 */
export class PairHash {
  /** Pairs held. */
  count = 0;
  private table: Int32Array;
  private mask: number;

  constructor(capacity = 64) {
    let slots = 16;
    while (slots < capacity * 2) slots *= 2;
    this.table = new Int32Array(slots * 4).fill(EMPTY);
    this.mask = slots - 1;
  }

  /** The value of the pair (a, b), or -1. */
  find(a: number, b: number): number {
    const table = this.table;
    const mask = this.mask;
    for (let slot = hash(a, b) & mask; ; slot = (slot + 1) & mask) {
      const v = table[slot << 2];
      if (v === EMPTY) return EMPTY;
      if (table[(slot << 2) | 1] === a && table[(slot << 2) | 2] === b) return v;
    }
  }

  /** Adds the pair (a, b), which must not be held, with its value (0 or more). */
  insert(a: number, b: number, value: number): void {
    if ((this.count + 1) * 2 > this.mask + 1) this.rehash((this.mask + 1) * 2);
    this.place(a, b, value);
    this.count++;
  }

  /** Removes the pair (a, b), which must be held. */
  remove(a: number, b: number): void {
    const table = this.table;
    const mask = this.mask;
    let hole = hash(a, b) & mask;
    while (table[(hole << 2) | 1] !== a || table[(hole << 2) | 2] !== b || table[hole << 2] === EMPTY)
      hole = (hole + 1) & mask;
    for (let next = (hole + 1) & mask; table[next << 2] !== EMPTY; next = (next + 1) & mask) {
      const home = hash(table[(next << 2) | 1], table[(next << 2) | 2]) & mask;
      // Move the entry into the hole unless its home lies cyclically in (hole, next].
      if (hole <= next ? home <= hole || home > next : home <= hole && home > next) {
        table[hole << 2] = table[next << 2];
        table[(hole << 2) | 1] = table[(next << 2) | 1];
        table[(hole << 2) | 2] = table[(next << 2) | 2];
        hole = next;
      }
    }
    table[hole << 2] = EMPTY;
    this.count--;
  }

  /** Calls `visit(value)` for every pair held. */
  forEach(visit: (value: number) => void): void {
    const table = this.table;
    for (let i = 0; i < table.length; i += 4) if (table[i] !== EMPTY) visit(table[i]);
  }

  private place(a: number, b: number, value: number): void {
    const table = this.table;
    const mask = this.mask;
    let slot = hash(a, b) & mask;
    while (table[slot << 2] !== EMPTY) slot = (slot + 1) & mask;
    table[slot << 2] = value;
    table[(slot << 2) | 1] = a;
    table[(slot << 2) | 2] = b;
  }

  private rehash(slots: number): void {
    const old = this.table;
    this.table = new Int32Array(slots * 4).fill(EMPTY);
    this.mask = slots - 1;
    for (let i = 0; i < old.length; i += 4) if (old[i] !== EMPTY) this.place(old[i + 1], old[i + 2], old[i]);
  }
}

function hash(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}
