import { aggregateTable } from './aggregate.js';

/** A batch's blocks of one pool on one day. */
export interface DailyPoolBlocksRow {
  day: number;
  poolId: string;
  blocks: number;
  reward: bigint;
}

/** Blocks and reward per pool and UTC day. */
export const dailyPoolBlocks = aggregateTable<'dailyPoolBlocks', DailyPoolBlocksRow>({
  key: 'dailyPoolBlocks',
  table: 'daily_pool_blocks',
  columns: {
    day: { type: 'int4', merge: 'key', from: 'b.day' },
    poolId: { type: 'text', merge: 'key', from: 'b.pool_id' },
    blocks: { type: 'int4', merge: 'add', from: 'count(*)::int4' },
    reward: { type: 'int8', merge: 'add', from: 'sum(b.reward)::int8' },
  },
  source: { from: 'blocks b', height: 'b.height' },
  rollback: { rebuild: 'day' },
  check: 'daily pool blocks equal a recomputation from blocks',
});
