import type { SyncProgress } from '@explorer/core';
import { dailyPoolBlocks } from '../derived/daily-pool-blocks.js';
import { poolStats } from '../derived/pool-stats.js';
import type { Sql } from '../sql.js';
import { firstTxNoOf } from '../tx-no.js';
import { bulkInsert } from './bulk.js';

/** The indexer's row as stored. */
export interface IndexerStateRow {
  tip_height: number;
  tip_hash: string | null;
  tx_tip_height: number;
  node_height: number | null;
  status: string;
  error: string | null;
  definitions_hash: string | null;
  reorgs: number;
  last_reorg_depth: number | null;
  last_reorg_at: Date | string | null;
  started_at: Date | string | null;
  updated_at: Date | string;
  /** The chain the database holds (profile, network, genesis, units…), as the indexer recorded it. */
  chain: Record<string, unknown> | null;
  /** The last progress report of the sync running now; cleared by any other status. */
  sync_progress: SyncProgress | null;
  /** Where the stored pool and label definitions came from, and when they were loaded. */
  definitions_source: DefinitionSources | null;
}

/** Reads the indexer's state row. */
export async function readIndexerState(sql: Sql): Promise<IndexerStateRow> {
  const [row] = await sql.query<IndexerStateRow>(
    'SELECT * FROM indexer_state WHERE id = 1',
    [],
    'state.read',
  );
  if (!row) throw new Error('indexer_state has no row: the schema was not migrated');
  return row;
}

/**
 * Records what the indexer is doing, for /v1/status in any process. Any status but `syncing` clears the
 * sync's progress: it belongs to a sync that is over.
 */
export async function writeIndexerStatus(
  sql: Sql,
  s: { status: string; error?: string | null; nodeHeight?: number | null; started?: boolean },
): Promise<void> {
  await sql.query(
    `UPDATE indexer_state SET status = $1, error = $2, node_height = COALESCE($3, node_height),
       started_at = CASE WHEN $4 THEN now() ELSE started_at END,
       sync_progress = CASE WHEN $1 = 'syncing' THEN sync_progress END, updated_at = now() WHERE id = 1`,
    [s.status, s.error ?? null, s.nodeHeight ?? null, s.started === true],
    'state.write-status',
  );
}

/** Records a sync's latest progress report (null when the sync is over), for /v1/status in any process. */
export async function writeSyncProgress(sql: Sql, progress: SyncProgress | null): Promise<void> {
  await sql.query(
    'UPDATE indexer_state SET sync_progress = $1::json WHERE id = 1',
    [progress === null ? null : JSON.stringify(progress)],
    'state.write-progress',
  );
}

/** Records the chain the database holds; the indexer writes it before the first block. */
export async function writeChainInfo(sql: Sql, chain: Record<string, unknown>): Promise<void> {
  await sql.query(
    'UPDATE indexer_state SET chain = $1::json, updated_at = now() WHERE id = 1',
    [JSON.stringify(chain)],
    'state.write-chain',
  );
}

/** Hashes of the indexed blocks at the given heights (for finding a fork point). */
export async function blockHashesAt(sql: Sql, heights: number[]): Promise<Map<number, string>> {
  const rows = await sql.query<{ height: number; hash: string }>(
    'SELECT height, hash FROM blocks WHERE height = ANY($1::int4[])',
    [heights],
    'state.block-hashes',
  );
  return new Map(rows.map((r) => [r.height, r.hash]));
}

/** A pool definition row. */
export interface PoolRow {
  id: string;
  sourceId: number | null;
  name: string;
  link: string | null;
  tags: string[];
  addresses: string[];
}

/** A known label row. */
export interface LabelRow {
  address: string;
  label: string;
  kind: string;
  poolId: string | null;
}

/** Where one kind of definitions (pools or labels) came from. */
export interface DefinitionSource {
  /** What they were read from (a file path); null when a program gave them without saying. */
  source: string | null;
  /** When they were loaded into this database (ISO 8601); null for definitions stored before this was kept. */
  loadedAt: string | null;
  count: number;
  /** A digest of their content: a file whose digest differs is loaded again. */
  digest: string | null;
}

/** Where the stored pool and label definitions came from; a kind is null while none were ever stored. */
export interface DefinitionSources {
  pools: DefinitionSource | null;
  labels: DefinitionSource | null;
}

/** The definitions stored with the index. */
export interface StoredDefinitions {
  /** In the order they were given (the first matching pool wins). */
  pools: PoolRow[];
  labels: LabelRow[];
  /** The attribution digest the stored blocks were attributed with; null before definitions were first stored. */
  hash: string | null;
  sources: DefinitionSources | null;
}

/** Reads the pool and label definitions stored with the index, pools in their given order. */
export async function readStoredDefinitions(sql: Sql): Promise<StoredDefinitions> {
  const pools = await sql.query<{
    id: string;
    source_id: number | null;
    name: string;
    link: string | null;
    tags: string[];
    addresses: string[];
  }>(
    'SELECT id, source_id, name, link, tags, addresses FROM pools ORDER BY position NULLS LAST, id',
    [],
    'definitions.read-pools',
  );
  const labels = await sql.query<{ address: string; label: string; kind: string; pool_id: string | null }>(
    'SELECT address, label, kind, pool_id FROM known_labels ORDER BY address',
    [],
    'definitions.read-labels',
  );
  const state = await readIndexerState(sql);
  return {
    pools: pools.map((p) => ({
      id: p.id,
      sourceId: p.source_id,
      name: p.name,
      link: p.link,
      tags: p.tags,
      addresses: p.addresses,
    })),
    labels: labels.map((l) => ({ address: l.address, label: l.label, kind: l.kind, poolId: l.pool_id })),
    hash: state.definitions_hash,
    sources: state.definitions_source,
  };
}

/** Replaces the stored pool definitions and labels with the given ones, recording where they came from. */
export async function replaceDefinitions(
  tx: Sql,
  pools: PoolRow[],
  labels: LabelRow[],
  hash: string,
  sources: DefinitionSources | null = null,
): Promise<void> {
  await tx.query('DELETE FROM pools', [], 'definitions.clear-pools');
  await tx.query('DELETE FROM known_labels', [], 'definitions.clear-labels');
  // text[] columns cannot ride inside unnest of a 2-D array, so pools go one statement each (dozens of rows).
  for (const [position, p] of pools.entries()) {
    await tx.query(
      'INSERT INTO pools (id, source_id, name, link, tags, addresses, position) VALUES ($1, $2, $3, $4, $5::text[], $6::text[], $7)',
      [p.id, p.sourceId, p.name, p.link, p.tags, p.addresses, position],
      'definitions.insert-pool',
    );
  }
  const seen = new Set<string>();
  const unique = labels.filter((l) => !seen.has(l.address) && seen.add(l.address));
  await bulkInsert(
    tx,
    'definitions.insert-labels',
    'known_labels',
    [
      ['address', 'text'],
      ['label', 'text'],
      ['kind', 'text'],
      ['pool_id', 'text'],
    ],
    unique.map((l) => [l.address, l.label, l.kind, l.poolId]),
  );
  await tx.query(
    'UPDATE indexer_state SET definitions_hash = $1, definitions_source = $2::json WHERE id = 1',
    [hash, sources === null ? null : JSON.stringify(sources)],
    'definitions.set-hash',
  );
}

/**
 * Re-applies pool attribution to every indexed block and rebuilds the per-pool totals and daily rollups
 * from the blocks: what a changed pool list needs, without re-indexing transactions.
 * Returns the number of blocks whose pool changed.
 */
export async function reattributePools(
  tx: Sql,
  attribute: (coinbaseHex: string, payouts: string[]) => string,
): Promise<number> {
  let changed = 0;
  const step = 5_000;
  const [range] = await tx.query<{ lo: number | null; hi: number | null }>(
    'SELECT min(height) AS lo, max(height) AS hi FROM blocks',
    [],
    'reattribute.range',
  );
  if (range?.lo == null || range.hi == null) return 0;
  for (let from = range.lo; from <= range.hi; from += step) {
    const rows = await tx.query<{
      height: number;
      coinbase_hex: string;
      pool_id: string;
      payouts: string[] | null;
    }>(
      `SELECT b.height, b.coinbase_hex, b.pool_id,
              array_agg(a.address ORDER BY o.vout) FILTER (WHERE a.address IS NOT NULL) AS payouts
       FROM blocks b LEFT JOIN outputs o ON o.tx_no = ${firstTxNoOf('b.height')}
       LEFT JOIN addresses a ON a.id = o.address_id
       WHERE b.height >= $1 AND b.height < $2 GROUP BY b.height`,
      [from, from + step],
      'reattribute.read',
    );
    const updates = rows
      .map((r) => ({ height: r.height, old: r.pool_id, pool: attribute(r.coinbase_hex, r.payouts ?? []) }))
      .filter((u) => u.pool !== u.old);
    if (updates.length > 0) {
      await tx.query(
        `UPDATE blocks b SET pool_id = u.pool FROM unnest($1::int4[], $2::text[]) AS u(height, pool) WHERE b.height = u.height`,
        [updates.map((u) => u.height), updates.map((u) => u.pool)],
        'reattribute.update',
      );
      changed += updates.length;
    }
  }
  if (changed > 0) {
    // The totals that depend on attribution, recomputed from the blocks as their descriptions say.
    await poolStats.rebuild(tx);
    await dailyPoolBlocks.rebuild(tx);
  }
  return changed;
}
