import { aggregateTable } from './aggregate.js';

/** A batch's blocks of one miner on one day. */
export interface DailyMinerBlocksRow {
  address: string;
  day: number;
  blocks: number;
}

/** Blocks per miner and UTC day. */
export const dailyMinerBlocks = aggregateTable<'dailyMinerBlocks', DailyMinerBlocksRow>({
  key: 'dailyMinerBlocks',
  table: 'daily_miner_blocks',
  columns: {
    address: { type: 'text', merge: 'key', from: 'b.miner_address' },
    day: { type: 'int4', merge: 'key', from: 'b.day' },
    blocks: { type: 'int4', merge: 'add', from: 'count(*)::int4' },
  },
  source: { from: 'blocks b', where: 'b.miner_address IS NOT NULL', height: 'b.height' },
  rollback: { rebuild: 'day' },
  check: 'daily miner blocks equal a recomputation from blocks',
});
