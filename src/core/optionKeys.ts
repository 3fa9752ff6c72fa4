import { checkFlag, checkNumber, fail, show } from './errors.js';
import type { BudgetOptions, QuadtreeOptions, QuadtreeStats } from './options.js';

/** The keys of an options type, checked by the compiler against the type in both directions. */
export type KeysOf<T> = { readonly [K in keyof Required<T>]: true };

export const QUADTREE_KEYS: KeysOf<QuadtreeOptions> = {
  x: true,
  y: true,
  width: true,
  height: true,
  maxDepth: true,
  touching: true,
  lifespan: true,
  maxLifespan: true,
  maxId: true,
  budget: true,
};

export const BUDGET_KEYS: KeysOf<BudgetOptions> = { maxPairTests: true, maxMs: true, minChecksPerTier: true };

/** Refuses an unknown key (a misspelled option would be ignored), naming the closest valid one. */
export function checkKeys(what: string, options: unknown, known: object): void {
  if (typeof options !== 'object' || options === null) fail(`${what}s must be an object (got ${show(options)})`);
  for (const key of Object.keys(options)) {
    if (Object.prototype.hasOwnProperty.call(known, key)) continue;
    const valid = Object.keys(known);
    const closest = closestKey(key, valid);
    fail(
      closest === null
        ? `unknown ${what} ${show(key)} (valid: ${valid.join(', ')})`
        : `unknown ${what} ${show(key)} (did you mean ${show(closest)}?)`,
    );
  }
}

/** The valid key nearest to `key` by edit distance, or null when none is near enough to be a slip. */
function closestKey(key: string, valid: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  const lower = key.toLowerCase();
  for (const candidate of valid) {
    const name = candidate.toLowerCase();
    // A key cut short (`minChecks` for `minChecksPerTier`) is as near as a slip of one letter.
    const d = lower.length >= 3 && name.startsWith(lower) ? 1 : editDistance(lower, name);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  // A slip changes a few letters; past half the word it is another word.
  return bestDistance <= Math.max(2, Math.floor(key.length / 2)) ? best : null;
}

/** Edits (insert, delete, change, swap of two neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[(i - 1) * cols + j] + 1, d[i * cols + j - 1] + 1, d[(i - 1) * cols + j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[(i - 2) * cols + j - 2] + 1);
      d[i * cols + j] = v;
    }
  }
  return d[rows * cols - 1];
}

/** A tree's world and limits from its options, checked (keys, numbers) and clamped to what the index can hold. */
export function readOptions(options: QuadtreeOptions, deepest: number) {
  checkKeys('option', options, QUADTREE_KEYS);
  const x = options.x ?? 0;
  const y = options.y ?? 0;
  const width = options.width ?? 1024;
  const height = options.height ?? 1024;
  checkNumber('option x', x);
  checkNumber('option y', y);
  checkNumber('option width', width);
  checkNumber('option height', height);
  if (width <= 0) fail(`option width must be positive (got ${show(width)})`);
  if (height <= 0) fail(`option height must be positive (got ${show(height)})`);
  const touching = checkFlag('option touching', options.touching ?? false);
  const rootSize = Math.max(width, height);
  // Cells closest to 40 units suit sprites of 4 to 48 units (see docs/performance.md).
  const maxDepth = clampInt('option maxDepth', options.maxDepth ?? Math.round(Math.log2(rootSize / 40)), 0, deepest);
  const lifespan = clampInt('option lifespan', options.lifespan ?? 8, 1, 65535);
  const maxLifespan = clampInt('option maxLifespan', options.maxLifespan ?? 64, lifespan, 65535);
  // Ids are 32-bit integers: a larger limit, Infinity included, means all of them; below 1 no id would fit.
  const maxIdGiven = options.maxId ?? 2 ** 24;
  if (!(maxIdGiven >= 1 && (Number.isInteger(maxIdGiven) || maxIdGiven === Infinity)))
    fail(`option maxId must be a whole number of at least 1, or Infinity (got ${show(maxIdGiven)})`);
  const maxId = Math.min(maxIdGiven, 2 ** 31 - 1);
  return { x, y, width, height, touching, rootSize, maxDepth, lifespan, maxLifespan, maxId };
}

/** Stats before any step. */
export function emptyStats(): QuadtreeStats {
  return {
    items: 0,
    outside: 0,
    moved: 0,
    relocated: 0,
    nodesLive: 1,
    nodesFree: 0,
    groupsCounting: 0,
    groupsFreed: 0,
    pairTests: 0,
    budgetedTests: 0,
    pairs: 0,
    entered: 0,
    stayed: 0,
    exited: 0,
    enteredByTier: new Int32Array(4),
    stayedByTier: new Int32Array(4),
    exitedByTier: new Int32Array(4),
    deferred: 0,
    waitBound: 0,
    stepMs: 0,
  };
}

/** A whole number within lo..hi: clamped there, rounded down; anything but a number (NaN too) is refused by name. */
export function clampInt(field: string, value: number, lo: number, hi: number): number {
  if (typeof value !== 'number' || Number.isNaN(value)) fail(`${field} must be a number (got ${show(value)})`);
  const v = Math.floor(value);
  return v < lo ? lo : v > hi ? hi : v;
}

export function budgetNumber(field: string, value: number | undefined): number {
  if (value === undefined) return Infinity;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0)
    fail(`budget.${field} must be >= 0 (got ${show(value)})`);
  return value;
}
