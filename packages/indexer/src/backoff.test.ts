import { describe, expect, it } from 'vitest';
import { backoffMs } from './backoff.js';

describe('backoffMs', () => {
  it('waits the first wait after one failure, doubling after each further one up to the longest', () => {
    const b = { firstMs: 100, maxMs: 1_000 };
    expect([0, 1, 2, 3, 4, 5, 60].map((f) => backoffMs(f, b))).toEqual([0, 100, 200, 400, 800, 1_000, 1_000]);
  });
});
