/** Any typed array the pools grow. */
export type Growable = Float64Array | Float32Array | Int32Array | Uint32Array | Uint8Array | Uint16Array;

/** A copy of `a` with `size` entries (new ones `fill`), or `a` itself when big enough: how every pool grows. */
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

/** A copy of `a` with `size` entries: grown (see {@link grow}) or cut to its first `size`. */
export function resize<T extends Growable>(a: T, size: number): T {
  return size > a.length ? grow(a, size) : (a.slice(0, size) as T);
}

/** Whether a step-sized buffer gives back room: over 4,096 entries, under a quarter used for 64 steps in a row. */
export class Slack {
  private idle = 0;

  /** Called once a step with the entries used and the room; true when the room should shrink. */
  due(used: number, room: number): boolean {
    if (room <= 4096 || used * 4 >= room) {
      this.idle = 0;
      return false;
    }
    if (++this.idle < 64) return false;
    this.idle = 0;
    return true;
  }
}
