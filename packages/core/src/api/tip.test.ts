import { describe, expect, it } from 'vitest';
import type { TipInfo } from '../store.js';
import { createTipReader } from './tip.js';

describe('createTipReader', () => {
  it('reads once per ttl for concurrent requests, and falls back to the last tip when a read fails', async () => {
    const tip = (height: number): TipInfo => ({ height, hash: 'ab', txHeight: height, time: 1 });
    let reads = 0;
    let fail = false;
    const read = createTipReader(
      {
        tip: async () => {
          reads++;
          if (fail) throw new Error('down');
          return tip(reads);
        },
      },
      250,
    );
    expect(await Promise.all([read(0), read(0)])).toEqual([tip(1), tip(1)]);
    expect(await read(249)).toEqual(tip(1));
    expect(await read(250)).toEqual(tip(2));
    fail = true;
    expect(await read(600)).toEqual(tip(2));
    expect(reads).toBe(3);

    const never = createTipReader({ tip: () => Promise.reject(new Error('down')) }, 250);
    expect(await never(0)).toBeNull();
  });
});
