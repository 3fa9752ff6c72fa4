import { fit } from '../core/internal.js';
import { PairHash } from './pairhash.js';

/**
 * What the plugin remembers about each live pair, keyed by its two entities (a < b): the
 * layers the pair began with (so an exit can be matched to handlers after an entity was
 * removed or its id recycled) and its pair entity. Records live in parallel typed arrays with
 * a free list; the core's pair hash finds them in O(1).
 */
export class PairMap {
  a = new Int32Array(256);
  b = new Int32Array(256);
  layerA = new Int32Array(256);
  layerB = new Int32Array(256);
  /** Pair entity, or 0 for none. */
  entity = new Uint32Array(256);

  private free = new Int32Array(256);
  private freeCount = 0;
  private used = 0;
  private readonly index = new PairHash(256);

  /** Record of the pair (a, b) with a < b, or -1. */
  find(a: number, b: number): number {
    return this.index.find(a, b);
  }

  /** Adds the pair (a < b), which must not be present; returns its record. */
  add(a: number, b: number): number {
    const r = this.freeCount > 0 ? this.free[--this.freeCount] : this.used++;
    if (r >= this.a.length) this.reserve(r + 1);
    this.a[r] = a;
    this.b[r] = b;
    this.entity[r] = 0;
    this.index.insert(a, b, r);
    return r;
  }

  /** Records handed out so far: the live ones among them have `a[r] >= 0`. */
  get records(): number {
    return this.used;
  }

  /** Removes a record (its `a` becomes -1: see {@link records}). */
  remove(r: number): void {
    this.index.remove(this.a[r], this.b[r]);
    this.a[r] = -1;
    this.free = fit(this.free, this.freeCount + 1);
    this.free[this.freeCount++] = r;
  }

  /** Calls `visit` with every live record. */
  forEach(visit: (r: number) => void): void {
    this.index.forEach(visit);
  }

  private reserve(size: number): void {
    this.a = fit(this.a, size);
    this.b = fit(this.b, size);
    this.layerA = fit(this.layerA, size);
    this.layerB = fit(this.layerB, size);
    this.entity = fit(this.entity, size);
  }
}
