import { Slack } from '../grow.js';

/** A FIFO of ids in a ring buffer that doubles when full and gives room back after a burst. */
export class IdQueue {
  private data = new Int32Array(64);
  private head = 0;
  count = 0;
  /** Most ids held at once since the last {@link trim}. */
  private peak = 0;
  private readonly slack = new Slack();

  push(id: number): void {
    if (this.count === this.data.length) this.relayout(this.data.length * 2);
    this.data[(this.head + this.count) & (this.data.length - 1)] = id;
    this.count++;
    if (this.count > this.peak) this.peak = this.count;
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

  /** Once a step: shrinks the ring when its peak stayed under a quarter of its room for a while (see Slack). */
  trim(): void {
    const peak = Math.max(this.peak, this.count);
    this.peak = this.count;
    if (!this.slack.due(peak, this.data.length)) return;
    let size = 64;
    while (size < peak + (peak >> 1)) size *= 2;
    this.relayout(size);
  }

  /** Moves the ids to a ring of `size` (a power of two, at least the count), front first. */
  private relayout(size: number): void {
    const next = new Int32Array(size);
    for (let i = 0; i < this.count; i++) next[i] = this.at(i);
    this.data = next;
    this.head = 0;
  }
}
