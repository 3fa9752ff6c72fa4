import { resize, Slack } from '../grow.js';
import { declareExtent } from '../snapshot/StatePlan.js';
import type { PairList } from '../options.js';

/** A growable {@link PairList}, with each pair's start step in the current list (others have an empty `born`). */
export class PairBuffer implements PairList {
  count = 0;
  a: Int32Array;
  b: Int32Array;
  priority: Uint8Array;
  /** Step each pair began (the current list only). */
  born: Int32Array;

  constructor(capacity = 64, withBorn = true) {
    this.a = new Int32Array(capacity);
    this.b = new Int32Array(capacity);
    this.priority = new Uint8Array(capacity);
    this.born = new Int32Array(withBorn ? capacity : 0);
    // Entries past the count are written before they are read: snapshots skip them.
    const inUse = (): number => this.count;
    for (const key of ['a', 'b', 'priority', 'born']) declareExtent(this, key, inUse);
  }

  /** Appends a pair. Kept small: the joins' loops inline it. */
  push(a: number, b: number, priority: number): void {
    // Grown by half, so a burst (a level's first step) is copied a few times, not once per eighth.
    if (this.count === this.a.length) this.resize(this.count + (this.count >> 1) + 16);
    const i = this.count++;
    this.a[i] = a;
    this.b[i] = b;
    this.priority[i] = priority;
  }

  /** Makes room for `capacity` entries, growing by an eighth at least: little unused room in a long-lived list. */
  reserve(capacity: number): void {
    if (capacity <= this.a.length) return;
    const least = this.a.length + (this.a.length >> 3);
    this.resize(capacity < least ? least : capacity);
  }

  /** Gives every column `size` entries, the first ones kept; an absent `born` stays empty. */
  private resize(size: number): void {
    this.a = resized(this.a, size);
    this.b = resized(this.b, size);
    this.priority = resized(this.priority, size);
    this.born = resized(this.born, size);
  }

  private readonly slack = new Slack();

  /** Shrinks to a quarter again what it holds after a burst (see Slack); once a step, for lists sized by the step. */
  trim(): void {
    if (this.slack.due(this.count, this.a.length)) this.resize(Math.max(64, this.count + (this.count >> 2)));
  }
}

/** `a` with `size` entries (grown or cut), or `a` itself when it is an absent column (empty). */
function resized<T extends Int32Array | Uint8Array>(a: T, size: number): T {
  return a.length === 0 ? a : resize(a, size);
}
