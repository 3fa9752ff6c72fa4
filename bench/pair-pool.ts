/**
 * The pairs an incremental broadphase keeps between frames (planck's contact list, the pairs
 * of Rapier's started and stopped events): a dense pool, pair c joining items ca[c] < cb[c],
 * with per-item edge lists to find a pair by its items. Edges 2c and 2c+1 are pair c's in
 * ca's and in cb's list.
 */
export class PairPool {
  count = 0;
  ca: Int32Array = new Int32Array(1024);
  cb: Int32Array = new Int32Array(1024);
  private next: Int32Array = new Int32Array(2048);
  private prev: Int32Array = new Int32Array(2048);
  private head: Int32Array;

  constructor(items: number) {
    this.head = new Int32Array(items).fill(-1);
  }

  /** The pair joining a < b, or -1. */
  find(a: number, b: number): number {
    for (let e = this.head[a]; e !== -1; e = this.next[e]) {
      if ((e & 1) === 0 ? this.cb[e >> 1] === b : this.ca[e >> 1] === b) return e >> 1;
    }
    return -1;
  }

  /** Adds the pair a < b (not already in). */
  add(a: number, b: number): void {
    if (this.count === this.ca.length) this.grow();
    const c = this.count++;
    this.ca[c] = a;
    this.cb[c] = b;
    this.link(2 * c, a);
    this.link(2 * c + 1, b);
  }

  /** Removes pair c by moving the last pair into its slot. */
  remove(c: number): void {
    this.unlink(2 * c, this.ca[c]);
    this.unlink(2 * c + 1, this.cb[c]);
    const last = --this.count;
    if (c === last) return;
    const a = this.ca[last],
      b = this.cb[last];
    this.unlink(2 * last, a);
    this.unlink(2 * last + 1, b);
    this.ca[c] = a;
    this.cb[c] = b;
    this.link(2 * c, a);
    this.link(2 * c + 1, b);
  }

  private link(e: number, item: number): void {
    const h = this.head[item];
    this.next[e] = h;
    this.prev[e] = -1;
    if (h !== -1) this.prev[h] = e;
    this.head[item] = e;
  }

  private unlink(e: number, item: number): void {
    const p = this.prev[e],
      n = this.next[e];
    if (p === -1) this.head[item] = n;
    else this.next[p] = n;
    if (n !== -1) this.prev[n] = p;
  }

  private grow(): void {
    const size = this.ca.length * 2;
    this.ca = copy(this.ca, size);
    this.cb = copy(this.cb, size);
    this.next = copy(this.next, 2 * size);
    this.prev = copy(this.prev, 2 * size);
  }
}

function copy(a: Int32Array, size: number): Int32Array {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}
