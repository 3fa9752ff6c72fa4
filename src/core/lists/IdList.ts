import { fit } from '../grow.js';

/**
 * A growable list of ids (entity ids up to 2^32 - 1) in a typed array that doubles when full:
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
