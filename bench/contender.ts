import type { Scene } from './scene.js';

/**
 * An order-independent fingerprint of a pair set: the count and the wrapping sum of a 32-bit
 * mix of (min id, max id). A missing, extra or duplicated pair changes it.
 */
export class PairSum {
  count = 0;
  hash = 0;

  reset(): void {
    this.count = 0;
    this.hash = 0;
  }

  add(a: number, b: number): void {
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    let h = Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi + 0x7f4a7c15, 0x85ebca77);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    this.count++;
    this.hash = (this.hash + h) | 0;
  }
}

/** One way of keeping the overlapping pairs of a moving scene. */
export interface Contender {
  /** Builds the index from the scene's initial boxes (not timed). */
  setup(scene: Scene): void;
  /**
   * Takes the movers' new boxes from the scene and reports every strictly overlapping pair
   * once into `sum` (already reset). Timed.
   */
  frame(scene: Scene, sum: PairSum): void;
}

/** A named way to build a contender, with the largest N it is run at. */
export interface ContenderSpec {
  readonly name: string;
  /** One line describing the setup, for the notes under the table. */
  readonly note: string;
  readonly maxN?: number;
  create(): Contender;
}
