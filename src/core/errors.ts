/** Every error the library throws starts with this prefix, so games can tell ours apart. */
export const PREFIX = 'bitecs-quadtree: ';

/** Throws an Error with the library prefix. Kept out of hot loops: callers check first. */
export function fail(message: string): never {
  throw new Error(PREFIX + message);
}

/** Formats a value for an error message: -0, NaN and strings read unambiguously. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Object.is(value, -0)) return '-0';
  return String(value);
}

/** Checks an item id: a non-negative integer below `limit`. */
export function checkId(id: number, limit: number): void {
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) {
    fail(`id must be a non-negative integer (got ${show(id)})`);
  }
  if (id >= limit) fail(`id ${id} is past the id limit: ids must be below ${limit} (option maxId)`);
}

/** The largest float32: boxes are stored in float32 (see SlotPool.box), and queries take numbers within ±it. */
export const FLOAT32_MAX = 3.4028234663852886e38;
const FLOAT32_MIN = 2 ** -126;

/** A query's number as queries take it: 0 when nearer 0 than float32's smallest normal, so no square loses digits. */
export function queryNumber(v: number): number {
  return v < FLOAT32_MIN && v > -FLOAT32_MIN ? 0 : v;
}

/** What every message about a corner past float32's range ends with. */
export const FLOAT32_RANGE = `boxes are stored in float32, corners within ±${FLOAT32_MAX}`;

/** True for a number that rounds to a finite float32: NaN, ±Infinity and larger magnitudes fail. */
export function inFloat32(value: number): boolean {
  const f = Math.fround(value);
  return f - f === 0;
}

/** Checks a box given as corners: min > max, NaN, ±Infinity and corners past float32 are refused by name. */
export function checkBox(id: number, minX: number, minY: number, maxX: number, maxY: number): void {
  // Fast path: `x - x === 0` fails only for NaN, ±Infinity and non-numbers; past float32's range rounds to ±Infinity.
  if (inFloat32(minX) && inFloat32(minY) && inFloat32(maxX) && inFloat32(maxY) && minX <= maxX && minY <= maxY) return;
  checkCorner(id, 'minX', minX);
  checkCorner(id, 'minY', minY);
  checkCorner(id, 'maxX', maxX);
  checkCorner(id, 'maxY', maxY);
  // The likeliest slip is a position and a size passed for corners: the message says which the calls take.
  const corners = ' (boxes are corners: minX, minY, maxX, maxY)';
  if (minX > maxX) fail(`item ${id} has a negative width: minX ${show(minX)} > maxX ${show(maxX)}${corners}`);
  fail(`item ${id} has a negative height: minY ${show(minY)} > maxY ${show(maxY)}${corners}`);
}

/** {@link checkBox} of the float32 box in `box`, read here so the caller passes no number (see LooseQuadtree.boxIn). */
export function checkBoxIn(id: number, box: Float32Array): void {
  const minX = box[0],
    minY = box[1],
    maxX = box[2],
    maxY = box[3];
  if (minX - minX === 0 && minY - minY === 0 && maxX - maxX === 0 && maxY - maxY === 0 && minX <= maxX && minY <= maxY)
    return;
  checkBox(id, minX, minY, maxX, maxY);
}

function checkCorner(id: number, field: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    fail(`item ${id} has a non-finite ${field} (got ${show(value)})`);
  }
  if (!inFloat32(value)) {
    fail(`item ${id} has a ${field} past float32's range (got ${show(value)}): ${FLOAT32_RANGE}`);
  }
}

/** Checks a finite number argument of a query or option. */
export function checkNumber(what: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value))
    fail(`${what} must be a finite number (got ${show(value)})`);
}

/** A true-or-false option or argument, refused by name otherwise (plain JavaScript may pass "false"). */
export function checkFlag(what: string, value: unknown): boolean {
  if (typeof value !== 'boolean') fail(`${what} must be true or false (got ${show(value)})`);
  return value;
}

/** Checks a query's number: finite and within float32's range, as stored boxes are, so squares cannot overflow. */
export function checkQueryNumber(what: string, value: number): void {
  checkNumber(what, value);
  if (!(value <= FLOAT32_MAX && value >= -FLOAT32_MAX))
    fail(`${what} ${show(value)} is past float32's range (±3.4e38)`);
}

/** True for a value that stands for 32 layer bits: an integer from -2^31 to 2^32 - 1 (signed or unsigned). */
export function isBits32(value: number): boolean {
  // Written so engines inline it in the queries' argument checks.
  return value === (value | 0) || value === value >>> 0;
}

/** For {@link isSquare} of a stored box: one more rounding than the box it was given, which passed with `slack` 1. */
export const STORED = 2;

/** True when a box is square to within float32 rounding of its corners times `slack` (see {@link STORED}). */
export function isSquare(minX: number, minY: number, maxX: number, maxY: number, slack = 1): boolean {
  const d = maxX - minX - (maxY - minY);
  return (
    (d < 0 ? -d : d) <=
    2 ** -23 *
      slack *
      ((minX < 0 ? -minX : minX) + (maxX < 0 ? -maxX : maxX) + (minY < 0 ? -minY : minY) + (maxY < 0 ? -maxY : maxY))
  );
}

/** Refuses a circle whose box is not square, naming the item and both sizes (after `verb`, as `validate: `). */
export function refuseCircleBox(id: number, minX: number, minY: number, maxX: number, maxY: number, verb = ''): never {
  fail(
    `${verb}item ${id} is a circle but its box is ${show(maxX - minX)} wide and ${show(maxY - minY)} high: ` +
      'a circle is inscribed in a square box (its diameter is the width); give it centre ± radius, not corners ' +
      'read back from getBox, whose float32 rounding drifts',
  );
}

/** A value as an error names it: objects by their kind, the rest as they print. */
export function describe(v: unknown): string {
  if (typeof v !== 'object' || v === null) return show(v);
  const name = (v as { constructor?: { name?: string } }).constructor?.name ?? 'Object';
  return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
}

/** Refuses a missing or wrong output argument by name, where the write into it would throw a bare TypeError. */
export function badOutput(query: string, param: string, value: unknown, kind: string): never {
  fail(`${query} writes its answer into ${param}, which must be ${kind} the caller owns (got ${describe(value)})`);
}

/** True for an object (not null): a hit or contact record the caller owns. */
export function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

/** {@link badOutput} of whichever of a query's two output arrays is wrong, the ids first. */
export function badArrays(query: string, outIds: unknown, outDistances: unknown, distances: string): never {
  if (!Array.isArray(outIds)) badOutput(query, 'outIds', outIds, 'an array');
  badOutput(query, 'outDistances', outDistances, distances);
}

/** Refuses a missing visitor by name, where the first call of it would throw a bare TypeError. */
export function badVisitor(query: string, visit: unknown, each = 'item found'): never {
  fail(`${query} calls visit for each ${each}, which must be a function (got ${show(visit)})`);
}
