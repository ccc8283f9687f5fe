import { createHash } from 'node:crypto';
import { type Check, DERIVED_TABLES } from '../derived/index.js';
import type { Sql } from '../sql.js';

// Each check returns rows only when something is wrong, so the list reads as the set of invariants: those of
// each derived table, and the tip's, which belongs to no table.
const CHECKS: readonly Check[] = [
  ...DERIVED_TABLES.flatMap((t) => t.checks),
  {
    name: 'the indexer tip is the highest block',
    sql: `SELECT s.tip_height, s.tip_hash FROM indexer_state s
          LEFT JOIN blocks b ON b.height = (SELECT max(height) FROM blocks)
          WHERE s.tip_height <> COALESCE(b.height, -1) OR s.tip_hash IS DISTINCT FROM b.hash OR s.tx_tip_height <> s.tip_height`,
  },
];

/** One broken invariant, with a few offending rows. */
export interface InvariantViolation {
  invariant: string;
  rows: unknown[];
}

/**
 * Checks every invariant of the index (balances, supply, spends, totals, rollups, tip). An empty result means
 * the database is internally consistent. Cost grows with the chain: for tests and `explorer-server check`.
 */
export async function checkInvariants(sql: Sql): Promise<InvariantViolation[]> {
  const out: InvariantViolation[] = [];
  for (const c of CHECKS) {
    const rows = await sql.query(c.sql, [], `check.${c.name.slice(0, 40)}`);
    if (rows.length > 0) out.push({ invariant: c.name, rows });
  }
  return out;
}

// Columns that record when or how often something happened, not what the chain is.
const VOLATILE: Record<string, string[]> = {
  indexer_state: [
    'status',
    'error',
    'node_height',
    'reorgs',
    'last_reorg_depth',
    'last_reorg_at',
    'started_at',
    'updated_at',
    'sync_progress',
    'definitions_source',
  ],
};

const TABLES: Record<string, { order: string; query?: string }> = {
  ...Object.fromEntries(DERIVED_TABLES.flatMap((t) => (t.dump ? [[t.dump.table, t.dump]] : []))),
  pools: { order: 'id' },
  known_labels: { order: 'address' },
  indexer_state: { order: 'id' },
};

/**
 * A canonical digest of every chain table (row order fixed, volatile columns left out): two databases with
 * equal dumps hold the same index. Returns per-table row counts and digests.
 */
export async function canonicalDump(sql: Sql): Promise<Record<string, { rows: number; digest: string }>> {
  const out: Record<string, { rows: number; digest: string }> = {};
  for (const [table, { order, query }] of Object.entries(TABLES)) {
    const rows = await sql.query<Record<string, unknown>>(
      `${query ?? `SELECT * FROM ${table}`} ORDER BY ${order}`,
      [],
      `dump.${table}`,
    );
    const hash = createHash('sha256');
    const skip = new Set(VOLATILE[table] ?? []);
    for (const r of rows) {
      const clean: Record<string, unknown> = {};
      for (const k of Object.keys(r).sort()) {
        if (skip.has(k)) continue;
        const v = r[k];
        clean[k] = v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v;
      }
      hash.update(JSON.stringify(clean));
      hash.update('\n');
    }
    out[table] = { rows: rows.length, digest: hash.digest('hex') };
  }
  return out;
}
