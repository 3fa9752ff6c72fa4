import { resize, Slack } from '../grow.js';
import { declareExtent } from '../snapshot/StatePlan.js';
import type { PairList } from '../options.js';

/**
 * A growable {@link PairList}, with each pair's start step when it is the current list (a
 * step's found pairs, entries and exits need none: their `born` is an empty array).
 */
export class PairBuffer implements PairList {
  count = 0;
  a: Int32Array;
  b: Int32Array;
  priority: Uint8Array;
  /** Step each pair began (the current list only). */
  born: Int32Array;

  /** Whether it has the `born` column. */
  readonly withBorn: boolean;

  constructor(capacity = 64, withBorn = true) {
    this.withBorn = withBorn;
    this.a = new Int32Array(capacity);
    this.b = new Int32Array(capacity);
    this.priority = new Uint8Array(capacity);
    this.born = new Int32Array(withBorn ? capacity : 0);
    // Entries past the count are written before they are read: snapshots skip them.
    const inUse = (): number => this.count;
    for (const key of ['a', 'b', 'priority', 'born']) declareExtent(this, key, inUse);
  }

  push(a: number, b: number, priority: number, born = 0): void {
    if (this.count === this.a.length) this.reserve(this.count + 1);
    const i = this.count++;
    this.a[i] = a;
    this.b[i] = b;
    this.priority[i] = priority;
    if (this.withBorn) this.born[i] = born;
  }

  /**
   * Makes room for `capacity` entries, growing by an eighth at least: a list that creeps up
   * grows every eighth more pairs, and a long-lived list keeps little room it never uses (grown
   * by half, the current list kept a third of its room empty).
   */
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

  /**
   * Gives memory back after a burst, shrinking to a quarter again what it holds (see Slack): a
   * step's found pairs and their sort's scratch then keep a fifth of their room free in a steady
   * scene, where half again kept a third (0.9 bytes a current pair more with a tenth of 100k
   * boxes moving). Called once a step on the lists whose size follows the step, not the pairs.
   */
  trim(): void {
    if (this.slack.due(this.count, this.a.length)) this.resize(Math.max(64, this.count + (this.count >> 2)));
  }
}

/** `a` with `size` entries (grown or cut), or `a` itself when it is an absent column (empty). */
function resized<T extends Int32Array | Uint8Array>(a: T, size: number): T {
  return a.length === 0 ? a : resize(a, size);
}
