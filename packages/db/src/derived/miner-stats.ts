import { aggregateTable } from './aggregate.js';

/** A batch's blocks of one miner (its first payout address). */
export interface MinerStatsRow {
  address: string;
  blocks: number;
  reward: bigint;
  firstHeight: number;
  lastHeight: number;
}

/** Per-miner totals over the blocks whose coinbase pays an address first. */
export const minerStats = aggregateTable<'minerStats', MinerStatsRow>({
  key: 'minerStats',
  table: 'miner_stats',
  columns: {
    address: { type: 'text', merge: 'key', from: 'b.miner_address' },
    blocks: { type: 'int4', merge: 'add', from: 'count(*)::int4' },
    reward: { type: 'int8', merge: 'add', from: 'sum(b.reward)::int8' },
    firstHeight: { type: 'int4', merge: 'min', from: 'min(b.height)' },
    lastHeight: { type: 'int4', merge: 'max', from: 'max(b.height)' },
  },
  source: { from: 'blocks b', where: 'b.miner_address IS NOT NULL', height: 'b.height' },
  rollback: { subtract: 'blocks' },
  check: 'miner totals equal a recomputation from blocks',
});
