import { describe, expect, it } from 'vitest';
import { heightCandidates } from './search.js';

describe('heightCandidates', () => {
  it('completes a height from its leading digits, lowest first, up to the tip', () => {
    expect(heightCandidates('1', 120, 10)).toEqual([1, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
    expect(heightCandidates('12', 120, 10)).toEqual([12, 120]);
    expect(heightCandidates('12', 1300, 5)).toEqual([12, 120, 121, 122, 123]);
    expect(heightCandidates('0', 120, 10)).toEqual([0]);
  });

  it('suggests nothing for leading zeros, heights past the tip, non-digits or an empty chain', () => {
    expect(heightCandidates('07', 120, 10)).toEqual([]);
    expect(heightCandidates('999', 120, 10)).toEqual([]);
    expect(heightCandidates('1a', 120, 10)).toEqual([]);
    expect(heightCandidates('1', -1, 10)).toEqual([]);
  });
});
