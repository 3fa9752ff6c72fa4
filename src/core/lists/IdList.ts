import { fit } from '../grow.js';
import { declareExtent } from '../snapshot/StatePlan.js';

/** A growable list of ids (up to 2^32 - 1) in a typed array that doubles when full. */
export class IdList {
  data: Uint32Array;
  count = 0;

  constructor(capacity = 64) {
    this.data = new Uint32Array(capacity);
    // Only the ids listed are state: a burst's leftover room need not be copied.
    declareExtent(this, 'data', () => this.count);
  }

  push(id: number): void {
    if (this.count === this.data.length) this.data = fit(this.data, this.count + 1);
    this.data[this.count++] = id;
  }

  clear(): void {
    this.count = 0;
  }
}
