import type { IndexerStateInfo, Store } from '@explorer/core';
import { chainIdentity, iso } from './mappers.js';
import { readMempoolState, recentBlockFloors } from './queries/mempool-state.js';
import { blockHashesAt, readIndexerState } from './queries/state.js';
import type { Sql } from './sql.js';

/** Age past which a sync's progress report counts as left behind: many report intervals (5 s), and batches. */
const STALE_PROGRESS_MS = 120_000;

/** The Store's reads of the index's own state: tips, the indexer, the mempool watcher. createSqlStore includes these. */
export function stateStoreMethods(
  sql: Sql,
): Pick<Store, 'tip' | 'blockHashAt' | 'ping' | 'mempoolState' | 'recentBlockFloors' | 'indexerState'> {
  return {
    async tip() {
      const [r] = await sql.query<{
        tip_height: number;
        tip_hash: string | null;
        tx_tip_height: number;
        time: number | null;
      }>(
        `SELECT s.tip_height, s.tip_hash, s.tx_tip_height, b.time
         FROM indexer_state s LEFT JOIN blocks b ON b.height = s.tip_height WHERE s.id = 1`,
        [],
        'state.tip',
      );
      return {
        height: r?.tip_height ?? -1,
        hash: r?.tip_hash ?? null,
        txHeight: r?.tx_tip_height ?? -1,
        time: r?.time ?? null,
      };
    },
    async blockHashAt(height) {
      return (await blockHashesAt(sql, [height])).get(height) ?? null;
    },
    async ping() {
      await sql.query('SELECT 1', [], 'state.ping');
    },
    mempoolState: () => readMempoolState(sql),
    recentBlockFloors: (blocks) => recentBlockFloors(sql, blocks),
    async indexerState(): Promise<IndexerStateInfo> {
      const s = await readIndexerState(sql);
      return {
        state: s.status,
        error: s.error,
        tipHeight: s.tip_height,
        tipHash: s.tip_hash,
        txTipHeight: s.tx_tip_height,
        nodeHeight: s.node_height,
        reorgs: s.reorgs,
        lastReorgDepth: s.last_reorg_depth,
        lastReorgAt: iso(s.last_reorg_at),
        updatedAt: iso(s.updated_at) ?? new Date(0).toISOString(),
        chain: chainIdentity(s.chain),
        // A report left by a sync that is no longer running is not shown: the state moved on, or the report
        // is older than any running sync lets it get (a killed indexer leaves its row saying `syncing`).
        progress:
          s.status === 'syncing' &&
          s.sync_progress &&
          Date.now() - Date.parse(s.sync_progress.updatedAt) <= STALE_PROGRESS_MS
            ? s.sync_progress
            : null,
      };
    },
  };
}
