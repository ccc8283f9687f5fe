import type { ChainEvent } from '@explorer/client';
import { blockEvents } from '@explorer/testing';
import { describe, expect, it } from 'vitest';
import { eventLines } from './event-lines.js';

const h = (c: string) => c.repeat(64);

describe('eventLines', () => {
  it('shows a reorg with its fork and the heights it removed', () => {
    const event: ChainEvent = {
      id: '9',
      type: 'reorg',
      at: '2026-01-01T00:00:00.000Z',
      data: {
        forkHeight: 1230,
        forkHash: h('a'),
        removed: [
          { height: 1231, hash: h('b') },
          { height: 1232, hash: h('c') },
        ],
        added: [{ height: 1231, hash: h('d') }],
      },
    };
    expect(eventLines(event, false)).toEqual([
      `reorg at 1230 aaaaaaaa…aaaaaaaa  2 blocks removed (1231–1232)  1 added`,
    ]);
  });

  it('shows a mempool change with its counts and fee rates', () => {
    const event: ChainEvent = {
      id: '10',
      type: 'mempool',
      at: '2026-01-01T00:00:00.000Z',
      data: {
        added: [h('e')],
        removed: [],
        addedCount: 1,
        removedCount: 0,
        count: 532,
        vsize: 123456,
        feeRateBuckets: [],
        fees: {
          nextBlock: 12.5,
          halfHour: 8,
          hour: 5,
          economy: 1,
          minimum: 1,
          blockTargets: { halfHour: 3, hour: 6 },
          basis: {
            mempoolRead: true,
            mempoolTxs: 532,
            mempoolVsize: 123456,
            blockVsize: 1000000,
            blockSeconds: 600,
            projectedBlocks: 1,
            recentBlocks: 6,
            recentFloor: 1,
          },
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
      },
    };
    expect(eventLines(event, false)).toEqual([
      'mempool +1 -0  532 txs  123456 vB  fee rate next 12.5  30m 8  1h 5  economy 1',
    ]);
  });

  it('shows amounts as base units with baseUnits, and one tx in the singular', () => {
    const event: ChainEvent = {
      id: '11',
      type: 'address',
      at: '2026-01-01T00:00:00.000Z',
      data: {
        confirmed: true,
        height: 77,
        blockHash: h('f'),
        activity: [
          {
            address: 'prl1qexampleaddress',
            txids: [h('1')],
            received: '5',
            sent: '0',
            balance: '12',
            mempoolDelta: null,
          },
        ],
      },
    };
    expect(eventLines(event, true)).toEqual([
      'address prl1qexampleaddress  block 77  1 tx  received 5  sent 0  balance 12',
    ]);
    const [block] = blockEvents(1);
    expect(
      eventLines({ ...block!, data: { ...(block!.data as object), txCount: 1 } } as ChainEvent, false)[0],
    ).toMatch(/^block 1 {2}\S+ {2}1 tx {2}pool Unknown {2}2026-01-01T00:01:00Z$/);
  });
});
