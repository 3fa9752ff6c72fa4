/** A FIFO of ids in a ring buffer that grows by doubling (no allocation once warm). */
export class IdQueue {
  private data = new Int32Array(64);
  private head = 0;
  count = 0;

  push(id: number): void {
    if (this.count === this.data.length) this.grow();
    this.data[(this.head + this.count) & (this.data.length - 1)] = id;
    this.count++;
  }

  shift(): number {
    const id = this.data[this.head];
    this.head = (this.head + 1) & (this.data.length - 1);
    this.count--;
    return id;
  }

  /** The id `i` places from the front. */
  at(i: number): number {
    return this.data[(this.head + i) & (this.data.length - 1)];
  }

  clear(): void {
    this.head = 0;
    this.count = 0;
  }

  private grow(): void {
    const bigger = new Int32Array(this.data.length * 2);
    for (let i = 0; i < this.count; i++) bigger[i] = this.at(i);
    this.data = bigger;
    this.head = 0;
  }
}
