/**
 * A growable list of entity ids (up to 2^32 - 1) in a typed array that doubles when full:
 * no allocation once warm.
 */
export class IdList {
  data: Uint32Array;
  count = 0;

  constructor(capacity = 64) {
    this.data = new Uint32Array(capacity);
  }

  push(id: number): void {
    if (this.count === this.data.length) this.data = fit(this.data, this.count + 1);
    this.data[this.count++] = id;
  }

  clear(): void {
    this.count = 0;
  }
}

/** Returns `a` if it holds `size` entries, else a copy grown to at least `size` (doubling). */
export function fit<T extends Float64Array | Int32Array | Uint32Array | Uint8Array>(a: T, size: number, fill = 0): T {
  if (size <= a.length) return a;
  let cap = Math.max(16, a.length);
  while (cap < size) cap *= 2;
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
}
