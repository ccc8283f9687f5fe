import { describe, expect, it } from 'vitest';
import { summarizeMempool } from './mempool.js';

describe('summarizeMempool', () => {
  it('reads the older `fee`/`size` entry format too', () => {
    const txid = (c: string) => c.repeat(64);
    const summary = summarizeMempool(
      { size: 3, usage: 4096, mempoolminfee: 0.00002 },
      {
        [txid('a')]: { size: 200, fee: 0.00002 }, // 10 per vbyte
        [txid('b')]: { vsize: 100, fees: { base: 0.000005, modified: 0.001 } }, // 5 per vbyte
        [txid('c')]: { size: 250, fee: 0.0005 }, // 200 per vbyte: the open bucket
      },
      0,
    );
    expect(summary).toMatchObject({ count: 3, bytes: 550, usage: 4096, totalFee: '52500', minFeeRate: 2 });
    expect(summary.sampleTxids).toEqual([txid('c'), txid('a'), txid('b')]);
    const nonEmpty = summary.feeRateBuckets.filter((b) => b.count > 0);
    expect(nonEmpty).toEqual([
      { minFeeRate: 5, maxFeeRate: 8, count: 1, vsize: 100 },
      { minFeeRate: 8, maxFeeRate: 12, count: 1, vsize: 200 },
      { minFeeRate: 200, maxFeeRate: null, count: 1, vsize: 250 },
    ]);
  });
});
