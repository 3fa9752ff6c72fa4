/** Seeded PRNG (mulberry32): the same seed gives the same game on every machine. */
export { Rng } from '../core/helpers.js';

/**
 * Overlap of two centre/size boxes, computed the way the plugin builds corners and the tree
 * stores them (in float32). A query rectangle given here must have float32 corners (the tests'
 * do: integers and halves), as the tree does not round a query's.
 */
export function overlaps(
  x1: number,
  y1: number,
  w1: number,
  h1: number,
  x2: number,
  y2: number,
  w2: number,
  h2: number,
  touching: boolean,
): boolean {
  const f = Math.fround;
  const a0 = f(x1 - w1 * 0.5),
    a1 = f(x1 + w1 * 0.5),
    b0 = f(y1 - h1 * 0.5),
    b1 = f(y1 + h1 * 0.5);
  const c0 = f(x2 - w2 * 0.5),
    c1 = f(x2 + w2 * 0.5),
    d0 = f(y2 - h2 * 0.5),
    d1 = f(y2 + h2 * 0.5);
  return touching ? a0 <= c1 && c0 <= a1 && b0 <= d1 && d0 <= b1 : a0 < c1 && c0 < a1 && b0 < d1 && d0 < b1;
}

/** A pair event as the tests compare them. */
export interface PairEvent {
  a: number;
  b: number;
  phase: number;
  priority: number;
  startedAt?: number;
}

export function eventKey(e: PairEvent): string {
  return `${e.phase}:${e.a}:${e.b}:${e.priority}${e.startedAt === undefined ? '' : `@${e.startedAt}`}`;
}

export function sortedKeys(events: PairEvent[]): string[] {
  return events.map(eventKey).sort();
}
