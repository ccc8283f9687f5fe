import { aggregateTable } from './aggregate.js';

/** A batch's blocks of one pool. */
export interface PoolStatsRow {
  poolId: string;
  blocks: number;
  reward: bigint;
  firstHeight: number;
  lastHeight: number;
}

/** Per-pool totals over every block (attributed to `unknown` when no pool matches). */
export const poolStats = aggregateTable<'poolStats', PoolStatsRow>({
  key: 'poolStats',
  table: 'pool_stats',
  columns: {
    poolId: { type: 'text', merge: 'key', from: 'b.pool_id' },
    blocks: { type: 'int4', merge: 'add', from: 'count(*)::int4' },
    reward: { type: 'int8', merge: 'add', from: 'sum(b.reward)::int8' },
    firstHeight: { type: 'int4', merge: 'min', from: 'min(b.height)' },
    lastHeight: { type: 'int4', merge: 'max', from: 'max(b.height)' },
  },
  source: { from: 'blocks b', height: 'b.height' },
  rollback: { subtract: 'blocks' },
  check: 'pool totals equal a recomputation from blocks',
});
