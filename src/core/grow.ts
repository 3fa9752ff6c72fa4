/** Any typed array the pools grow. */
export type Growable = Float64Array | Int32Array | Uint32Array | Uint8Array | Uint16Array;

/**
 * A copy of `a` with `size` entries (the new ones set to `fill`), or `a` itself when it holds
 * that many already: how every pool and buffer grows. Callers pick the size (most double).
 */
export function grow<T extends Growable>(a: T, size: number, fill = 0): T {
  if (size <= a.length) return a;
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
}

/** `a`, or a copy grown by doubling (16 entries at least) until it holds `size`. */
export function fit<T extends Growable>(a: T, size: number, fill = 0): T {
  if (size <= a.length) return a;
  let cap = Math.max(16, a.length);
  while (cap < size) cap *= 2;
  return grow(a, cap, fill);
}
