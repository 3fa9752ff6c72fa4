import { fit } from '../grow.js';
import { writeBox } from './SlotPool.js';

/** Offsets of the four boxes in a swept item's entry (see SweptStore.boxes). */
export const FROM = 0;
export const TO = 4;
export const LAST_FROM = 8;
export const LAST_TO = 12;
const STRIDE = 16;

/**
 * Swept items' paths, densely indexed so only they cost memory: `from` (where the last step left it), `to` (now) and
 * the last tested path, for time of impact. The slot's box covers `from` and `to`: only exact tests and queries read.
 */
export class SweptStore {
  /** Entry of each id, or -1. */
  entryOf: Int32Array = new Int32Array(0);
  ids: Int32Array = new Int32Array(16);
  count = 0;
  /** Per entry, four float32 boxes (minX, minY, maxX, maxY) at FROM, TO, LAST_FROM, LAST_TO. */
  boxes: Float32Array = new Float32Array(16 * STRIDE);

  has(id: number): boolean {
    return id < this.entryOf.length && this.entryOf[id] >= 0;
  }

  /** Offset of the id's entry in {@link boxes}. */
  at(id: number): number {
    return this.entryOf[id] * STRIDE;
  }

  /** Starts a path for `id` at the box (all four boxes set to it). */
  add(id: number, minX: number, minY: number, maxX: number, maxY: number): void {
    if (id >= this.entryOf.length) this.entryOf = fit(this.entryOf, id + 1, -1);
    if (this.count === this.ids.length) this.ids = fit(this.ids, this.count + 1);
    this.boxes = fit(this.boxes, (this.count + 1) * STRIDE);
    const e = this.count++;
    this.entryOf[id] = e;
    this.ids[e] = id;
    const b = this.boxes;
    for (let o = e * STRIDE; o < (e + 1) * STRIDE; o += 4) {
      b[o] = minX;
      b[o + 1] = minY;
      b[o + 2] = maxX;
      b[o + 3] = maxY;
    }
  }

  /** Starts the id's path again where it ends now; the last step's path stays. */
  restart(id: number): void {
    const o = this.at(id);
    this.boxes.copyWithin(o + FROM, o + TO, o + TO + 4);
  }

  /** Ends the id's path: the last entry moves into its place. */
  remove(id: number): void {
    const e = this.entryOf[id];
    const last = --this.count;
    if (e !== last) {
      const moved = this.ids[last];
      this.ids[e] = moved;
      this.entryOf[moved] = e;
      this.boxes.copyWithin(e * STRIDE, last * STRIDE, (last + 1) * STRIDE);
    }
    this.entryOf[id] = -1;
  }

  /** Sets the id's `to` box; returns false when it is so already. */
  setTo(id: number, minX: number, minY: number, maxX: number, maxY: number): boolean {
    return writeBox(this.boxes, this.at(id) + TO, minX, minY, maxX, maxY);
  }

  /** True when the id's path has length (its `from` and `to` differ). */
  moving(id: number): boolean {
    const b = this.boxes;
    const o = this.at(id);
    return b[o] !== b[o + TO] || b[o + 1] !== b[o + TO + 1] || b[o + 2] !== b[o + TO + 2] || b[o + 3] !== b[o + TO + 3];
  }

  /** After a step tested the id's path: it becomes the last path, and the next starts where it ended. */
  advance(id: number): void {
    const b = this.boxes;
    const o = this.at(id);
    b.copyWithin(o + LAST_FROM, o + FROM, o + TO + 4);
    this.restart(id);
  }

  clear(): void {
    for (let e = 0; e < this.count; e++) this.entryOf[this.ids[e]] = -1;
    this.count = 0;
  }
}
