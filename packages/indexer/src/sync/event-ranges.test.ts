import { describe, expect, it } from 'vitest';
import { eventRanges } from './event-ranges.js';

describe('eventRanges', () => {
  const at = (first: number, last: number, announceThrough: number | null = null) =>
    eventRanges({ first, last, nodeHeight: 1_000, liveWindow: 100, announceThrough });

  it('gives an initial sync’s blocks no events, and those within the live window of the tip all', () => {
    expect(at(0, 499)).toEqual([]);
    expect(at(850, 950)).toEqual([[901, 950]]);
    expect(at(990, 1_000)).toEqual([[990, 1_000]]);
  });

  it('gives the blocks a reorg event named their events however deep they are', () => {
    expect(at(100, 200, 150)).toEqual([[100, 150]]);
    // Named blocks and the live window apart: two ranges.
    expect(at(800, 950, 820)).toEqual([
      [800, 820],
      [901, 950],
    ]);
  });

  it('merges the two when they meet or overlap', () => {
    expect(at(800, 950, 900)).toEqual([[800, 950]]);
    expect(at(800, 950, 930)).toEqual([[800, 950]]);
  });
});
