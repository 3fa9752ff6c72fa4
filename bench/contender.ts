import type { Scene } from './scene.js';

/**
 * An order-independent fingerprint of a pair set: the count and the wrapping sum of a 32-bit
 * mix of (min id, max id). A missing, extra or duplicated pair changes it.
 */
export class PairSum {
  count = 0;
  hash = 0;
  /** The same over the pairs of priority 192 or more (tier 0), for contenders that pass priorities. */
  topCount = 0;
  topHash = 0;

  reset(): void {
    this.count = 0;
    this.hash = 0;
    this.topCount = 0;
    this.topHash = 0;
  }

  add(a: number, b: number, priority = 0): void {
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    let h = Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi + 0x7f4a7c15, 0x85ebca77);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    this.count++;
    this.hash = (this.hash + h) | 0;
    if (priority >= 192) {
      this.topCount++;
      this.topHash = (this.topHash + h) | 0;
    }
  }

  equals(other: PairSum): boolean {
    return this.count === other.count && this.hash === other.hash;
  }

  /** Whether the tier-0 pairs are the same (a budget never cuts them). */
  equalsTop(other: PairSum): boolean {
    return this.topCount === other.topCount && this.topHash === other.topHash;
  }
}

/** A scene that can be stepped by one frame; every copy made from the same seed steps alike. */
export interface Steppable {
  advance(): void;
}

/** One way of keeping the overlapping pairs of a moving scene. */
export interface Contender<S = Scene> {
  /** Builds the index from the scene's initial boxes (not timed). */
  setup(scene: S): void;
  /**
   * Untimed work before each frame that a game would do anyway (the ECS movement system
   * writing Position). Its time is recorded apart, for information.
   */
  prepare?(scene: S): void;
  /**
   * Takes the movers' new boxes from the scene and reports every overlapping pair once into
   * `sum` (already reset). Timed.
   */
  frame(scene: S, sum: PairSum): void;
  /** Overlap tests made by the last frame, for the contenders that count them. */
  pairTests?(): number;
}

/** A named way to build a contender, with the largest N it is run at. */
export interface ContenderSpec<S = Scene> {
  /** Short unique id within its table, matched by `--only` (as is the name). */
  readonly key: string;
  readonly name: string;
  /** One line describing the setup, for the notes under the table. */
  readonly note: string;
  readonly maxN?: number;
  /** A setting swept per scene and N before the table runs (bench/tune.ts); `create` uses its default. */
  readonly tuning?: Tuning<S>;
  create(): Contender<S>;
}

/** One knob of a contender (a cell size, a node size, a margin) and how to build it at each value. */
export interface Tuning<S = Scene> {
  /** The knob's name with its unit, as the printed results name it ("cell px"). */
  readonly what: string;
  readonly candidates: readonly number[];
  /** The setting `create` uses, kept with --no-tune. */
  readonly fallback: number;
  /** The contender at `setting`: the same key and name, its note naming the setting. */
  build(setting: number): ContenderSpec<S>;
}

/** Whether `--only` lets a contender run (matched by key or name). */
export type Select = (spec: { readonly key: string; readonly name: string }) => boolean;

/** How a table is run: its N, frames, seed and runs, which contenders, and where progress goes. */
export interface TableOptions {
  ns: number[];
  warmup: number;
  framesFor: (n: number) => number;
  seed: number;
  runs: number;
  select: Select;
  log: (line: string) => void;
}
