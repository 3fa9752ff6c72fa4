import { describe, expect, it } from 'vitest';
import { IdQueue } from '../../src/core/pairs/IdQueue.js';

const room = (q: IdQueue): number => (q as unknown as { data: Int32Array }).data.length;

describe('id queues', () => {
  it('keep their ids in order through growth, and shrink after a burst to the power of two at half again the most they held', () => {
    const q = new IdQueue();
    // A world filled at once: every item queued in one step.
    for (let id = 0; id < 100_000; id++) q.push(id);
    for (let i = 0; i < 100_000; i++) expect(q.shift()).toBe(i);
    expect(room(q)).toBe(131_072);
    // Then 10,000 movers a step, queued and served.
    for (let step = 0; step < 70; step++) {
      q.trim();
      for (let id = 0; id < 10_000; id++) q.push(id);
      expect(q.at(9_999)).toBe(9_999);
      q.clear();
    }
    // The power of two at 15,000 or more: 16,384, where twice the peak took 32,768.
    expect(room(q)).toBe(16_384);
  });
});
