import { describe, expect, it } from 'vitest';
import type { KnownLabel, KnownPool } from '../schemas/search.js';
import { compareLabels, comparePools } from './labels.js';

const label = (label: string, address: string): KnownLabel => ({
  address,
  label,
  kind: 'exchange',
  poolId: null,
  poolName: null,
});
const pool = (name: string, id: string): KnownPool => ({ id, name, link: null, addresses: [], tags: [] });

describe('the order of /v1/known-addresses', () => {
  it('sorts labels case-insensitively, then exactly, then by address', () => {
    const sorted = [label('b', 'x'), label('B', 'y'), label('a', 'z'), label('B', 'a'), label('A', 'q')].sort(
      compareLabels,
    );
    expect(sorted.map((l) => `${l.label}:${l.address}`)).toEqual(['A:q', 'a:z', 'B:a', 'B:y', 'b:x']);
  });

  it('sorts pools case-insensitively by name, then exactly, then by id', () => {
    const sorted = [pool('zeta', 'z'), pool('Alpha', 'b'), pool('alpha', 'a'), pool('Alpha', 'a')].sort(
      comparePools,
    );
    expect(sorted.map((p) => `${p.name}:${p.id}`)).toEqual(['Alpha:a', 'Alpha:b', 'alpha:a', 'zeta:z']);
  });
});
