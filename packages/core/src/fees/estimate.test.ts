import { describe, expect, it } from 'vitest';
import { FeeEstimatesSchema } from '../schemas/events.js';
import { blocksWithin, estimateFees, type FeeEstimateInput, type FeeTx } from './estimate.js';

const at = Date.UTC(2026, 10, 23, 12, 0, 0);
/** A tx paying `rate` per vbyte over `vsize` vbytes. */
const tx = (rate: number, vsize: number): FeeTx => ({ fee: Math.round(rate * vsize), vsize });
const base: FeeEstimateInput = {
  txs: [],
  recentFloors: [],
  minRelayRate: 1,
  blockVsize: 1_000_000,
  blockSeconds: 600,
  at,
};

describe('estimateFees', () => {
  it('answers the floor for every target when the mempool does not fill one block', () => {
    const fees = estimateFees({
      ...base,
      txs: [tx(5, 200), tx(2, 150), { fee: 1234, vsize: 250 }],
      recentFloors: [1.5, 3, 2],
      blockVsize: 1000,
    });
    // Floors sorted 1.5, 2, 3: the median is 2, above the relay minimum of 1.
    expect(fees).toEqual({
      nextBlock: 2,
      halfHour: 2,
      hour: 2,
      economy: 2,
      minimum: 1,
      blockTargets: { halfHour: 3, hour: 6 },
      basis: {
        mempoolRead: true,
        mempoolTxs: 3,
        mempoolVsize: 600,
        blockVsize: 1000,
        blockSeconds: 600,
        projectedBlocks: 1,
        recentBlocks: 3,
        recentFloor: 2,
      },
      updatedAt: '2026-11-23T12:00:00.000Z',
    });
    expect(FeeEstimatesSchema.safeParse(fees).success).toBe(true);
  });

  it('takes the lowest rate of projected blocks 1, ⌈1800/I⌉ and ⌈3600/I⌉ when the mempool fills them', () => {
    // Ten txs of 250 vB at 50, 40, 30, 25, 20, 15, 10, 8, 6, 4 per vB, in blocks of 500 vB (600 s a block:
    // targets 1, 3 and 6 blocks). Running totals: 250 500 | 750 1000 | 1250 1500 | 1750 2000 | 2250 2500.
    // Block 1 ends at vbyte 500 (the 40), block 3 at 1500 (the 15); block 6 would end at 3000, past 2500.
    const rates = [4, 30, 50, 10, 25, 6, 40, 20, 15, 8];
    const fees = estimateFees({
      ...base,
      txs: rates.map((r) => tx(r, 250)),
      recentFloors: [3, 5],
      blockVsize: 500,
    });
    // Floors 3 and 5: the median of an even count is the mean of the middle two, 4.
    expect(fees).toMatchObject({ nextBlock: 40, halfHour: 15, hour: 4, economy: 4, minimum: 1 });
    expect(fees.basis).toMatchObject({ mempoolVsize: 2500, projectedBlocks: 5, recentFloor: 4 });

    // Recent blocks that included nothing below 20: no target goes under that floor.
    const high = estimateFees({
      ...base,
      txs: rates.map((r) => tx(r, 250)),
      recentFloors: [22, 18, 20],
      blockVsize: 500,
    });
    expect(high).toMatchObject({ nextBlock: 40, halfHour: 20, hour: 20, economy: 20 });
  });

  it('counts a transaction that straddles a boundary in the block it ends the fill of; ties in any order', () => {
    // 100 vB blocks; X pays 5 over 250 vB, Y 5 over 10 vB, Z 3 over 100 vB. Sorted: X and Y (a tie), then Z.
    // Vbyte 100 falls in the 5s; vbyte 300 (block 3) falls in Z (X and Y end at 260); vbyte 600 (block 6) is
    // past the 360 the mempool holds: the floor, here the relay minimum.
    const X = tx(5, 250);
    const Y = tx(5, 10);
    const Z = tx(3, 100);
    const orders = [
      [X, Y, Z],
      [Y, X, Z],
      [Z, Y, X],
      [Z, X, Y],
    ];
    const answers = orders.map((txs) => estimateFees({ ...base, txs, blockVsize: 100 }));
    for (const a of answers) {
      expect(a).toMatchObject({ nextBlock: 5, halfHour: 3, hour: 1, economy: 1 });
      expect(a).toEqual(answers[0]);
    }
    // A boundary exactly at the end of a transaction belongs to it: vbyte 260 is Y's (or X's) last.
    expect(estimateFees({ ...base, txs: [X, Y, Z], blockVsize: 260 }).nextBlock).toBe(5);
    expect(estimateFees({ ...base, txs: [X, Y, Z], blockVsize: 261 }).nextBlock).toBe(3);
  });

  it('rounds every rate up to 0.001, exactly', () => {
    // 1001 / 3 = 333.666…, 1 / 3 = 0.333…, 2 / 4 = 0.5 stays.
    const one = (t: FeeTx) =>
      estimateFees({ ...base, txs: [t], blockVsize: t.vsize, minRelayRate: 0 }).nextBlock;
    expect(one({ fee: 1001, vsize: 3 })).toBe(333.667);
    expect(one({ fee: 1, vsize: 3 })).toBe(0.334);
    expect(one({ fee: 2, vsize: 4 })).toBe(0.5);
    expect(one({ fee: 7, vsize: 7 })).toBe(1);
    // Floors arrive rounded already; an even count's mean rounds up.
    expect(estimateFees({ ...base, recentFloors: [1.001, 1.002], minRelayRate: 0 }).economy).toBe(1.002);
    expect(estimateFees({ ...base, recentFloors: [1.1, 1.2] }).economy).toBe(1.15);
  });

  it('never goes below the relay minimum; assumes 1 when the node reports none; none of nothing', () => {
    expect(estimateFees({ ...base, recentFloors: [0.2, 0.5, 0.4] })).toMatchObject({
      economy: 1,
      minimum: 1,
      nextBlock: 1,
    });
    expect(estimateFees({ ...base, minRelayRate: null }).minimum).toBe(1);
    expect(estimateFees({ ...base, minRelayRate: 2.5 }).economy).toBe(2.5);
    const empty = estimateFees({ ...base, mempoolRead: false });
    expect(empty.basis).toMatchObject({
      mempoolRead: false,
      mempoolTxs: 0,
      projectedBlocks: 0,
      recentBlocks: 0,
      recentFloor: null,
    });
  });

  it('answers the worked example of docs/fees.md', () => {
    // One transaction per rate group; the answer depends only on how many vbytes pay each rate.
    const groups: [number, number][] = [
      [60, 400_000],
      [25.5, 900_000],
      [12, 3_000_000],
      [8, 5_500_000],
      [4.25, 2_000_000],
      [2, 3_000_000],
    ];
    const input = {
      ...base,
      txs: groups.map(([rate, vsize]) => tx(rate, vsize)),
      recentFloors: [1, 1.25, 2.105, 1.5, 3, 1.875, 1, 2.5],
      minRelayRate: null,
    };
    const pearl = estimateFees({ ...input, blockSeconds: 194 });
    expect(pearl).toMatchObject({
      nextBlock: 25.5,
      halfHour: 4.25,
      hour: 1.688,
      economy: 1.688,
      minimum: 1,
      blockTargets: { halfHour: 10, hour: 19 },
    });
    expect(pearl.basis).toMatchObject({ projectedBlocks: 15, recentBlocks: 8, recentFloor: 1.688 });
    expect(estimateFees({ ...input, blockSeconds: 600 })).toMatchObject({
      nextBlock: 25.5,
      halfHour: 12,
      hour: 8,
    });
  });

  it('turns ~30 min and ~1 h into blocks from the chain’s interval', () => {
    expect([blocksWithin(1800, 194), blocksWithin(3600, 194)]).toEqual([10, 19]); // Pearl
    expect([blocksWithin(1800, 600), blocksWithin(3600, 600)]).toEqual([3, 6]); // Bitcoin
    expect([blocksWithin(1800, 150), blocksWithin(3600, 150)]).toEqual([12, 24]); // Litecoin
    expect(blocksWithin(1800, 7200)).toBe(1);
    expect(estimateFees({ ...base, blockSeconds: 194 }).blockTargets).toEqual({ halfHour: 10, hour: 19 });
  });

  it('answers rates that never rise from next block to economy', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 200; round++) {
      const txs = Array.from({ length: Math.floor(rand() * 60) }, () => ({
        fee: Math.floor(rand() * 20_000),
        vsize: 60 + Math.floor(rand() * 900),
      }));
      const f = estimateFees({
        ...base,
        txs,
        recentFloors: Array.from(
          { length: Math.floor(rand() * 6) },
          () => Math.floor(rand() * 30_000) / 1000,
        ),
        minRelayRate: rand() < 0.3 ? null : rand() * 3,
        blockVsize: 500 + Math.floor(rand() * 4000),
        blockSeconds: 60 + Math.floor(rand() * 900),
      });
      expect(f.nextBlock).toBeGreaterThanOrEqual(f.halfHour);
      expect(f.halfHour).toBeGreaterThanOrEqual(f.hour);
      expect(f.hour).toBeGreaterThanOrEqual(f.economy);
      expect(f.economy).toBeGreaterThanOrEqual(f.minimum);
      expect(FeeEstimatesSchema.safeParse(f).success).toBe(true);
    }
  });
});
