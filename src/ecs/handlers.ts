import type { KeysOf } from '../core/internal.js';
import type { PhaseValue } from './components.js';

/**
 * Called by the dispatch system for one pair in one phase. `self` is the entity matching the
 * handler's `layer`, `other` the one matching `other`. Each pair is handled once: when both
 * entities match both filters (`layer === other`, as with the default "any" filters), `self`
 * is the lower id. `priority` is the pair's priority.
 */
export type CollisionHandler = (self: number, other: number, phase: PhaseValue, priority: number) => void;

/** Options of {@link onCollision}. */
export interface CollisionHandlerOptions {
  /** Layer bits `self` must have one of. @default -1 (any layer) */
  layer?: number;
  /** Layer bits `other` must have one of. @default -1 (any layer) */
  other?: number;
  /**
   * 0..255: handlers are called highest first; 192-255 (tier 0) are never cut by the
   * dispatch budget.
   * @default 128
   */
  priority?: number;
  /** The phases wanted, as bits of {@link Phase}. @default Phase.All */
  phases?: number;
}

/** Keys of {@link CollisionHandlerOptions}. */
export const HANDLER_KEYS: KeysOf<CollisionHandlerOptions> = { layer: true, other: true, priority: true, phases: true };

/**
 * A registered handler and its backlog: enter and exit calls the budget deferred, in a ring
 * of parallel typed arrays, oldest first.
 */
export class HandlerRecord {
  readonly fn: CollisionHandler;
  readonly layer: number;
  readonly other: number;
  readonly priority: number;
  readonly phases: number;
  /** Registration number: ties of priority are called in registration order. */
  readonly order: number;
  active = true;

  /** Where the stay walk resumes: the sort key of the first pair not yet served. */
  cursorSet = false;
  cursorPriority = 0;
  cursorA = 0;
  cursorB = 0;

  selfEid = new Uint32Array(16);
  otherEid = new Uint32Array(16);
  /** The pair's entities (a < b) and the step it began: to drop enters of pairs that ended. */
  pairA = new Int32Array(16);
  pairB = new Int32Array(16);
  startedAt = new Int32Array(16);
  phase = new Uint8Array(16);
  pairPriority = new Uint8Array(16);
  head = 0;
  count = 0;

  constructor(fn: CollisionHandler, layer: number, other: number, priority: number, phases: number, order: number) {
    this.fn = fn;
    this.layer = layer;
    this.other = other;
    this.priority = priority;
    this.phases = phases;
    this.order = order;
  }

  /** Appends a deferred call. */
  defer(self: number, other: number, a: number, b: number, startedAt: number, phase: number, priority: number): void {
    if (this.count === this.phase.length) this.grow();
    const i = (this.head + this.count) & (this.phase.length - 1);
    this.selfEid[i] = self;
    this.otherEid[i] = other;
    this.pairA[i] = a;
    this.pairB[i] = b;
    this.startedAt[i] = startedAt;
    this.phase[i] = phase;
    this.pairPriority[i] = priority;
    this.count++;
  }

  /** Index of the oldest deferred call; the caller reads it, then calls {@link shift}. */
  front(): number {
    return this.head;
  }

  shift(): void {
    this.head = (this.head + 1) & (this.phase.length - 1);
    this.count--;
  }

  private grow(): void {
    // Unroll the ring to the front of arrays twice as large.
    const size = this.phase.length * 2;
    const n = this.count;
    const mask = this.phase.length - 1;
    const order = new Int32Array(n);
    for (let k = 0; k < n; k++) order[k] = (this.head + k) & mask;
    this.selfEid = unroll(this.selfEid, order, new Uint32Array(size));
    this.otherEid = unroll(this.otherEid, order, new Uint32Array(size));
    this.pairA = unroll(this.pairA, order, new Int32Array(size));
    this.pairB = unroll(this.pairB, order, new Int32Array(size));
    this.startedAt = unroll(this.startedAt, order, new Int32Array(size));
    this.phase = unroll(this.phase, order, new Uint8Array(size));
    this.pairPriority = unroll(this.pairPriority, order, new Uint8Array(size));
    this.head = 0;
  }
}

function unroll<T extends Uint32Array | Int32Array | Uint8Array>(from: T, order: Int32Array, to: T): T {
  for (let k = 0; k < order.length; k++) to[k] = from[order[k]];
  return to;
}

/** Sorts handlers by priority (high first), then registration order. */
export function byPriority(x: HandlerRecord, y: HandlerRecord): number {
  return x.priority !== y.priority ? y.priority - x.priority : x.order - y.order;
}
